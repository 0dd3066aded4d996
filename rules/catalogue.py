#!/usr/bin/python3
"""The rule catalogue, rules/include/placelint/rules.def, for Python and shell.

    catalogue.py rules           one line per rule, tab-separated: id, title,
                                 Analyzer, Mirror, Site, runtime (rules.def's
                                 header says what the fields mean)
    catalogue.py docs            write the rule tables of README.md and
                                 docs/README.md (between their marker comments)
    catalogue.py docs --check    fail if those tables differ from what the
                                 catalogue generates

Python consumers import it (load()); it reads rules.def the way the C++
preprocessor sees it and rejects any line it does not understand, so that
the consumers cannot drift from the compiled-in table.
"""

import argparse
import difflib
import os
import re
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
RULES_DEF = os.path.join(ROOT, "rules", "include", "placelint", "rules.def")

PREFIX = re.compile(r'^#define PL_RULE_PREFIX "(?P<prefix>[a-z]+-)"$')
TEXT = r'"([^"\\]+)"'
ENTRY = re.compile(r"^PL_RULE\((\w+),\s*(Check|NotYet),\s*(Raise|Log|CompileTime|None),\s*"
                   r"(CallSite|NoCallSite),\s*" + r",\s*".join([TEXT] * 4) + r"\)$")


@dataclass(frozen=True)
class Rule:
    name: str       # placelint::Rule::<name>; the check class <name>Check
    analyzer: str   # Check | NotYet
    mirror: str     # Raise | Log | CompileTime | None
    site: str       # CallSite | NoCallSite
    id: str         # the full id, prefix included
    title: str
    summary: str
    runtime: str    # what the runtime half does (Markdown)

    @property
    def checked(self) -> bool:
        return self.analyzer == "Check"

    @property
    def raised_at_run_time(self) -> bool:
        """Raised (or, by the transfer guard, logged) when the program runs."""
        return self.mirror in ("Raise", "Log")

    @property
    def names_call_site(self) -> bool:
        return self.site == "CallSite"


@dataclass(frozen=True)
class Catalogue:
    prefix: str
    rules: List[Rule]

    def by_id(self) -> Dict[str, Rule]:
        return {rule.id: rule for rule in self.rules}

    @property
    def check_glob(self) -> str:
        """The clang-tidy check glob that selects every rule."""
        return self.prefix + "*"


def load(path: str = RULES_DEF) -> Catalogue:
    prefix, entries = None, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            if PREFIX.match(line) and prefix is None:
                prefix = PREFIX.match(line).group("prefix")
            elif ENTRY.match(line) and prefix is not None:
                entries.append(ENTRY.match(line).groups())
            else:
                sys.exit("%s:%d: not a catalogue line (the file's header says the form, "
                         "the prefix first): %s" % (path, number, line))
    if not entries:
        sys.exit("%s: no PL_RULE entries" % path)
    rules = [Rule(name, analyzer, mirror, site, prefix + short_id, title, summary, runtime)
             for name, analyzer, mirror, site, short_id, title, summary, runtime in entries]
    for field in ("name", "id"):
        values = [getattr(rule, field) for rule in rules]
        if len(set(values)) != len(values):
            sys.exit("%s: two rules share a %s" % (path, field))
    return Catalogue(prefix, rules)


# The documentation tables: in each file, between BEGIN and END.
BEGIN = "<!-- rule table: generated from rules.def by `rules/catalogue.py docs`; do not edit -->"
END = "<!-- end of rule table -->"
REGENERATE = "python3 rules/catalogue.py docs"


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(header: List[str], rows: List[List[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(text) for text in row) + " |" for row in rows]
    return "\n".join(lines)


def rule_link(rule: Rule, docs_dir: str, base: str) -> str:
    page = os.path.join(docs_dir, rule.id + ".md")
    if not os.path.exists(os.path.join(ROOT, page)):
        sys.exit("catalogue: %s has no page %s" % (rule.id, page))
    return "[%s](%s)" % (rule.id, os.path.relpath(page, base))


def readme_table(catalogue: Catalogue) -> str:
    return table(["rule", "what is wrong", "analyzer"],
                 [[rule_link(rule, "docs/rules", "."), rule.summary,
                   "check" if rule.checked else "not yet"] for rule in catalogue.rules])


def docs_table(catalogue: Catalogue) -> str:
    return table(["rule", "analyzer", "runtime", "names your line"],
                 [[rule_link(rule, "docs/rules", "docs"), "check" if rule.checked else "not yet",
                   rule.runtime, "yes" if rule.names_call_site else "no"]
                  for rule in catalogue.rules])


TABLES: Dict[str, Callable[[Catalogue], str]] = {
    "README.md": readme_table,
    "docs/README.md": docs_table,
}


def with_table(path: str, text: str, generated: str) -> str:
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        sys.exit("catalogue: %s has no '%s' ... '%s' markers" % (path, BEGIN, END))
    return text[:begin + len(BEGIN)] + "\n" + generated + "\n" + text[end:]


def docs(catalogue: Catalogue, check: bool) -> int:
    stale = []
    for relative, generate in TABLES.items():
        path = os.path.join(ROOT, relative)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        updated = with_table(relative, text, generate(catalogue))
        if updated == text:
            continue
        if check:
            stale.append(relative)
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(True), updated.splitlines(True), relative + " (committed)",
                relative + " (generated)"))
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(updated)
            print("catalogue: wrote the rule table of %s" % relative)
    if stale:
        print("catalogue: the rule table of %s differs from rules.def; regenerate with: %s"
              % (" and ".join(stale), REGENERATE))
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("rules", help="one tab-separated line per rule")
    docs_parser = commands.add_parser("docs", help="write the documentation's rule tables")
    docs_parser.add_argument("--check", action="store_true",
                             help="only check that they are up to date")
    options = parser.parse_args()
    catalogue = load()
    if options.command == "rules":
        for rule in catalogue.rules:
            print("\t".join([rule.id, rule.title, rule.analyzer, rule.mirror, rule.site,
                             rule.runtime]))
        return 0
    return docs(catalogue, options.check)


if __name__ == "__main__":
    sys.exit(main())
