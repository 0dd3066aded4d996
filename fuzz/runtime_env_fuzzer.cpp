// The runtime's environment switches, through the functions that parse
// them: PL_SIM_DELAY (sim_detail::parse_delay) and PL_TRANSFER_GUARD
// (detail::parse_transfer_guard_level). The first byte picks the variable,
// the rest is its value, cut at the first NUL as the environment would. A
// bad value must be a pl::Error naming the variable; a good one a setting.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <pl/error.h>

#include "core/internal.h"
#include "sim/sim_delay.h"

namespace {

void require(bool condition, const char *what, const std::string &value) {
  if (!condition) {
    std::fprintf(stderr, "runtime_env: %s for '%s'\n", what, value.c_str());
    std::abort();
  }
}

void fuzz_sim_delay(const std::string &value) {
  try {
    const pl::sim::Delay delay = pl::backend::sim_detail::parse_delay(value);
    require(delay.per_task.count() >= 0, "a negative delay", value);
    require(delay.mode == pl::sim::DelayMode::kLate || delay.per_task.count() == 0,
            "a time on a delay that is not late", value);
  } catch (const pl::Error &error) {
    require(std::string_view(error.what()).find("PL_SIM_DELAY") != std::string_view::npos,
            "the error does not name PL_SIM_DELAY", value);
  }
}

void fuzz_transfer_guard(const std::string &value) {
  try {
    const pl::TransferGuardLevel level = pl::detail::parse_transfer_guard_level(value);
    require(value.empty() || value == "allow" || value == "log" || value == "disallow",
            "a level accepted under another name", value);
    require(level != pl::TransferGuardLevel::Allow || value.empty() || value == "allow",
            "allow under another name", value);
  } catch (const pl::Error &error) {
    require(std::string_view(error.what()).find("PL_TRANSFER_GUARD") != std::string_view::npos,
            "the error does not name PL_TRANSFER_GUARD", value);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string_view bytes(reinterpret_cast<const char *>(data + 1), size - 1);
  const std::string environment_value(bytes.substr(0, bytes.find('\0')));
  if (data[0] % 2 == 0)
    fuzz_sim_delay(environment_value);
  else
    fuzz_transfer_guard(environment_value);
  return 0;
}
