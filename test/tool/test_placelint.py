#!/usr/bin/python3
"""placelint's CI features on a small CMake project (test/tool/sample).

Each test copies the sample to a fresh directory, configures it with CMake
to get its compile_commands.json, and runs placelint from the copy's root
(the source root). `// expect: RULE` comments in the sample mark the lines
that must be reported; nothing else may be.

Configuration comes from the environment (see CMakeLists.txt): PLACELINT,
SAMPLE_INCLUDE_DIRS (separated by os.pathsep), SARIF_SCHEMA, CMAKE, CXX.
"""

import hashlib
import json
import os
import pty
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "rules"))
import catalogue  # noqa: E402  (rules/catalogue.py: rules.def, the one source of truth)

SAMPLE = os.path.join(HERE, "sample")
PLACELINT = os.environ.get("PLACELINT", "placelint")
EXPECT = re.compile(r"// expect: (?P<rule>[a-z-]+)")
PROGRESS = re.compile(r"\[\d+/\d+\] ")


class SampleProject:
    """A configured copy of the sample project in a temporary directory."""

    def __init__(self, with_broken_file=False, with_crashing_file=False):
        self.temp = tempfile.TemporaryDirectory(prefix="placelint-tool-")
        self.root = os.path.join(self.temp.name, "sample")
        shutil.copytree(SAMPLE, self.root)
        self.build = os.path.join(self.root, "build")
        subprocess.run([os.environ.get("CMAKE", "cmake"), "-S", self.root, "-B", self.build,
                        "-DCMAKE_CXX_COMPILER=" + os.environ.get("CXX", "clang++-19"),
                        "-DSAMPLE_INCLUDE_DIRS="
                        + os.environ["SAMPLE_INCLUDE_DIRS"].replace(os.pathsep, ";"),
                        "-DSAMPLE_WITH_BROKEN_FILE=" + ("ON" if with_broken_file else "OFF"),
                        "-DSAMPLE_WITH_CRASHING_FILE=" + ("ON" if with_crashing_file else "OFF")],
                       check=True, stdout=subprocess.DEVNULL)

    def close(self):
        self.temp.cleanup()

    def path(self, relative):
        return os.path.join(self.root, relative)

    def read(self, relative):
        with open(self.path(relative), encoding="utf-8") as source:
            return source.read()

    def write(self, relative, text):
        with open(self.path(relative), "w", encoding="utf-8") as source:
            source.write(text)

    def run(self, *args, stderr=subprocess.PIPE):
        return subprocess.run([PLACELINT, "-p", self.build] + list(args), cwd=self.root,
                              stdout=subprocess.PIPE, stderr=stderr, text=True)

    def expected(self):
        """{(file, line, rule)} from the `// expect:` markers."""
        found = set()
        for folder in ("src", "include"):
            for directory, _, files in os.walk(self.path(folder)):
                for name in files:
                    path = os.path.join(directory, name)
                    relative = os.path.relpath(path, self.root)
                    with open(path, encoding="utf-8") as source:
                        for number, line in enumerate(source, 1):
                            match = EXPECT.search(line)
                            if match:
                                found.add((relative, number, match.group("rule")))
        return found

    def units(self):
        with open(os.path.join(self.build, "compile_commands.json"), encoding="utf-8") as db:
            return json.load(db)


def json_findings(document):
    return {(f["location"]["file"], f["location"]["line"], f["rule"])
            for f in document["findings"]}


def sarif_findings(run):
    found = set()
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        found.add((location["artifactLocation"]["uri"], location["region"]["startLine"],
                   result["ruleId"]))
    return found


class ToolTest(unittest.TestCase):
    with_broken_file = False
    with_crashing_file = False

    def setUp(self):
        self.sample = SampleProject(self.with_broken_file, self.with_crashing_file)
        self.addCleanup(self.sample.close)

    def run_json(self, *args):
        result = self.sample.run("--format=json", *args)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        return json.loads(result.stdout)

    def run_sarif(self, *args):
        result = self.sample.run("--format=sarif", *args)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        return json.loads(result.stdout)

    def assert_valid_sarif(self, log):
        with open(os.environ["SARIF_SCHEMA"], encoding="utf-8") as schema_file:
            schema = json.load(schema_file)
        errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
        self.assertEqual([], [e.message + " at " + "/".join(map(str, e.path)) for e in errors])


class TextOutput(ToolTest):
    def test_reports_every_marked_line_once_in_clang_format(self):
        result = self.sample.run("-j2")
        self.assertEqual(1, result.returncode, result.stderr)
        reported = set()
        for line in result.stdout.splitlines():
            match = re.match(r"^(/.*):(\d+):(\d+): warning: (.*) \[([a-z-]+)\]$", line)
            if match:
                relative = os.path.relpath(match.group(1), self.sample.root)
                key = (relative, int(match.group(2)), match.group(5))
                self.assertNotIn(key, reported, "reported twice: %s" % (key,))
                reported.add(key)
        self.assertEqual(self.sample.expected(), reported, result.stdout)
        # Notes and the source line with a caret follow each warning.
        self.assertRegex(result.stdout, r": note: ")
        self.assertRegex(result.stdout, r"\n +\d+ \| .*\n +\| +\^")

    def test_summary_counts_rules_and_files_and_no_progress_off_a_terminal(self):
        result = self.sample.run()
        expected = self.sample.expected()
        last = result.stderr.strip().splitlines()[-1]
        counts = {}
        for _, _, rule in expected:
            counts[rule] = counts.get(rule, 0) + 1
        listed = ", ".join("%s: %d" % item for item in sorted(counts.items()))
        self.assertEqual("placelint: %d finding%s (%s); %d files analysed, 0 failed"
                         % (len(expected), "s" if len(expected) > 1 else "", listed,
                            len(self.sample.units())), last)
        self.assertNotRegex(result.stderr, PROGRESS)

    def test_progress_line_on_a_terminal(self):
        controller, terminal = pty.openpty()
        try:
            result = subprocess.run([PLACELINT, "-p", self.sample.build, "-j1"],
                                    cwd=self.sample.root, stdout=subprocess.PIPE,
                                    stderr=terminal, text=True)
        finally:
            os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        os.close(controller)
        self.assertEqual(1, result.returncode)
        total = len(self.sample.units())
        self.assertIn(("[%d/%d] src/" % (total, total)).encode(), shown)
        self.assertNotRegex(result.stdout, PROGRESS)


class JsonOutput(ToolTest):
    def test_findings_fingerprints_and_summary(self):
        document = self.run_json()
        self.assertEqual(self.sample.expected(), json_findings(document))
        fingerprints = [f["fingerprint"] for f in document["findings"]]
        self.assertEqual(len(fingerprints), len(set(fingerprints)))
        summary = document["summary"]
        self.assertEqual(len(document["findings"]), summary["findings"])
        self.assertEqual(len(self.sample.units()), summary["filesAnalysed"])
        self.assertEqual(0, summary["filesFailed"])
        self.assertEqual(sorted(os.path.relpath(u["file"], self.sample.root)
                                for u in self.sample.units()), document["files"])

    def test_build_path_may_name_the_database_file(self):
        database = os.path.join(self.sample.build, "compile_commands.json")
        result = subprocess.run([PLACELINT, "-p", database, "--format=json"], cwd=self.sample.root,
                                capture_output=True, text=True)
        self.assertEqual(1, result.returncode, result.stderr)
        self.assertEqual(self.sample.expected(), json_findings(json.loads(result.stdout)))

    def test_output_file_instead_of_stdout(self):
        report = self.sample.path("report.json")
        result = self.sample.run("--format=json", "--output=" + report)
        self.assertEqual(1, result.returncode)
        self.assertEqual("", result.stdout)
        with open(report, encoding="utf-8") as output:
            self.assertEqual(self.sample.expected(), json_findings(json.load(output)))


class SarifOutput(ToolTest):
    def test_validates_against_the_sarif_schema(self):
        self.assert_valid_sarif(self.run_sarif())

    def test_rules_come_from_the_catalogue(self):
        driver = self.run_sarif()["runs"][0]["tool"]["driver"]
        self.assertEqual("placelint", driver["name"])
        self.assertRegex(driver["version"], r"^\d+\.\d+\.\d+$")
        rules = catalogue.load().rules
        self.assertEqual([rule.id for rule in rules], [r["id"] for r in driver["rules"]])
        for rule, descriptor in zip(rules, driver["rules"]):
            self.assertEqual(rule.title, descriptor["shortDescription"]["text"])
            self.assertEqual(rule.summary, descriptor["fullDescription"]["text"])
            self.assertIn(rule.summary, descriptor["help"]["text"])
            self.assertTrue(descriptor["helpUri"].endswith("docs/rules/%s.md" % rule.id))

    def test_results_locations_notes_fixes_and_fingerprints(self):
        run = self.run_sarif()["runs"][0]
        self.assertEqual("file://" + self.sample.root + "/",
                         run["originalUriBaseIds"]["%SRCROOT%"]["uri"])
        self.assertEqual(self.sample.expected(), sarif_findings(run))
        rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
        for result in run["results"]:
            self.assertEqual(result["ruleId"], rule_ids[result["ruleIndex"]])
            artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
            self.assertEqual("%SRCROOT%", artifact["uriBaseId"])
            self.assertIn("placelint/v1", result["partialFingerprints"])
            if result["ruleId"] == "placement-mixed-device":
                self.assertTrue(result.get("relatedLocations"), result)
                for related in result["relatedLocations"]:
                    self.assertTrue(related["message"]["text"])
                    self.assertIn("physicalLocation", related)
        discarded = [r for r in run["results"] if r["ruleId"] == "placement-discarded-transfer"]
        self.assertEqual(1, len(discarded))
        (change,) = discarded[0]["fixes"][0]["artifactChanges"]
        self.assertEqual("src/train.cpp", change["artifactLocation"]["uri"])
        self.assertEqual("weights = ", change["replacements"][0]["insertedContent"]["text"])

    def test_fingerprints_survive_an_unrelated_edit_above(self):
        before = self.run_sarif()["runs"][0]["results"]
        edited = ("src/train.cpp", "src/data.cpp", "include/sample/model.h")
        for number, relative in enumerate(edited):
            self.sample.write(relative, "// a comment\n\nstatic int unrelated%d = 1;\n" % number
                              + self.sample.read(relative))
        after = self.run_sarif()["runs"][0]["results"]

        def fingerprints(results):
            return sorted(r["partialFingerprints"]["placelint/v1"] for r in results)

        def lines(results):
            return sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"]
                          for r in results)

        self.assertEqual(fingerprints(before), fingerprints(after))
        self.assertEqual([line + 3 for line in lines(before)], lines(after))


class Baseline(ToolTest):
    def test_round_trip(self):
        baseline = self.sample.path("placelint-baseline.json")
        written = self.sample.run("--write-baseline=" + baseline)
        self.assertEqual(1, written.returncode)
        with open(baseline, encoding="utf-8") as recorded:
            self.assertEqual(len(self.sample.expected()), len(json.load(recorded)["findings"]))

        hidden = self.sample.run("--baseline=" + baseline, "--format=json")
        self.assertEqual(0, hidden.returncode, hidden.stderr)
        self.assertEqual([], json.loads(hidden.stdout)["findings"])
        self.assertIn("%d hidden by the baseline" % len(self.sample.expected()), hidden.stderr)

        # An unrelated edit shifts every old finding in data.cpp; a new bug
        # appended to train.cpp must still show, and only it.
        self.sample.write("src/data.cpp", "#include <string>\n\n// Reworked data loading.\n"
                          + self.sample.read("src/data.cpp"))
        self.sample.write("src/train.cpp", self.sample.read("src/train.cpp") + (
            "\npl::Tensor lateBug(pl::Tensor t) {\n"
            "  t.cpu();\n"
            "  return t;\n"
            "}\n"))
        new_line = self.sample.read("src/train.cpp").splitlines().index("  t.cpu();") + 1
        shown = self.sample.run("--baseline=" + baseline, "--format=json")
        self.assertEqual(1, shown.returncode, shown.stderr)
        self.assertEqual({("src/train.cpp", new_line, "placement-discarded-transfer")},
                         json_findings(json.loads(shown.stdout)))

    def test_unreadable_baseline_is_a_usage_error(self):
        self.sample.write("bad-baseline.json", "{\"findings\": 3}")
        result = self.sample.run("--baseline=bad-baseline.json")
        self.assertEqual(2, result.returncode)
        self.assertIn("not a placelint baseline", result.stderr)


class Fixes(ToolTest):
    def test_fix_applies_and_the_project_still_compiles(self):
        result = self.sample.run("--fix")
        self.assertEqual(1, result.returncode, result.stderr)
        self.assertIn("applied 2 of 2 suggested fixes", result.stderr)
        self.assertIn("  weights = weights.to(pl::kCUDA);", self.sample.read("src/train.cpp"))
        self.assertIn("  return pl::zeros({4, 4}, pl::device(device));",
                      self.sample.read("src/train.cpp"))
        for unit in self.sample.units():
            command = unit["command"].split() + ["-fsyntax-only", "-Werror=unused-result"]
            compiled = subprocess.run(command, cwd=unit["directory"], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True)
            self.assertEqual(0, compiled.returncode, compiled.stdout)
        after = self.run_json()
        remaining = {rule for _, _, rule in json_findings(after)}
        self.assertNotIn("placement-discarded-transfer", remaining)
        self.assertNotIn("placement-create-then-move", remaining)

    def test_export_fixes_writes_clang_tidy_yaml(self):
        exported = self.sample.path("fixes.yaml")
        result = self.sample.run("--export-fixes=" + exported)
        self.assertEqual(1, result.returncode)
        with open(exported, encoding="utf-8") as document:
            fixes = yaml.safe_load(document)
        names = sorted(d["DiagnosticName"] for d in fixes["Diagnostics"])
        self.assertEqual(sorted(rule for _, _, rule in self.sample.expected()), names)
        (discarded,) = [d for d in fixes["Diagnostics"]
                        if d["DiagnosticName"] == "placement-discarded-transfer"]
        (replacement,) = discarded["DiagnosticMessage"]["Replacements"]
        self.assertEqual(self.sample.path("src/train.cpp"), replacement["FilePath"])
        self.assertEqual("weights = ", replacement["ReplacementText"])
        # Exporting does not touch the sources.
        self.assertIn("  weights.to(pl::kCUDA);", self.sample.read("src/train.cpp"))


class ExitCodes(ToolTest):
    def test_no_findings_is_0(self):
        result = self.sample.run("src/clean.cpp")
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertTrue(result.stderr.strip().endswith("no findings; 1 file analysed, 0 failed"))

    def test_findings_is_1(self):
        self.assertEqual(1, self.sample.run("src/train.cpp").returncode)

    def test_usage_and_tool_errors_are_2(self):
        for args in (["--format=xml"], ["--shard=3/2"], ["src/no-such-dir"],
                     ["--checks=-*"], ["--config={Checks: [unclosed"]):
            result = self.sample.run(*args)
            self.assertEqual(2, result.returncode, "%s: %s" % (args, result.stderr))
            self.assertTrue(result.stderr.strip(), args)
        missing = subprocess.run([PLACELINT, "-p", self.sample.path("no-build")],
                                 cwd=self.sample.root, capture_output=True, text=True)
        self.assertEqual(2, missing.returncode)
        self.assertIn("compilation database", missing.stderr)


class BrokenFile(ToolTest):
    with_broken_file = True

    def test_reported_and_the_run_goes_on(self):
        result = self.sample.run("--format=sarif", "-j2")
        self.assertEqual(2, result.returncode)
        log = json.loads(result.stdout)
        self.assert_valid_sarif(log)
        run = log["runs"][0]
        self.assertEqual(self.sample.expected(), sarif_findings(run))
        invocation = run["invocations"][0]
        self.assertFalse(invocation["executionSuccessful"])
        (notification,) = invocation["toolExecutionNotifications"]
        self.assertEqual("error", notification["level"])
        self.assertIn("no_such_method", notification["message"]["text"])
        where = notification["locations"][0]["physicalLocation"]
        self.assertEqual("src/broken.cpp", where["artifactLocation"]["uri"])
        self.assertEqual(5, where["region"]["startLine"])
        self.assertTrue(result.stderr.strip().endswith(
            "%d files analysed, 1 failed" % (len(self.sample.units()) - 1)))

    def test_text_shows_the_compile_error(self):
        result = self.sample.run()
        self.assertEqual(2, result.returncode)
        self.assertRegex(result.stdout, r"src/broken.cpp:5:16: error: no member named "
                                        r"'no_such_method'")



class BadInput(ToolTest):
    """Bad input reaches the user as one clear error naming the file, the
    other units' findings are still written, and the exit status is 2 (a
    unit clang cannot parse: BrokenFile)."""

    def test_a_file_the_database_names_that_is_gone(self):
        units = self.sample.units()
        gone = dict(units[0])
        gone["file"] = os.path.join(self.sample.root, "src", "generated.cpp")
        gone["command"] = gone["command"].replace(units[0]["file"], gone["file"])
        with open(os.path.join(self.sample.build, "compile_commands.json"), "w",
                  encoding="utf-8") as db:
            json.dump(units + [gone], db)
        result = self.sample.run("--format=json")
        self.assertEqual(2, result.returncode, result.stderr)
        document = json.loads(result.stdout)
        self.assertEqual(self.sample.expected(), json_findings(document))
        (notification,) = document["notifications"]
        self.assertEqual("src/generated.cpp", notification["file"])
        self.assertIn("compile database names: No such file", notification["message"])
        text = self.sample.run()
        self.assertEqual(2, text.returncode)
        self.assertRegex(text.stdout, r"src/generated\.cpp: error: cannot read the file")

    def test_a_truncated_baseline(self):
        baseline = self.sample.path("baseline.json")
        self.assertEqual(1, self.sample.run("--write-baseline=" + baseline).returncode)
        self.sample.write("baseline.json", self.sample.read("baseline.json")[:100])
        result = self.sample.run("--baseline=baseline.json")
        self.assertEqual(2, result.returncode)
        self.assertIn("baseline 'baseline.json' is not JSON", result.stderr)

    def test_a_truncated_shard_log_is_named_by_merge(self):
        log = self.sample.path("shard.sarif")
        result = self.sample.run("--format=sarif", "--output=" + log)
        self.assertEqual(1, result.returncode, result.stderr)
        self.sample.write("shard.sarif", self.sample.read("shard.sarif")[:300])
        merged = self.sample.path("merged.sarif")
        result = subprocess.run([PLACELINT, "merge", merged, log], capture_output=True, text=True)
        self.assertEqual(2, result.returncode)
        self.assertIn("'%s' is not a placelint SARIF log" % log, result.stderr)

    def test_an_output_path_that_cannot_be_written_fails_before_the_analysis(self):
        result = self.sample.run("--output=no-such-dir/report.txt")
        self.assertEqual(2, result.returncode)
        self.assertIn("cannot write 'no-such-dir/report.txt': No such file or directory",
                      result.stderr)
        self.assertNotIn("analysed", result.stderr)

    def test_a_malformed_option_value(self):
        result = self.sample.run("-j", "two")
        self.assertEqual(2, result.returncode)
        self.assertIn("-j option: 'two' value invalid", result.stderr)

class CrashingFile(ToolTest):
    with_crashing_file = True

    def test_a_crash_costs_one_file_not_the_run(self):
        result = self.sample.run("--format=sarif", "-j2")
        self.assertEqual(2, result.returncode, result.stderr)
        log = json.loads(result.stdout)
        self.assert_valid_sarif(log)
        run = log["runs"][0]
        self.assertEqual(self.sample.expected(), sarif_findings(run))
        (notification,) = run["invocations"][0]["toolExecutionNotifications"]
        self.assertEqual("crash", notification["descriptor"]["id"])
        self.assertIn("crashed", notification["message"]["text"])
        where = notification["locations"][0]["physicalLocation"]["artifactLocation"]
        self.assertEqual("src/crash.cpp", where["uri"])
        self.assertTrue(result.stderr.strip().endswith(
            "%d files analysed, 1 failed" % (len(self.sample.units()) - 1)))


class Parallelism(ToolTest):
    def test_j2_reports_the_same_as_j1(self):
        one = self.run_json("-j1")
        two = self.run_json("-j2")
        self.assertEqual(one["findings"], two["findings"])
        self.assertEqual(one["files"], two["files"])

    def test_shards_cover_every_file_exactly_once(self):
        everything = self.run_json()
        covered = []
        findings = set()
        for index in range(1, 4):
            shard = self.run_json("--shard=%d/3" % index)
            covered += shard["files"]
            findings |= json_findings(shard)
        self.assertEqual(sorted(everything["files"]), sorted(covered))
        self.assertEqual(json_findings(everything), findings)
        again = self.run_json("--shard=2/3")
        self.assertEqual(self.run_json("--shard=2/3")["files"], again["files"])

    def test_merge_joins_shard_logs(self):
        logs = []
        for index in range(1, 3):
            log = self.sample.path("shard-%d.sarif" % index)
            result = self.sample.run("--format=sarif", "--output=" + log, "--shard=%d/2" % index)
            self.assertIn(result.returncode, (0, 1), result.stderr)
            logs.append(log)
        merged = self.sample.path("merged.sarif")
        result = subprocess.run([PLACELINT, "merge", merged] + logs, capture_output=True,
                                text=True)
        self.assertEqual(1, result.returncode, result.stderr)
        with open(merged, encoding="utf-8") as output:
            log = json.load(output)
        self.assert_valid_sarif(log)
        whole = self.run_sarif()["runs"][0]
        self.assertEqual(sarif_findings(whole), sarif_findings(log["runs"][0]))
        self.assertEqual(len(whole["results"]), len(log["runs"][0]["results"]))


class Configuration(ToolTest):
    def test_clang_tidy_file_in_the_tree_is_honoured(self):
        self.sample.write(".clang-tidy", "Checks: '-placement-transfer-in-loop'\n")
        rules = {rule for _, _, rule in json_findings(self.run_json())}
        self.assertNotIn("placement-transfer-in-loop", rules)
        self.assertIn("placement-mixed-device", rules)

    def test_config_and_checks_on_the_command_line(self):
        only = json_findings(self.run_json("--checks=-*,placement-discarded-transfer"))
        self.assertEqual({"placement-discarded-transfer"}, {rule for _, _, rule in only})
        configured = json_findings(self.run_json("--config={Checks: '-*,placement-mixed-device'}"))
        self.assertEqual({"placement-mixed-device"}, {rule for _, _, rule in configured})

    def test_list_checks_needs_no_compile_command(self):
        listed = subprocess.run([PLACELINT, "--list-checks"], cwd=self.sample.root,
                                capture_output=True, text=True)
        self.assertEqual(0, listed.returncode, listed.stderr)
        checks = [line.strip() for line in listed.stdout.splitlines()[1:] if line.strip()]
        self.assertEqual(sorted(rule.id for rule in catalogue.load().rules), checks)
        only = subprocess.run([PLACELINT, "--list-checks", "--checks=-*,placement-mixed-device"],
                              cwd=self.sample.root, capture_output=True, text=True)
        self.assertEqual(0, only.returncode, only.stderr)
        self.assertEqual(["placement-mixed-device"],
                         [line.strip() for line in only.stdout.splitlines()[1:] if line.strip()])

    def test_header_filter_controls_header_findings(self):
        without = json_findings(self.run_json("--header-filter=^$"))
        self.assertFalse(any(path.startswith("include/") for path, _, _ in without))
        self.assertTrue(any(path.startswith("include/") for path, _, _ in self.sample.expected()))



class RelativePaths(ToolTest):
    """A compile database written with relative paths (`-Iinclude`, `-I include`,
    "file": "src/eval.cpp"), as build systems other than CMake write them."""

    UNITS = ("src/eval.cpp", "src/train.cpp")

    def write_relative_database(self):
        directory = os.path.join(self.sample.root, "relative-db")
        os.makedirs(directory)
        pl_flags = ["-I" + d for d in os.environ["SAMPLE_INCLUDE_DIRS"].split(os.pathsep) if d]
        include_spellings = (["-Iinclude"], ["-I", "./include"])
        commands = [{"directory": self.sample.root, "file": unit,
                     "arguments": ([os.environ.get("CXX", "clang++-19"), "-std=c++20"] + spelling
                                   + pl_flags + ["-c", unit])}
                    for unit, spelling in zip(self.UNITS, include_spellings)]
        with open(os.path.join(directory, "compile_commands.json"), "w", encoding="utf-8") as db:
            json.dump(commands, db)
        return directory

    def test_header_findings_under_a_relative_include_directory_are_kept(self):
        database = self.write_relative_database()
        result = subprocess.run([PLACELINT, "-p", database, "--format=json"], cwd=self.sample.root,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        found = json_findings(json.loads(result.stdout))
        wanted = {f for f in self.sample.expected()
                  if f[0].startswith("include/") or f[0] in self.UNITS}
        self.assertTrue(any(path.startswith("include/") for path, _, _ in wanted))
        self.assertEqual(wanted, found)

    def test_an_explicit_header_filter_anchored_at_the_root_matches_them(self):
        database = self.write_relative_database()
        root = os.path.realpath(self.sample.root) + os.sep
        anchored = "--header-filter=^" + re.sub(r"([.^$|()\[\]{}*+?\\])", r"\\\1", root)
        result = subprocess.run([PLACELINT, "-p", database, "--format=json", anchored],
                                cwd=self.sample.root, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        def headers(findings):
            return {f for f in findings if f[0].startswith("include/")}
        self.assertEqual(headers(self.sample.expected()),
                         headers(json_findings(json.loads(result.stdout))))


def git(root, *args):
    subprocess.run(["git", "-C", root, "-c", "user.name=placelint", "-c",
                    "user.email=placelint@example.invalid"] + list(args),
                   check=True, stdout=subprocess.DEVNULL)


class ChangedOnly(ToolTest):
    """--changed-since and --files-from: only the units that are, or include,
    a changed file; the others are listed as skipped."""

    UNITS = {"src/clean.cpp", "src/data.cpp", "src/eval.cpp", "src/train.cpp"}
    INCLUDERS = {"src/eval.cpp", "src/train.cpp"}  # of include/sample/model.h

    def setUp(self):
        super().setUp()
        git(self.sample.root, "init", "-q")
        git(self.sample.root, "add", "-A")
        git(self.sample.root, "commit", "-q", "-m", "sample")

    def append(self, relative, text):
        self.sample.write(relative, self.sample.read(relative) + text)

    def test_an_edited_unit_alone_is_analysed(self):
        self.append("src/clean.cpp", "// edited\n")
        document = self.run_json("--changed-since=HEAD")
        self.assertEqual(["src/clean.cpp"], document["files"])
        self.assertEqual(sorted(self.UNITS - {"src/clean.cpp"}), document["unchanged"])
        self.assertEqual("git diff HEAD", document["changes"])
        self.assertEqual(3, document["summary"]["filesUnchanged"])

    def test_an_edited_header_selects_the_units_that_include_it(self):
        self.append("include/sample/model.h", "// edited\n")
        log = self.run_sarif("--changed-since=HEAD")
        self.assert_valid_sarif(log)
        run = log["runs"][0]
        self.assertEqual(sorted(self.UNITS - self.INCLUDERS),
                         [u["uri"] for u in run["properties"]["unchangedUnits"]])
        wanted = {f for f in self.sample.expected()
                  if f[0] in self.INCLUDERS or f[0].startswith("include/")}
        self.assertEqual(wanted, sarif_findings(run))

    def test_committed_changes_count_too_and_text_names_the_skipped_units(self):
        self.append("src/data.cpp", "// edited\n")
        git(self.sample.root, "commit", "-q", "-am", "edit")
        result = self.sample.run("--changed-since=HEAD~1")
        self.assertEqual(1, result.returncode, result.stderr)
        for unit in self.UNITS - {"src/data.cpp"}:
            self.assertIn(unit + ": skipped: reads no changed file (git diff HEAD~1)",
                          result.stdout)
        self.assertIn("placement-transfer-in-loop", result.stdout)
        self.assertIn("1 file analysed, 0 failed, 3 skipped as unchanged", result.stderr)

    def test_changed_lines_only_keeps_the_findings_on_edited_lines(self):
        lines = self.sample.read("src/train.cpp").split("\n")
        lines[15] += "  "  # line 16: the discarded transfer
        self.sample.write("src/train.cpp", "\n".join(lines))
        every = json_findings(self.run_json("--changed-since=HEAD"))
        self.assertEqual({f for f in self.sample.expected()
                          if f[0] in ("src/train.cpp", "include/sample/model.h")}, every)
        edited = json_findings(self.run_json("--changed-since=HEAD", "--changed-lines-only"))
        self.assertEqual({("src/train.cpp", 16, "placement-discarded-transfer")}, edited)

    def test_files_from_lists_the_changed_files(self):
        listing = os.path.join(self.sample.temp.name, "changed.txt")
        with open(listing, "w", encoding="utf-8") as out:
            out.write("include/sample/model.h\n\n")
        document = self.run_json("--files-from=" + listing)
        self.assertEqual(sorted(self.INCLUDERS), document["files"])
        self.assertEqual("--files-from " + listing, document["changes"])

    def test_nothing_changed_analyses_nothing(self):
        document = self.run_json("--changed-since=HEAD")
        self.assertEqual([], document["files"])
        self.assertEqual(sorted(self.UNITS), document["unchanged"])

    def test_bad_requests_are_usage_errors(self):
        for args, message in [(["--changed-since=no-such-revision"], "git diff failed"),
                              (["--changed-lines-only"], "needs --changed-since"),
                              (["--files-from=/nonexistent/list"], "cannot read --files-from"),
                              (["--changed-since=HEAD", "--write-baseline=b.json"],
                               "records the whole tree")]:
            result = self.sample.run(*args)
            self.assertEqual(2, result.returncode, args)
            self.assertIn(message, result.stderr)


def cache_entries(directory):
    return [os.path.join(folder, name) for folder, _, names in os.walk(directory)
            for name in names]


# Two units, one that includes the sample's header and one that does not,
# keep the cache tests short.
CACHED_UNITS = ("src/clean.cpp", "src/eval.cpp")


def cached_units_expected(sample):
    return {f for f in sample.expected()
            if f[0] in CACHED_UNITS or f[0].startswith("include/")}


class ResultCache(ToolTest):
    """--cache-dir: a unit none of whose files changed is not analysed again."""

    def setUp(self):
        super().setUp()
        self.cache = os.path.join(self.sample.temp.name, "cache")

    def run_cached(self, *args, cache=None):
        result = self.sample.run("--format=json", "--cache-dir=" + (cache or self.cache),
                                 "--cache-stats", *(CACHED_UNITS + args))
        self.assertIn(result.returncode, (0, 1), result.stderr)
        return json.loads(result.stdout), result.stderr

    def test_a_warm_run_reuses_every_unit_and_reports_the_same(self):
        cold, stats = self.run_cached()
        self.assertIn("0 hits (0 local, 0 remote), 2 misses, 2 stored", stats)
        warm, stats = self.run_cached()
        self.assertIn("2 hits (2 local, 0 remote), 0 misses, 0 stored", stats)
        self.assertEqual(2, warm["summary"]["filesFromCache"])
        self.assertEqual(cold["findings"], warm["findings"])
        self.assertEqual(cached_units_expected(self.sample), json_findings(warm))

    def test_an_edited_header_misses_only_the_units_that_include_it(self):
        self.run_cached()
        self.sample.write("include/sample/model.h",
                          "// edited\n" + self.sample.read("include/sample/model.h"))
        document, stats = self.run_cached()
        self.assertIn("1 hits (1 local, 0 remote), 1 misses, 1 stored", stats)
        # The findings moved down a line with the header's edit.
        self.assertIn(("include/sample/model.h", 14, "placement-mixed-device"),
                      json_findings(document))

    def test_another_configuration_is_another_key(self):
        self.run_cached()
        document, stats = self.run_cached("--checks=-*,placement-mixed-device")
        self.assertIn("0 hits", stats)
        self.assertEqual({"placement-mixed-device"}, {f["rule"] for f in document["findings"]})

    def test_an_unreadable_entry_is_a_miss_with_a_warning(self):
        cold, _ = self.run_cached()
        for entry in cache_entries(self.cache):
            with open(entry, "r+b") as damaged:
                damaged.truncate(5)
        warm, stats = self.run_cached()
        self.assertIn("ignoring an unreadable cache entry", stats)
        self.assertEqual(cold["findings"], warm["findings"])
        self.assertEqual(0, warm["summary"]["filesFromCache"])

    def test_concurrent_writers_share_one_directory(self):
        runs = [subprocess.Popen([PLACELINT, "-p", self.sample.build, "-j1", "--format=json",
                                  "--cache-dir=" + self.cache] + list(CACHED_UNITS),
                                 cwd=self.sample.root,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        outputs = [run.communicate() for run in runs]
        for run, (_, errors) in zip(runs, outputs):
            self.assertEqual(1, run.returncode, errors)
        self.assertEqual(json.loads(outputs[0][0])["findings"],
                         json.loads(outputs[1][0])["findings"])
        self.assertEqual([], [e for e in cache_entries(self.cache) if ".tmp-" in e])
        warm, stats = self.run_cached()
        self.assertIn("2 hits", stats)

    def test_a_compiler_named_without_its_directory_still_hits(self):
        # The driver then finds the standard headers through
        # /usr/lib/llvm-19/bin/../lib/gcc/...: the recorded paths must keep
        # their "..", which a symbolic link makes mean another directory.
        database = os.path.join(self.sample.build, "compile_commands.json")
        units = self.sample.units()
        for unit in units:
            compiler = shlex.split(unit["command"])[0]
            unit["command"] = unit["command"].replace(compiler, os.path.basename(compiler), 1)
        with open(database, "w", encoding="utf-8") as out:
            json.dump(units, out)
        self.run_cached()
        warm, stats = self.run_cached()
        self.assertIn("2 hits (2 local, 0 remote), 0 misses", stats)

    def test_the_size_bound_evicts_entries(self):
        _, stats = self.run_cached("--cache-size=0")
        self.assertIn("0.0 MiB of 0 MiB, 0 entries, 4 evicted", stats)
        self.assertEqual([], cache_entries(self.cache))


class CacheServer:
    """Bazel's HTTP remote-cache protocol on 127.0.0.1, in this process:
    GET and PUT of /ac/KEY and /cas/SHA256, held in a dict."""

    def __init__(self, delay=0.0, read_only=False):
        import http.server
        import threading
        self.entries = {}
        self.requests = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                time.sleep(delay)
                server.requests.append(("GET", self.path))
                body = server.entries.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                try:
                    self.wfile.write(body or b"")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (the slow-remote test)

            def do_PUT(self):
                time.sleep(delay)
                server.requests.append(("PUT", self.path))
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if read_only:
                    self.send_response(403)
                elif self.path.startswith("/cas/") and \
                        hashlib.sha256(body).hexdigest() != self.path[len("/cas/"):]:
                    self.send_response(400)
                else:
                    server.entries[self.path] = body
                    self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class RemoteCache(ToolTest):
    """--remote-cache: results shared through an HTTP cache; a remote that
    fails is a warning, never a failed run."""

    def setUp(self):
        super().setUp()
        self.expected = cached_units_expected(self.sample)

    def run_remote(self, url, local, *args):
        result = self.sample.run("--format=json", "--cache-stats", "--remote-cache=" + url,
                                 "--cache-dir=" + os.path.join(self.sample.temp.name, local),
                                 *(CACHED_UNITS + args))
        self.assertIn(result.returncode, (0, 1), result.stderr)
        document = json.loads(result.stdout)
        self.assertEqual(self.expected, json_findings(document))
        return document, result.stderr

    def test_a_second_machine_hits_what_the_first_stored(self):
        server = CacheServer()
        self.addCleanup(server.close)
        _, stats = self.run_remote(server.url, "first")
        self.assertIn("2 stored", stats)
        self.assertEqual({"/ac/", "/cas/"}, {path[:path.index("/", 1) + 1]
                                             for _, path in server.requests})
        document, stats = self.run_remote(server.url, "second")
        self.assertIn("2 hits (0 local, 2 remote), 0 misses", stats)
        self.assertEqual(2, document["summary"]["filesFromCache"])

    def test_a_corrupt_remote_entry_is_a_miss_with_a_warning(self):
        server = CacheServer()
        self.addCleanup(server.close)
        self.run_remote(server.url, "first")
        for path in server.entries:
            if path.startswith("/cas/"):
                server.entries[path] = b"garbage"
        document, stats = self.run_remote(server.url, "second")
        self.assertIn("does not match its digest; treated as a miss", stats)
        self.assertEqual(0, document["summary"]["filesFromCache"])

    def test_a_read_only_remote_is_still_read(self):
        writable = CacheServer()
        self.addCleanup(writable.close)
        self.run_remote(writable.url, "ci")
        read_only = CacheServer(read_only=True)
        self.addCleanup(read_only.close)
        read_only.entries.update(writable.entries)
        # One unit changed: a miss, whose upload is refused; the other unit
        # is still read from the remote.
        self.sample.write("src/clean.cpp", self.sample.read("src/clean.cpp") + "// edited\n")
        document, stats = self.run_remote(read_only.url, "developer")
        self.assertIn("refused (HTTP status 403); reading it but not writing", stats)
        self.assertIn("1 hits (0 local, 1 remote), 1 misses", stats)

    def test_an_unreachable_remote_is_a_warning(self):
        with socket.socket() as unused:
            unused.bind(("127.0.0.1", 0))
            port = unused.getsockname()[1]
        started = time.monotonic()
        _, stats = self.run_remote("http://127.0.0.1:%d" % port, "local")
        self.assertEqual(1, stats.count("warning: remote cache"), stats)
        self.assertIn("not using it for the rest of this run", stats)
        self.assertLess(time.monotonic() - started, 120)

    def test_a_slow_remote_times_out_with_a_warning(self):
        server = CacheServer(delay=2.0)
        self.addCleanup(server.close)
        _, stats = self.run_remote(server.url, "local", "--remote-cache-timeout=200")
        self.assertEqual(1, stats.count("warning: remote cache"), stats)
        self.assertIn("timed out", stats.lower())

    def test_a_url_that_is_not_http_is_a_usage_error(self):
        result = self.sample.run("--remote-cache=ftp://example.invalid")
        self.assertEqual(2, result.returncode)
        self.assertIn("wants an http:// or https:// URL", result.stderr)



BAZEL_STUB_RULES = {
    # Debian's Bazel (bazel-bootstrap 4.2.3) loads these two repositories
    # from GitHub; offline, stubs that forward to its native rules do.
    "rules_cc": ("cc", ["cc_binary", "cc_import", "cc_library", "cc_test", "cc_toolchain",
                        "cc_toolchain_suite"]),
    "rules_java": ("java", ["java_binary", "java_import", "java_library", "java_runtime",
                            "java_toolchain"]),
}


@unittest.skipUnless(shutil.which("bazel"), "bazel is not installed (scripts/setup.sh)")
class BazelAspect(unittest.TestCase):
    """bazel/placelint.bzl: placelint_aspect runs placelint on cc_* targets
    as actions with declared inputs, and Bazel re-runs only what changed."""

    def setUp(self):
        self.temp = tempfile.TemporaryDirectory(prefix="placelint-bazel-")
        self.addCleanup(self.temp.cleanup)
        self.workspace = os.path.join(self.temp.name, "workspace")
        for folder in ("src", "include"):
            shutil.copytree(os.path.join(SAMPLE, folder), os.path.join(self.workspace, folder))
        overrides = []
        for repository, (package, rules) in BAZEL_STUB_RULES.items():
            root = os.path.join(self.temp.name, repository)
            os.makedirs(os.path.join(root, package))
            for name in ("WORKSPACE", "BUILD", os.path.join(package, "BUILD")):
                open(os.path.join(root, name), "w").close()
            with open(os.path.join(root, package, "defs.bzl"), "w") as defs:
                for rule in rules:
                    defs.write("def %s(**attrs):\n    native.%s(**attrs)\n" % (rule, rule))
            overrides.append("--override_repository=%s=%s" % (repository, root))
        bazel_rules = os.path.join(os.path.dirname(os.path.dirname(HERE)), "bazel")
        with open(os.path.join(self.workspace, "WORKSPACE"), "w") as out:
            out.write('local_repository(name = "placelint", path = "%s")\n' % bazel_rules)
        copts = ["-std=c++20"] + ["-I" + d for d in
                                  os.environ["SAMPLE_INCLUDE_DIRS"].split(os.pathsep)]
        with open(os.path.join(self.workspace, "BUILD"), "w") as out:
            out.write(
                'cc_library(name = "model", hdrs = ["include/sample/model.h"], '
                'includes = ["include"])\n'
                'cc_library(name = "train", srcs = ["src/train.cpp"], deps = [":model"], '
                'copts = %r)\n'
                'cc_binary(name = "app", srcs = ["src/eval.cpp", "src/clean.cpp"], '
                'deps = [":train"], copts = %r)\n' % (copts, copts))
        self.startup = ["bazel", "--output_user_root=" + os.path.join(self.temp.name, "root")]
        self.addCleanup(subprocess.run, self.startup + ["shutdown"], cwd=self.workspace,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        placelint_dir = os.path.dirname(os.path.abspath(shutil.which(PLACELINT) or PLACELINT))
        self.build = self.startup + [
            "build", "--aspects=@placelint//:placelint.bzl%placelint_aspect",
            "--output_groups=placelint",
            "--action_env=PATH=%s:/usr/bin:/bin" % placelint_dir] + overrides + ["//:app"]

    def reports(self):
        found = {}
        root = os.path.join(self.workspace, "bazel-bin")
        for folder, _, names in os.walk(root):
            for name in names:
                if name.endswith(".json"):
                    path = os.path.join(folder, name)
                    found[os.path.relpath(path, root)] = os.stat(path).st_mtime_ns
        return found

    def test_every_source_of_the_target_and_its_deps_is_reported(self):
        result = subprocess.run(self.build, cwd=self.workspace, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        self.assertEqual(0, result.returncode, result.stdout[-3000:])
        reports = self.reports()
        self.assertEqual({"app.placelint/src_clean.cpp.json", "app.placelint/src_eval.cpp.json",
                          "train.placelint/src_train.cpp.json"}, set(reports))
        with open(os.path.join(self.workspace, "bazel-bin", "train.placelint",
                               "src_train.cpp.json")) as report:
            found = json_findings(json.load(report))
        self.assertEqual({f for f in expected_in(SAMPLE, "src/train.cpp")}, found)

        # A changed source re-runs its action alone.
        with open(os.path.join(self.workspace, "src", "clean.cpp"), "a") as source:
            source.write("// edited\n")
        result = subprocess.run(self.build, cwd=self.workspace, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        self.assertEqual(0, result.returncode, result.stdout[-3000:])
        after = self.reports()
        changed = {name for name in reports if after[name] != reports[name]}
        self.assertEqual({"app.placelint/src_clean.cpp.json"}, changed)


def expected_in(root, relative):
    with open(os.path.join(root, relative), encoding="utf-8") as source:
        return {(relative, number, match.group("rule"))
                for number, line in enumerate(source, 1)
                for match in [EXPECT.search(line)] if match}


if __name__ == "__main__":
    unittest.main()
