#include "synthetic_task.h"

namespace examples {
namespace {

constexpr std::uint64_t kTaskSeed = 20261122;
constexpr std::int64_t kTeacherHidden = 16;

} // namespace

SyntheticTask::SyntheticTask() {
  pl::manual_seed(kTaskSeed);
  offset_ = pl::randn({kFeatures}) * 5.0;
  scale_ = pl::rand({kFeatures}) * 3.0 + 0.5;
  teacher_hidden_ = pl::randn({kFeatures, kTeacherHidden}) / 2.0;
  teacher_output_ = pl::randn({kTeacherHidden, kOutputs}) / 2.0;
}

pl::Tensor SyntheticTask::raw_readings(std::int64_t rows) const {
  return pl::randn({rows, kFeatures}) * scale_ + offset_;
}

pl::Tensor SyntheticTask::preprocess(const pl::Tensor &raw) const {
  return (raw - offset_) / scale_;
}

pl::Tensor SyntheticTask::targets(const pl::Tensor &inputs) const {
  return inputs.matmul(teacher_hidden_).relu().matmul(teacher_output_);
}

} // namespace examples
