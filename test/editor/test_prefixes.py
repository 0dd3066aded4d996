#!/usr/bin/python3
"""Half-typed code never crashes placelint-clangd (ctest label editor).

Real programs are typed into one placelint-clangd, as an editor sends them:
each program is opened empty, then grows through a sample of its prefixes
(a file cut at the end of a line, and in the middle of one), each sent as a
didChange whose diagnostics are awaited before the next; the last is the
whole program. Most prefixes do not
compile: clang recovers (invalid declarations, recovery expressions) and the
checks run over what it recovered. The server must answer every version and
exit cleanly; the whole program must still get its findings at the end (those
its `// expect:` markers name, or for a lit test some).
"""

import time
import unittest

from editor_setup import (COMPILER, MOCK_FLAGS, PL_FLAGS, SOURCE_DIR, expected_findings,
                          placement_findings, require_clangd, start_server)
from lsp import Project

# (program, flags): the runtime's own headers and the analyzer tests' mocks.
PROGRAMS = [
    ("examples/training/training.cpp", PL_FLAGS),
    ("examples/bugs/placement-mixed-device/two_devices.cpp", PL_FLAGS),
    ("test/analyzer/mixed-device.cpp", MOCK_FLAGS),
    ("test/analyzer/mixed-device-module-members.cpp", MOCK_FLAGS),
    ("test/analyzer/transfer-in-loop-training.cpp", MOCK_FLAGS),
    ("test/analyzer/unguarded-cuda-counts-callers.cpp", MOCK_FLAGS),
]
# Prefixes sent per program: a few that end in the #include block (each
# changes clangd's preamble, which costs a parse of the headers), and the
# rest spread evenly over the code below it.
INCLUDE_PREFIXES = 3
CODE_PREFIXES = 40


def cut_points(text: str) -> tuple:
    """Where the #include block's lines end, and every later line's middle
    and end, as offsets into text."""
    lines = text.splitlines(keepends=True)
    last_include = max(i for i, line in enumerate(lines) if line.startswith("#include"))
    includes, code, start = [], [], 0
    for number, line in enumerate(lines):
        if number <= last_include:
            includes.append(start + len(line))
        else:
            code += [start + len(line) // 2, start + len(line)]
        start += len(line)
    return includes, code


def sample(points: list, count: int) -> list:
    """count of points, evenly spread, the last one included."""
    if len(points) <= count:
        return points
    step = len(points) / count
    return [points[int((i + 1) * step) - 1] for i in range(count)]


def prefixes(text: str) -> list:
    """The cut points to send, each once (clangd publishes nothing for a
    version whose text did not change)."""
    includes, code = cut_points(text)
    return sorted(set(sample(includes, INCLUDE_PREFIXES) + sample(code, CODE_PREFIXES)))


class Prefixes(unittest.TestCase):
    def test_every_sampled_prefix_of_each_program(self):
        for program, flags in PROGRAMS:
            with self.subTest(program=program):
                self.type_in(program, flags)

    def type_in(self, program, flags):
        text = (SOURCE_DIR / program).read_text()
        project = Project(COMPILER, flags)
        self.addCleanup(project.remove)
        path = project.add("program.cpp", text)
        server = start_server(project)
        self.addCleanup(server.kill)
        started = time.monotonic()
        server.open(path, "", 1)
        server.diagnostics(path, 1)
        cuts = prefixes(text)
        for version, cut in enumerate(cuts, start=2):
            server.change(path, text[:cut], version)
            server.diagnostics(path, version)
        whole = placement_findings(server.diagnostics(path, len(cuts) + 1))
        if "CHECK-MESSAGES" in text:  # a lit test: its findings are pinned there
            self.assertTrue(whole, "the whole program has no finding: did the checks run?")
        else:
            self.assertEqual(whole, expected_findings(text))
        self.assertEqual(server.shutdown(), 0)
        print(f"{program}: {len(cuts)} prefixes in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    require_clangd()
    unittest.main()
