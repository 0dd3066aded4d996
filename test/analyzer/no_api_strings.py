#!/usr/bin/env python3
"""The API is named only in its catalogues (ops.def, api.def, devices.def):
fails when a C++ source of the analysis outside ApiModel -- the flow
(analyzer/lib/flow), the rules (analyzer/lib/rules), the checks
(analyzer/checks) and the facts the rules share -- holds a string literal
that is a catalogue name: an op, a method or function of the API, a class,
a namespace, a device spelling or a device constant.

Usage: no_api_strings.py ROOT  (prints each offending literal; exit 1 if any)
"""
import re
import sys
from pathlib import Path

SCANNED = ["analyzer/lib/flow", "analyzer/lib/rules", "analyzer/checks",
           "analyzer/lib/BodyFacts.cpp", "analyzer/lib/Syntax.cpp",
           "analyzer/lib/DeviceAnalysis.cpp"]
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
CODE = re.compile(r"::|\w\(|^\.\w")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def catalogue_names(root: Path) -> set:
    names = set()
    catalogues = root / "rules/include/placelint"
    for line in (catalogues / "api.def").read_text().splitlines():
        if line.startswith("PL_API_"):
            for text in LITERAL.findall(line):
                names.add(text)
                names.update(part for part in text.split("::") if part)
    for line in (catalogues / "ops.def").read_text().splitlines():
        if line.startswith("PL_OP("):
            fields = [f.strip() for f in line[len("PL_OP("):].split(",")]
            names.update(f for f in fields[2:5] if re.fullmatch(r"[a-z_][a-z0-9_]*", f))
    for line in (catalogues / "devices.def").read_text().splitlines():
        match = re.match(r'PL_DEVICE_TYPE\((\w+),\s*"(\w+)"', line)
        if match:
            names.update({match.group(2), "k" + match.group(1)})
    return names


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def main() -> int:
    root = Path(sys.argv[1])
    names = catalogue_names(root)
    found = []
    for scanned in SCANNED:
        path = root / scanned
        files = [path] if path.is_file() else sorted(path.rglob("*.[ch]*"))
        for source in files:
            code = strip_comments(source.read_text())
            for number, line in enumerate(code.splitlines(), 1):
                if line.lstrip().startswith("#include"):
                    continue
                for text in LITERAL.findall(line):
                    parts = [text] + [p for p in text.split("::") if p]
                    # Code in a literal (`"::Device("`, `".device("`): each
                    # of its identifiers; prose ("moves it to %1", "call
                    # requires_grad_() after") is not code.
                    if CODE.search(text) and not re.search(r"\s", text):
                        parts += IDENTIFIER.findall(text)
                    if any(p in names for p in parts):
                        found.append(f"{source.relative_to(root)}:{number}: \"{text}\"")
    for entry in found:
        print(f"{entry}: an API name outside the catalogues (api.def, ops.def, devices.def)")
    print(f"{len(found)} API string(s) in {len(SCANNED)} scanned places; "
          f"{len(names)} catalogue names")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
