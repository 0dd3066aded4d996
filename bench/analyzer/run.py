#!/usr/bin/python3
"""Times the placement checks against the same clang-tidy run without them.

    run.py --plugin libPlacelintTidyPlugin.so [--clang-tidy clang-tidy-19]
           [--work DIR] [--repetitions N] [-I DIR ...]

Generates the translation units (generate.py) into --work, then runs each
one through the stock clang-tidy with the plugin loaded, twice over:

  baseline   --checks=-*,llvm-include-order: a preprocessor-only check, so
             clang-tidy parses and builds the whole AST (`--checks=-*` alone
             stops before parsing) but runs no AST matcher;
  placement  --checks=-*,placement-*.

Each is repeated (median of --repetitions wall times). The placement run also
uses --enable-check-profile, whose total is the time spent inside the
placement checks themselves. Prints a markdown table.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from typing import List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BASELINE_CHECKS = "-*,llvm-include-order"
PLACEMENT_CHECKS = "-*,placement-*"
PROFILE_TOTAL = re.compile(r"Total Execution Time: ([0-9.]+) seconds \(([0-9.]+) wall clock\)")
WARNING = re.compile(r"^\S.*:\d+:\d+: warning: .*\[placement-", re.M)


def run_tidy(args: argparse.Namespace, source: str, checks: str, compile_args: List[str],
             profile: bool) -> Tuple[float, float, int]:
    """Wall time, time inside the checks (profile; 0 without) and placement warnings."""
    command = [args.clang_tidy, "--load=" + args.plugin, "--checks=" + checks, "--quiet"]
    if profile:
        command.append("--enable-check-profile")
    command += [source, "--"] + compile_args
    start = time.perf_counter()
    process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    elapsed = time.perf_counter() - start
    output = process.stdout.decode(errors="replace")
    if process.returncode != 0 or "error:" in output:
        sys.exit("clang-tidy failed on %s:\n%s" % (source, output[-4000:]))
    in_checks = sum(float(match.group(2)) for match in PROFILE_TOTAL.finditer(output))
    return elapsed, in_checks, len(WARNING.findall(output))


def measure(args: argparse.Namespace, source: str, compile_args: List[str]) -> dict:
    baseline, placement, in_checks, warnings = [], [], [], 0
    for _ in range(args.repetitions):
        baseline.append(run_tidy(args, source, BASELINE_CHECKS, compile_args, False)[0])
        wall, checks, warnings = run_tidy(args, source, PLACEMENT_CHECKS, compile_args, True)
        placement.append(wall)
        in_checks.append(checks)
    return {"baseline": statistics.median(baseline), "placement": statistics.median(placement),
            "in_checks": statistics.median(in_checks), "warnings": warnings}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--clang-tidy", default="clang-tidy-19")
    parser.add_argument("--work", default=os.path.join(os.getcwd(), "analyzer-bench"))
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--torch-include", default="/usr/include/torch/csrc/api/include")
    parser.add_argument("-I", dest="include_dirs", action="append",
                        default=[os.path.join(ROOT, "runtime", "include"),
                                 os.path.join(ROOT, "rules", "include")],
                        help="include directories for <pl/pl.h> (add the build's "
                             "rules/include for the generated <placelint/rule_ids.h>)")
    args = parser.parse_args()
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), args.work], check=True)

    pl_args = ["-std=c++20"] + ["-I" + d for d in args.include_dirs]
    units = [("functions-%d.cpp" % n, n, pl_args) for n in (1000, 2000, 4000)]
    units.append(("libtorch.cpp", 200, ["-std=c++17", "-isystem", args.torch_include]))
    units.append(("long-function.cpp", 1, pl_args))

    print("| translation unit | functions | no checks (s) | placement-* (s) | overhead "
          "| in the checks (s) | per function (ms) | placement warnings |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, functions, compile_args in units:
        if name == "libtorch.cpp" and not os.path.isdir(args.torch_include):
            print("| %s | skipped: no libtorch headers | | | | | | |" % name)
            continue
        result = measure(args, os.path.join(args.work, name), compile_args)
        overhead = result["placement"] - result["baseline"]
        print("| %s | %d | %.2f | %.2f | %+.1f%% | %.3f | %.3f | %d |" % (
            name, functions, result["baseline"], result["placement"],
            100.0 * overhead / result["baseline"], result["in_checks"],
            1000.0 * result["in_checks"] / functions, result["warnings"]))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
