// The transfer guard (placement-transfer-in-loop, placement-create-then-move,
// placement-non-leaf-parameter, placement-unsynchronized-read,
// placement-pageable-non-blocking).
// Bookkeeping is per
// thread and bounded: a ring of recent transfers, and per-call-site counts
// that are dropped when too many call sites accumulate.
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <pl/transfer_guard.h>
#include <placelint/rule_ids.h>

#include "core/internal.h"

namespace pl {
namespace {
constexpr const char *kEnvironmentVariable = "PL_TRANSFER_GUARD";
} // namespace

TransferGuardLevel detail::parse_transfer_guard_level(std::string_view text) {
  if (text.empty() || text == "allow")
    return TransferGuardLevel::Allow;
  if (text == "log")
    return TransferGuardLevel::Log;
  if (text == "disallow")
    return TransferGuardLevel::Disallow;
  detail::fail<Error>(kEnvironmentVariable, "='", text,
                      "' is not a transfer guard level: expected allow, log or disallow");
}

namespace {

constexpr std::size_t kDefaultCallSiteLimit = 100;
constexpr std::size_t kRecentTransfers = 256;
constexpr std::size_t kMaxCallSites = 4096;

TransferGuardLevel level_from_environment() {
  const char *value = std::getenv(kEnvironmentVariable);
  return detail::parse_transfer_guard_level(value == nullptr ? "" : value);
}

struct GlobalConfig {
  explicit GlobalConfig(TransferGuardLevel initial) : level(initial) {}
  std::atomic<TransferGuardLevel> level;
  std::atomic<std::size_t> call_site_limit{kDefaultCallSiteLimit};
};

// The environment is read once, on first use; an invalid value throws on
// every use until the program is fixed.
GlobalConfig &global_config() {
  static GlobalConfig config(level_from_environment());
  return config;
}

struct CallSite {
  std::string_view file; // from std::source_location: static storage
  std::uint32_t line;
  std::uint32_t column;
  friend bool operator==(const CallSite &, const CallSite &) = default;
};

struct CallSiteHash {
  std::size_t operator()(const CallSite &site) const noexcept {
    return std::hash<std::string_view>{}(site.file) ^ (std::size_t{site.line} << 16) ^ site.column;
  }
};

enum class Finding : std::uint8_t {
  RepeatedTransfer,
  HostSyncLimit,
  CreateThenMove,
  NonLeafParameter,
  UnsynchronizedRead,
  PageableNonBlocking
};

struct ReportedKey {
  CallSite site;
  Finding finding;
  friend bool operator==(const ReportedKey &, const ReportedKey &) = default;
};

struct ReportedKeyHash {
  std::size_t operator()(const ReportedKey &key) const noexcept {
    return CallSiteHash{}(key.site) * 31 + static_cast<std::size_t>(key.finding);
  }
};

// One transfer: which data (storage, view, version) went to which device.
struct TransferRecord {
  std::uint64_t storage_id = 0;
  std::uint32_t version = 0;
  std::int64_t storage_offset = 0;
  std::int64_t numel = 0;
  ScalarType dtype = ScalarType::Float; // of the result
  Device target = Device(kCPU);
};

struct ThreadState {
  std::optional<TransferGuardLevel> scoped_level;
  std::array<TransferRecord, kRecentTransfers> recent{};
  std::size_t recent_size = 0;
  std::size_t recent_next = 0;
  std::unordered_map<CallSite, std::uint64_t, CallSiteHash> host_copies_by_site;
  std::unordered_set<ReportedKey, ReportedKeyHash> reported;

  void clear() {
    recent_size = 0;
    recent_next = 0;
    host_copies_by_site.clear();
    reported.clear();
  }
};

ThreadState &thread_state() {
  thread_local ThreadState state;
  return state;
}

std::string where(const CallSite &site) {
  return std::string(site.file) + ":" + std::to_string(site.line);
}

void report(ThreadState &state, TransferGuardLevel level, Finding finding, const CallSite &site,
            const std::string &message) {
  if (level == TransferGuardLevel::Disallow)
    throw TransferGuardError(message);
  if (state.reported.size() >= kMaxCallSites)
    state.reported.clear();
  if (state.reported.insert(ReportedKey{site, finding}).second)
    std::fprintf(stderr, "%s\n", message.c_str());
}

} // namespace

void set_transfer_guard(TransferGuardLevel level) { global_config().level = level; }

TransferGuardLevel transfer_guard_level() {
  const ThreadState &state = thread_state();
  return state.scoped_level ? *state.scoped_level : global_config().level.load();
}

void set_transfer_guard_call_site_limit(std::size_t limit) {
  global_config().call_site_limit = limit;
}

std::size_t transfer_guard_call_site_limit() { return global_config().call_site_limit; }

void clear_transfer_guard_history() { thread_state().clear(); }

TransferGuard::TransferGuard(TransferGuardLevel level) : previous_(thread_state().scoped_level) {
  thread_state().scoped_level = level;
}

TransferGuard::~TransferGuard() { thread_state().scoped_level = previous_; }

namespace detail {

void guard_transfer(std::string_view op, const TensorImpl &src, Device target, ScalarType dtype,
                    std::source_location loc) {
  const TransferGuardLevel level = transfer_guard_level();
  if (level == TransferGuardLevel::Allow) [[likely]]
    return;
  ThreadState &state = thread_state();
  const CallSite site{loc.file_name(), loc.line(), loc.column()};

  // A host factory's tensor moved to a device before anything read it: the
  // factory could have made it there. copy_ into an existing device buffer
  // is not a move of a new tensor.
  const std::optional<std::source_location> &factory = src.storage->fresh_from_factory();
  if (factory.has_value() && !target.is_cpu() &&
      op != ops::name(ops::OpId::Copy, /*in_place=*/true)) {
    const CallSite factory_site{factory->file_name(), factory->line(), factory->column()};
    std::ostringstream message;
    message << PL_RULE_ID_CreateThenMove ": " << op << ": the tensor made on the host by the "
            << "factory at " << where(factory_site) << " is moved to " << target << " at "
            << where(site) << " before anything used it; create it on " << target
            << " (pass the device in the factory's options)";
    report(state, level, Finding::CreateThenMove, site, message.str());
  }
  const TransferRecord record{
      src.storage->id(), src.storage->version(), src.storage_offset, src.numel, dtype, target};

  // (a) the same unchanged data copied to the same device again. item() is
  // a sync, not a copy one could hoist: it only counts towards (b).
  if (op != ops::name(ops::OpId::Item)) {
    bool seen = false;
    for (std::size_t i = 0; i < state.recent_size && !seen; ++i) {
      const TransferRecord &r = state.recent[i];
      seen = r.storage_id == record.storage_id && r.version == record.version &&
             r.storage_offset == record.storage_offset && r.numel == record.numel &&
             r.dtype == record.dtype && r.target == record.target;
    }
    if (seen) {
      std::ostringstream message;
      message << PL_RULE_ID_TransferInLoop ": " << op << ": the tensor copied from " << src.device
              << " to " << target << " at " << where(site)
              << " was already copied there and has not changed since; hoist the transfer "
                 "out of the loop";
      report(state, level, Finding::RepeatedTransfer, site, message.str());
    } else {
      state.recent[state.recent_next] = record;
      state.recent_next = (state.recent_next + 1) % kRecentTransfers;
      state.recent_size = std::min(state.recent_size + 1, kRecentTransfers);
    }
  }

  // (b) one call site syncing device -> host too often.
  if (target.is_cpu() && !src.device.is_cpu()) {
    if (state.host_copies_by_site.size() >= kMaxCallSites &&
        state.host_copies_by_site.find(site) == state.host_copies_by_site.end())
      state.host_copies_by_site.clear();
    const std::uint64_t count = ++state.host_copies_by_site[site];
    const std::size_t limit = global_config().call_site_limit;
    if (count > limit) {
      std::ostringstream message;
      message << PL_RULE_ID_TransferInLoop ": " << op << ": the call at " << where(site)
              << " copied from " << src.device << " to the host more than " << limit
              << " times; a device-to-host sync on every iteration stalls the device, move it "
                 "out of the loop";
      report(state, level, Finding::HostSyncLimit, site, message.str());
    }
  }
}

void guard_non_leaf_parameter(std::string_view use, std::string_view what, Device from, Device to,
                              std::source_location move_loc, std::source_location use_loc) {
  const TransferGuardLevel level = transfer_guard_level();
  if (level == TransferGuardLevel::Allow)
    return;
  const CallSite move_site{move_loc.file_name(), move_loc.line(), move_loc.column()};
  const CallSite use_site{use_loc.file_name(), use_loc.line(), use_loc.column()};
  std::ostringstream message;
  message << PL_RULE_ID_NonLeafParameter ": " << use << ": " << what
          << " is the copy that moving a tensor which requires grad from " << from << " to " << to
          << " made at " << where(move_site)
          << "; the copy is not a leaf, so backward() never sets its grad() and no optimizer "
             "can update it ("
          << use << " at line " << use_site.line << "); create the tensor on " << to
          << " with requires_grad in the factory's options, or move it before calling "
             "requires_grad_()";
  report(thread_state(), level, Finding::NonLeafParameter, move_site, message.str());
}

void guard_unsynchronized_read(std::string_view op, Device from, std::source_location copy_loc,
                               std::optional<std::source_location> read_loc) {
  const TransferGuardLevel level = transfer_guard_level();
  if (level == TransferGuardLevel::Allow)
    return;
  const CallSite copy_site{copy_loc.file_name(), copy_loc.line(), copy_loc.column()};
  std::ostringstream message;
  message << PL_RULE_ID_UnsynchronizedRead ": " << op << ": the host reads ";
  std::optional<CallSite> read_site;
  if (read_loc.has_value()) {
    read_site = CallSite{read_loc->file_name(), read_loc->line(), read_loc->column()};
    message << "at " << where(*read_site) << " ";
  }
  message << "the tensor that the non_blocking copy from " << from << " to the host queued at "
          << where(copy_site)
          << " writes, before a synchronisation, so it may hold stale or partial values; "
             "synchronize first (pl::synchronize(device), the stream's synchronize(), or an "
             "event recorded after the copy)";
  // One report per copy site: a read is often several (data_ptr, then the op).
  report(thread_state(), level, Finding::UnsynchronizedRead, copy_site, message.str());
}

void guard_pageable_non_blocking(std::string_view op, Device target, std::source_location loc) {
  const TransferGuardLevel level = transfer_guard_level();
  if (level == TransferGuardLevel::Allow)
    return;
  const CallSite site{loc.file_name(), loc.line(), loc.column()};
  std::ostringstream message;
  message << PL_RULE_ID_PageableNonBlocking ": " << op << ": the non_blocking copy to " << target
          << " at " << where(site)
          << " reads host memory that is not pinned, so it is staged synchronously and overlaps "
             "nothing; pin the tensor first (pin_memory(), or TensorOptions().pinned_memory(true))";
  report(thread_state(), level, Finding::PageableNonBlocking, site, message.str());
}

} // namespace detail
} // namespace pl
