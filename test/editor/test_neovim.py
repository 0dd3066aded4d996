#!/usr/bin/python3
"""A real editor on placelint-clangd: Neovim, headless, with its built-in LSP
client (ctest label editor). Neovim opens a buggy pl program of a project with
only a compile_commands.json, starts placelint-clangd as its language server,
and the placement warnings Neovim then shows (vim.diagnostic) are the ones
the program's `// expect:` markers name, with their rule codes."""

import json
import os
import shutil
import subprocess
import sys
import unittest

from editor_setup import (CATALOGUE, CLANGD, COMPILER, PL_FLAGS, SKIPPED, SOURCE_DIR,
                          expected_findings, require_clangd)
from lsp import Project

PROGRAM = "test/editor/inputs/train_step.cpp"
TIMEOUT_S = 300


class Neovim(unittest.TestCase):
    def test_neovim_shows_the_placement_warnings(self):
        text = (SOURCE_DIR / PROGRAM).read_text()
        project = Project(COMPILER, PL_FLAGS)
        self.addCleanup(project.remove)
        path = project.add("program.cpp", text)
        out = project.root / "diagnostics.jsonl"
        env = project.environment()
        for xdg in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            env[xdg] = str(project.root / xdg.lower())
        env.update(PLACELINT_CLANGD=CLANGD, NVIM_DIAGNOSTICS_OUT=str(out),
                   NVIM_TIMEOUT_MS=str(TIMEOUT_S * 1000))
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nvim_diagnostics.lua")
        subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
                        "-c", f"luafile {script}", str(path)],
                       cwd=project.root, env=env, timeout=TIMEOUT_S + 60, check=True,
                       stdin=subprocess.DEVNULL)
        shown = [json.loads(line) for line in out.read_text().splitlines()]
        placement = {(d["lnum"], d["code"]) for d in shown
                     if str(d["code"]).startswith(CATALOGUE.prefix)}
        self.assertEqual(placement, expected_findings(text), shown)
        for d in shown:
            if (d["lnum"], d["code"]) in placement:
                self.assertEqual(d["source"], "clang-tidy")


if __name__ == "__main__":
    require_clangd()
    if not shutil.which("nvim"):
        print("skipped: Neovim (nvim) is not installed (scripts/setup.sh installs it)")
        sys.exit(SKIPPED)
    unittest.main()
