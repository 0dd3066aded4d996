"""placelint_aspect: the placement checks as Bazel actions.

    bazel build --aspects=@placelint//:placelint.bzl%placelint_aspect \
        --output_groups=placelint //...

Each C and C++ source of a cc_library, cc_binary or cc_test (and of their
deps) becomes one action that runs `placelint FILE -- FLAGS` and writes
FILE's findings as placelint's JSON. The action's inputs are declared (the
source, the headers of the target and its deps, the C++ toolchain's files),
so Bazel re-runs it only when one of them changes, and its own remote cache
and remote execution share and distribute it. `placelint` is taken from the
PATH that actions see (--action_env=PATH=... to choose another).
"""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

_SOURCE_EXTENSIONS = ["c", "cc", "cpp", "cxx", "c++", "C"]
_RULES = ["cc_library", "cc_binary", "cc_test"]

def _flags(ctx, compilation_context):
    flags = []
    for define in compilation_context.defines.to_list():
        flags.append("-D" + define)
    for define in compilation_context.local_defines.to_list():
        flags.append("-D" + define)
    for path in compilation_context.includes.to_list():
        flags.append("-I" + path)
    for path in compilation_context.quote_includes.to_list():
        flags += ["-iquote", path]
    for path in compilation_context.system_includes.to_list():
        flags += ["-isystem", path]
    flags += ctx.fragments.cpp.cxxopts + ctx.fragments.cpp.copts
    flags += getattr(ctx.rule.attr, "copts", [])
    return flags

def _report(ctx, source, flags, inputs):
    # One report per source; the path keeps sources of the same name apart.
    report = ctx.actions.declare_file(
        "{}.placelint/{}.json".format(ctx.label.name, source.short_path.replace("/", "_")),
    )
    ctx.actions.run_shell(
        inputs = depset([source], transitive = [inputs]),
        outputs = [report],
        command = 'exec placelint --quiet --format=json --output="$1" "$2" -- "${@:3}"',
        arguments = [report.path, source.path] + flags,
        use_default_shell_env = True,
        mnemonic = "Placelint",
        progress_message = "placelint {}".format(source.short_path),
    )
    return report

def _placelint_aspect_impl(target, ctx):
    reports = []
    if ctx.rule.kind in _RULES and CcInfo in target:
        compilation_context = target[CcInfo].compilation_context
        toolchain = find_cpp_toolchain(ctx)
        inputs = depset(transitive = [compilation_context.headers, toolchain.all_files])
        flags = _flags(ctx, compilation_context)
        for src in getattr(ctx.rule.attr, "srcs", []):
            for source in src.files.to_list():
                if source.extension in _SOURCE_EXTENSIONS:
                    reports.append(_report(ctx, source, flags, inputs))
    transitive = [
        dep[OutputGroupInfo].placelint
        for dep in getattr(ctx.rule.attr, "deps", [])
        if OutputGroupInfo in dep and hasattr(dep[OutputGroupInfo], "placelint")
    ]
    return [OutputGroupInfo(placelint = depset(reports, transitive = transitive))]

placelint_aspect = aspect(
    implementation = _placelint_aspect_impl,
    attr_aspects = ["deps"],
    fragments = ["cpp"],
    attrs = {
        "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
    },
)
