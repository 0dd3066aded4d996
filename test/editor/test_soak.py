#!/usr/bin/python3
"""placelint-clangd as a long-running server: one training file, many edits.

    test_soak.py --program pl|libtorch --edits N [--no-memory-check]

The server opens test/editor/inputs/soak_training_<program>.cpp and is sent
N whole-buffer edits at its `soak: edits here` line, in cycles of four, as
someone typing does: add a bug (a mixed-device operation or a discarded
transfer, in turn, with names new to each cycle), remove it, type half a
statement, undo it. After every edit its placement warnings must be the
`// expect:` markers of that text, no more and no fewer; after the half
statement, clang's errors and no placement warning (the analysis leaves a
unit that does not compile alone). The server must not die, and its
resident memory (VmRSS) at the last edits must be within 5% of what it
was at edit 20 (the highest reading of the ten edits before each): nothing may grow with edits (the analysis cache, map
keys, summaries). Prints per-edit time and the memory figures.

Under AddressSanitizer (--no-memory-check) resident memory grows by design
(freed memory waits in ASan's quarantine); LeakSanitizer checks for leaks
when the server exits instead.
"""

import argparse
import statistics
import sys
import time

from editor_setup import (COMPILER, PL_FLAGS, SOURCE_DIR, TORCH_API_INCLUDE, TORCH_FLAGS,
                          SKIPPED, errors, expected_findings, placement_findings,
                          require_clangd, start_server)
from lsp import Project

ANCHOR = "// soak: edits here\n"
# Memory is compared with what it was after this many edits (by then the
# server's caches have their working size). The server runs with
# --malloc-trim=false: clangd otherwise hands freed memory back to the
# system at most once a minute, so a reading would depend on when that
# last happened (it halves resident memory here); without it, resident
# memory is the heap's high-water mark, which grows only if something does.
# Each figure is the highest of the MEMORY_WINDOW edits up to it.
WARM_EDITS = 20
MEMORY_WINDOW = 10
MEMORY_TOLERANCE = 0.05
# The first diagnostics of a libtorch file wait for its preamble (20-40 s
# here, minutes on a loaded machine); an edit after that takes about 0.4 s.
FIRST_TIMEOUT = 900
EDIT_TIMEOUT = 300

# What each program's bugs and half statement are written with: a tensor on
# the device, a module, and the names of the host factory and cpu device.
PROGRAMS = {
    "pl": {"flags": PL_FLAGS, "ns": "pl", "on_device": "targets", "input": "inputs",
           "shape": "{32, 1}"},
    "libtorch": {"flags": TORCH_FLAGS, "ns": "torch", "on_device": "labels", "input": "images",
                 "shape": "{64}"},
}


def edits(base: str, program: dict, count: int):
    """(what, text) for each edit: the cycle of four, repeated."""
    ns, on_device, moved = program["ns"], program["on_device"], program["input"]
    indent = base[:base.index(ANCHOR)].rsplit("\n", 1)[1]
    insert_at = base.index(ANCHOR) + len(ANCHOR)

    def with_line(line: str) -> str:
        return base[:insert_at] + indent + line + "\n" + base[insert_at:]

    for k in range(count):
        cycle, step = divmod(k, 4)
        if step == 0 and cycle % 2 == 0:
            yield "add a mixed-device bug", with_line(
                f"{ns}::Tensor host_{cycle} = {ns}::ones({program['shape']}); "
                f"{ns}::Tensor mixed_{cycle} = {on_device} * host_{cycle}; "
                "// expect: placement-mixed-device")
        elif step == 0:
            yield "add a discarded transfer", with_line(
                f"{moved}.to({ns}::kCPU); // expect: placement-discarded-transfer")
        elif step == 2:
            yield "type half a statement", with_line(
                f"{ns}::Tensor partial_{cycle} = {moved}.to(")
        else:
            yield "remove it" if step == 1 else "undo", base


def resident_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS in /proc/{pid}/status")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", choices=sorted(PROGRAMS), required=True)
    parser.add_argument("--edits", type=int, required=True)
    parser.add_argument("--no-memory-check", action="store_true",
                        help="report resident memory without bounding it (sanitizer builds)")
    args = parser.parse_args()
    if args.edits < WARM_EDITS:
        parser.error(f"--edits: at least {WARM_EDITS}, the edit memory is compared with")
    require_clangd()
    if args.program == "libtorch" and not (TORCH_API_INCLUDE / "torch/torch.h").exists():
        print(f"skipped: no torch/torch.h under {TORCH_API_INCLUDE}")
        return SKIPPED

    program = PROGRAMS[args.program]
    name = f"soak_training_{args.program}.cpp"
    base = (SOURCE_DIR / "test/editor/inputs" / name).read_text()
    project = Project(COMPILER, program["flags"])
    path = project.add(name, base)
    server = start_server(project, "--malloc-trim=false")
    failures = []
    try:
        started = time.monotonic()
        server.open(path, base, 1)
        first = server.diagnostics(path, 1, FIRST_TIMEOUT)
        print(f"first diagnostics after {time.monotonic() - started:.1f} s", flush=True)
        if errors(first) or placement_findings(first) != expected_findings(base):
            failures.append(f"as written: expected the placement warnings "
                            f"{sorted(expected_findings(base))}, got {sorted(placement_findings(first))} "
                            f"and the errors {errors(first)}")
        pid = server.process.pid
        edit_seconds = []
        resident = []
        for version, (what, text) in enumerate(edits(base, program, args.edits), start=2):
            started = time.monotonic()
            server.change(path, text, version)
            diagnostics = server.diagnostics(path, version, EDIT_TIMEOUT)
            edit_seconds.append(time.monotonic() - started)
            found = placement_findings(diagnostics)
            if what == "type half a statement":
                wrong = not errors(diagnostics) or found
            else:
                wrong = errors(diagnostics) or found != expected_findings(text)
            if wrong:
                failures.append(f"edit {version - 1} ({what}): expected the placement warnings "
                                f"{sorted(expected_findings(text))}, got {sorted(found)} "
                                f"and the errors {errors(diagnostics)}")
            resident.append(resident_mib(pid))
        warm_mib = max(resident[WARM_EDITS - MEMORY_WINDOW:WARM_EDITS])
        last_mib = max(resident[-MEMORY_WINDOW:])
        growth = last_mib / warm_mib - 1
        print(f"{args.program}: {args.edits} edits, per edit median {statistics.median(edit_seconds):.3f} s "
              f"(max {max(edit_seconds):.3f} s); VmRSS after {WARM_EDITS} edits {warm_mib:.0f} MiB, "
              f"after {args.edits} {last_mib:.0f} MiB ({growth:+.1%})")
        if args.no_memory_check:
            print("resident memory not bounded (--no-memory-check)")
        elif growth > MEMORY_TOLERANCE:
            failures.append(f"resident memory grew {growth:+.1%} from edit {WARM_EDITS} to edit "
                            f"{args.edits} (at most {MEMORY_TOLERANCE:+.0%})")
        status = server.shutdown()
        if status != 0:
            failures.append(f"the server exited with {status}; its log: {server.stderr_path}")
    except BaseException:
        server.kill()
        raise
    for failure in failures[:10]:
        print("FAIL:", failure)
    if len(failures) > 10:
        print(f"... and {len(failures) - 10} more failures")
    if not failures:
        project.remove()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
