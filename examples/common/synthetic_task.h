// The synthetic regression task of the training and inference examples.
//
// Raw "sensor readings" have known per-feature calibration (offset, scale);
// preprocessing standardises them. The targets come from a fixed random
// teacher network, so a model of the same shape can learn them. Everything
// here runs on the host, as a data pipeline would.
#pragma once

#include <cstdint>

#include <pl/pl.h>

namespace examples {

inline constexpr std::int64_t kFeatures = 8;
inline constexpr std::int64_t kHidden = 32;
inline constexpr std::int64_t kOutputs = 3;

class SyntheticTask {
public:
  // Seeds the process-wide generator with the task's own seed to draw the
  // teacher, so training and inference see the same task; reseed afterwards.
  SyntheticTask();

  // Raw readings, rows x kFeatures, on the host.
  pl::Tensor raw_readings(std::int64_t rows) const;
  // Standardised inputs from raw readings (host in, host out).
  pl::Tensor preprocess(const pl::Tensor &raw) const;
  // The teacher's outputs for standardised inputs, rows x kOutputs (host).
  pl::Tensor targets(const pl::Tensor &inputs) const;

private:
  pl::Tensor offset_;
  pl::Tensor scale_;
  pl::Tensor teacher_hidden_;
  pl::Tensor teacher_output_;
};

} // namespace examples
