#!/usr/bin/python3
"""What placement warnings cost in an editor (not a test; bench/README.md).

    measure.py --placelint-clangd build/bin/placelint-clangd [options]

For each program (a libtorch training loop and a pl training program) it
opens the file in placelint-clangd and in stock clangd-19 at once, over LSP
as an editor does (--background-index=false for both), then makes --edits
edits, alternating between the two servers so that both see the same load:
each edit adds a comment line inside the file (the preamble, the #include
block, stays valid, as when typing in a function) and is timed from
didChange to the publishDiagnostics of that version, in wall time and in
the server's CPU time. It also times
`clang-tidy-19 --load=PLUGIN --checks=-*,placement-*` on the saved file
(--runs times), the way editors without placelint-clangd run the checks, and
the server's resident memory before opening the file and after its first
diagnostics. Medians are printed, then the ratios against the targets, and
for the pl program clangd's own `--check-tidy-time` of each placement check:

  re-check after an edit <= 0.1x the clang-tidy run
  the placement checks add <= 10% to clangd's own time per edit
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_DIR = HERE.parents[1]
sys.path.insert(0, str(SOURCE_DIR / "test/editor"))
sys.path.insert(0, str(SOURCE_DIR / "rules"))
import catalogue  # noqa: E402  (rules/catalogue.py: rules.def, the one source of truth)
from lsp import LanguageServer, Project  # noqa: E402  (test/editor/lsp.py)

CATALOGUE = catalogue.load()

RECHECK_TARGET = 0.1  # placelint-clangd's re-check / the clang-tidy run
OVERHEAD_TARGET = 0.10  # placelint-clangd's time per edit / clangd's, minus one


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Session:
    """One server with the program open."""

    def __init__(self, command, project, path, text, timeout):
        self.server = LanguageServer([*command, "--background-index=false"], project.root,
                                     project.environment())
        self.server.initialize()
        self.before_mib = resident_mib(self.server.process.pid)
        self.path, self.text, self.timeout = path, text, timeout
        started = time.monotonic()
        self.server.open(path, text, 1)
        self.diagnostics = self.server.diagnostics(path, 1, timeout)
        self.first_s = time.monotonic() - started
        self.after_mib = resident_mib(self.server.process.pid)
        self.edit_s = []
        self.edit_cpu_s = []
        self.version = 1

    def edit(self, line: int) -> None:
        lines = self.text.splitlines(keepends=True)
        lines.insert(line, f"// edit {self.version}\n")
        self.version += 1
        pid = self.server.process.pid
        started, cpu_before = time.monotonic(), cpu_seconds(pid)
        self.server.change(self.path, "".join(lines), self.version)
        self.server.diagnostics(self.path, self.version, self.timeout)
        self.edit_s.append(time.monotonic() - started)
        self.edit_cpu_s.append(cpu_seconds(pid) - cpu_before)

    def close(self):
        self.server.shutdown()


def first_line_after_includes(text: str) -> int:
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("#include"))
    return last + 1


def clang_tidy_seconds(args, path, flags, runs):
    times = []
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run([args.clang_tidy, f"--load={args.plugin}", f"--checks=-*,{CATALOGUE.check_glob}",
                        "--quiet", str(path), "--", *flags],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.monotonic() - started)
    return statistics.median(times)


def measure(args, name, program, flags, timeout, time_checks):
    text = (SOURCE_DIR / program).read_text()
    project = Project(args.compiler, flags)
    path = project.add(Path(program).name, text)
    print(f"\n== {name}: {program}", flush=True)
    sessions = {
        "placelint-clangd": Session([args.placelint_clangd], project, path, text, timeout),
        "clangd-19": Session([args.clangd], project, path, text, timeout),
    }
    # Lines inside the body, spread over the file below the #include block.
    first = first_line_after_includes(text)
    span = max(1, len(text.splitlines()) - first)
    for k in range(args.edits):
        for session in sessions.values():
            session.edit(first + (k * span) // args.edits)
    tidy_s = clang_tidy_seconds(args, path, flags, args.runs)
    wall, cpu = {}, {}
    for label, session in sessions.items():
        wall[label] = statistics.median(session.edit_s)
        cpu[label] = statistics.median(session.edit_cpu_s)
        print(f"{label:17} first diagnostics {session.first_s:6.2f} s   per edit: median "
              f"{wall[label]:.3f} s (min {min(session.edit_s):.3f}, max {max(session.edit_s):.3f}, "
              f"{len(session.edit_s)} edits), CPU {cpu[label]:.3f} s   memory "
              f"{session.before_mib:.0f} -> {session.after_mib:.0f} MiB "
              f"(+{session.after_mib - session.before_mib:.0f})")
        session.close()
    print(f"clang-tidy-19 --load (saved file): median of {args.runs} runs {tidy_s:.2f} s")
    recheck = wall["placelint-clangd"] / tidy_s
    print(f"re-check / clang-tidy run: {recheck:.3f} (target <= {RECHECK_TARGET}: "
          f"{'met' if recheck <= RECHECK_TARGET else 'MISSED'})")
    # CPU time is what the checks add; wall time also carries the load of
    # the machine, and clangd's debounce (up to 0.5 s before a rebuild).
    for what, times in (("CPU", cpu), ("wall", wall)):
        overhead = times["placelint-clangd"] / times["clangd-19"] - 1
        print(f"placement checks' share of an edit ({what}): {overhead:+.1%} of clangd's own "
              f"(target <= {OVERHEAD_TARGET:.0%}: "
              f"{'met' if overhead <= OVERHEAD_TARGET else 'MISSED'})")
    if time_checks:
        # clangd's own measure: each check alone against an AST build without
        # checks (it rebuilds the AST many times: minutes for a libtorch file).
        check_time = subprocess.run(
            [args.placelint_clangd, f"--check={path}", f"--check-tidy-time={CATALOGUE.check_glob}",
             "--check-lines=1-1"],
            cwd=project.root, env=project.environment(), capture_output=True, text=True).stderr
        for line in check_time.splitlines():
            if CATALOGUE.prefix in line and "%" in line:
                print("  clangd --check-tidy-time:", line.split("]", 1)[-1].strip())
    project.remove()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--placelint-clangd", required=True)
    parser.add_argument("--clangd", default="clangd-19")
    parser.add_argument("--clang-tidy", default="clang-tidy-19")
    parser.add_argument("--plugin", required=True, help="libPlacelintTidyPlugin.so")
    parser.add_argument("--compiler", default="clang++-19")
    parser.add_argument("--torch-include", default="/usr/include/torch/csrc/api/include")
    parser.add_argument("-I", dest="includes", action="append", default=[],
                        help="include directories of the pl program")
    parser.add_argument("--edits", type=int, default=9)
    parser.add_argument("--runs", type=int, default=3, help="clang-tidy runs per program")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    measure(args, "libtorch", "test/analyzer/integration/corpus/batch_to_device_discarded.cpp",
            ["-std=c++17", "-isystem", args.torch_include], timeout=900, time_checks=False)
    measure(args, "pl", "examples/training/training.cpp",
            ["-std=c++20", *(f"-I{d}" for d in args.includes)], timeout=300, time_checks=True)


if __name__ == "__main__":
    main()
