#!/usr/bin/python3
"""Runs placelint over PyTorch's own C++ API tests: a false-alarm corpus of real, correct code.

    bench/analyzer/pytorch_api_tests.py [--placelint build/bin/placelint] [-j 2]
        [--work-dir DIR] [--orig-tarball pytorch_1.13.1+dfsg.orig.tar.xz] [--json OUT]

PyTorch's test/cpp/api/*.cpp (44 files, ~25k lines: modules, optimizers, data
loaders, serialization, CUDA tests) ship in the source package of Debian's
pytorch 1.13.1, the version of the libtorch-dev headers the analyzer is tried
against. Not a ctest (it downloads): a measurement, run by hand (issue 19).

1. Unless --orig-tarball is given, fetches the source package's .dsc and
   .orig.tar.xz with `apt-get source --download-only pytorch`, through a
   private sources list with one `deb-src` entry for the archive and suite
   the machine's own deb entries use, signed by the same keyring (no change
   to /etc/apt). Debian's .debian.tar.xz may be missing from the mirror; it
   is not needed. The tarball's SHA-256 is checked against the .dsc.
2. Extracts test/cpp/api and test/cpp/common, writes a compile database
   (clang++-19 -std=c++17, the extraction root for `<test/cpp/...>`, the
   libtorch API headers, gtest from /usr/include).
3. Runs `placelint -p DB --format json` over it (every placement check;
   header findings in the extracted tree are reported too) and prints every
   finding with its source line and the gtest test it is in, then counts by
   rule and file. Tests named `*_CUDA` are the ones PyTorch's runner filters
   out when no GPU is found (`--gtest_filter=-*_CUDA`), `*_MultiCUDA` with
   fewer than two: unguarded-cuda is told so through its GpuTestSuffixes
   option (`_CUDA=1;_MultiCUDA=2`; `--no-gpu-test-suffixes` leaves it unset),
   and their findings are listed apart.

Exit status: 0 when placelint ran (whatever it found), 1 when it could not.
"""

import argparse
import collections
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VERSION = "1.13.1"
TEST_DIRS = ("test/cpp/api", "test/cpp/common")
# PyTorch's runner filters these out when no GPU (or fewer than two) is found:
# unguarded-cuda's GpuTestSuffixes option, with how many GPUs each ensures.
GPU_TEST_SUFFIXES = {"_CUDA": 1, "_MultiCUDA": 2}
TEST_NAME = re.compile(r"^\s*TEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")


def run(command: List[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def deb_source_line() -> str:
    """A deb-src line for the Debian archive and suite that the machine's deb entries name."""
    uri, suite, keyring = "http://deb.debian.org/debian", "bookworm", "/usr/share/keyrings/debian-archive-keyring.gpg"
    texts = []
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.sources")) + sorted(
            glob.glob("/etc/apt/sources.list.d/*.list")):
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
    for text in texts:
        # deb822 stanzas
        for stanza in re.split(r"\n\s*\n", text):
            fields = dict(re.findall(r"^([\w-]+):\s*(.+)$", stanza, re.M))
            if "deb" in fields.get("Types", "").split() and "/debian" in fields.get("URIs", "") \
                    and "security" not in fields.get("URIs", ""):
                uri = fields["URIs"].split()[0]
                suite = fields.get("Suites", suite).split()[0]
                keyring = fields.get("Signed-By", keyring).strip()
                return "deb-src [signed-by=%s] %s %s main\n" % (keyring, uri, suite)
        # one-line entries
        for match in re.finditer(r"^deb\s+(?:\[[^\]]*\]\s+)?(\S+/debian)\s+(\S+)\s", text, re.M):
            if not match.group(2).endswith("-security"):
                return "deb-src [signed-by=%s] %s %s main\n" % (keyring, match.group(1), match.group(2))
    return "deb-src [signed-by=%s] %s %s main\n" % (keyring, uri, suite)


def fetch_sources(work: str) -> str:
    """Downloads the .dsc and .orig.tar.xz into work/download; returns the tarball's path."""
    apt = os.path.join(work, "apt")
    download = os.path.join(work, "download")
    os.makedirs(os.path.join(apt, "lists", "partial"), exist_ok=True)
    os.makedirs(download, exist_ok=True)
    sources_list = os.path.join(apt, "sources.list")
    with open(sources_list, "w", encoding="utf-8") as f:
        f.write(deb_source_line())
    options = ["-o", "Dir::Etc::SourceList=" + sources_list, "-o", "Dir::Etc::SourceParts=/dev/null",
               "-o", "Dir::State::Lists=" + os.path.join(apt, "lists")]
    update = run(["apt-get"] + options + ["update"])
    if update.returncode != 0:
        sys.exit("apt-get update (deb-src) failed:\n" + update.stdout[-2000:])
    # The .debian.tar.xz may be gone from the mirror (a 404 makes apt-get exit 100); the .orig is what is needed.
    source = run(["apt-get"] + options + ["source", "--download-only", "pytorch=" + VERSION + "+dfsg-4"],
                 cwd=download)
    tarballs = glob.glob(os.path.join(download, "pytorch_%s*.orig.tar.xz" % VERSION))
    dscs = glob.glob(os.path.join(download, "pytorch_%s*.dsc" % VERSION))
    if not tarballs or not dscs:
        sys.exit("apt-get source did not bring pytorch %s's .dsc and .orig.tar.xz:\n%s"
                 % (VERSION, source.stdout[-2000:]))
    verify(tarballs[0], dscs[0])
    return tarballs[0]


def verify(tarball: str, dsc: str) -> None:
    with open(dsc, encoding="utf-8") as f:
        text = f.read()
    name = os.path.basename(tarball)
    match = re.search(r"^\s*([0-9a-f]{64})\s+\d+\s+" + re.escape(name) + r"\s*$",
                      text.split("Checksums-Sha256:", 1)[-1], re.M)
    if not match:
        sys.exit("%s does not list %s" % (dsc, name))
    digest = hashlib.sha256()
    with open(tarball, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != match.group(1):
        sys.exit("%s: SHA-256 does not match %s" % (tarball, dsc))


def extract(tarball: str, work: str) -> str:
    """Extracts the C++ API tests; returns the extraction root (holding test/cpp/...)."""
    root = os.path.join(work, "pytorch-" + VERSION)
    if os.path.isdir(os.path.join(root, TEST_DIRS[0])):
        return root
    with tarfile.open(tarball) as archive:
        members = [m for m in archive.getmembers()
                   if any(("/" + d + "/") in m.name for d in TEST_DIRS) and (m.isfile() or m.isdir())]
        archive.extractall(work, members=members)
    return root


def write_database(root: str, build: str, torch_include: str, clang: str) -> List[str]:
    os.makedirs(build, exist_ok=True)
    units = sorted(glob.glob(os.path.join(root, "test", "cpp", "api", "*.cpp")))
    commands = [{"directory": root, "file": unit,
                 "arguments": [clang, "-std=c++17", "-I" + root, "-isystem", torch_include,
                               "-DUSE_GTEST", "-c", unit, "-o", os.devnull]}
                for unit in units]
    with open(os.path.join(build, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(commands, f, indent=1)
    return units


def enclosing_test(path: str, line: int, cache: Dict[str, List[str]]) -> Optional[Tuple[str, str]]:
    """The gtest TEST(suite, name) whose body holds the line, found by the nearest TEST( above it."""
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    for number in range(min(line, len(lines)), 0, -1):
        match = TEST_NAME.match(lines[number - 1])
        if match:
            return match.group(1), match.group(2)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--placelint", default=os.path.join(ROOT, "build", "bin", "placelint"))
    parser.add_argument("--work-dir", default="/tmp/placelint-pytorch-api-tests")
    parser.add_argument("--orig-tarball", help="pytorch_1.13.1+dfsg.orig.tar.xz already at hand (no download)")
    parser.add_argument("--torch-include", default="/usr/include/torch/csrc/api/include")
    parser.add_argument("--clang", default="clang++-19")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--json", help="also keep placelint's JSON report here")
    parser.add_argument("--no-gpu-test-suffixes", action="store_true",
                        help="leave unguarded-cuda's GpuTestSuffixes option unset (report every CUDA test)")
    parser.add_argument("--reuse-report", action="store_true",
                        help="print the findings of the JSON report an earlier run left (no placelint run)")
    options = parser.parse_args()

    # placelint runs in the unpacked sources: a relative path is the caller's.
    options.placelint = os.path.abspath(options.placelint)
    if not os.access(options.placelint, os.X_OK):
        parser.error("no placelint at %s (build it: cmake --build build --target placelint)" % options.placelint)
    if shutil.which("apt-get") is None and not options.orig_tarball:
        parser.error("apt-get not found: give --orig-tarball")
    work = os.path.abspath(options.work_dir)
    os.makedirs(work, exist_ok=True)
    tarball = os.path.abspath(options.orig_tarball) if options.orig_tarball else fetch_sources(work)
    root = extract(tarball, work)
    build = os.path.join(work, "build")
    units = write_database(root, build, options.torch_include, options.clang)
    report_path = options.json or os.path.join(work, "placelint.json")
    if not (options.reuse_report and os.path.isfile(report_path)):
        command = [options.placelint, "-p", build, "--source-root", root, "-j", str(options.jobs),
                   "--format", "json", "--output", report_path, "--quiet"]
        if not options.no_gpu_test_suffixes:
            suffixes = ";".join("%s=%d" % entry for entry in GPU_TEST_SUFFIXES.items())
            command.append("--config={Checks: 'placement-*', CheckOptions: {GpuTestSuffixes: '%s'}}"
                           % suffixes)
        result = run(command, cwd=root)
        if not os.path.isfile(report_path):
            print(result.stdout, file=sys.stderr)
            return 1
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)

    cache: Dict[str, List[str]] = {}
    findings = sorted(report["findings"], key=lambda f: (f["location"]["file"], f["location"]["line"]))
    by_rule = collections.Counter(f["rule"] for f in findings)
    cuda_findings, other_findings = [], []
    for finding in findings:
        location = finding["location"]
        path = os.path.join(root, location["file"])
        test = enclosing_test(path, location["line"], cache)
        text = cache.get(path, [])
        source = text[location["line"] - 1].strip() if 0 < location["line"] <= len(text) else ""
        entry = (location["file"], location["line"], finding["rule"], finding["message"], source, test)
        (cuda_findings if test and test[1].endswith(tuple(GPU_TEST_SUFFIXES)) else other_findings).append(entry)

    print("PyTorch %s C++ API tests: %d translation units, %d analysed, %d failed; %d placement findings"
          % (VERSION, len(units), report["summary"]["filesAnalysed"], report["summary"]["filesFailed"],
             len(findings)))
    for rule, count in sorted(by_rule.items()):
        print("  %-32s %d" % (rule, count))
    for title, entries in (("in tests the runner keeps without a GPU", other_findings),
                           ("in *_CUDA and *_MultiCUDA tests (filtered by the runner without the GPUs)",
                            cuda_findings)):
        print("\n%d findings %s:" % (len(entries), title))
        for file, line, rule, message, source, test in entries:
            print("%s:%d: [%s] %s\n    in %s: %s" % (file, line, rule, message,
                                                     "%s.%s" % test if test else "(no test)", source))
    failed = report.get("notifications", [])
    if failed:
        print("\n%d notifications (files that did not analyse cleanly):" % len(failed))
        for note in failed[:50]:
            print("  %s: %s" % (note.get("file", ""), note.get("message", "")[:300]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
