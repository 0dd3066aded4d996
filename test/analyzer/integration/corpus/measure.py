#!/usr/bin/python3
"""Measures the analyzer's precision and recall on the corpus of realistic programs.

    measure.py --plugin build/lib/libPlacelintTidyPlugin.so [options] [FILE...]
    measure.py --plugin ... --pl --pl-include DIR [--pl-include DIR...] [FILE...]

Every program here (all *.cpp beside this script unless files are given) is
small, realistic libtorch code written against the real <torch/torch.h>; with
--pl, the programs in pl/ are the same kind of code against this project's
runtime (<pl/pl.h>, C++20, the include directories given by --pl-include).
Each buggy line ends with `// expect: <rule-id>`: the analyzer must report
that rule on that line. Everything else it reports is a false alarm. The
script runs

    clang-tidy-19 --load=PLUGIN --checks='-*,placement-*' FILE -- FLAGS

on every program (--jobs at a time), compares the (line, rule) pairs it
reports with the markers, and prints, per rule, true positives, false
positives, misses, precision and recall, then the totals over every rule
of the catalogue, then every miss and false alarm by file:line. Rules the
plugin has no check for yet are named so.

Parsing <torch/torch.h> dominates the cost (about 8 s of CPU a file here).
Unless --no-pch, the script first builds a precompiled header of it with
clang++-19 (same flags, once, into --work-dir; ~10 s) and passes
`-include-pch` to clang-tidy-19, which accepts it: 5 s a file, the same
findings (what remains is clang-tidy walking the deserialised AST, whatever
the checks). If the PCH cannot be built, or a run with it fails, the file
is analysed again without it. The pl programs need no PCH.

Exit status: 0; 1 when the totals fall below --min-precision or
--min-recall, a rule with markers or findings falls below
--min-rule-precision or --min-rule-recall (or its own --rule-floor), or a
program does not compile or
the analyzer crashes; 2 on a usage error.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

# Every rule of the catalogue (rules/include/placelint/rules.def), all scored.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "rules"))
import catalogue  # noqa: E402

SCORED_RULES = tuple(rule.id for rule in catalogue.load().rules)
EXPECT = re.compile(r"//\s*expect:\s*(?P<rules>[a-z][a-z-]*(?:\s*,\s*[a-z][a-z-]*)*)\s*$")
DIAGNOSTIC = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                        r"(?P<kind>warning|error|fatal error): (?P<text>.*?)(?: \[(?P<check>[\w.,-]+)\])?$")
HERE = os.path.dirname(os.path.abspath(__file__))
PL_HERE = os.path.join(HERE, "pl")

Finding = Tuple[str, int, str]  # (file, line, rule)


@dataclass
class Run:
    """What clang-tidy said about one program."""
    source: str
    findings: Set[Finding] = field(default_factory=set)
    errors: List[str] = field(default_factory=list)
    used_pch: bool = False
    seconds: float = 0.0


def read_expectations(source: str) -> Set[Finding]:
    expected = set()
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            match = EXPECT.search(text.rstrip("\n"))
            if match:
                for rule in match.group("rules").split(","):
                    expected.add((source, number, rule.strip()))
    return expected


def compile_flags(options: argparse.Namespace) -> List[str]:
    if options.pl:
        return ["-std=c++20"] + ["-I" + d for d in options.pl_include]
    return ["-std=c++17", "-isystem", options.torch_include]


def build_pch(options: argparse.Namespace) -> Optional[str]:
    """Builds torch.pch in the work directory; None when it cannot."""
    clang = shutil.which(options.clang)
    if clang is None:
        print("measure: %s not found; parsing without a precompiled header" % options.clang, file=sys.stderr)
        return None
    header = os.path.join(options.work_dir, "torch_pch.h")
    pch = os.path.join(options.work_dir, "torch.pch")
    with open(header, "w", encoding="utf-8") as f:
        f.write("#include <torch/torch.h>\n")
    command = [clang, "-x", "c++-header"] + compile_flags(options) + [header, "-o", pch]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print("measure: building the precompiled header failed; parsing without it\n" + result.stdout[-2000:],
              file=sys.stderr)
        return None
    return pch


def run_tidy(options: argparse.Namespace, source: str, pch: Optional[str]) -> Run:
    command = [options.clang_tidy, "--load=" + options.plugin, "--checks=-*,placement-*", source, "--"]
    command += compile_flags(options)
    if pch:
        command += ["-include-pch", pch]
    start = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    run = Run(source=source, used_pch=bool(pch), seconds=time.monotonic() - start)
    for text in result.stdout.splitlines():
        match = DIAGNOSTIC.match(text)
        if not match:
            continue
        if match.group("kind") != "warning":
            run.errors.append(text)
            continue
        check = match.group("check") or ""
        if not check.startswith("placement-"):
            continue
        if os.path.realpath(match.group("file")) != os.path.realpath(source):
            continue
        run.findings.add((source, int(match.group("line")), check))
    if result.returncode < 0 or (result.returncode != 0 and not run.errors):
        run.errors.append("clang-tidy exited with status %d\n%s" % (result.returncode, result.stdout[-3000:]))
    return run


def analyse(options: argparse.Namespace, source: str, pch: Optional[str]) -> Run:
    run = run_tidy(options, source, pch)
    if pch and run.errors:
        # A stale or rejected PCH must not turn into a compile error: parse the header again.
        run = run_tidy(options, source, None)
    return run


def checks_in_plugin(options: argparse.Namespace) -> Set[str]:
    result = subprocess.run([options.clang_tidy, "--load=" + options.plugin, "--checks=-*,placement-*",
                             "--list-checks"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return set(re.findall(r"^\s+(placement-[\w-]+)\s*$", result.stdout, re.M))


def ratio(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def fmt(value: Optional[float]) -> str:
    return "-" if value is None else "%.2f" % value


def table(rows: List[Tuple[str, int, int, int]]) -> str:
    lines = ["| rule | true pos. | false pos. | missed | precision | recall |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, tp, fp, fn in rows:
        lines.append("| %s | %d | %d | %d | %s | %s |" % (name, tp, fp, fn, fmt(ratio(tp, tp + fp)),
                                                       fmt(ratio(tp, tp + fn))))
    return "\n".join(lines)


def relative(path: str) -> str:
    """Corpus programs by name (pl/NAME for the pl ones), anything else as given."""
    return os.path.relpath(path, HERE) if os.path.dirname(path) in (HERE, PL_HERE) else path


def below(value: Optional[float], floor: Optional[float]) -> bool:
    """A ratio with nothing to measure (None) is never below a floor."""
    return floor is not None and value is not None and value < floor


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*",
                        help="programs to measure (default: every *.cpp beside this script, or in pl/ with --pl)")
    parser.add_argument("--plugin", required=True, help="libPlacelintTidyPlugin.so")
    parser.add_argument("--clang-tidy", default="clang-tidy-19")
    parser.add_argument("--clang", default="clang++-19", help="compiler that builds the precompiled header")
    parser.add_argument("--torch-include", default="/usr/include/torch/csrc/api/include",
                        help="libtorch's C++ API headers (the directory holding torch/torch.h)")
    parser.add_argument("--pl", action="store_true",
                        help="measure the pl programs (pl/*.cpp) against the runtime's headers")
    parser.add_argument("--pl-include", action="append", default=[], metavar="DIR",
                        help="an include directory of the runtime's headers (with --pl; repeat it: "
                             "runtime/include, rules/include and the build's rules/include)")
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--no-pch", action="store_true", help="parse <torch/torch.h> in every run")
    parser.add_argument("--work-dir", help="where the precompiled header goes (default: a temporary directory)")
    parser.add_argument("--min-precision", type=float, help="exit 1 if the total precision is below this")
    parser.add_argument("--min-recall", type=float, help="exit 1 if the total recall is below this")
    parser.add_argument("--min-rule-precision", type=float,
                        help="exit 1 if a rule's precision is below this")
    parser.add_argument("--min-rule-recall", type=float, help="exit 1 if a rule's recall is below this")
    parser.add_argument("--rule-floor", action="append", default=[], metavar="RULE=PRECISION/RECALL",
                        help="floors for one rule in place of --min-rule-precision and "
                             "--min-rule-recall (a rule whose blind programs measured lower; repeatable)")
    options = parser.parse_args()
    options.rule_floors = {}
    for text in options.rule_floor:
        match = re.fullmatch(r"([a-z-]+)=([0-9.]+)/([0-9.]+)", text)
        if not match or match.group(1) not in SCORED_RULES:
            parser.error("--rule-floor %r: expected RULE=PRECISION/RECALL with a rule of the catalogue"
                         % text)
        options.rule_floors[match.group(1)] = (float(match.group(2)), float(match.group(3)))

    if not os.path.isfile(options.plugin):
        parser.error("no plugin at %s" % options.plugin)
    if options.pl:
        if not any(os.path.isfile(os.path.join(d, "pl", "pl.h")) for d in options.pl_include):
            parser.error("--pl needs --pl-include with the directory holding pl/pl.h")
    elif not os.path.isfile(os.path.join(options.torch_include, "torch", "torch.h")):
        parser.error("no torch/torch.h under %s" % options.torch_include)
    folder = PL_HERE if options.pl else HERE
    sources = [os.path.abspath(f) for f in options.files] or sorted(
        os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".cpp"))

    temporary = None
    if options.work_dir:
        os.makedirs(options.work_dir, exist_ok=True)
    else:
        temporary = tempfile.TemporaryDirectory(prefix="placelint-corpus-")
        options.work_dir = temporary.name
    pch = None if options.no_pch or options.pl else build_pch(options)

    expected: Set[Finding] = set()
    for source in sources:
        expected |= read_expectations(source)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        runs = list(pool.map(lambda s: analyse(options, s, pch), sources))
    wall = time.monotonic() - start
    if temporary:
        temporary.cleanup()

    reported: Set[Finding] = set()
    broken = []
    for run in runs:
        reported |= run.findings
        if run.errors:
            broken.append(run)

    available = checks_in_plugin(options)
    others = sorted({f[2] for f in expected | reported} - set(SCORED_RULES))
    counts: Dict[str, Tuple[int, int, int]] = {}
    for rule in SCORED_RULES + tuple(others):
        exp = {f for f in expected if f[2] == rule}
        rep = {f for f in reported if f[2] == rule}
        counts[rule] = (len(exp & rep), len(rep - exp), len(exp - rep))

    def label(rule: str) -> str:
        return rule + ("" if rule in available else " (no check yet)")

    buggy = sum(1 for s in sources if any(f[0] == s for f in expected))
    print("corpus%s: %d programs (%d with bugs, %d correct look-alikes), %s, %d job(s), "
          "%.0f s of analysis, %.0f s wall"
          % (" (pl)" if options.pl else "", len(sources), buggy, len(sources) - buggy,
             "with the torch PCH" if pch else "without a PCH", options.jobs, sum(r.seconds for r in runs), wall))
    print()
    total = tuple(sum(counts[r][i] for r in SCORED_RULES) for i in range(3))
    print(table([(label(r),) + counts[r] for r in SCORED_RULES] + [("all",) + total]))
    if others:
        print()
        print("Not in the catalogue:")
        print(table([(label(r),) + counts[r] for r in others]))

    misses = sorted(expected - reported)
    alarms = sorted(reported - expected)
    for title, items in (("missed", misses), ("false alarms", alarms)):
        if items:
            print()
            print("%s:" % title)
            for source, line, rule in items:
                print("  %s:%d: %s" % (relative(source), line, rule))

    status = 0
    for run in broken:
        print("\nerror: %s did not analyse cleanly:\n  %s" % (relative(run.source), "\n  ".join(run.errors[:5])),
              file=sys.stderr)
        status = 1
    precision, recall = ratio(total[0], total[0] + total[1]), ratio(total[0], total[0] + total[2])
    if below(1.0 if precision is None else precision, options.min_precision):
        print("\nerror: precision %s is below the floor %.2f" % (fmt(precision), options.min_precision),
              file=sys.stderr)
        status = 1
    if below(recall or 0.0, options.min_recall):
        print("\nerror: recall %s is below the floor %.2f" % (fmt(recall), options.min_recall), file=sys.stderr)
        status = 1
    for rule in SCORED_RULES:
        tp, fp, fn = counts[rule]
        min_precision, min_recall = options.rule_floors.get(
            rule, (options.min_rule_precision, options.min_rule_recall))
        for name, value, floor in (("precision", ratio(tp, tp + fp), min_precision),
                                   ("recall", ratio(tp, tp + fn), min_recall)):
            if below(value, floor):
                print("\nerror: %s's %s %s is below the floor %.2f" % (rule, name, fmt(value), floor),
                      file=sys.stderr)
                status = 1
    return status

if __name__ == "__main__":
    sys.exit(main())
