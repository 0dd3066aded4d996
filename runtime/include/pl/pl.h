// The placelint runtime: a reference tensor runtime with the libtorch C++
// API for the subset it implements (rename torch::/at:: to pl::), and
// runtime checks that mirror the placelint analyzer's rules.
#pragma once

#include <pl/array_ref.h>
#include <pl/autograd.h>
#include <pl/cuda.h>
#include <pl/cuda_stream.h>
#include <pl/device.h>
#include <pl/error.h>
#include <pl/factories.h>
#include <pl/nn.h>
#include <pl/ops.h>
#include <pl/optim.h>
#include <pl/ordered_dict.h>
#include <pl/parallel.h>
#include <pl/scalar.h>
#include <pl/scalar_type.h>
#include <pl/sim.h>
#include <pl/stream.h>
#include <pl/tensor.h>
#include <pl/tensor_options.h>
#include <pl/transfer_guard.h>
