#!/usr/bin/python3
"""placelint-clangd's diagnostics of a file do not depend on what was opened
before it.

Three buggy programs are opened one after another in one server, and in
the reverse order in a second server; each file's diagnostics (ranges,
messages, rule codes, notes) must be the same in both. Then, in the second
server, the file opened first is analysed again (a new version, a comment
line added at its end) after the others: the same diagnostics again.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "editor"))
from editor_setup import COMPILER, PL_FLAGS, SOURCE_DIR, require_clangd, start_server  # noqa: E402
from lsp import Project  # noqa: E402

# Programs with findings of several rules, through helpers and loops.
PROGRAMS = [
    "examples/bugs/placement-mixed-device/host_statistics.cpp",
    "examples/bugs/placement-transfer-in-loop/invariant_weights.cpp",
    "examples/bugs/placement-create-then-move/zeros_state.cpp",
]
TIMEOUT = 120


def comparable(diagnostics):
    return sorted(diagnostics, key=lambda d: (d["range"]["start"]["line"],
                                              d["range"]["start"]["character"], d["message"]))


class OpenOrder(unittest.TestCase):
    def setUp(self):
        self.project = Project(COMPILER, PL_FLAGS)
        self.paths = [self.project.add(f"p{i}_{Path(p).name}", (SOURCE_DIR / p).read_text())
                      for i, p in enumerate(PROGRAMS)]

    def tearDown(self):
        self.project.remove()

    def open_in_order(self, paths):
        """Each file's diagnostics, opened in this order in a fresh server."""
        server = start_server(self.project)
        try:
            found = {}
            for path in paths:
                server.open(path, path.read_text(), 1)
                found[path] = comparable(server.diagnostics(path, 1, TIMEOUT))
            again = None
            if len(paths) > 1:
                # clangd publishes nothing for an unchanged buffer: add a line.
                server.change(paths[0], paths[0].read_text() + "// again\n", 2)
                again = comparable(server.diagnostics(paths[0], 2, TIMEOUT))
            return found, again
        finally:
            server.shutdown()

    def test_diagnostics_do_not_depend_on_what_was_opened_before(self):
        forward, _ = self.open_in_order(self.paths)
        backward, reanalysed = self.open_in_order(self.paths[::-1])
        self.assertTrue(any(any(str(d.get("code", "")).startswith("placement-") for d in found)
                            for found in forward.values()), "no placement warning at all")
        for path in self.paths:
            self.assertEqual(forward[path], backward[path],
                             f"{path.name}: other diagnostics when opened in another order")
        self.assertEqual(reanalysed, backward[self.paths[-1]],
                         f"{self.paths[-1].name}: other diagnostics after the other files")


if __name__ == "__main__":
    require_clangd()
    unittest.main()
