#!/usr/bin/python3
"""Stands in for placelint in fixits_keep_behaviour.py's self-test: reports
each `.to(device)` as create-then-move and, with --fix, offers and applies a
fix that deletes it, a fix that changes what the program does.

    fake_placelint.py --quiet [--fix] [--export-fixes=FILE] SOURCE -- ARGS...
"""

import sys

MOVE = ".to(device)"


def main() -> int:
    arguments = sys.argv[1:sys.argv.index("--")]
    source = arguments[-1]
    with open(source) as f:
        text = f.read()
    offset = text.find(MOVE)
    replacements = []
    if offset >= 0:
        line = text.count("\n", 0, offset) + 1
        column = offset - text.rfind("\n", 0, offset)
        print("%s:%d:%d: warning: moved at once [placement-create-then-move]" % (source, line, column))
        replacements.append("        - FilePath: '%s'\n          Offset: %d\n          Length: %d\n"
                            "          ReplacementText: ''\n" % (source, offset, len(MOVE)))
    export = [a.split("=", 1)[1] for a in arguments if a.startswith("--export-fixes=")]
    if export and replacements:
        with open(export[0], "w") as f:
            f.write("Diagnostics:\n  - DiagnosticName: placement-create-then-move\n"
                    "    DiagnosticMessage:\n      Replacements:\n" + "".join(replacements))
    if "--fix" in arguments and offset >= 0:
        with open(source, "w") as f:
            f.write(text[:offset] + text[offset + len(MOVE):])
    return 0


if __name__ == "__main__":
    sys.exit(main())
