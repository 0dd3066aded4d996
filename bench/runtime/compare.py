#!/usr/bin/python3
"""Puts pl and libtorch side by side from one bench_runtime run.

Reads Google Benchmark JSON (--benchmark_format=json) from a file or stdin.
Benchmarks are named "<case>/pl" and "<case>/libtorch"; for each case this
prints both times, the ratio pl/libtorch (lower is better for pl) and, where
the case has a target, whether it was met. With --check, a missed target
makes the exit status 1.

Times are CPU time by default (bench_runtime measures the whole process, all
threads), which stays meaningful on a busy machine; --time real uses wall
time.
"""

import argparse
import json
import sys

# case -> (largest acceptable pl/libtorch time ratio, what the target says)
TARGETS = {
    "add_1": (0.25, "per-op overhead at most 1/4 of libtorch's"),
    "add_16M": (0.5, "at least 2x libtorch"),
    "matmul_256": (1 / 0.95, "at least 0.95x libtorch"),
    "matmul_1024": (1 / 0.95, "at least 0.95x libtorch"),
}

LIBRARIES = ("pl", "libtorch")


def format_time(nanoseconds):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if nanoseconds >= scale:
            return f"{nanoseconds / scale:.3g} {unit}"
    return f"{nanoseconds:.3g} ns"


def to_nanoseconds(value, unit):
    return value * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]


def collect(report, time_field):
    """Maps (case, library) to time_field in ns. With repetitions, takes the
    median aggregate; otherwise the single run."""
    times, medians = {}, {}
    for entry in report.get("benchmarks", []):
        # "<case>/<library>", then any suffixes Google Benchmark adds
        # ("/process_time").
        parts = entry.get("run_name", entry["name"]).split("/")
        at = next((i for i, part in enumerate(parts) if part in LIBRARIES), None)
        if at is None or at == 0 or entry.get("error_occurred"):
            continue
        case, library = "/".join(parts[:at]), parts[at]
        time = to_nanoseconds(entry[time_field], entry.get("time_unit", "ns"))
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[(case, library)] = time
        else:
            times[(case, library)] = time
    times.update(medians)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="?", help="benchmark JSON (default: stdin)")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when a target is missed")
    parser.add_argument("--time", choices=("cpu", "real"), default="cpu",
                        help="which time to compare (default: cpu)")
    args = parser.parse_args()
    try:
        if args.json:
            with open(args.json, encoding="utf-8") as stream:
                report = json.load(stream)
        else:
            report = json.load(sys.stdin)
    except (OSError, json.JSONDecodeError) as error:
        sys.exit(f"compare.py: cannot read benchmark JSON: {error}")

    times = collect(report, f"{args.time}_time")
    cases = list(dict.fromkeys(case for case, _ in times))
    if not cases:
        sys.exit("compare.py: no '<case>/pl' or '<case>/libtorch' benchmarks in the input")

    context = report.get("context", {})
    setup = [f"{key}: {context[key]}" for key in ("pl", "libtorch", "openblas_one_thread")
             if key in context]
    if setup:
        print("Setup: " + "; ".join(setup) + "\n")

    missed = []
    print(f"{args.time} time per iteration\n")
    print("| case | pl | libtorch | pl/libtorch | target | met |")
    print("|---|---:|---:|---:|---|---|")
    for case in cases:
        pl_time = times.get((case, "pl"))
        torch_time = times.get((case, "libtorch"))
        cells = [format_time(t) if t is not None else "n/a" for t in (pl_time, torch_time)]
        target = TARGETS[case][1] if case in TARGETS else ""
        ratio = met = ""
        if pl_time is not None and torch_time:
            ratio_value = pl_time / torch_time
            ratio = f"{ratio_value:.3f}"
            if case in TARGETS:
                met = "yes" if ratio_value <= TARGETS[case][0] else "NO"
                if met == "NO":
                    missed.append(case)
        print(f"| {case} | {cells[0]} | {cells[1]} | {ratio} | {target} | {met} |")
    if missed:
        print(f"\nmissed targets: {', '.join(missed)}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
