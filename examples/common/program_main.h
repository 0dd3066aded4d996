// The main() of the training and inference examples: runs the program and
// turns the errors a user can cause into a message and an exit status
// (2: a bad command line, printed with the usage; 1: a bad weights file or a
// runtime error).
#pragma once

#include <cstdio>

#include <pl/pl.h>

#include "cli.h"
#include "weights_file.h"

namespace examples {

template <typename Program>
int run_program_main(const char *name, const char *usage, Program &&program) {
  try {
    return program();
  } catch (const UsageError &error) {
    std::fprintf(stderr, "%s: %s\n%s", name, error.what(), usage);
    return 2;
  } catch (const WeightsFileError &error) {
    std::fprintf(stderr, "%s: %s\n", name, error.what());
    return 1;
  } catch (const pl::Error &error) {
    std::fprintf(stderr, "%s: %s\n", name, error.what());
    return 1;
  }
}

} // namespace examples
