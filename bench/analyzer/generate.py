#!/usr/bin/python3
"""Generates the translation units of the analyzer cost benchmark.

    generate.py OUT_DIR

writes into OUT_DIR:
  functions-1000.cpp, functions-2000.cpp, functions-4000.cpp
      N tensor-using functions each (factories, transfers to a device
      variable, ops, branches, loops, a module), against the runtime's
      <pl/pl.h>; correct code, so the analysis runs fully and reports nothing
  libtorch.cpp
      <torch/torch.h> plus 200 such functions written against libtorch
      (compile with -std=c++17)
  long-function.cpp
      one function of 5,000 statements with nested loops and branches over
      50 tensors
"""

import os
import sys

FUNCTION_COUNTS = (1000, 2000, 4000)
LIBTORCH_FUNCTIONS = 200
LONG_FUNCTION_STATEMENTS = 5000
LONG_FUNCTION_TENSORS = 50

# One function body per variant, cycling, so that the TU exercises every
# transfer function of the analysis. {ns} is pl or torch, {i} the index.
VARIANTS = (
    """{ns}::Tensor step{i}(const {ns}::Tensor &input, {ns}::Device dev, int steps) {{
  {ns}::Tensor w = {ns}::ones({{4, 4}}, dev);
  {ns}::Tensor x = input.to(dev);
  {ns}::Tensor acc = {ns}::zeros({{4, 4}}, dev);
  for (int s = 0; s < steps; ++s) {{
    if (s % 2 == 0)
      acc += {ns}::matmul(x, w);
    else
      acc = acc * 0.5 + x;
  }}
  return acc.relu() + w.sum();
}}
""",
    """{ns}::Tensor step{i}(const {ns}::Tensor &input, {ns}::Device dev, int steps) {{
  {ns}::Tensor host = {ns}::randn({{8}});
  {ns}::Tensor x = input.to(dev);
  {ns}::Tensor y = host.to(dev);
  int k = 0;
  while (k < steps) {{
    {ns}::Tensor batch = input.to(dev) * (k + 1);
    y = y + batch.mul(x);
    ++k;
  }}
  return {ns}::cat({{x, y}}, 0);
}}
""",
    """{ns}::Tensor step{i}(const {ns}::Tensor &input, {ns}::Device dev, int mode) {{
  {ns}::Tensor t = input;
  switch (mode) {{
  case 0:
    t = t.to(dev);
    break;
  case 1:
    t = {ns}::ones({{2, 2}}, dev);
    break;
  default:
    t = input.to(dev).exp();
    break;
  }}
  {ns}::Tensor u = {ns}::full({{2, 2}}, 1.5, dev);
  if (mode > 3)
    return t;
  return {ns}::stack({{t, u}}, 1).mean();
}}
""",
    """{ns}::Tensor step{i}({ns}::nn::Linear &layer, const {ns}::Tensor &input, {ns}::Device dev) {{
  layer->to(dev);
  {ns}::Tensor x = input.to(dev);
  {ns}::Tensor y = layer(x);
  {ns}::Tensor z = layer->forward(y.relu());
  {ns}::Tensor scale = {ns}::scalar_tensor(2.0);
  return z * scale - y;
}}
""",
)


def functions(ns: str, count: int) -> str:
    return "\n".join(VARIANTS[i % len(VARIANTS)].format(ns=ns, i=i) for i in range(count))


def long_function() -> str:
    lines = ["void longFunction(pl::Device dev, int n) {"]
    for k in range(LONG_FUNCTION_TENSORS):
        lines.append("  pl::Tensor t%d = pl::ones({4}, dev);" % k)
    statements = LONG_FUNCTION_TENSORS
    block = 0
    # Each block: a loop holding a branch and an inner loop, 10 statements.
    while statements < LONG_FUNCTION_STATEMENTS:
        a, b, c = block % LONG_FUNCTION_TENSORS, (block * 7 + 3) % LONG_FUNCTION_TENSORS, \
            (block * 13 + 5) % LONG_FUNCTION_TENSORS
        lines += [
            "  for (int i%d = 0; i%d < n; ++i%d) {" % (block, block, block),
            "    if (i%d %% 3 == 0) {" % block,
            "      t%d = t%d + t%d;" % (a, a, b),
            "      t%d += t%d * 0.5;" % (c, a),
            "    } else {",
            "      t%d = t%d.relu();" % (b, b),
            "    }",
            "    for (int j = 0; j < 2; ++j)",
            "      t%d = pl::matmul(t%d, t%d.to(dev));" % (c, c, b),
            "    if (n > %d)" % block,
            "      continue;",
            "    t%d = t%d.sum() * t%d;" % (a, b, c),
            "  }",
        ]
        statements += 10
        block += 1
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for count in FUNCTION_COUNTS:
        write(os.path.join(out_dir, "functions-%d.cpp" % count),
              "#include <pl/pl.h>\n\n" + functions("pl", count))
    write(os.path.join(out_dir, "libtorch.cpp"),
          "#include <torch/torch.h>\n\n" + functions("torch", LIBTORCH_FUNCTIONS))
    write(os.path.join(out_dir, "long-function.cpp"), "#include <pl/pl.h>\n\n" + long_function())
    return 0


if __name__ == "__main__":
    sys.exit(main())
