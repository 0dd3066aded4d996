// What every bug example shares: the device from the command line, the
// host data it "loads", and a pl::Error reported the way a real program
// would report it (one line on stderr, exit status 1).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>

#include <pl/pl.h>

namespace bugs {

// A batch as a data loader would hand it over: fresh host memory each call,
// written on the host (here with random values) before the caller moves it,
// so moving it is the normal pattern, not placement-create-then-move.
inline pl::Tensor load_batch(std::int64_t rows, std::int64_t columns) {
  pl::Tensor batch = pl::empty({rows, columns});
  batch.copy_(pl::rand({rows, columns}));
  return batch;
}

inline const char *program_name(const char *argv0) {
  const char *slash = std::strrchr(argv0, '/');
  return slash != nullptr ? slash + 1 : argv0;
}

template <class Body> int report_errors(const char *argv0, Body body) {
  try {
    body();
    return 0;
  } catch (const pl::Error &error) {
    std::fprintf(stderr, "%s: %s\n", program_name(argv0), error.what());
    return 1;
  }
}

// `program [DEVICE]`: runs body(DEVICE), sim:0 when none is given.
inline int run_on_device(int argc, char **argv, void (*body)(const pl::Device &)) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [DEVICE]   (default sim:0; cpu, sim:1, cuda:0, ...)\n",
                 program_name(argv[0]));
    return 2;
  }
  pl::Device device(pl::kCPU);
  try {
    device = pl::Device(argc == 2 ? argv[1] : "sim:0");
  } catch (const pl::DeviceError &error) {
    std::fprintf(stderr, "%s: %s\n", program_name(argv[0]), error.what());
    return 2;
  }
  return report_errors(argv[0], [&] { body(device); });
}

// `program`: for the examples whose devices are part of the bug.
inline int run_without_arguments(int argc, char **argv, void (*body)()) {
  if (argc != 1) {
    std::fprintf(stderr, "usage: %s   (the devices are fixed by the example)\n",
                 program_name(argv[0]));
    return 2;
  }
  return report_errors(argv[0], body);
}

} // namespace bugs
