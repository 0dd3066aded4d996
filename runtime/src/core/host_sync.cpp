// The host's view of stream order (placement-unsynchronized-read): which
// streams have been synchronised since when, in ticks of one counter. A
// non_blocking download takes a tick when it is queued; a synchronisation
// records the tick it covers for its stream (or its device). A read of the
// download's destination is reported when no synchronisation covers the
// copy's tick: by happens-before, not by whether the copy finished.
#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

#include <pl/transfer_guard.h>

#include "core/internal.h"

namespace pl::detail {
namespace {

using DeviceKey = std::pair<DeviceType, DeviceIndex>;
using StreamKey = std::tuple<DeviceType, DeviceIndex, void *>;

struct SyncState {
  std::atomic<std::uint64_t> tick{0};
  std::mutex mutex;
  std::map<StreamKey, std::uint64_t> stream_synced_at;
  std::map<DeviceKey, std::uint64_t> device_synced_at;
};

SyncState &sync_state() {
  static SyncState *const state = new SyncState(); // used by storages freed at exit
  return *state;
}

void raise_to(std::uint64_t &covered, std::uint64_t tick) { covered = std::max(covered, tick); }

} // namespace

std::uint64_t next_sync_tick() { return ++sync_state().tick; }

void note_stream_synchronized_up_to(Device device, void *stream, std::uint64_t tick) {
  SyncState &state = sync_state();
  std::lock_guard lock(state.mutex);
  raise_to(state.stream_synced_at[{device.type(), device.index(), stream}], tick);
}

void note_stream_synchronized(Device device, void *stream) {
  note_stream_synchronized_up_to(device, stream, next_sync_tick());
}

void note_device_synchronized(Device device) {
  SyncState &state = sync_state();
  const std::uint64_t tick = next_sync_tick();
  std::lock_guard lock(state.mutex);
  raise_to(state.device_synced_at[{device.type(), device.index()}], tick);
}

void note_blocking_copy(Device device) {
  note_stream_synchronized(device, backend_of(device).current_stream(device.index()));
}

void note_queued_download(StorageImpl &destination, Device from, std::source_location loc) {
  destination.set_queued_download(StorageImpl::QueuedDownload{
      from, backend_of(from).current_stream(from.index()), next_sync_tick(), loc});
}

void check_synchronized_read(std::string_view op, const StorageImpl &storage,
                             std::optional<std::source_location> read_loc) {
  if (transfer_guard_level() == TransferGuardLevel::Allow)
    return;
  const StorageImpl::QueuedDownload &copy = *storage.queued_download();
  SyncState &state = sync_state();
  {
    std::lock_guard lock(state.mutex);
    const auto stream =
        state.stream_synced_at.find({copy.device.type(), copy.device.index(), copy.stream});
    if (stream != state.stream_synced_at.end() && stream->second > copy.tick)
      return;
    const auto device = state.device_synced_at.find({copy.device.type(), copy.device.index()});
    if (device != state.device_synced_at.end() && device->second > copy.tick)
      return;
  }
  guard_unsynchronized_read(op, copy.device, copy.loc, read_loc);
}

} // namespace pl::detail
