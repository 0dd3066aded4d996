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

Times are CPU seconds (user + system) of the clang-tidy process, the median
of --repetitions runs: on a shared machine they vary far less than wall
time. The placement run also uses --enable-check-profile, whose total is the
CPU time charged to the placement checks themselves (their AST matching and
analysis). On the libtorch unit two stock clang-tidy checks give scale:
misc-definitions-in-headers (one cheap AST matcher: roughly the cost of
clang-tidy's AST traversal alone) and bugprone-use-after-move. Prints a
markdown table.
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
from typing import List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "rules"))
import catalogue  # noqa: E402  (rules/catalogue.py: the rule ids' prefix)

CATALOGUE = catalogue.load()
BASELINE_CHECKS = "-*,llvm-include-order"
PLACEMENT_CHECKS = "-*," + CATALOGUE.check_glob
REFERENCE_CHECKS = ("misc-definitions-in-headers", "bugprone-use-after-move")
PROFILE_TOTAL = re.compile(r"Total Execution Time: ([0-9.]+) seconds \(([0-9.]+) wall clock\)")
WARNING = re.compile(r"^\S.*:\d+:\d+: warning: .*\[" + re.escape(CATALOGUE.prefix), re.M)


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_tidy(args: argparse.Namespace, source: str, checks: str, compile_args: List[str],
             profile: bool) -> Tuple[float, float, int]:
    """CPU time, CPU time inside the checks (profile; 0 without) and placement warnings."""
    command = [args.clang_tidy, "--load=" + args.plugin, "--checks=" + checks, "--quiet"]
    if profile:
        command.append("--enable-check-profile")
    command += [source, "--"] + compile_args
    start = children_cpu_seconds()
    process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    elapsed = children_cpu_seconds() - start
    output = process.stdout.decode(errors="replace")
    if process.returncode != 0 or "error:" in output:
        sys.exit("clang-tidy failed on %s:\n%s" % (source, output[-4000:]))
    in_checks = sum(float(match.group(1)) for match in PROFILE_TOTAL.finditer(output))
    return elapsed, in_checks, len(WARNING.findall(output))


def measure(args: argparse.Namespace, source: str, compile_args: List[str],
            checks: str = PLACEMENT_CHECKS) -> dict:
    baseline, timed, in_checks, warnings = [], [], [], 0
    for _ in range(args.repetitions):
        baseline.append(run_tidy(args, source, BASELINE_CHECKS, compile_args, False)[0])
        cpu, checks_cpu, warnings = run_tidy(args, source, checks, compile_args, True)
        timed.append(cpu)
        in_checks.append(checks_cpu)
    return {"baseline": statistics.median(baseline), "timed": statistics.median(timed),
            "in_checks": statistics.median(in_checks), "warnings": warnings}


def row(name: str, checks: str, functions: int, result: dict) -> str:
    overhead = result["timed"] - result["baseline"]
    return "| %s | %s | %d | %.2f | %.2f | %+.1f%% | %.3f | %.3f | %d |" % (
        name, checks, functions, result["baseline"], result["timed"],
        100.0 * overhead / result["baseline"], result["in_checks"],
        1000.0 * result["in_checks"] / functions, result["warnings"])


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

    print("| translation unit | checks | functions | no checks (s) | with checks (s) | overhead "
          "| in the checks (s) | in the checks per function (ms) | placement warnings |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    in_checks = {}
    for name, functions, compile_args in units:
        source = os.path.join(args.work, name)
        if name == "libtorch.cpp" and not os.path.isdir(args.torch_include):
            print("| %s | skipped: no libtorch headers | | | | | | | |" % name)
            continue
        result = measure(args, source, compile_args)
        in_checks[name] = result["in_checks"]
        print(row(name, CATALOGUE.check_glob, functions, result))
        sys.stdout.flush()
        if name == "libtorch.cpp":
            for reference in REFERENCE_CHECKS:
                print(row(name, reference, functions,
                          measure(args, source, compile_args, "-*," + reference)))
                sys.stdout.flush()
    if "functions-1000.cpp" in in_checks and "functions-4000.cpp" in in_checks:
        marginal = (in_checks["functions-4000.cpp"] - in_checks["functions-1000.cpp"]) / 3000
        print("\nMarginal time in the checks per added function (1,000 -> 4,000): %.3f ms"
              % (1000.0 * marginal))
    return 0


if __name__ == "__main__":
    sys.exit(main())
