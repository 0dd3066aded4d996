# lit configuration for placelint's analyzer tests (test/analyzer).
#
# Configured through lit.site.cfg.py in the build tree. Every test runs
# through the clang-tidy plugin in the stock clang-tidy-19 and through the
# `placelint` executable: the lit parameter `mode` (plugin, placelint or both;
# default both) picks which, and %check_placement passes it to the runner.
import os

import lit.formats

mode = lit_config.params.get("mode", "both")
if mode not in ("plugin", "placelint", "both"):
    lit_config.fatal("--param mode=%s: expected plugin, placelint or both" % mode)

config.name = "placelint-" + mode
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp"]
# Directories under test/ that hold GoogleTest sources, not lit tests, and
# the headers that tests include.
config.excludes = ["Inputs", "CMakeLists.txt", "analysis", "runtime", "cuda",
                   "install", "parity", "libtorch", "tool"]
config.test_source_root = os.path.dirname(__file__)
# One output tree per mode: ctest runs the plugin and placelint suites at the
# same time, and lit writes each test's script under the exec root. Two runs
# of the same test in one mode at once (a hand run beside ctest's) would share
# its Output files: `--param exec_root=DIR` gives a run a tree of its own.
config.test_exec_root = lit_config.params.get("exec_root") or os.path.join(
    config.placelint_obj_root, "test", "lit-" + mode)

if os.path.exists(os.path.join(config.torch_api_include_dir, "torch", "torch.h")):
    config.available_features.add("libtorch")

runner = os.path.join(config.test_source_root, "analyzer", "check_placement.py")
check_placement = " ".join([
    config.python_executable, runner, "--mode=" + mode,
    "--clang-tidy=" + config.clang_tidy, "--plugin=" + config.plugin,
    "--placelint=" + config.placelint, "--filecheck=" + config.filecheck])


def include_flags(dirs):
    return " ".join("-I" + d for d in dirs if os.path.isdir(d))


config.substitutions.append(("%check_placement", check_placement))
# %mock_includes: the runtime's own headers for <pl/pl.h> (so that the pl API
# the tests see cannot drift from the runtime's), as system headers, and the
# small mock of <torch/torch.h> and the helper headers in analyzer/Inputs.
config.substitutions.append(("%mock_includes", " ".join(
    "-isystem " + d for d in config.pl_include_dirs + [
        os.path.join(config.test_source_root, "analyzer", "Inputs")] if os.path.isdir(d))))
config.substitutions.append(("%pl_includes", include_flags(config.pl_include_dirs)))
config.substitutions.append(("%torch_includes", "-isystem " + config.torch_api_include_dir))
config.substitutions.append(("%torch_api_dir", config.torch_api_include_dir))
config.substitutions.append(("%examples", os.path.join(config.placelint_src_root, "examples")))
