// The transfer guard (rules placement-transfer-in-loop and
// placement-create-then-move), after JAX's transfer_guard. At level Log or
// Disallow it watches the transfers of this thread (Tensor::to/cuda/cpu,
// copy_ across devices, item() on a device tensor) and reports:
//   (a) the same unchanged source (same storage, same view, same version)
//       copied again to the same device: hoist the transfer out of the loop;
//   (b) one call site copying from a device to the host more than the
//       call-site limit (default 100): a device-to-host sync every iteration.
// Moving each newly loaded batch to a device is the normal pattern: new
// storage every time, so it is never reported.
// It also reports (rule placement-create-then-move) a tensor that a host
// factory (empty zeros ones full scalar_tensor arange rand randn tensor, with
// no device in the options) made and that is moved to a non-cpu device by
// to/cuda before any op, view or data access (data_ptr, item, printing)
// read it, naming the factory's line and the move's line. from_blob tensors
// wrap memory that already holds data: they are never reported.
// Log writes one line per finding to stderr (once per call site); Disallow
// throws pl::TransferGuardError. Level Allow does no bookkeeping.
//
// The global level starts from the environment variable
// PL_TRANSFER_GUARD=allow|log|disallow, read once; an invalid value makes
// the first use of the guard throw pl::Error. A TransferGuard object sets the
// level for the current thread until it is destroyed; guards nest.
#pragma once

#include <cstddef>
#include <optional>

namespace pl {

enum class TransferGuardLevel { Allow, Log, Disallow };

// The level of threads without a TransferGuard in scope.
void set_transfer_guard(TransferGuardLevel level);
// The level in force on the calling thread.
TransferGuardLevel transfer_guard_level();

void set_transfer_guard_call_site_limit(std::size_t limit);
std::size_t transfer_guard_call_site_limit();

// Forgets what the calling thread's guard has seen (transfers, call-site
// counts, findings already logged).
void clear_transfer_guard_history();

class TransferGuard {
public:
  explicit TransferGuard(TransferGuardLevel level);
  ~TransferGuard();
  TransferGuard(const TransferGuard &) = delete;
  TransferGuard &operator=(const TransferGuard &) = delete;

private:
  std::optional<TransferGuardLevel> previous_;
};

} // namespace pl
