#!/usr/bin/python3
"""Runs placelint's checks over one lit test and verifies what they report.

The contract is clang-tidy's check_clang_tidy.py, adapted to the two ways
placelint ships: the plugin loaded into the stock clang-tidy-19, and the
standalone `placelint` executable (same command line). Debian does not ship
check_clang_tidy.py, hence this script.

    check_placement.py [options] INPUT CHECKS TEMP [-- TIDY-ARGS [-- CLANG-ARGS]]

For each selected mode the input is copied to TEMP.<mode>/<name> with the
CHECK lines blanked (so they never match themselves), the tool runs on the
copy with -fix (unless --no-fix), and then:

* CHECK-MESSAGES[-SUFFIX]: every `file:line:col: warning|error|note:` line of
  the output (the "FIX-IT applied" notes dropped, the main file's path
  stripped so that `:[[@LINE-1]]:7: warning: ...` matches) is checked with
  FileCheck, and any diagnostic that no CHECK line matched fails the test
  (-implicit-check-not for warnings, errors AND notes: notes are pinned too).
* CHECK-FIXES[-SUFFIX]: the fixed copy is checked with --match-full-lines.
* Without CHECK-MESSAGES lines for the selected suffixes, the run must
  produce no diagnostic at all.

-compile-fixed compiles the fixed copy with the clang arguments: fix-its
must leave code that builds.

-check-file=FILE takes the CHECK lines from FILE instead of the input (to
run on a source the test cannot annotate, such as an example program).

--no-fix leaves fix-its unapplied (for runs whose findings may land in
headers outside the temporary copy, e.g. with -header-filter=.*).

--crash-only replaces the checks above by: the tool exits with 0 (or with 1
when --expect-compile-errors is given, and then an `error:` line must be
printed), no signal, no "Stack dump" and no "Assertion" in its output.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from typing import List, Tuple

MODES = ("plugin", "placelint")
DIAGNOSTIC = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): "
                        r"(?P<kind>warning|error|note|fatal error): (?P<text>.*)$")
CHECK_LINE = re.compile(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*")
CRASH_MARKERS = ("Stack dump", "Assertion", "PLEASE submit a bug report",
                 "LLVM ERROR", "Segmentation fault")


class TestFailure(Exception):
    """A verification step failed; the message says which and why."""


def run(args: List[str]) -> Tuple[int, str]:
    process = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return process.returncode, process.stdout.decode(errors="replace")


def filecheck(tool: str, check_file: str, input_file: str, extra: List[str]) -> None:
    args = [tool, "--input-file=" + input_file, check_file] + extra
    code, output = run(args)
    if code != 0:
        raise TestFailure("FileCheck failed: %s\n%s" % (" ".join(args), output))


class Prefixes:
    """The FileCheck prefixes (with the requested suffixes) present in the input."""

    def __init__(self, text: str, suffixes: List[str]) -> None:
        self.messages: List[str] = []
        self.fixes: List[str] = []
        for suffix in suffixes:
            if suffix and not re.fullmatch(r"[A-Z0-9\-]+", suffix):
                sys.exit('check suffixes may contain only A-Z, 0-9 and "-", got "%s"' % suffix)
            tail = "-" + suffix if suffix else ""
            for label, found in (("CHECK-MESSAGES", self.messages), ("CHECK-FIXES", self.fixes)):
                prefix = label + tail
                if re.search(re.escape(prefix) + r":", text):
                    found.append(prefix)


class CheckRunner:
    """One run of one mode over a fresh copy of the input."""

    def __init__(self, options: argparse.Namespace, mode: str, tidy_args: List[str],
                 clang_args: List[str]) -> None:
        self.options = options
        self.mode = mode
        self.tidy_args = list(tidy_args)
        self.clang_args = list(clang_args)
        work_dir = options.temp_file_name + "." + mode
        shutil.rmtree(work_dir, ignore_errors=True)
        os.makedirs(work_dir)
        self.copy = os.path.join(work_dir, os.path.basename(options.input_file_name))
        self.original_copy = self.copy + ".orig"
        # Without an explicit configuration clang-tidy would pick up a
        # .clang-tidy file from the directories above the copy.
        if not any(re.match(r"^--?config(-file)?=", arg) for arg in self.tidy_args):
            self.tidy_args.append("--config={}")
        if not any(arg.startswith("-std=") for arg in self.clang_args):
            self.clang_args.append("-std=c++20")

    def command(self) -> List[str]:
        if self.mode == "plugin":
            built, tool = self.options.plugin, [self.options.clang_tidy, "--load=" + self.options.plugin]
        else:
            built, tool = self.options.placelint, [self.options.placelint]
        if not built or not os.path.exists(built):
            raise TestFailure("%s mode: %s does not exist (is it built?)" % (self.mode, built))
        fix = [] if self.options.crash_only or self.options.no_fix else ["--fix"]
        return (tool + [self.copy] + fix + ["--checks=-*," + self.options.checks]
                + self.tidy_args + ["--"] + self.clang_args)

    def diagnostics(self, output: str) -> str:
        """The diagnostic lines of the output, main-file paths stripped."""
        lines = []
        for line in output.splitlines():
            match = DIAGNOSTIC.match(line)
            if not match or "FIX-IT applied" in match.group("text"):
                continue
            path = match.group("file")
            shown = "" if os.path.abspath(path) == os.path.abspath(self.copy) else os.path.basename(path)
            lines.append("%s:%s:%s: %s: %s" % (shown, match.group("line"), match.group("col"),
                                                match.group("kind"), match.group("text")))
        return "\n".join(lines) + "\n"

    def run(self, text: str, prefixes: Prefixes) -> None:
        cleaned = CHECK_LINE.sub("//", text)
        for path in (self.copy, self.original_copy):
            with open(path, "w", encoding="utf-8") as out:
                out.write(cleaned)
        args = self.command()
        print("[%s] running: %s" % (self.mode, " ".join(args)))
        code, output = run(args)
        print("------------------------ %s output ------------------------" % self.mode)
        print(output)
        print("---------------------------------------------------------------")
        if self.options.crash_only:
            self.verify_no_crash(code, output)
            return
        if code != 0:
            raise TestFailure("%s mode: the tool exited with %d" % (self.mode, code))
        self.show_fixes()
        diagnostics = self.diagnostics(output)
        messages_file = self.copy + ".msg"
        with open(messages_file, "w", encoding="utf-8") as out:
            out.write(diagnostics)
        if prefixes.fixes:
            filecheck(self.options.filecheck, self.options.check_file, self.copy,
                      ["--check-prefixes=" + ",".join(prefixes.fixes), "--match-full-lines"])
        if self.options.compile_fixed:
            self.compile_fixed()
        if not prefixes.messages:
            # Nothing pinned: any diagnostic at all is unexpected.
            if diagnostics.strip():
                raise TestFailure("%s mode: no diagnostics were expected, but found:\n%s"
                                  % (self.mode, diagnostics))
            return
        filecheck(self.options.filecheck, self.options.check_file, messages_file,
                  ["--check-prefixes=" + ",".join(prefixes.messages), "--dump-input=fail",
                   "--implicit-check-not={{warning|error|note}}:"])

    def compile_fixed(self) -> None:
        """The fixed copy must still compile: a fix-it that breaks the build is a bug."""
        code, output = run([self.options.compiler, "-fsyntax-only"] + self.clang_args + [self.copy])
        if code != 0:
            raise TestFailure("%s mode: the fixed file does not compile:\n%s" % (self.mode, output))

    def show_fixes(self) -> None:
        code, diff = run(["diff", "-u", self.original_copy, self.copy])
        print("------------------------------ fixes ------------------------------")
        print(diff)
        print("---------------------------------------------------------------")

    def verify_no_crash(self, code: int, output: str) -> None:
        markers = [marker for marker in CRASH_MARKERS if marker in output]
        if code < 0:
            raise TestFailure("%s mode: the tool died from signal %d" % (self.mode, -code))
        if markers:
            raise TestFailure("%s mode: the output shows a crash (%s)" % (self.mode, ", ".join(markers)))
        expected = 1 if self.options.expect_compile_errors else 0
        if code != expected:
            raise TestFailure("%s mode: the tool exited with %d, expected %d" % (self.mode, code, expected))
        if self.options.expect_compile_errors and not re.search(r"^\S.*: error: ", output, re.M):
            raise TestFailure("%s mode: compile errors were expected but none was reported" % self.mode)


def parse_arguments() -> Tuple[argparse.Namespace, List[str], List[str]]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=MODES + ("both",), default="both",
                        help="run through the clang-tidy plugin, placelint, or both")
    parser.add_argument("--clang-tidy", default="clang-tidy-19")
    parser.add_argument("--plugin", help="the clang-tidy plugin (.so) for --mode=plugin")
    parser.add_argument("--placelint", help="the placelint executable for --mode=placelint")
    parser.add_argument("--filecheck", default="FileCheck")
    parser.add_argument("-check-suffix", "-check-suffixes", dest="check_suffixes", default=[""],
                        type=lambda value: value.split(","),
                        help="comma-separated FileCheck prefix suffixes")
    parser.add_argument("-check-file", dest="check_file",
                        help="the file holding the CHECK lines (default: the input)")
    parser.add_argument("-compile-fixed", dest="compile_fixed", action="store_true",
                        help="compile the fixed copy (with the clang arguments) and fail if it "
                             "does not compile")
    parser.add_argument("--compiler", default="clang++-19",
                        help="the compiler -compile-fixed runs")
    parser.add_argument("--no-fix", action="store_true",
                        help="do not apply fix-its (for runs whose diagnostics may land in "
                             "headers outside the temporary copy)")
    parser.add_argument("--crash-only", action="store_true",
                        help="only verify that the tool neither crashes nor asserts")
    parser.add_argument("--expect-compile-errors", action="store_true",
                        help="with --crash-only: the input does not compile")
    parser.add_argument("input_file_name")
    parser.add_argument("checks", help="check globs enabled after -*")
    parser.add_argument("temp_file_name")
    argv = sys.argv[1:]
    extra: List[str] = []
    if "--" in argv:
        split = argv.index("--")
        argv, extra = argv[:split], argv[split + 1:]
    options = parser.parse_args(argv)
    if options.expect_compile_errors and not options.crash_only:
        parser.error("--expect-compile-errors needs --crash-only")
    tidy_args, clang_args = extra, []
    if "--" in extra:
        split = extra.index("--")
        tidy_args, clang_args = extra[:split], extra[split + 1:]
    return options, tidy_args, clang_args


def main() -> int:
    options, tidy_args, clang_args = parse_arguments()
    with open(options.input_file_name, encoding="utf-8") as source:
        text = source.read()
    if options.check_file:
        with open(options.check_file, encoding="utf-8") as checks:
            prefixes = Prefixes(checks.read(), options.check_suffixes)
    else:
        options.check_file = options.input_file_name
        prefixes = Prefixes(text, options.check_suffixes)
    if prefixes.fixes and (options.no_fix or options.crash_only):
        sys.exit("CHECK-FIXES cannot be verified with --no-fix or --crash-only")
    modes = MODES if options.mode == "both" else (options.mode,)
    try:
        for mode in modes:
            CheckRunner(options, mode, tidy_args, clang_args).run(text, prefixes)
    except TestFailure as failure:
        print("FAILED: %s" % failure, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
