#!/usr/bin/python3
"""Generates a tree of translation units that use the pl runtime, with its
compile_commands.json, for measuring placelint at scale.

    generate_tree.py OUT_DIR --include DIR [--include DIR...] [--units 200]

Each unit includes <pl/pl.h> and holds a few functions in the style of
training code: factories, transfers, a loop over batches, module calls.
One unit in four carries one placement bug, so the run reports findings
the way a real tree would. One unit in ten includes the tree's own header,
include/tree/shared.h, so that editing it touches 10% of the units.
With --torch the units use libtorch (<torch/torch.h>, torch::) instead:
the same code, as it ports by renaming.
"""

import argparse
import json
import os
import shlex

SHARED_HEADER = """#pragma once

namespace tree {

inline int batchSize() { return 8; }

} // namespace tree
"""

UNIT = """{shared}#include <pl/pl.h>

#include <vector>

namespace unit{index} {{

pl::Tensor prepare(const pl::Tensor &raw, pl::Device device) {{
  pl::Tensor scaled = raw * 2.0 + 1.0;
  return scaled.to(device);
}}

pl::Tensor train(const std::vector<pl::Tensor> &batches, pl::Device device) {{
  pl::nn::Linear layer(8, 8);
  layer->to(device);
  pl::Tensor weights = pl::randn({{8, 8}}, pl::device(device));
  pl::Tensor total = pl::zeros({{8}}, pl::device(device));
  for (const pl::Tensor &batch : batches) {{
    pl::Tensor input = prepare(batch, device);
    pl::Tensor hidden = layer->forward(input).relu();
    total += pl::matmul(hidden, weights).sum(0);
  }}
  return total;
}}

float evaluate(const pl::Tensor &input, pl::Device device) {{
  pl::Tensor on = input.to(device);
  pl::Tensor mean = on.mean();
  return mean.item<float>();
}}

{extra}
}} // namespace unit{index}
"""

BUGS = [
    """pl::Tensor mixed(const pl::Tensor &x) {
  pl::Tensor bias = pl::zeros({8});
  pl::Tensor moved = x.to(pl::kCUDA);
  return moved + bias;
}
""",
    """void discarded(pl::Tensor t) {
  t.to(pl::kCUDA);
}
""",
    """pl::Tensor hoist(const std::vector<pl::Tensor> &batches) {
  pl::Tensor mask = pl::ones({8});
  pl::Tensor total = pl::zeros({8}, pl::kCUDA);
  for (const pl::Tensor &batch : batches) {
    pl::Tensor deviceMask = mask.to(pl::kCUDA);
    total += batch.to(pl::kCUDA) * deviceMask;
  }
  return total;
}
""",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir")
    parser.add_argument("--include", action="append", required=True,
                        help="an include directory of the runtime headers")
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--compiler", default="clang++-19")
    parser.add_argument("--torch", action="store_true",
                        help="units include <torch/torch.h> and use torch:: (give "
                        "--include /usr/include/torch/csrc/api/include)")
    options = parser.parse_args()

    root = os.path.abspath(options.out_dir)
    commands = []
    for index in range(options.units):
        folder = os.path.join(root, "src", "part%02d" % (index // 20))
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "unit%03d.cpp" % index)
        extra = BUGS[(index // 4) % len(BUGS)] if index % 4 == 0 else ""
        with open(path, "w", encoding="utf-8") as unit:
            shared = "#include <tree/shared.h>\n" if index % 10 == 0 else ""
            text = UNIT.format(index=index, extra=extra, shared=shared)
            if options.torch:
                text = text.replace("<pl/pl.h>", "<torch/torch.h>").replace("pl::", "torch::")
            unit.write(text)
        # libtorch 1.13's headers are C++17 code.
        standard = "-std=c++17" if options.torch else "-std=c++20"
        arguments = [options.compiler, standard, "-I" + os.path.join(root, "include")]
        arguments += ["-I" + os.path.abspath(include) for include in options.include]
        arguments += ["-c", path, "-o", path + ".o"]
        commands.append({"directory": root, "file": path,
                         "command": " ".join(shlex.quote(a) for a in arguments)})
    os.makedirs(os.path.join(root, "include", "tree"), exist_ok=True)
    with open(os.path.join(root, "include", "tree", "shared.h"), "w", encoding="utf-8") as out:
        out.write(SHARED_HEADER)
    build = os.path.join(root, "build")
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(build, "compile_commands.json"), "w", encoding="utf-8") as db:
        json.dump(commands, db, indent=2)
    print("generated %d units under %s" % (options.units, root))


if __name__ == "__main__":
    main()
