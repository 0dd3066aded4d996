"""What the editor tests share: where things are (from ctest's environment),
the compile flags of each kind of program, and starting placelint-clangd."""

import os
import re
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

from lsp import LanguageServer, Project

SOURCE_DIR = Path(os.environ.get("PL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE_DIR / "rules"))
import catalogue  # noqa: E402  (rules/catalogue.py: rules.def, the one source of truth)

CATALOGUE = catalogue.load()
BINARY_DIR = Path(os.environ.get("PL_BINARY_DIR", SOURCE_DIR / "build"))
CLANGD = os.environ.get("PLACELINT_CLANGD", "")
COMPILER = os.environ.get("CXX", "clang++-19")
TORCH_API_INCLUDE = Path(os.environ.get("TORCH_API_INCLUDE", "/usr/include/torch/csrc/api/include"))
# ctest's exit status for a skipped test (SKIP_RETURN_CODE in CMakeLists.txt).
SKIPPED = 77

# Compile flags: programs on the real pl runtime, on libtorch, and on the
# analyzer tests' mock headers (fast to parse).
PL_INCLUDE_DIRS = (SOURCE_DIR / "runtime/include", BINARY_DIR / "runtime/include",
                   SOURCE_DIR / "rules/include", BINARY_DIR / "rules/include")
PL_FLAGS = ["-std=c++20", *(f"-I{d}" for d in (
    *PL_INCLUDE_DIRS, SOURCE_DIR / "examples/bugs", SOURCE_DIR / "examples/common"))]
TORCH_FLAGS = ["-std=c++17", "-isystem", str(TORCH_API_INCLUDE)]
# As the lit tests' %mock_includes: the runtime's own <pl/pl.h> (there is no
# mock of it) and the mock of <torch/torch.h>.
MOCK_FLAGS = ["-std=c++20", *(f"-isystem{d}" for d in PL_INCLUDE_DIRS),
              "-isystem", str(SOURCE_DIR / "test/analyzer/Inputs")]

EXPECT = re.compile(r"//\s*expect:\s*(?P<rules>[a-z][a-z, -]*)$")


def rule(name: str) -> str:
    """The id of the rule rules.def calls name (`MixedDevice`)."""
    return next(r.id for r in CATALOGUE.rules if r.name == name)


def require_clangd() -> None:
    """Skips the whole test program where placelint-clangd was not built."""
    if not CLANGD or not os.access(CLANGD, os.X_OK):
        print("skipped: placelint-clangd was not built (PL_BUILD_CLANGD; it needs "
              "libclang-19-dev's clangd libraries and libgrpc++-dev libgrpc-dev libabsl-dev)")
        sys.exit(SKIPPED)


def start_server(project: Project, *flags: str) -> LanguageServer:
    """placelint-clangd on project, as an editor starts it (no index on disk)."""
    server = LanguageServer([CLANGD, "--background-index=false", *flags], project.root,
                            project.environment())
    server.initialize()
    return server


def expected_findings(text: str) -> Set[Tuple[int, str]]:
    """(0-based line, rule) of every `// expect: <rule-id>` marker."""
    found = set()
    for number, line in enumerate(text.splitlines()):
        match = EXPECT.search(line)
        if match:
            found.update((number, rule.strip()) for rule in match["rules"].split(","))
    return found


def placement_findings(diagnostics: List[Dict]) -> Set[Tuple[int, str]]:
    """(0-based line, rule) of the placement warnings among diagnostics."""
    return {(d["range"]["start"]["line"], d["code"]) for d in diagnostics
            if str(d.get("code", "")).startswith(CATALOGUE.prefix)}


def errors(diagnostics: List[Dict]) -> List[str]:
    return [d["message"] for d in diagnostics if d.get("severity") == 1]

