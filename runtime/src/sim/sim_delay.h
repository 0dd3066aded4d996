// The chaos switch's current setting (pl::sim::set_delay, PL_SIM_DELAY),
// read by every sim stream's worker.
#pragma once

#include <string>

#include <pl/sim.h>

namespace pl::backend::sim_detail {

// PL_SIM_DELAY's value: "" (unset), "none" or "0", "sync", "<N>us" or
// "<N>ms"; pl::Error for anything else.
pl::sim::Delay parse_delay(const std::string &text);

// The setting: PL_SIM_DELAY's until set_delay changes it. Throws pl::Error
// for a PL_SIM_DELAY that is not a delay.
pl::sim::Delay current_delay();
void store_delay(pl::sim::Delay delay);

} // namespace pl::backend::sim_detail
