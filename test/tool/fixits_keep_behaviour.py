#!/usr/bin/python3
"""A fix-it never changes what a program does (issue 25 part 6).

    fixits_keep_behaviour.py --build-dir BUILD --placelint PLACELINT
        --runtime-lib LIBPL --manifest PROGRAMS.JSON --corpus-dir DIR
        --pl-include DIR [--pl-include DIR...] [--cxx CXX] [-j N]

The programs: every program of examples/ (the parity manifest gives each
one's sources and executable; an examples/ unit of the compile database in no
manifest entry is a one-source program whose executable is its CMake target)
and every program of the pl corpus (DIR/*.cpp, one source each, compiled
here with --pl-include and linked with the runtime library).

For each source, on a copy (same compile command, pointed at the copy, with
`-iquote` the original's directory so that its quoted includes still
resolve):
 1. `placelint --fix --export-fixes` records the findings and applies the
    fixes; again on the fixed copy while it offers more (a fix may uncover
    another: a discarded `t.to(d);` of a factory's tensor, once assigned,
    is a create-then-move), at most 3 rounds. A source with no fix-it is
    skipped (counted).
 2. The program is rebuilt with the fixed copy in place of the source: every
    unit of the program compiled with its own command, linked with the
    runtime library. It must compile.
 3. The original and the fixed binary run with the same arguments (`sim:0`;
    none for a program that answers "usage:" to it, whose devices are fixed)
    and PL_TRANSFER_GUARD unset. They must exit alike and print the same
    stdout, but for two differences, both what a placement fix is for:
    - the "host-to-device copies: N" lines the bug programs print: the fixed
      program copies no more than the original, and strictly fewer where a
      create-then-move fix was applied (the factory allocates on the device);
    - an original that fails (non-zero exit) with a runtime error naming a
      rule (`placement-<rule>:` on stderr) whose analyzer findings the fixes
      reduced: the fixed program must exit 0 without that error, and the
      original's stdout must be a prefix of the fixed program's.
 4. placelint's findings on the fixed copy (after the last round): strictly
    fewer of each rule fixed in the first round, no more of any rule.
A table per program goes to stdout; the exit status is 1 if any check
failed, 2 for bad arguments.
"""

import argparse
import collections
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Counter, Dict, List, Optional

import yaml

FINDING = re.compile(r"^[^\s:][^:]*:\d+:\d+: (?:warning|error): .*\[(?P<rule>placement-[a-z-]+)\]$",
                     re.M)
COPIES = re.compile(r"^host-to-device copies: (?P<count>\d+)$", re.M)
# How pl's errors start: "placement-mixed-device: add: expected ...", after
# the program's name or std::terminate's "what():".
RUNTIME_RULE = re.compile(r"\b(?P<rule>placement-[a-z-]+): ")
RUN_TIMEOUT_S = 120
MAX_FIX_ROUNDS = 3


class Failure(Exception):
    """A check failed; the message says which and how."""


@dataclass
class Unit:
    """One translation unit: its source and the compiler arguments without
    the source, `-c` and `-o OBJECT`."""
    source: str
    compiler: str
    arguments: List[str]

    def pointed_at(self, copy: str) -> List[str]:
        return self.arguments + ["-iquote", os.path.dirname(self.source), copy]


@dataclass
class Program:
    name: str
    units: List[Unit]
    executable: Optional[str]  # None: build the original here too (corpus)


@dataclass
class Result:
    program: str
    fixes: Counter = field(default_factory=collections.Counter)
    later_fixes: Counter = field(default_factory=collections.Counter)
    before: Counter = field(default_factory=collections.Counter)
    after: Counter = field(default_factory=collections.Counter)
    compiled: str = "-"
    behaviour: str = "-"
    failure: Optional[str] = None


def run(args: List[str], timeout: Optional[int] = None,
        env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, env=env, errors="replace")
    except OSError as error:
        raise Failure("cannot run %s: %s" % (args[0], error))
    except subprocess.TimeoutExpired:
        raise Failure("%s ran longer than %d s" % (" ".join(args), timeout))


def split_command(entry: dict) -> Unit:
    """The compile database entry's arguments, less the source and output."""
    words = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    arguments: List[str] = []
    skip_next = False
    for word in words[1:]:
        if skip_next:
            skip_next = False
        elif word == "-o":
            skip_next = True
        elif word == "-c":
            continue
        elif os.path.normpath(os.path.join(entry["directory"], word)) == source:
            continue
        else:
            arguments.append(word)
    return Unit(source, words[0], arguments)


def target_of(entry: dict) -> Optional[str]:
    match = re.search(r"CMakeFiles/([^/]+)\.dir/", entry.get("output", "") or entry.get("command", ""))
    return match.group(1) if match else None


def collect_programs(options: argparse.Namespace) -> List[Program]:
    with open(os.path.join(options.build_dir, "compile_commands.json")) as f:
        database = json.load(f)
    with open(options.manifest) as f:
        manifest = json.load(f)
    units = {}
    entries = {}
    for entry in database:
        unit = split_command(entry)
        units[os.path.realpath(unit.source)] = unit
        entries[os.path.realpath(unit.source)] = entry
    programs = []
    claimed = set()
    for record in manifest:
        sources = [os.path.realpath(s) for s in record["sources"]]
        missing = [s for s in sources if s not in units]
        if missing:
            raise Failure("%s: %s is not in the compile database" % (record["target"], missing[0]))
        programs.append(Program(record["target"], [units[s] for s in sources], record["executable"]))
        claimed.update(sources)
    # Example programs that are not in the parity manifest (quickstart).
    examples_root = os.path.join(options.source_root, "examples") + os.sep
    for source, entry in sorted(entries.items()):
        if not source.startswith(examples_root) or source in claimed:
            continue
        target = target_of(entry)
        if target is None:
            raise Failure("%s: no CMake target in its compile command" % source)
        executable = None
        for directory, _, files in os.walk(os.path.join(options.build_dir, "examples")):
            if target in files and os.access(os.path.join(directory, target), os.X_OK):
                executable = os.path.join(directory, target)
        if executable is None:
            raise Failure("%s: no executable %s under %s/examples" % (source, target, options.build_dir))
        programs.append(Program(target, [units[source]], executable))
    corpus_arguments = ["-std=c++20", "-O2"] + ["-I" + d for d in options.pl_include]
    for name in sorted(os.listdir(options.corpus_dir)):
        if name.endswith(".cpp"):
            source = os.path.join(options.corpus_dir, name)
            programs.append(Program("corpus/" + name[:-4], [Unit(source, options.cxx, corpus_arguments)], None))
    return programs


@dataclass
class Analysis:
    """placelint's findings on a source and, where it offered fixes, on the
    fixed copy."""
    copy: str
    fixes: Counter = field(default_factory=collections.Counter)  # on the original
    later_fixes: Counter = field(default_factory=collections.Counter)  # on a fixed copy
    before: Counter = field(default_factory=collections.Counter)
    after: Counter = field(default_factory=collections.Counter)


def findings(output: str) -> Counter:
    return collections.Counter(m.group("rule") for m in FINDING.finditer(output))


def fixes_offered(export: str) -> Counter:
    """The rules whose diagnostics carry a replacement, in clang-tidy's YAML."""
    with open(export) as f:
        document = yaml.safe_load(f) or {}
    offered: Counter = collections.Counter()
    for diagnostic in document.get("Diagnostics") or []:
        messages = [diagnostic["DiagnosticMessage"]] + list(diagnostic.get("Notes") or [])
        if any(message.get("Replacements") for message in messages):
            offered[diagnostic["DiagnosticName"]] += 1
    return offered


def placelint(options: argparse.Namespace, unit: Unit, copy: str, extra: List[str]) -> str:
    process = run([options.placelint, "--quiet"] + extra + [copy, "--"] + unit.pointed_at(copy)[:-1])
    if process.returncode != 0:
        raise Failure("placelint %s exited with %d:\n%s%s" % (copy, process.returncode,
                                                                process.stdout, process.stderr))
    return process.stdout


def analyse(options: argparse.Namespace, unit: Unit, directory: str) -> Analysis:
    """Applies placelint's fixes to a copy of the unit's source until it
    offers none: one fix may uncover another (a discarded `t.to(d);` of a
    factory's tensor, once assigned, is a create-then-move), as running
    `--fix` again would apply."""
    os.makedirs(directory)
    copy = os.path.join(directory, os.path.basename(unit.source))
    shutil.copyfile(unit.source, copy)
    analysis = Analysis(copy)
    for round_number in range(1, MAX_FIX_ROUNDS + 2):
        export = os.path.join(directory, "fixes%d.yaml" % round_number)
        found = findings(placelint(options, unit, copy, ["--fix", "--export-fixes=" + export]))
        offered = fixes_offered(export) if os.path.exists(export) else collections.Counter()
        if round_number == 1:
            analysis.before, analysis.fixes = found, offered
        else:
            analysis.after = found
            analysis.later_fixes += offered
        if not offered:
            return analysis
    raise Failure("%s: fix-its still offered after %d rounds of --fix"
                  % (unit.source, MAX_FIX_ROUNDS))


def build(options: argparse.Namespace, program: Program, replaced: Dict[str, str],
          output: str) -> None:
    """Compiles the program's units (a fixed copy in place of its source where
    `replaced` says) and links them with the runtime library."""
    objects = []
    for index, unit in enumerate(program.units):
        obj = "%s.%d.o" % (output, index)
        process = run([unit.compiler] + unit.pointed_at(replaced.get(unit.source, unit.source))
                      + ["-c", "-o", obj])
        if process.returncode != 0:
            raise Failure("compiling %s failed:\n%s" % (replaced.get(unit.source, unit.source),
                                                        process.stderr))
        objects.append(obj)
    runtime_directory = os.path.dirname(os.path.realpath(options.runtime_lib))
    process = run([options.cxx] + objects + [options.runtime_lib, "-Wl,-rpath," + runtime_directory,
                                             "-o", output])
    if process.returncode != 0:
        raise Failure("linking %s failed:\n%s" % (output, process.stderr))


def execute(binary: str, arguments: List[str]) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "PL_TRANSFER_GUARD"}
    return run([binary] + arguments, timeout=RUN_TIMEOUT_S, env=environment)


def compare_runs(original: subprocess.CompletedProcess, fixed: subprocess.CompletedProcess,
                 fixes: Counter, before: Counter, after: Counter) -> str:
    """Raises Failure where the fixed run differs from the original other
    than in the ways the module's docstring allows; says how they compare."""
    original_copies = [int(c) for c in COPIES.findall(original.stdout)]
    fixed_copies = [int(c) for c in COPIES.findall(fixed.stdout)]
    original_text = COPIES.sub("", original.stdout)
    fixed_text = COPIES.sub("", fixed.stdout)
    # A failing original may stop before its count; then the fixed one prints more.
    if original.returncode == 0 and len(original_copies) != len(fixed_copies):
        raise Failure("the original printed %d copy counts, the fixed program %d"
                      % (len(original_copies), len(fixed_copies)))
    for was, now in zip(original_copies, fixed_copies):
        if now > was or (fixes["placement-create-then-move"] and now >= was):
            raise Failure("host-to-device copies: %d before the fix, %d after" % (was, now))
    copies = "".join(", copies %d->%d" % pair for pair in zip(original_copies, fixed_copies))
    if fixed.returncode == original.returncode and fixed_text == original_text:
        return "same output" + copies
    if original.returncode == 0:
        raise Failure("the original exits 0 printing\n%s\nthe fixed program exits %d printing\n%s%s"
                      % (original.stdout, fixed.returncode, fixed.stdout, fixed.stderr))
    reported = RUNTIME_RULE.search(original.stderr)
    if reported is None:
        raise Failure("the original exits %d without naming a rule:\n%s"
                      % (original.returncode, original.stderr))
    rule = reported.group("rule")
    if not after[rule] < before[rule]:
        raise Failure("the original fails with %s, which the fix does not remove (findings %d -> %d)"
                      % (rule, before[rule], after[rule]))
    if fixed.returncode != 0 or rule in fixed.stderr or not fixed_text.startswith(original_text):
        raise Failure("the original fails with %s; the fixed program exits %d printing\n%s%s"
                      % (rule, fixed.returncode, fixed.stdout, fixed.stderr))
    return "%s removed" % rule + copies


def check_program(options: argparse.Namespace, program: Program, analyses: Dict[str, Analysis],
                  directory: str) -> Result:
    fixed = {u.source: analyses[u.source] for u in program.units if analyses[u.source].fixes}
    result = Result(program.name)
    for analysis in fixed.values():
        result.fixes += analysis.fixes
        result.later_fixes += analysis.later_fixes
        result.before += analysis.before
        result.after += analysis.after
    if not fixed:
        return result
    try:
        os.makedirs(directory)
        binary = os.path.join(directory, "fixed")
        build(options, program, {source: a.copy for source, a in fixed.items()}, binary)
        result.compiled = "yes"
        original_binary = program.executable
        if original_binary is None:
            original_binary = os.path.join(directory, "original")
            build(options, program, {}, original_binary)
        arguments = ["sim:0"]
        original = execute(original_binary, arguments)
        if original.returncode != 0 and "usage:" in original.stderr:
            arguments = []
            original = execute(original_binary, arguments)
        result.behaviour = compare_runs(original, execute(binary, arguments),
                                        result.fixes + result.later_fixes,
                                        result.before, result.after)
        for rule in result.fixes:
            if not result.after[rule] < result.before[rule]:
                raise Failure("%s: %d findings before the fix, %d after"
                              % (rule, result.before[rule], result.after[rule]))
        grown = [r for r in result.after if result.after[r] > result.before[r]]
        if grown:
            raise Failure("new findings after the fix: %s" % ", ".join(
                "%s %d -> %d" % (r, result.before[r], result.after[r]) for r in grown))
    except Failure as error:
        result.failure = str(error)
    return result


def counts(counter: Counter) -> str:
    return ", ".join("%s %d" % (r[len("placement-"):], n) for r, n in sorted(counter.items())) or "0"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", required=True, help="the build holding compile_commands.json")
    parser.add_argument("--source-root", required=True, help="the source tree (examples/ under it)")
    parser.add_argument("--placelint", required=True)
    parser.add_argument("--runtime-lib", required=True, help="the pl runtime shared library")
    parser.add_argument("--manifest", required=True, help="test/parity's programs.json")
    parser.add_argument("--corpus-dir", required=True, help="the pl corpus, test/analyzer/integration/corpus/pl")
    parser.add_argument("--pl-include", action="append", default=[], metavar="DIR",
                        help="an include directory for the corpus programs (repeat it)")
    parser.add_argument("--cxx", default="clang++-19", help="compiler and linker of the corpus programs")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1, help="jobs at once")
    options = parser.parse_args()
    for path in (options.placelint, options.runtime_lib, options.manifest,
                 os.path.join(options.build_dir, "compile_commands.json")):
        if not os.path.isfile(path):
            parser.error("no such file: %s" % path)
    if not os.path.isdir(options.corpus_dir):
        parser.error("no such directory: %s" % options.corpus_dir)
    options.source_root = os.path.realpath(options.source_root)

    try:
        programs = collect_programs(options)
    except Failure as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    units = {u.source: u for p in programs for u in p.units}
    with tempfile.TemporaryDirectory(prefix="fixits-") as work, \
            ThreadPoolExecutor(max(1, options.j)) as pool:
        sources = sorted(units)
        try:
            analysed = list(pool.map(lambda i: analyse(options, units[sources[i]],
                                                       os.path.join(work, "unit%d" % i)),
                                     range(len(sources))))
        except Failure as error:
            print("FAIL: %s" % error)
            return 1
        analyses = dict(zip(sources, analysed))
        results = list(pool.map(lambda i: check_program(options, programs[i], analyses,
                                                        os.path.join(work, "program%d" % i)),
                                range(len(programs))))
    with_fixes = [r for r in results if r.fixes]
    for r in with_fixes:
        print("%s: fixes offered: %s%s; compiled: %s; run: %s; findings before: %s; after: %s%s"
              % (r.program, counts(r.fixes),
                 " (then on the fixed copy: %s)" % counts(r.later_fixes) if r.later_fixes else "",
                 r.compiled, r.behaviour, counts(r.before),
                 counts(r.after), "\n  FAIL: " + r.failure.replace("\n", "\n    ") if r.failure else ""))
    failed = [r for r in with_fixes if r.failure]
    print("%d programs: %d with fix-its (%d fix-its), %d skipped (no fix-it offered), %d failed"
          % (len(results), len(with_fixes),
             sum(sum((r.fixes + r.later_fixes).values()) for r in with_fixes),
             len(results) - len(with_fixes), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
