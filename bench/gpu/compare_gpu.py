#!/usr/bin/python3
"""Puts pl and libtorch side by side from bench_gpu_pl and bench_gpu_libtorch.

Reads their output lines ("<library> <case> <value> <unit>") from the files
given, or stdin, and prints for each case both values, the speed of pl
relative to libtorch (above 1: pl is faster; for time units this is
libtorch's time over pl's) and, where the case has a target, whether it was
met. With --check, a missed target makes the exit status 1.
"""

import argparse
import re
import sys

# Cases (regular expressions over the case name) -> (least acceptable speed of
# pl relative to libtorch, what the target says).
TARGETS = [
    (r"(add|mul_scalar|relu|add_inplace)_(16|64)M_GBps", 0.98, "at least 0.98x libtorch"),
    (r"(sum|mean|max|argmax|row_sum|column_sum)_(16|64)M_GBps", 0.95, "at least 0.95x libtorch"),
    (r"matmul_\d+_TFLOPs", 0.95, "at least 0.95x libtorch"),
    (r"h2d_pinned_nonblocking_256MiB_GBps", 0.95, "at least 0.95x libtorch"),
]
LOWER_IS_BETTER = {"us", "ns", "ms", "s"}
LIBRARIES = ("pl", "libtorch")


def target_of(case):
    for pattern, least, text in TARGETS:
        if re.fullmatch(pattern, case):
            return least, text
    return None


def read(streams):
    values, units = {}, {}
    for stream in streams:
        for line in stream:
            parts = line.split()
            if len(parts) != 4 or parts[0] not in LIBRARIES:
                continue
            library, case, value, unit = parts
            values[(case, library)] = float(value)
            units[case] = unit
    return values, units


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outputs", nargs="*", help="benchmark outputs (default: stdin)")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when a target is missed")
    args = parser.parse_args()
    streams = [open(path, encoding="utf-8") for path in args.outputs] or [sys.stdin]
    values, units = read(streams)
    cases = list(dict.fromkeys(case for case, _ in values))
    if not cases:
        sys.exit("compare_gpu.py: no '<library> <case> <value> <unit>' lines in the input")

    missed = []
    print("| case | unit | pl | libtorch | pl speed / libtorch | target | met |")
    print("|---|---|---:|---:|---:|---|---|")
    for case in cases:
        pl_value, torch_value = values.get((case, "pl")), values.get((case, "libtorch"))
        cells = [f"{v:.4g}" if v is not None else "n/a" for v in (pl_value, torch_value)]
        target = target_of(case)
        speed = met = ""
        if pl_value and torch_value:
            lower_is_better = units[case] in LOWER_IS_BETTER
            speed_value = torch_value / pl_value if lower_is_better else pl_value / torch_value
            speed = f"{speed_value:.3f}"
            if target:
                met = "yes" if speed_value >= target[0] else "NO"
                if met == "NO":
                    missed.append(case)
        print(f"| {case} | {units[case]} | {cells[0]} | {cells[1]} | {speed} | "
              f"{target[1] if target else ''} | {met} |")
    if missed:
        print(f"\nmissed targets: {', '.join(missed)}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
