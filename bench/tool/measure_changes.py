#!/usr/bin/python3
"""Measures placelint's changed-only mode and result cache on a generated
tree (generate_tree.py): a cold run, a warm run with nothing changed, one
changed .cpp, and one changed header that 10% of the units include; each
with the cache (--cache-dir) and with --changed-since against git; and the
remote tier (Bazel's HTTP protocol, a server on 127.0.0.1 started here).

    measure_changes.py --placelint BIN --include DIR [--include DIR...]
                       [--units 500] [--jobs 2] [--torch] [--uncached-cold]
                       [--work DIR]

Prints a Markdown table for bench/README.md. Every run must report the same
findings as the cold run (the changed-only runs: the same findings in the
units they analyse), or the measurement is void.
"""

import argparse
import hashlib
import http.server
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class CacheServer:
    """GET/PUT of /ac/ and /cas/ held in memory, as bazel-remote serves them."""

    def __init__(self):
        entries = self.entries = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                body = entries.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def do_PUT(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path.startswith("/cas/"):
                    assert hashlib.sha256(body).hexdigest() == self.path[5:]
                entries[self.path] = body
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


def git(tree, *args):
    subprocess.run(["git", "-C", tree, "-c", "user.name=bench", "-c",
                    "user.email=bench@example.invalid"] + list(args),
                   check=True, stdout=subprocess.DEVNULL)


def run(placelint, tree, jobs, *args):
    report = os.path.join(tree, "report.json")
    command = [placelint, "-p", os.path.join(tree, "build"), "-j%d" % jobs,
               "--format=json", "--output=" + report] + list(args)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    process = subprocess.run(command, cwd=tree, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # placelint and its workers (it waits for each): steadier than wall
    # time on a loaded machine.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if process.returncode not in (0, 1):
        sys.exit("placelint failed (%d):\n%s" % (process.returncode, process.stderr))
    with open(report, encoding="utf-8") as output:
        document = json.load(output)
    if document["summary"]["filesFailed"]:
        sys.exit("units failed to compile:\n" + process.stderr)
    remote = re.search(r"remote cache \S+: (\d+) requests in (\S+) s", process.stderr)
    return {"seconds": seconds, "cpu": cpu, "document": document,
            "analysed": len(document["files"]) - document["summary"]["filesFromCache"],
            "remote_seconds": float(remote.group(2)) if remote else 0.0,
            "stderr": process.stderr}


def findings_in(document, files=None):
    return sorted(json.dumps(f, sort_keys=True) for f in document["findings"]
                  if files is None or f["location"]["file"] in files)


def append_line(path, text):
    with open(path, "a", encoding="utf-8") as out:
        out.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--placelint", required=True, type=os.path.abspath)
    parser.add_argument("--include", action="append", required=True, type=os.path.abspath)
    parser.add_argument("--units", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--torch", action="store_true",
                        help="units that include <torch/torch.h> (generate_tree.py --torch)")
    parser.add_argument("--uncached-cold", action="store_true",
                        help="also time a full run without the cache (the cache's overhead)")
    parser.add_argument("--work", help="where to generate the tree (default: a temporary dir)")
    options = parser.parse_args()

    work = os.path.abspath(options.work or tempfile.mkdtemp(prefix="placelint-changes-"))
    generate = [sys.executable, os.path.join(HERE, "generate_tree.py"), work,
                "--units", str(options.units)]
    for include in options.include:
        generate += ["--include", include]
    if options.torch:
        generate.append("--torch")
    subprocess.run(generate, check=True, stdout=subprocess.DEVNULL)
    git(work, "init", "-q")
    git(work, "add", "src", "include")
    git(work, "commit", "-q", "-m", "tree")

    cache = os.path.join(work, "cache")
    server = CacheServer()
    jobs = options.jobs
    load = " ".join("%.2f" % value for value in os.getloadavg())
    rows = []

    def row(scenario, mode, result, cold):
        rows.append((scenario, mode, result["analysed"], result["seconds"],
                     100.0 * result["seconds"] / cold["seconds"], result["cpu"],
                     100.0 * result["cpu"] / cold["cpu"]))
        summary = result["document"]["summary"]
        # As each run ends: a long run on a loaded machine that dies later
        # still leaves its rows.
        print("measured: %s, %s: %d analysed, %d of %d from the cache, %.1f s wall, "
              "%.1f s CPU, load %s" % (scenario, mode, result["analysed"],
                                       summary["filesFromCache"], len(result["document"]["files"]),
                                       result["seconds"], result["cpu"],
                                       " ".join("%.2f" % value for value in os.getloadavg())),
              file=sys.stderr, flush=True)

    # The cold run fills the local and the remote cache: the baseline is a
    # full run with the cache's own cost in it.
    cold = stored = run(options.placelint, work, jobs, "--cache-dir=" + cache,
                        "--remote-cache=" + server.url, "--cache-stats")
    row("cold (fills the local and remote cache)", "--cache-dir --remote-cache", stored, cold)
    every = findings_in(cold["document"])
    if options.uncached_cold:
        uncached = run(options.placelint, work, jobs)
        row("cold, no cache", "full run", uncached, cold)
        if findings_in(uncached["document"]) != every:
            sys.exit("the run without the cache reported other findings")
    warm = run(options.placelint, work, jobs, "--cache-dir=" + cache)
    row("nothing changed", "--cache-dir", warm, cold)
    remote = run(options.placelint, work, jobs, "--cache-dir=" + os.path.join(work, "fresh"),
                 "--remote-cache=" + server.url, "--cache-stats")
    row("nothing changed, empty local cache", "--remote-cache", remote, cold)
    unchanged = run(options.placelint, work, jobs, "--changed-since=HEAD")
    row("nothing changed", "--changed-since HEAD", unchanged, cold)
    for result in (warm, remote):
        if findings_in(result["document"]) != every:
            sys.exit("a cached run reported other findings than the cold run")
    if warm["analysed"] or remote["analysed"] or unchanged["analysed"]:
        sys.exit("with nothing changed, %d (cache), %d (remote) and %d (changed-since) units "
                 "were re-analysed" % (warm["analysed"], remote["analysed"],
                                       unchanged["analysed"]))

    unit = os.path.join(work, "src", "part00", "unit001.cpp")
    append_line(unit, "// edited\n")
    one = run(options.placelint, work, jobs, "--cache-dir=" + cache)
    row("one .cpp changed", "--cache-dir", one, cold)
    one_changed = run(options.placelint, work, jobs, "--changed-since=HEAD")
    row("one .cpp changed", "--changed-since HEAD", one_changed, cold)
    if one["analysed"] != 1 or one_changed["analysed"] != 1:
        sys.exit("one changed .cpp re-analysed %d (cache) and %d (changed-since) units"
                 % (one["analysed"], one_changed["analysed"]))
    git(work, "commit", "-q", "-am", "edit a unit")

    append_line(os.path.join(work, "include", "tree", "shared.h"), "// edited\n")
    includers = (options.units + 9) // 10
    header = run(options.placelint, work, jobs, "--cache-dir=" + cache)
    row("a header of 10% of the units changed", "--cache-dir", header, cold)
    header_changed = run(options.placelint, work, jobs, "--changed-since=HEAD")
    row("a header of 10% of the units changed", "--changed-since HEAD", header_changed, cold)
    if header["analysed"] != includers or header_changed["analysed"] != includers:
        sys.exit("the header's %d includers: %d re-analysed (cache), %d (changed-since)"
                 % (includers, header["analysed"], header_changed["analysed"]))
    if findings_in(header["document"]) != every:
        sys.exit("the cache's run after the header edit reported other findings")
    analysed = set(header_changed["document"]["files"])
    if findings_in(header_changed["document"], analysed) != findings_in(cold["document"],
                                                                        analysed):
        sys.exit("the changed-only run reported other findings in its units")

    print("%d units, -j%d, load average before: %s" % (options.units, jobs, load))
    print()
    print("| change | mode | units analysed | wall (s) | % of cold | CPU (s) | % of cold |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for scenario, mode, analysed_units, seconds, percent, cpu, cpu_percent in rows:
        print("| %s | %s | %d | %.1f | %.1f | %.1f | %.1f |"
              % (scenario, mode, analysed_units, seconds, percent, cpu, cpu_percent))
    print()
    print("remote cache: %.2f s in requests while filling it, %.2f s serving %d units from it"
          % (stored["remote_seconds"], remote["remote_seconds"],
             remote["document"]["summary"]["filesFromCache"]))


if __name__ == "__main__":
    main()
