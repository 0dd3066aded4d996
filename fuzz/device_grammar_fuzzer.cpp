// The device-string grammar (rules/include/placelint/device_grammar.h), the
// one parser both halves use (the analyzer's DeviceString.cpp calls it too),
// and pl::Device over it: any accepted string round-trips through str(), and
// pl::Device accepts exactly what the grammar accepts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <pl/device.h>
#include <pl/error.h>
#include <placelint/device_grammar.h>

namespace {

// Aborts with the input's text, so that the crash names what went wrong.
void require(bool condition, const char *what, std::string_view text) {
  if (condition)
    return;
  std::fprintf(stderr, "device_grammar: %s for '%.*s'\n", what, static_cast<int>(text.size()),
               text.data());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  const placelint::ParsedDevice parsed = placelint::parseDevice(text);
  if (parsed.ok()) {
    require(parsed.index >= -1, "negative index accepted", text);
    // The canonical spelling of an accepted string is the string itself:
    // the grammar has exactly one spelling per device.
    std::string canonical(placelint::deviceKindName(parsed.kind));
    if (parsed.index >= 0)
      canonical += ":" + std::to_string(parsed.index);
    require(canonical == text, "accepted a non-canonical spelling", text);
  } else {
    require(!placelint::deviceParseErrorText(parsed.error).empty(), "rejection without a reason",
            text);
  }

  try {
    const pl::Device device = pl::Device::parse(text);
    require(parsed.ok(), "pl::Device accepted what the grammar rejects", text);
    require(pl::Device::parse(device.str()) == device, "str() does not round-trip", text);
  } catch (const pl::Error &error) {
    require(!parsed.ok(), "pl::Device rejected what the grammar accepts", text);
    require(std::string_view(error.what()).find(placelint::deviceParseErrorText(parsed.error)) !=
                std::string_view::npos,
            "pl::Device's error does not give the grammar's reason", text);
  }
  return 0;
}
