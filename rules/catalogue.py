#!/usr/bin/python3
"""The catalogues, rules/include/placelint/rules.def and ops.def, for Python and shell.

    catalogue.py rules           one line per rule, tab-separated: id, title,
                                 Analyzer, Mirror, Site, runtime (rules.def's
                                 header says what the fields mean)
    catalogue.py docs            write the rule tables of README.md and
                                 docs/README.md (between their marker comments)
    catalogue.py docs --check    fail if those tables differ from what the
                                 catalogue generates
    catalogue.py ops             one line per op of ops.def, tab-separated: its
                                 fields in the file's order (empty where the
                                 entry has none), those of PL_OP first
                                 (ops.def's header says what they mean)

Python consumers import it (load(), load_ops()); it reads the files the way
the C++ preprocessor sees them and rejects any line it does not understand,
so that the consumers cannot drift from the compiled-in tables.
"""

import argparse
import difflib
import os
import re
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
RULES_DEF = os.path.join(ROOT, "rules", "include", "placelint", "rules.def")
OPS_DEF = os.path.join(ROOT, "rules", "include", "placelint", "ops.def")

PREFIX = re.compile(r'^#define PL_RULE_PREFIX "(?P<prefix>[a-z]+-)"$')
TEXT = r'"([^"\\]+)"'
ENTRY = re.compile(r"^PL_RULE\((\w+),\s*(Check|NotYet),\s*(Raise|Log|CompileTime|None),\s*"
                   r"(CallSite|NoCallSite),\s*\(([\w,\s]*)\),\s*" + r",\s*".join([TEXT] * 4) +
                   r"\)$")


@dataclass(frozen=True)
class Rule:
    name: str       # placelint::Rule::<name>; the check class <name>Check
    analyzer: str   # Check | NotYet
    mirror: str     # Raise | Log | CompileTime | None
    site: str       # CallSite | NoCallSite
    subsumes: Tuple[str, ...]  # the Names of the rules whose findings its own make redundant
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
    rules = [Rule(name, analyzer, mirror, site,
                  tuple(other.strip() for other in subsumes.split(",") if other.strip()),
                  prefix + short_id, title, summary, runtime)
             for name, analyzer, mirror, site, subsumes, short_id, title, summary, runtime
             in entries]
    for field in ("name", "id"):
        values = [getattr(rule, field) for rule in rules]
        if len(set(values)) != len(values):
            sys.exit("%s: two rules share a %s" % (path, field))
    check_precedence(path, rules)
    return Catalogue(prefix, rules)


def check_precedence(path: str, rules: List[Rule]) -> None:
    """Subsumes names rules of the catalogue, and no rule subsumes itself,
    directly or through others (a cycle would drop every finding of it)."""
    names = {rule.name for rule in rules}
    subsumed = {rule.name: rule.subsumes for rule in rules}
    for rule in rules:
        for other in rule.subsumes:
            if other not in names:
                sys.exit("%s: %s subsumes %s, which is no rule" % (path, rule.name, other))
        seen, todo = set(), list(rule.subsumes)
        while todo:
            other = todo.pop()
            if other == rule.name:
                sys.exit("%s: %s subsumes itself through Subsumes" % (path, rule.name))
            if other not in seen:
                seen.add(other)
                todo.extend(subsumed[other])


# ---- the op catalogue --------------------------------------------------------

OP_KINDS = ("Unary", "Binary", "Fill", "Reduction", "Matmul", "Join", "View", "Copy", "Transfer",
            "Sync", "Pin", "Factory", "WrapsMemory", "Comparison", "Query", "Autograd")
OP_DEVICES = ("SameDevice", "SameDeviceStrict", "OneTensor", "NoTensor", "AnyDevice")
OP_RESULTS = ("Operands", "Self", "Argument", "Options", "Target", "CurrentCuda", "Cpu",
              "NotATensor")
OP_RANKS = ("Same", "Broadcast", "ZeroDim", "NotZeroDim", "FromSizes", "FromValues", "Reduced",
            "Unknown", "NotATensor")
OP_DTYPES = ("All", "NotBool", "Floating")
OP_SAVES = ("Nothing", "Input", "Result")
# The macro of each kind of entry, its kind (None: any but those of the
# others), and the number of fields after PL_OP's ten.
OP_MACROS = {"PL_OP": (None, 0), "PL_UNARY_OP": ("Unary", 3), "PL_BINARY_OP": ("Binary", 2),
             "PL_REDUCE_OP": ("Reduction", 0)}
OP_ENTRY = re.compile(r"^(PL_OP|PL_UNARY_OP|PL_BINARY_OP|PL_REDUCE_OP|PL_BINARY_KERNEL)\((.*)\)$")
OP_FIELD = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[^,"]*?)\s*(?:,|$)')
IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
OPERATOR = re.compile(r"^(\+|-|\*|/|\[\])$")


@dataclass(frozen=True)
class Op:
    macro: str        # PL_OP, PL_UNARY_OP, PL_BINARY_OP, PL_REDUCE_OP
    name: str         # pl::ops::OpId::<name>
    kind: str
    method: str       # "" when none
    function: str
    in_place: str
    operator: str
    devices: str
    result: str
    rank: str
    backward: str     # the autograd node's name, "" when none
    dtypes: str = ""  # Unary and Binary entries
    saves: str = ""   # Unary entries
    bool_error: str = ""

    @property
    def api_names(self) -> List[str]:
        """The names users write: method, function, in-place method."""
        return [name for name in (self.method, self.function, self.in_place) if name]


@dataclass(frozen=True)
class Kernel:
    name: str         # backend::BinaryOp::<name>
    op_name: str      # its name in messages
    dtypes: str


@dataclass(frozen=True)
class OpCatalogue:
    ops: List[Op]
    kernels: List[Kernel]

    def by_name(self) -> Dict[str, Op]:
        return {op.name: op for op in self.ops}


def split_fields(text: str) -> Optional[List[str]]:
    fields, position = [], 0
    while position <= len(text):
        match = OP_FIELD.match(text, position)
        if not match or match.end() == position:
            return None
        fields.append(match.group(1))
        position = match.end()
        if position == len(text) and not text.endswith(","):
            break
    return fields


def unquote(field: str, what: str) -> str:
    if not (len(field) >= 2 and field[0] == field[-1] == '"'):
        raise ValueError("%s must be a string literal, got %s" % (what, field))
    return field[1:-1]


def one_of(field: str, allowed, what: str) -> str:
    if field not in allowed:
        raise ValueError("%s must be one of %s, got '%s'" % (what, ", ".join(allowed), field))
    return field


def name_or_empty(field: str, what: str) -> str:
    if field and not IDENTIFIER.match(field):
        raise ValueError("%s must be an identifier or empty, got '%s'" % (what, field))
    return field


def parse_op(macro: str, fields: List[str]) -> Op:
    kind_of_macro, extra = OP_MACROS[macro]
    if len(fields) != 10 + extra:
        raise ValueError("%s takes %d fields, got %d" % (macro, 10 + extra, len(fields)))
    name, kind, method, function, in_place, operator, devices, result, rank, backward = fields[:10]
    if not IDENTIFIER.match(name):
        raise ValueError("Name must be an identifier, got '%s'" % name)
    kind = one_of(kind, OP_KINDS, "Kind")
    if kind_of_macro and kind != kind_of_macro:
        raise ValueError("a %s entry has Kind %s" % (macro, kind_of_macro))
    if operator and not OPERATOR.match(operator):
        raise ValueError("operator must be one of + - * / [] or empty, got '%s'" % operator)
    op = Op(macro, name, kind, name_or_empty(method, "method"),
            name_or_empty(function, "function"), name_or_empty(in_place, "in_place"), operator,
            one_of(devices, OP_DEVICES, "Devices"), one_of(result, OP_RESULTS, "Result"),
            one_of(rank, OP_RANKS, "Rank"), unquote(backward, "backward"))
    if macro in ("PL_UNARY_OP", "PL_BINARY_OP"):
        if not (op.method and op.function and op.in_place):
            raise ValueError("a %s entry names its method, function and in-place form" % macro)
        if not op.backward:
            raise ValueError("a %s entry names its backward node (its gradient is recorded)"
                             % macro)
        dtypes = one_of(fields[10], OP_DTYPES, "DTypes")
        saves = one_of(fields[11], OP_SAVES, "Saves") if macro == "PL_UNARY_OP" else ""
        bool_error = unquote(fields[-1], "bool_error")
        if (dtypes == "NotBool") != bool(bool_error):
            raise ValueError("bool_error is given exactly for DTypes NotBool")
        op = Op(*[getattr(op, field) for field in ("macro", "name", "kind", "method", "function",
                                                   "in_place", "operator", "devices", "result",
                                                   "rank", "backward")],
                dtypes=dtypes, saves=saves, bool_error=bool_error)
    return op


def load_ops(path: str = OPS_DEF) -> OpCatalogue:
    ops: List[Op] = []
    kernels: List[Kernel] = []
    with open(path, encoding="utf-8") as f:
        lines = list(enumerate(f, start=1))
    continued = False
    for number, line in lines:
        line = line.strip()
        # Preprocessor lines (the macros' defaults), with their continuations.
        if continued or line.startswith("#"):
            continued = line.endswith("\\")
            continue
        if not line or line.startswith("//"):
            continue
        match = OP_ENTRY.match(line)
        fields = split_fields(match.group(2)) if match else None
        try:
            if fields is None:
                raise ValueError("not an entry")
            if match.group(1) == "PL_BINARY_KERNEL":
                if len(fields) != 3 or not all(IDENTIFIER.match(field) for field in fields[:2]):
                    raise ValueError("PL_BINARY_KERNEL takes Name, op_name, DTypes")
                kernels.append(Kernel(fields[0], fields[1], one_of(fields[2], OP_DTYPES, "DTypes")))
            else:
                ops.append(parse_op(match.group(1), fields))
        except ValueError as error:
            sys.exit("%s:%d: %s (the file's header says the form): %s"
                     % (path, number, error, line))
    if not ops:
        sys.exit("%s: no op entries" % path)
    names = [op.name for op in ops] + [kernel.name for kernel in kernels]
    if len(set(names)) != len(names):
        sys.exit("%s: two entries share a Name" % path)
    return OpCatalogue(ops, kernels)


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
    names = {rule.name: rule for rule in catalogue.rules}
    return table(["rule", "analyzer", "runtime", "names your line", "reported instead of"],
                 [[rule_link(rule, "docs/rules", "docs"), "check" if rule.checked else "not yet",
                   rule.runtime, "yes" if rule.names_call_site else "no",
                   ", ".join(names[other].id for other in rule.subsumes) or "-"]
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
    commands.add_parser("ops", help="one tab-separated line per op of ops.def")
    docs_parser = commands.add_parser("docs", help="write the documentation's rule tables")
    docs_parser.add_argument("--check", action="store_true",
                             help="only check that they are up to date")
    options = parser.parse_args()
    if options.command == "ops":
        for op in load_ops().ops:
            fields = [op.name, op.kind, op.method, op.function, op.in_place, op.operator,
                      op.devices, op.result, op.rank, op.backward, op.dtypes, op.saves,
                      op.bool_error]
            print("\t".join(fields))
        return 0
    catalogue = load()
    if options.command == "rules":
        for rule in catalogue.rules:
            print("\t".join([rule.id, rule.title, rule.analyzer, rule.mirror, rule.site,
                             rule.runtime]))
        return 0
    return docs(catalogue, options.check)


if __name__ == "__main__":
    sys.exit(main())
