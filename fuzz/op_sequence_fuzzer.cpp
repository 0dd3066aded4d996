// Differential op-sequence fuzzer: the input is decoded into a small program
// of catalogue ops (ops.def's elementwise ops, reductions, matmul, views,
// cat/stack, to, copy_, fill_, synchronize) over a few tensor slots, with
// shapes and dtypes from the input and sometimes the wrong device or the
// wrong shape. The program runs twice: with its tensors on the cpu, and on
// sim:0 (asynchronous, with the chaos switch set from the input). Both runs
// must give the same values, and the same errors (type and message, the
// home device's name aside) at the same steps.
//
// A "wrong device" is sim:1 in both runs. The one place the two runs may
// rightly differ is a 0-dim cpu tensor, which PyTorch's rule admits beside
// a tensor on another device: an op that would combine a 0-dim home tensor
// with a sim:1 tensor is skipped in both runs.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include <pl/pl.h>

namespace {

// Reads the input a byte or a small number at a time; past its end, zeros.
class Decoder {
public:
  Decoder(const std::uint8_t *data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // In [0, n).
  std::size_t below(std::size_t n) { return byte() % n; }
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::size_t>(hi - lo + 1)));
  }
  bool chance(unsigned one_in) { return below(one_in) == 0; }

private:
  const std::uint8_t *data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

struct UnaryOp {
  const char *name;
  pl::Tensor (*out_of_place)(const pl::Tensor &);
  void (*in_place)(const pl::Tensor &);
};
constexpr UnaryOp kUnaryOps[] = {
#define PL_UNARY_OP(Name, Kind, Method, Function, InPlace, ...)                                     \
  {#Method, [](const pl::Tensor &t) { return t.Method(); },                                        \
   [](const pl::Tensor &t) { t.InPlace(); }},
#include <placelint/ops.def>
};

struct BinaryOp {
  const char *name;
  pl::Tensor (*with_tensor)(const pl::Tensor &, const pl::Tensor &);
  void (*in_place)(const pl::Tensor &, const pl::Tensor &);
  pl::Tensor (*with_scalar)(const pl::Tensor &, const pl::Scalar &);
};
constexpr BinaryOp kBinaryOps[] = {
#define PL_BINARY_OP(Name, Kind, Method, Function, InPlace, ...)                                    \
  {#Method, [](const pl::Tensor &a, const pl::Tensor &b) { return a.Method(b); },                  \
   [](const pl::Tensor &a, const pl::Tensor &b) { a.InPlace(b); },                                 \
   [](const pl::Tensor &a, const pl::Scalar &s) { return a.Method(s); }},
#include <placelint/ops.def>
};

constexpr pl::ScalarType kDtypes[] = {pl::kFloat, pl::kDouble, pl::kLong, pl::kBool};
constexpr std::size_t kSlots = 6;
constexpr std::size_t kMaxSteps = 24;

// What one run did: per step, an error or nothing; at the end, each slot's
// device role, dtype, sizes and values.
struct Trace {
  std::vector<std::string> steps;
  std::vector<std::string> slots;
};

std::string describe_values(const pl::Tensor &t) {
  const pl::Tensor host = t.to(pl::Device(pl::kCPU)).to(pl::kDouble).contiguous();
  std::string out;
  const double *values = host.data_ptr<double>();
  for (std::int64_t i = 0; i < host.numel(); ++i) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%a ", std::isnan(values[i]) ? NAN : values[i]);
    out += buffer;
  }
  return out;
}

class Run {
public:
  Run(pl::Device home, pl::Device away) : home_(home), away_(away) {}

  Trace execute(const std::uint8_t *data, std::size_t size) {
    Decoder in(data, size);
    for (std::size_t step = 0; step < kMaxSteps && !in.done(); ++step) {
      std::string outcome = "ok";
      try {
        if (!execute_one(in))
          outcome = "skipped";
      } catch (const pl::Error &error) {
        outcome = std::string(typeid(error).name()) + ": " + normalise(error.what());
      }
      trace_.steps.push_back(std::move(outcome));
    }
    for (const pl::Tensor &t : slots_) {
      std::string slot = "undefined";
      if (t.defined()) {
        slot = role(t) + " " + std::string(pl::scalar_type_name(t.dtype())) + " [";
        for (std::int64_t s : t.sizes())
          slot += std::to_string(s) + ",";
        slot += "] " + describe_values(t);
      }
      trace_.slots.push_back(std::move(slot));
    }
    pl::synchronize(home_);
    pl::synchronize(away_);
    return std::move(trace_);
  }

private:
  std::string role(const pl::Tensor &t) const {
    return t.device() == home_ ? "home" : t.device() == away_ ? "away" : t.device().str();
  }

  // The home device's name is the one difference the runs may show.
  std::string normalise(std::string text) const {
    const std::string name = home_.str();
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at))
      text.replace(at, name.size(), "<home>");
    return text;
  }

  pl::Tensor &slot(Decoder &in) { return slots_[in.below(kSlots)]; }
  void put(Decoder &in, pl::Tensor t) { slot(in) = std::move(t); }

  // Combining a 0-dim tensor on home with one on sim:1 is legal only when
  // home is the cpu: skipped in both runs.
  bool cpu_scalar_rule_differs(std::initializer_list<const pl::Tensor *> operands) const {
    bool zero_dim_home = false, away = false;
    for (const pl::Tensor *t : operands) {
      zero_dim_home |= t->device() == home_ && t->dim() == 0;
      away |= t->device() == away_;
    }
    return zero_dim_home && away;
  }

  pl::Device device(Decoder &in) { return in.chance(5) ? away_ : home_; }

  std::vector<std::int64_t> shape(Decoder &in) {
    std::vector<std::int64_t> sizes(in.below(4));
    for (std::int64_t &s : sizes)
      s = in.in(0, 4) == 0 && in.chance(4) ? 0 : in.in(1, 4);
    return sizes;
  }

  pl::Scalar scalar(Decoder &in) {
    const std::int64_t value = in.in(-3, 3);
    return in.chance(2) ? pl::Scalar(value) : pl::Scalar(static_cast<double>(value) + 0.5);
  }

  // Whether a non_blocking copy into `target` is safe to read without a
  // synchronisation: only when the target is a device (a host destination
  // read before a synchronisation is the user's bug, not a difference).
  bool non_blocking_to(Decoder &in, pl::Device target) {
    return in.chance(2) && !target.is_cpu();
  }

  // Returns false when the step was skipped.
  bool execute_one(Decoder &in) {
    switch (in.below(13)) {
    case 0: { // a factory
      const auto sizes = shape(in);
      const pl::TensorOptions options =
          pl::TensorOptions(device(in)).dtype(kDtypes[in.below(std::size(kDtypes))]);
      switch (in.below(4)) {
      case 0:
        put(in, pl::zeros(sizes, options));
        break;
      case 1:
        put(in, pl::full(sizes, scalar(in), options));
        break;
      case 2: {
        std::int64_t numel = 1;
        for (std::int64_t s : sizes)
          numel *= s;
        put(in, pl::arange(numel, options.dtype(pl::kDouble)).sub(in.in(0, 8)).reshape(sizes)
                    .to(options.dtype()));
        break;
      }
      case 3:
        put(in, pl::ones(sizes, options));
        break;
      }
      return true;
    }
    case 1: { // unary, out of place or in place
      const UnaryOp &op = kUnaryOps[in.below(std::size(kUnaryOps))];
      pl::Tensor &a = slot(in);
      if (!a.defined())
        return false;
      if (in.chance(2))
        op.in_place(a);
      else
        put(in, op.out_of_place(a));
      return true;
    }
    case 2: { // binary with a tensor, out of place or in place
      const BinaryOp &op = kBinaryOps[in.below(std::size(kBinaryOps))];
      pl::Tensor a = slot(in), b = slot(in);
      if (!a.defined() || !b.defined() || cpu_scalar_rule_differs({&a, &b}))
        return false;
      if (in.chance(2))
        op.in_place(a, b);
      else
        put(in, op.with_tensor(a, b));
      return true;
    }
    case 3: { // binary with a scalar
      const BinaryOp &op = kBinaryOps[in.below(std::size(kBinaryOps))];
      pl::Tensor a = slot(in);
      if (!a.defined())
        return false;
      put(in, op.with_scalar(a, scalar(in)));
      return true;
    }
    case 4: { // reductions
      pl::Tensor a = slot(in);
      if (!a.defined())
        return false;
      const std::int64_t dim = in.in(-3, 3);
      const bool keepdim = in.chance(2);
      switch (in.below(6)) {
      case 0:
        put(in, a.sum());
        break;
      case 1:
        put(in, a.sum({dim}, keepdim));
        break;
      case 2:
        put(in, a.mean({dim}, keepdim));
        break;
      case 3:
        put(in, a.max());
        break;
      case 4:
        put(in, std::get<0>(a.max(dim, keepdim)));
        break;
      case 5:
        put(in, a.argmax(in.chance(2) ? std::optional<std::int64_t>(dim) : std::nullopt, keepdim));
        break;
      }
      return true;
    }
    case 5: { // matmul, mm
      pl::Tensor a = slot(in), b = slot(in);
      if (!a.defined() || !b.defined() || cpu_scalar_rule_differs({&a, &b}))
        return false;
      put(in, in.chance(2) ? a.matmul(b) : a.mm(b));
      return true;
    }
    case 6: { // views
      pl::Tensor a = slot(in);
      if (!a.defined())
        return false;
      const std::int64_t d0 = in.in(-3, 3), d1 = in.in(-3, 3);
      switch (in.below(9)) {
      case 0:
        put(in, a.view(shape(in)));
        break;
      case 1:
        put(in, a.reshape(shape(in)));
        break;
      case 2:
        put(in, a.transpose(d0, d1));
        break;
      case 3:
        put(in, a.t());
        break;
      case 4:
        put(in, a.narrow(d0, in.in(-1, 3), in.in(0, 3)));
        break;
      case 5:
        put(in, a.select(d0, in.in(-3, 3)));
        break;
      case 6:
        put(in, a.unsqueeze(d0));
        break;
      case 7:
        put(in, a.squeeze(d0));
        break;
      case 8:
        put(in, a.flatten(d0, d1));
        break;
      }
      return true;
    }
    case 7: { // cat, stack
      std::vector<pl::Tensor> parts(in.in(1, 3));
      for (pl::Tensor &part : parts) {
        part = slot(in);
        if (!part.defined())
          return false;
      }
      const std::int64_t dim = in.in(-2, 2);
      put(in, in.chance(2) ? pl::cat(parts, dim) : pl::stack(parts, dim));
      return true;
    }
    case 8: { // to: another device, another dtype, or both
      pl::Tensor a = slot(in);
      if (!a.defined())
        return false;
      const pl::Device target = device(in);
      const pl::ScalarType dtype = in.chance(2) ? a.dtype() : kDtypes[in.below(std::size(kDtypes))];
      put(in, a.to(target, dtype, non_blocking_to(in, target)));
      return true;
    }
    case 9: { // copy_
      pl::Tensor dst = slot(in), src = slot(in);
      if (!dst.defined() || !src.defined())
        return false;
      dst.copy_(src, non_blocking_to(in, dst.device()));
      return true;
    }
    case 10: { // fill_, zero_
      pl::Tensor a = slot(in);
      if (!a.defined())
        return false;
      if (in.chance(2))
        a.fill_(scalar(in));
      else
        a.zero_();
      return true;
    }
    case 11: // synchronize
      pl::synchronize(in.chance(2) ? home_ : away_);
      return true;
    case 12: { // contiguous, clone of a (possibly strided) view
      pl::Tensor a = slot(in);
      if (!a.defined())
        return false;
      put(in, a.contiguous());
      return true;
    }
    }
    return false;
  }

  pl::Device home_, away_;
  pl::Tensor slots_[kSlots];
  Trace trace_;
};

void report_difference(const char *what, std::size_t index, const std::string &on_cpu,
                       const std::string &on_sim) {
  std::fprintf(stderr, "op_sequence: %s %zu differs\n  cpu: %s\n  sim: %s\n", what, index,
               on_cpu.c_str(), on_sim.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  // The chaos switch for the sim run: none, work held until a
  // synchronisation, or each task late.
  const pl::sim::Delay chaos[] = {pl::sim::Delay::none(), pl::sim::Delay::until_synchronized(),
                                  pl::sim::Delay::late(std::chrono::microseconds(20))};
  const pl::Device away(pl::kSim, 1);

  pl::sim::set_delay(pl::sim::Delay::none());
  const Trace on_cpu = Run(pl::Device(pl::kCPU), away).execute(data + 1, size - 1);
  pl::sim::set_delay(chaos[data[0] % std::size(chaos)]);
  const Trace on_sim = Run(pl::Device(pl::kSim, 0), away).execute(data + 1, size - 1);
  pl::sim::set_delay(pl::sim::Delay::none());

  for (std::size_t i = 0; i < on_cpu.steps.size(); ++i)
    if (on_cpu.steps[i] != on_sim.steps[i])
      report_difference("step", i, on_cpu.steps[i], on_sim.steps[i]);
  for (std::size_t i = 0; i < on_cpu.slots.size(); ++i)
    if (on_cpu.slots[i] != on_sim.slots[i])
      report_difference("slot", i, on_cpu.slots[i], on_sim.slots[i]);
  return 0;
}
