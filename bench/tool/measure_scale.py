#!/usr/bin/python3
"""Measures placelint on a generated tree: files per second with -j1 and
-j2, the peak memory of the largest process, and the 1 -> 2 speed-up.

    measure_scale.py --placelint BIN --include DIR [--include DIR...]
                     [--units 200] [--work DIR]

Prints a Markdown table for bench/README.md. Both runs must report the
same findings, or the measurement is void.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def wall_seconds(text):
    value = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text).group(1)
    seconds = 0.0
    for part in value.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


def cpu_seconds(text):
    user = float(re.search(r"User time \(seconds\): (\S+)", text).group(1))
    system = float(re.search(r"System time \(seconds\): (\S+)", text).group(1))
    return user + system


def peak_mib(text):
    kib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    return kib / 1024.0


def measure(placelint, tree, jobs):
    report = os.path.join(tree, "report-j%d.json" % jobs)
    command = ["/usr/bin/time", "-v", placelint, "-p", os.path.join(tree, "build"),
               "-j%d" % jobs, "--quiet", "--format=json", "--output=" + report]
    process = subprocess.run(command, cwd=tree, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    if process.returncode not in (0, 1):
        sys.exit("placelint failed (%d):\n%s" % (process.returncode, process.stderr))
    with open(report, encoding="utf-8") as output:
        document = json.load(output)
    return {"jobs": jobs, "seconds": wall_seconds(process.stderr),
            "cpu": cpu_seconds(process.stderr),
            "peak_mib": peak_mib(process.stderr), "document": document}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    # Absolute paths: placelint runs from inside the generated tree.
    parser.add_argument("--placelint", required=True, type=os.path.abspath)
    parser.add_argument("--include", action="append", required=True, type=os.path.abspath)
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--work", help="where to generate the tree (default: a temporary dir)")
    options = parser.parse_args()

    work = options.work or tempfile.mkdtemp(prefix="placelint-scale-")
    generate = [sys.executable, os.path.join(HERE, "generate_tree.py"), work,
                "--units", str(options.units)]
    for include in options.include:
        generate += ["--include", include]
    subprocess.run(generate, check=True)

    load = " ".join("%.2f" % value for value in os.getloadavg())
    runs = [measure(options.placelint, work, jobs) for jobs in (1, 2)]
    one, two = runs
    if one["document"]["findings"] != two["document"]["findings"]:
        sys.exit("-j1 and -j2 reported different findings; the measurement is void")
    summary = one["document"]["summary"]
    if summary["filesFailed"]:
        sys.exit("%d units failed to compile; fix the generator" % summary["filesFailed"])

    units = summary["filesAnalysed"]
    print("| jobs | files | findings | wall time (s) | files/s | CPU s/file "
          "| peak RSS of one process (MiB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for run in runs:
        print("| %d | %d | %d | %.1f | %.2f | %.2f | %.0f |"
              % (run["jobs"], units, run["document"]["summary"]["findings"], run["seconds"],
                 units / run["seconds"], run["cpu"] / units, run["peak_mib"]))
    print()
    print("speed-up from 1 to 2 jobs: %.2f (load average before the runs: %s)"
          % (one["seconds"] / two["seconds"], load))


if __name__ == "__main__":
    main()
