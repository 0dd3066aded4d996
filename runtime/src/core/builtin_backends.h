// The backends that are always built in (cuda_backend() is declared in
// backend.h, under PL_HAVE_CUDA).
#pragma once

#include "core/backend.h"

namespace pl::backend {

Backend &cpu_backend();
Backend &sim_backend();

} // namespace pl::backend
