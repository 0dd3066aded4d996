#!/usr/bin/python3
"""Checks that placelint's two halves agree about one example program.

    parity.py --manifest programs.json --program TARGET [tool options]

The manifest (written by test/parity/CMakeLists.txt) lists every program of
examples/: its kind (bug, fixed, example), its sources, its executable and,
for bugs and fixes, its twin. A bug's source marks each buggy line with
`// expect: <rule-id>` and says where its run shows the bug:
`// parity: sim:0=report cpu=clean` (run with that device argument) or
`// parity: default=report` (run without arguments); `report-without-cuda`
is `report` where the build has no CUDA, and may run clean where it has
(a GPU makes the bug harmless). A line marked
`// expect-runtime-only: <rule-id>` is a bug the analyzer cannot see by
design (the source says why): only the runtime must report it.

What each half must do for each rule comes from the catalogue
(rules/include/placelint/rules.def, read by rules/catalogue.py). For a bug:
  analyzer   the plugin in clang-tidy-19 and the placelint executable each
             report exactly the expected rule at each `// expect:` line and
             nothing else. A rule the analyzer does not check yet is
             reported as pending, and the program must then be clean for
             every check that exists.
  compiler   a rule mirrored at compile time ([[nodiscard]] on
             Tensor::to/cuda/cpu): compiling the program warns with the rule
             id at exactly the expected lines.
  runtime    run on each device of the parity line under
             PL_TRANSFER_GUARD=disallow (and =log for a rule the transfer
             guard logs), the program reports the expected rule id, at the
             expected line where the catalogue says the runtime names the
             call site; it runs clean where the line says clean.
For a fixed twin, training and inference: no finding from any half.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))), "rules"))
import catalogue  # noqa: E402  (rules/catalogue.py, found through the line above)

EXPECT = re.compile(r"//\s*(?P<marker>expect|expect-runtime-only):\s*(?P<rule>[a-z][a-z-]*)\s*$")
PARITY = re.compile(r"^//\s*parity:\s*(?P<runs>.*)$")
DIAGNOSTIC = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                        r"(?P<kind>warning|error|fatal error): (?P<text>.*)$")
CHECK_NAME = re.compile(r"\[(?P<check>[\w.-]+)\]$")
# Where a runtime report names the user's call site: "at FILE:LINE".
CALL_SITE = re.compile(r"\bat (?P<file>/[^\s:]+):(?P<line>\d+)\b")
HOST_TO_DEVICE = re.compile(r"^host-to-device copies: (?P<count>\d+)$", re.M)
# What a run of the parity line shows (see the module's docstring).
OUTCOMES = ("report", "report-without-cuda", "clean")

CATALOGUE = catalogue.load()
RULES: Dict[str, catalogue.Rule] = CATALOGUE.by_id()
# The --checks value for clang-tidy and placelint: the catalogue's checks only.
CHECKS = "-*," + CATALOGUE.check_glob


class Failure(Exception):
    """One half disagrees with the expectations; the message says how."""


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    rule: str

    def __str__(self) -> str:
        return "%s:%d %s" % (os.path.basename(self.file), self.line, self.rule)


def describe(findings: Set[Finding]) -> str:
    return ", ".join(str(f) for f in sorted(findings, key=lambda f: (f.file, f.line))) or "none"


def run(args: List[str], env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None) -> Tuple[int, str]:
    process = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                             cwd=cwd, timeout=600)
    return process.returncode, process.stdout.decode(errors="replace")


def read_expectations(sources: List[str],
                      rule_ids: Set[str]) -> Tuple[Set[Finding], Set[Finding]]:
    """Every expected finding, and the subset the analyzer must not report."""
    expected, runtime_only = set(), set()
    for source in sources:
        with open(source, encoding="utf-8") as f:
            for number, text in enumerate(f, start=1):
                match = EXPECT.search(text)
                if not match:
                    continue
                if match.group("rule") not in rule_ids:
                    raise Failure("%s:%d: `// %s: %s` names no rule of rules.def"
                                  % (source, number, match.group("marker"), match.group("rule")))
                finding = Finding(os.path.realpath(source), number, match.group("rule"))
                expected.add(finding)
                if match.group("marker") == "expect-runtime-only":
                    runtime_only.add(finding)
    return expected, runtime_only


def read_runs(source: str) -> List[Tuple[str, str]]:
    """The (device, outcome) pairs of the source's `// parity:` line."""
    with open(source, encoding="utf-8") as f:
        for text in f:
            match = PARITY.match(text.strip())
            if match:
                runs = [tuple(item.split("=", 1)) for item in match.group("runs").split()]
                if not runs or any(len(r) != 2 or r[1] not in OUTCOMES for r in runs):
                    raise Failure("%s: malformed parity line: %s" % (source, text.strip()))
                return runs  # type: ignore[return-value]
    raise Failure("%s: no `// parity: DEVICE=%s ...` line" % (source, "|".join(OUTCOMES)))


def diagnostics(output: str, cwd: str) -> List[Tuple[str, int, str, str]]:
    """(file, line, kind, text) of every warning and error in a tool's output."""
    found = []
    for text in output.splitlines():
        match = DIAGNOSTIC.match(text)
        if match:
            path = os.path.realpath(os.path.join(cwd, match.group("file")))
            found.append((path, int(match.group("line")), match.group("kind"),
                          match.group("text")))
    return found


class Analyzer:
    """The analyzer half, through the plugin in clang-tidy and through placelint."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        code, output = run([options.clang_tidy, "--load=" + options.plugin,
                            "--checks=" + CHECKS, "--list-checks"])
        if code != 0:
            raise Failure("clang-tidy --list-checks failed:\n" + output)
        listed = set(re.findall(r"^\s+(%s[a-z-]+)\s*$" % re.escape(CATALOGUE.prefix), output,
                                re.M))
        self.checks = {rule.id for rule in CATALOGUE.rules if rule.checked}
        if listed != self.checks:
            raise Failure("the plugin registers %s, but rules.def marks %s as checked:\n%s"
                          % (", ".join(sorted(listed)) or "no check",
                             ", ".join(sorted(self.checks)), output))

    def commands(self, sources: List[str]) -> Dict[str, List[str]]:
        build = self.options.build_dir
        return {
            "plugin": [self.options.clang_tidy, "--load=" + self.options.plugin,
                       "--checks=" + CHECKS, "-p", build, "--quiet"] + sources,
            "placelint": [self.options.placelint, "--checks=" + CHECKS, "-p", build,
                          "--quiet", "-j", "1"] + sources,
        }

    def check(self, sources: List[str], expected: Set[Finding]) -> List[str]:
        checked = {f for f in expected if f.rule in self.checks}
        lines = []
        for mode, command in self.commands(sources).items():
            code, output = run(command, cwd=self.options.build_dir)
            found = set()
            for path, line, kind, text in diagnostics(output, self.options.build_dir):
                check = CHECK_NAME.search(text)
                if kind != "warning" or not check:
                    raise Failure("analyzer (%s) could not analyse the program:\n%s"
                                  % (mode, output))
                found.add(Finding(path, line, check.group("check")))
            if code not in (0, 1) or (code == 1 and not found):
                raise Failure("analyzer (%s) failed with exit status %d:\n%s"
                              % (mode, code, output))
            if found != checked:
                raise Failure("analyzer (%s): expected %s\n  but it reported %s\n%s"
                              % (mode, describe(checked), describe(found), output))
            lines.append("analyzer (%s): %s" % (mode, describe(found)))
        for rule in sorted({f.rule for f in expected} - self.checks):
            half = ("runtime-only for now" if RULES[rule].raised_at_run_time
                    else "caught by neither half for now")
            lines.append("analyzer: %s has no check yet, so this program is %s; the %d "
                         "existing checks stay silent on it" % (rule, half, len(self.checks)))
        return lines


def compile_warnings(options: argparse.Namespace, source: str,
                     rule_ids: Set[str]) -> Set[Finding]:
    """Rule ids in the compiler's warnings for one source, built as the build builds it."""
    with open(os.path.join(options.build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    real = os.path.realpath(source)
    entry = next((e for e in entries
                  if os.path.realpath(os.path.join(e["directory"], e["file"])) == real), None)
    if entry is None:
        raise Failure("%s is not in the compile database of %s" % (source, options.build_dir))
    args = entry.get("arguments") or shlex.split(entry["command"])
    command, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg != "-c":
            command.append(arg)
    code, output = run(command + ["-fsyntax-only"], cwd=entry["directory"])
    if code != 0:
        raise Failure("compiling %s failed:\n%s" % (source, output))
    found = set()
    for path, line, _, text in diagnostics(output, entry["directory"]):
        for rule in rule_ids:
            if rule + ":" in text:
                found.add(Finding(path, line, rule))
    return found


def check_compiler(options: argparse.Namespace, sources: List[str], expected: Set[Finding],
                   rule_ids: Set[str]) -> str:
    mirrored = {f for f in expected if RULES[f.rule].mirror == "CompileTime"}
    found = set()
    for source in sources:
        found |= compile_warnings(options, source, rule_ids)
    if found != mirrored:
        raise Failure("compiler: expected the [[nodiscard]] warnings %s\n  but it warned %s"
                      % (describe(mirrored), describe(found)))
    return "compiler: %s" % describe(found)


def rule_reports(output: str, rule_ids: Set[str]) -> Set[str]:
    return {rule for rule in rule_ids if re.search(re.escape(rule) + r": ", output)}


def run_program(executable: str, device: str, guard: str) -> Tuple[int, str]:
    env = dict(os.environ, PL_TRANSFER_GUARD=guard)
    return run([executable] + ([] if device == "default" else [device]), env=env)


def check_report(output: str, rule: str, expected: Set[Finding], where: str) -> str:
    site = CALL_SITE.search(output)
    lines = {(f.file, f.line) for f in expected if f.rule == rule}
    if not RULES[rule].names_call_site:
        return "%s: %s, without a line: %s" % (where, rule, RULES[rule].runtime)
    if site is None:
        raise Failure("%s: the %s report names no call site:\n%s" % (where, rule, output))
    reported = (os.path.realpath(site.group("file")), int(site.group("line")))
    if reported not in lines:
        raise Failure("%s: the %s report names %s:%d, not an expected line (%s)\n%s"
                      % (where, rule, reported[0], reported[1],
                         ", ".join("%d" % line for _, line in sorted(lines)), output))
    return "%s: %s at %s:%d" % (where, rule, os.path.basename(reported[0]), reported[1])


def check_bug_runs(options: argparse.Namespace, program: dict, twin: Optional[dict],
                   expected: Set[Finding], rule_ids: Set[str]) -> List[str]:
    run_rules = {f.rule for f in expected if RULES[f.rule].raised_at_run_time}
    unmirrored = {f.rule for f in expected if RULES[f.rule].mirror == "None"}
    if len(run_rules) > 1:
        raise Failure("a program may expect at most one rule mirrored at run time, got %s"
                      % ", ".join(sorted(run_rules)))
    lines = []
    for device, outcome in read_runs(program["sources"][0]):
        where = "runtime (%s)" % device
        code, output = run_program(program["executable"], device, "disallow")
        reports = rule_reports(output, rule_ids)
        if outcome == "clean":
            if code != 0 or reports:
                raise Failure("%s: expected a clean run, got exit status %d:\n%s"
                              % (where, code, output))
            lines.append("%s: clean, as expected (the bug cannot show there)" % where)
            continue
        if not run_rules:
            lines.append(check_unmirrored(program, twin, device, unmirrored, output, code,
                                          reports))
            continue
        rule = next(iter(run_rules))
        if options.cuda_build and outcome == "report-without-cuda" and code == 0:
            lines.append("%s: skipped: CUDA is available here, so the bug does not show" % where)
            continue
        if code != 1 or reports != {rule}:
            raise Failure("%s: expected exit status 1 reporting %s, got %d reporting %s:\n%s"
                          % (where, rule, code, ", ".join(sorted(reports)) or "nothing", output))
        lines.append(check_report(output, rule, expected, where + ", disallow"))
        if RULES[rule].mirror == "Log":
            code, output = run_program(program["executable"], device, "log")
            if code != 0 or rule_reports(output, rule_ids) != {rule}:
                raise Failure("%s, log: expected exit status 0 and one logged %s, got %d:\n%s"
                              % (where, rule, code, output))
            lines.append(check_report(output, rule, expected, where + ", log"))
    return lines


def check_unmirrored(program: dict, twin: Optional[dict], device: str, rules: Set[str],
                     output: str, code: int, reports: Set[str]) -> str:
    """A bug no runtime check reports: it runs clean, and its avoidable copy is visible."""
    where = "runtime (%s)" % device
    if twin is None:
        raise Failure("%s: %s has no runtime mirror; its fixed twin is needed for comparison"
                      % (where, ", ".join(sorted(rules))))
    if code != 0 or reports:
        raise Failure("%s: %s has no runtime mirror, yet the run failed or reported (%d):\n%s"
                      % (where, ", ".join(sorted(rules)), code, output))
    _, twin_output = run_program(twin["executable"], device, "disallow")
    copies = [HOST_TO_DEVICE.search(text) for text in (output, twin_output)]
    if not all(copies):
        raise Failure("%s: the program and its twin must print 'host-to-device copies: N'" % where)
    bug_copies, fixed_copies = (int(m.group("count")) for m in copies)  # type: ignore[union-attr]
    if bug_copies <= fixed_copies:
        raise Failure("%s: the bug made %d host-to-device copies, the fix %d: no avoidable copy"
                      % (where, bug_copies, fixed_copies))
    return ("%s: no report (%s): %s; the bug made %d host-to-device copies, the fix %d"
            % (where, ", ".join(sorted(rules)), RULES[next(iter(rules))].runtime, bug_copies,
               fixed_copies))


def check_clean_runs(program: dict, manifest: Dict[str, dict],
                     rule_ids: Set[str]) -> List[str]:
    if program["kind"] == "fixed":
        runs = read_runs(program["sources"][0])
        if any(outcome != "clean" for _, outcome in runs):
            raise Failure("a fixed program's parity line may only say clean")
        commands = {device: [[program["executable"]] + ([] if device == "default" else [device])]
                    for device, _ in runs}
    else:
        commands = example_commands(program, manifest)
    lines = []
    for device, steps in commands.items():
        for step in steps:
            code, output = run(step, env=dict(os.environ, PL_TRANSFER_GUARD="disallow"))
            reports = rule_reports(output, rule_ids)
            if code != 0 or reports:
                raise Failure("runtime (%s): expected a clean run of %s, got exit status %d:\n%s"
                              % (device, " ".join(step), code, output))
        lines.append("runtime (%s): clean under PL_TRANSFER_GUARD=disallow" % device)
    return lines


def example_commands(program: dict, manifest: Dict[str, dict]) -> Dict[str, List[List[str]]]:
    """training, inference and classifier, on sim and on the cpu (inference reads what
    training saved)."""
    weights = os.path.join(tempfile.mkdtemp(prefix="parity-"), "weights.plw")
    training = manifest["training"]["executable"]
    commands = {}
    for device in ("sim:0", "cpu"):
        train = [training, "--device", device, "--steps", "200", "--print-every", "50",
                 "--save", weights]
        if program["target"] == "training":
            commands[device] = [train]
        elif program["target"] == "inference":
            commands[device] = [train, [program["executable"], "--weights", weights,
                                        "--device", device]]
        elif program["target"] == "classifier":
            commands[device] = [[program["executable"], "--device", device]]
        else:
            raise Failure("no parity recipe for the example %s" % program["target"])
    return commands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--program", required=True, help="the target to check")
    parser.add_argument("--build-dir", required=True, help="holds compile_commands.json")
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--placelint", required=True)
    parser.add_argument("--cuda-build", action="store_true",
                        help="the runtime was built with CUDA (a GPU may be present)")
    options = parser.parse_args()

    with open(options.manifest, encoding="utf-8") as f:
        manifest = {p["target"]: p for p in json.load(f)}
    if options.program not in manifest:
        sys.exit("parity: %s is not in %s" % (options.program, options.manifest))
    program = manifest[options.program]
    rule_ids = set(RULES)

    print("%s (%s)" % (program["target"], ", ".join(os.path.relpath(s, catalogue.ROOT)
                                                    for s in program["sources"])))
    try:
        expected, runtime_only = read_expectations(program["sources"], rule_ids)
        if program["kind"] == "bug" and not expected:
            raise Failure("a bug program needs at least one `// expect: <rule-id>` line")
        if program["kind"] != "bug" and expected:
            raise Failure("only bug programs may carry `// expect:` lines")
        lines = Analyzer(options).check(program["sources"], expected - runtime_only)
        lines += ["analyzer: silent at %s by design (expect-runtime-only; the source says why)"
                  % finding for finding in sorted(runtime_only, key=lambda f: f.line)]
        lines.append(check_compiler(options, program["sources"], expected, rule_ids))
        if program["kind"] == "bug":
            lines += check_bug_runs(options, program, manifest.get(program["twin"]), expected,
                                    rule_ids)
        else:
            lines += check_clean_runs(program, manifest, rule_ids)
    except Failure as failure:
        print("FAIL: %s" % failure)
        return 1
    for line in lines:
        print("  " + line)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
