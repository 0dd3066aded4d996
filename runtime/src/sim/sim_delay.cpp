#include "sim/sim_delay.h"

#include <cstdlib>
#include <mutex>
#include <string>

#include <pl/error.h>

namespace pl::backend::sim_detail {

pl::sim::Delay parse_delay(const std::string &text) {
  using pl::sim::Delay;
  if (text.empty() || text == "none" || text == "0")
    return Delay::none();
  if (text == "sync")
    return Delay::until_synchronized();
  const auto digits = text.find_first_not_of("0123456789");
  if (digits != 0 && digits != std::string::npos && digits <= 9) {
    const long long count = std::stoll(text.substr(0, digits));
    const std::string unit = text.substr(digits);
    if (unit == "us")
      return Delay::late(std::chrono::microseconds(count));
    if (unit == "ms")
      return Delay::late(std::chrono::milliseconds(count));
  }
  pl::detail::fail<Error>("PL_SIM_DELAY='", text,
                          "' is not a sim delay: expected none, sync, <N>us or <N>ms");
}

namespace {

struct Setting {
  std::mutex mutex;
  bool read_environment = false;
  pl::sim::Delay delay;
};

Setting &setting() {
  static Setting *const instance = new Setting(); // read by workers until exit
  return *instance;
}

} // namespace

pl::sim::Delay current_delay() {
  Setting &s = setting();
  std::lock_guard lock(s.mutex);
  if (!s.read_environment) {
    const char *text = std::getenv("PL_SIM_DELAY");
    s.delay = parse_delay(text == nullptr ? "" : text);
    s.read_environment = true;
  }
  return s.delay;
}

void store_delay(pl::sim::Delay delay) {
  Setting &s = setting();
  std::lock_guard lock(s.mutex);
  s.delay = delay;
  s.read_environment = true;
}

} // namespace pl::backend::sim_detail
