#!/usr/bin/python3
"""placelint-clangd driven over LSP (stdio JSON-RPC) as an editor drives it.

A buggy pl program and a buggy libtorch program (one translation unit: its
<torch/torch.h> preamble takes 20-40 s here) are opened with nothing but a
compile_commands.json: their placement warnings come with rule codes, their
notes as related information, their fix-it as a quick-fix code action;
applying it (didChange) makes the warnings go, and they come back, or move,
with the text. Then the user's configuration, half-typed code, and helpers
whose bodies clangd's preamble skips.
"""

import unittest

from editor_setup import (CATALOGUE, COMPILER, MOCK_FLAGS, PL_FLAGS, SOURCE_DIR, TORCH_API_INCLUDE,
                          TORCH_FLAGS, errors, expected_findings, placement_findings,
                          require_clangd, rule, start_server)
from lsp import Project, apply_edits

# The torch program's first diagnostics wait for its preamble.
TORCH_TIMEOUT = 600


class BuggyProgram:
    """The checks of one buggy program, opened once (a mixin of TestCase)."""

    program: str  # under the source tree
    flags: list
    timeout = 120

    @classmethod
    def setUpClass(cls):
        cls.text = (SOURCE_DIR / cls.program).read_text()
        cls.project = Project(COMPILER, cls.flags)
        cls.path = cls.project.add("program.cpp", cls.text)
        cls.server = start_server(cls.project)
        cls.server.open(cls.path, cls.text, 1)
        cls.first = cls.server.diagnostics(cls.path, 1, cls.timeout)
        cls.version = 1

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.project.remove()

    def setUp(self):
        # Each test starts from the program as written (a failed test may
        # have left an edit behind).
        self.current = self.first if self.version == 1 else self.edit(self.text)

    def edit(self, text):
        """The diagnostics after replacing the buffer with text."""
        type(self).version += 1
        self.server.change(self.path, text, self.version)
        return self.server.diagnostics(self.path, self.version, self.timeout)

    def warning(self, diagnostics, rule):
        found = [d for d in diagnostics if d.get("code") == rule]
        self.assertTrue(found, f"no {rule} among {diagnostics}")
        return found[0]

    def test_findings_are_the_marked_ones_with_rule_codes(self):
        self.assertEqual(errors(self.current), [], "clang's built-in headers not found?")
        self.assertEqual(placement_findings(self.current), expected_findings(self.text))
        for d in self.current:
            if d["code"] in CATALOGUE.by_id():
                self.assertEqual(d["source"], "clang-tidy")
                self.assertEqual(d["severity"], 2)

    def test_notes_are_related_information(self):
        mixed = self.warning(self.current, rule("MixedDevice"))
        notes = mixed.get("relatedInformation", [])
        self.assertTrue(notes, mixed)
        for note in notes:
            self.assertEqual(note["location"]["uri"], self.path.as_uri())
            self.assertRegex(note["message"], r"was (created|moved|assigned)")

    def test_fix_it_removes_the_warnings_and_undo_brings_them_back(self):
        discarded = self.warning(self.current, rule("DiscardedTransfer"))
        fixes = [a for a in self.server.code_actions(self.path, discarded)
                 if a.get("kind") == "quickfix" and "edit" in a]
        self.assertEqual(len(fixes), 1, fixes)
        edits = fixes[0]["edit"]["changes"][self.path.as_uri()]
        fixed = apply_edits(self.text, edits)
        self.assertNotEqual(fixed, self.text)
        # The transfer now assigned, the operands meet on one device: both go.
        self.assertEqual(placement_findings(self.edit(fixed)), set())
        self.assertEqual(placement_findings(self.edit(self.text)), expected_findings(self.text))

    def test_findings_follow_the_edited_text(self):
        # Every finding moves down with a line added above it: nothing comes
        # from the analysis of an earlier version of the buffer.
        moved = {(line + 1, rule) for line, rule in expected_findings(self.text)}
        self.assertEqual(placement_findings(self.edit("// a comment\n" + self.text)), moved)
        self.assertEqual(placement_findings(self.edit(self.text)), expected_findings(self.text))


class PlProgram(BuggyProgram, unittest.TestCase):
    program = "test/editor/inputs/train_step.cpp"
    flags = PL_FLAGS


@unittest.skipUnless((TORCH_API_INCLUDE / "torch/torch.h").exists(),
                     f"no torch/torch.h under {TORCH_API_INCLUDE}")
class LibtorchProgram(BuggyProgram, unittest.TestCase):
    program = "test/analyzer/integration/corpus/batch_to_device_discarded.cpp"
    flags = TORCH_FLAGS
    timeout = TORCH_TIMEOUT


# A small program on the mock headers, for what needs a server of its own.
MIXED = """#include <pl/pl.h>
pl::Tensor mixed() {
  if (!pl::cuda::is_available())
    return {};
  pl::Tensor host = pl::ones({2});
  pl::Tensor device = pl::ones({2}, pl::kCUDA);
  return host + device; // expect: placement-mixed-device
}
"""


class UserConfiguration(unittest.TestCase):
    """The user's .clang-tidy or .clangd decides when it names checks; if it
    names none of the placement checks, or a flag turns clang-tidy off, the
    user is told, once."""

    def session(self, config_files, flags=()):
        project = Project(COMPILER, MOCK_FLAGS)
        self.addCleanup(project.remove)
        for name, text in config_files.items():
            project.add(name, text)
        paths = [project.add(f"program{i}.cpp", MIXED) for i in range(2)]
        server = start_server(project, *flags)
        self.addCleanup(server.kill)
        findings = []
        for path in paths:
            server.open(path, MIXED, 1)
            findings.append(placement_findings(server.diagnostics(path, 1)))
        messages = server.notifications("window/showMessage")
        self.assertEqual(server.shutdown(), 0)
        return findings, messages

    def test_checks_leaving_placement_out_are_reported_once(self):
        findings, messages = self.session({".clang-tidy": "Checks: '-*,bugprone-*'\n"})
        self.assertEqual(findings, [set(), set()])
        self.assertEqual(len(messages), 1, messages)
        self.assertEqual(messages[0]["type"], 2)
        self.assertIn(CATALOGUE.check_glob, messages[0]["message"])
        self.assertIn("program0.cpp", messages[0]["message"])

    def test_checks_naming_a_placement_check_run_it_silently(self):
        findings, messages = self.session({".clang-tidy": f"Checks: '-*,{rule('MixedDevice')}'\n"})
        self.assertEqual(findings, [expected_findings(MIXED)] * 2)
        self.assertEqual(messages, [])

    def test_strict_fast_check_filter_keeps_them(self):
        findings, messages = self.session(
            {".clangd": "Diagnostics:\n  ClangTidy:\n    FastCheckFilter: Strict\n"})
        self.assertEqual(findings, [expected_findings(MIXED)] * 2)
        self.assertEqual(messages, [])

    def test_clangd_config_can_remove_them(self):
        findings, messages = self.session(
            {".clangd": f"Diagnostics:\n  ClangTidy:\n    Remove: '{CATALOGUE.check_glob}'\n"})
        self.assertEqual(findings, [set(), set()])
        self.assertEqual(len(messages), 1, messages)


    def test_clang_tidy_turned_off_by_a_flag_is_reported(self):
        findings, messages = self.session({}, ["--clang-tidy=false"])
        self.assertEqual(findings, [set(), set()])
        self.assertEqual(len(messages), 1, messages)
        self.assertIn("--clang-tidy=false", messages[0]["message"])


class HalfTypedCode(unittest.TestCase):
    def test_a_file_cut_mid_expression_and_then_completed(self):
        project = Project(COMPILER, MOCK_FLAGS)
        self.addCleanup(project.remove)
        path = project.add("program.cpp", MIXED)
        server = start_server(project)
        self.addCleanup(server.kill)
        cut = MIXED[:MIXED.index("+ device") + 2]
        server.open(path, cut, 1)
        self.assertTrue(errors(server.diagnostics(path, 1)))
        server.change(path, cut + "device;\n}\n", 2)
        self.assertEqual(placement_findings(server.diagnostics(path, 2)), expected_findings(MIXED))
        self.assertEqual(server.shutdown(), 0)


# A helper's body in a header is skipped by clangd's preamble: the analysis
# does not see it. What needs the body is not found in the editor (the
# helper counts as unknown), and nothing is reported that the body would
# have ruled out. `placelint` and clang-tidy see these bodies.
HELPERS_H = """#pragma once
#include <torch/torch.h>
inline torch::Tensor on_host() { return torch::ones({2}); }
inline torch::Tensor like(const torch::Tensor &t) { return torch::ones({2}).to(t.device()); }
struct NetImpl : torch::nn::Module {
  NetImpl() { register_buffer("scale", scale); }
  torch::Tensor forward(torch::Tensor x) { return x * scale; }
  torch::Tensor scale = torch::ones({2});
};
TORCH_MODULE(Net);
"""
HELPERS_MAIN = """#include "helpers.h"
torch::Tensor in_main_file() {
  torch::Tensor a = torch::ones({2});
  return a + torch::ones({2}).cuda(); // expect: placement-mixed-device
}
torch::Tensor result_of_a_header_helper() {
  return on_host() + torch::ones({2}).cuda(); // found by clang-tidy, not in the editor
}
torch::Tensor header_helper_keeps_the_device(torch::Tensor x) {
  x = x.cuda();
  return x + like(x);
}
torch::Tensor buffer_registered_in_header(Net net, torch::Tensor x) {
  net->to(torch::kCUDA);
  return x.cuda() * net->scale;
}
"""


class HeaderHelpers(unittest.TestCase):
    def test_skipped_bodies_count_as_unknown(self):
        project = Project(COMPILER, [*MOCK_FLAGS, "-I."])
        self.addCleanup(project.remove)
        project.add("helpers.h", HELPERS_H)
        project.add(".clang-tidy", f"Checks: '-*,{rule('MixedDevice')}'\n")
        path = project.add("program.cpp", HELPERS_MAIN)
        server = start_server(project)
        self.addCleanup(server.kill)
        server.open(path, HELPERS_MAIN, 1)
        diagnostics = server.diagnostics(path, 1)
        self.assertEqual(errors(diagnostics), [])
        self.assertEqual(placement_findings(diagnostics), expected_findings(HELPERS_MAIN))
        self.assertEqual(server.shutdown(), 0)


if __name__ == "__main__":
    require_clangd()
    unittest.main()
