#!/usr/bin/python3
"""placelint's report does not depend on how the run was scheduled.

A generated tree of pl-runtime units (bench/tool/generate_tree.py, one unit
in four with a bug) is analysed three times at once: -j1 in the compile
database's order, -j2 in that order, -j2 in reverse. Every unit runs in a
worker process of its own, so the runs are also three independent analyses
of each unit (different address-space layouts, different timing): the
SARIF logs, fingerprints included, must be byte-identical.

The units use a precompiled <pl/pl.h>, so the run's cost is placelint's
analysis and its workers, not parsing the runtime's headers.

Environment: PLACELINT, CXX, GENERATE_TREE, INCLUDE_DIRS (os.pathsep
separated); UNITS (default 200).
"""

import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

PLACELINT = os.environ["PLACELINT"]
CXX = os.environ.get("CXX", "clang++-19")
GENERATE_TREE = os.environ["GENERATE_TREE"]
INCLUDE_DIRS = [d for d in os.environ["INCLUDE_DIRS"].split(os.pathsep) if d]
UNITS = int(os.environ.get("UNITS", "200"))
# Each factor changes between two of the runs: -j (the first two), the
# order (the last two); and every unit is analysed three times over.
RUNS = [(1, "in order"), (2, "in order"), (2, "reversed")]


def write_database(entries, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "compile_commands.json").write_text(json.dumps(entries, indent=1))
    return folder


class SarifDeterminism(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = Path(tempfile.mkdtemp(prefix="placelint-determinism-"))
        includes = [arg for d in INCLUDE_DIRS for arg in ("--include", d)]
        subprocess.run([sys.executable, GENERATE_TREE, str(cls.root / "tree"), "--units", str(UNITS),
                        "--compiler", CXX, *includes], check=True, stdout=subprocess.DEVNULL)
        pch = cls.root / "pl.h.pch"
        subprocess.run([CXX, "-std=c++20", "-x", "c++-header", *(f"-I{d}" for d in INCLUDE_DIRS),
                        str(Path(INCLUDE_DIRS[0]) / "pl/pl.h"), "-o", str(pch)], check=True)
        entries = json.loads((cls.root / "tree/build/compile_commands.json").read_text())
        for entry in entries:
            entry["command"] = entry["command"].replace(
                "-std=c++20", f"-std=c++20 -include-pch {pch}", 1)
        cls.databases = {"in order": write_database(entries, cls.root / "forward"),
                         "reversed": write_database(entries[::-1], cls.root / "reversed")}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def test_reports_are_byte_identical(self):
        runs = {}
        started = time.monotonic()
        for jobs, order in RUNS:
            output = self.root / f"j{jobs}-{order.replace(' ', '-')}.sarif"
            command = [PLACELINT, "-p", str(self.databases[order]), f"-j{jobs}", "--format",
                       "sarif", "--output", str(output), "--source-root", str(self.root / "tree"),
                       "--quiet"]
            runs[f"-j{jobs}, {order}"] = (output, subprocess.Popen(command))
        for name, (output, process) in runs.items():
            # 1: findings were reported, as one unit in four has a bug.
            if process.wait() != 1:
                notifications = (json.loads(output.read_text())["runs"][0]["invocations"][0]
                                 ["toolExecutionNotifications"] if output.exists() else [])
                self.fail(f"placelint {name} exited with {process.returncode}; notifications: "
                          + json.dumps(notifications[:5], indent=1))
        print(f"{len(runs)} runs of {UNITS} units in {time.monotonic() - started:.0f} s",
              file=sys.stderr)

        reference_name, (reference_path, _) = next(iter(runs.items()))
        reference = reference_path.read_text()
        log = json.loads(reference)["runs"][0]
        self.assertGreaterEqual(len(log["results"]), UNITS // 4, "a finding in every buggy unit")
        self.assertTrue(log["invocations"][0]["executionSuccessful"])
        self.assertTrue(all("placelint/v1" in r["partialFingerprints"] for r in log["results"]))
        for name, (path, _) in runs.items():
            text = path.read_text()
            if text != reference:
                diff = "".join(list(difflib.unified_diff(
                    reference.splitlines(True), text.splitlines(True), reference_name, name))[:60])
                self.fail(f"placelint {name} wrote another report than {reference_name}:\n{diff}")


if __name__ == "__main__":
    unittest.main()
