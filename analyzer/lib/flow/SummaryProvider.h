// How the flow analysis of one function learns what it needs of the other
// functions of the unit (what a call returns and leaves behind, what guards
// its callers), without knowing who computes it.
#pragma once

#include "flow/AbstractValue.h"
#include "placelint/analysis/Findings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace clang {
class ValueDecl;
class CXXMemberCallExpr;
class Expr;
class CXXRecordDecl;
class FunctionDecl;
class LambdaExpr;
class Stmt;
} // namespace clang

namespace placelint::analysis {

struct EntryFacts;

// An operation of a called function that mismatches for what a call gives it.
struct CalleeFailure {
  MixedDeviceFinding Finding;
  bool Definite = false;
};

// What a call gives a called function: a parameter (by index), or, for a
// lambda, a variable of the function that made it (Captured), or, for a
// method, a field of its object (Captured, a FieldDecl).
struct CallInput {
  std::optional<unsigned> Parameter;
  const clang::ValueDecl *Captured = nullptr;
};

// A transfer that a called function (or one it calls) makes once on each
// call: not in a loop or a periodic branch of the callee (its own finding
// there). A caller that calls it in a loop makes it once per iteration.
// Also a copy to the host on every iteration of a loop of the callee
// (OwnLoop): whether it syncs depends on the device the call gives.
struct CalleeTransfer {
  const clang::CXXMemberCallExpr *Call = nullptr;
  DeviceSet Source;
  DeviceSet Target;
  bool IsSync = false; // item(): the value itself comes to the host
  bool NonBlocking = false; // asked not to block (`to(d, /*non_blocking=*/true)`)
  bool IntoDestination = false; // copy_ into a tensor that exists (Transfer::IntoDestination)
  // The tensor moved is what a call gives (Inputs' first), unchanged in the
  // callee; otherwise the callee made it.
  bool MovesInput = false;
  // Moving a given tensor, with everything else it moves by (the device)
  // given too (in Inputs) or fixed in the callee: on every call with the
  // same inputs it is the same copy.
  bool SameOnEachCall = false;
  // The callee, or a function it calls on the way to the transfer, has a
  // loop of its own: a call is a whole pass (an evaluation over a data
  // set), and what it syncs once per call is not the hot path.
  bool CalleeLoops = false;
  // The callee's loop (innermost, with no inner loop) that repeats this
  // copy to the host on every iteration, or null for a copy once per call.
  const clang::Stmt *OwnLoop = nullptr;
  // The tensor moved first, then the inputs the transfer's arguments read.
  llvm::SmallVector<CallInput, 2> Inputs;
};

struct CallersGuard {
  unsigned Devices = 0;
  const clang::Expr *WeakestCall = nullptr; // null when there is no call
};

// What a call gives the function it calls.
struct CallInputs {
  // The values of the parameters, in order (none: unknown).
  llvm::ArrayRef<AbstractValue> Arguments;
  // The integer parameters the call gives a constant (`try_gpu(1)`), in order.
  llvm::ArrayRef<std::optional<std::int64_t>> Integers;
  // For a method: its object, whose parts by field (`.mask_`) are the
  // fields the method starts from (null: unknown).
  const AbstractValue *Object = nullptr;
  // For a lambda: what it captured, as the call finds it (null: unknown).
  const EntryFacts *Captures = nullptr;
};

// What a call of a function of the unit does, as far as the analysis knows.
struct CallSummary {
  AbstractValue Result;
  // For a non-const method: its object as the method leaves it (the fields
  // it set, as parts by field).
  std::optional<AbstractValue> Object;
  // Per parameter: what one taken by non-const reference holds at the end.
  llvm::SmallVector<std::optional<AbstractValue>, 2> ByReference;
  // Operations of the callee (or of what it calls) that fail with these
  // inputs, and would not without them.
  std::vector<CalleeFailure> Failures;
  // Every operation that fails with these inputs (Failures or not).
  std::vector<CalleeFailure> Mismatches;
  std::vector<CalleeTransfer> Transfers;
  // The host reads in the callee (or what it calls) of a tensor a caller
  // gave it still waiting for a non_blocking download the caller queued:
  // the read first in each, the caller's download as Copy.
  std::vector<UnsynchronizedReadFinding> PendingReads;
  // Whether the callee waits for the device's queued work on some path: a
  // copy pending before the call is taken as done after it.
  bool Synchronizes = false;
  // How many CUDA devices a return from the callee proves are there: it
  // asked for cuda:N-1 on every path (`decoder_->to(kCUDA, 1)` in a
  // constructor), which would have thrown without them.
  unsigned DevicesEstablished = 0;

  static CallSummary unknown() { return {AbstractValue(ValueFact::unknown()), {}, {}}; }
};

class SummaryProvider {
public:
  virtual ~SummaryProvider();
  // What Callee does when called with Inputs; unknown when it cannot be said.
  virtual CallSummary summarize(const clang::FunctionDecl &Callee, const CallInputs &Inputs) = 0;
  // Whether a module class of the unit registers parameters, buffers or
  // submodules (a module that registers nothing has no device of its own).
  virtual bool registersState(const clang::CXXRecordDecl &Module) = 0;
  // How many CUDA devices the availability checks around every call of
  // Function in the unit ensure (0 when it is not called here, or some call
  // is not guarded), and the call that ensures the fewest. A call that
  // passes a constant false for one of Flags does not count: there, what
  // needs the devices does not run.
  virtual CallersGuard
  devicesEnsuredByCallers(const clang::FunctionDecl &Function,
                          llvm::ArrayRef<const clang::ValueDecl *> Flags = {}) = 0;
  // How many CUDA devices every function Call calls proves are there by
  // returning (CallSummary::DevicesEstablished, with its inputs unknown).
  virtual unsigned devicesEstablishedBy(const clang::Expr &Call) = 0;
  // What a lambda captured where it was made (joined over the places it
  // was made), for calls of it elsewhere.
  virtual const EntryFacts *capturesOf(const clang::CXXRecordDecl &Closure) = 0;
  virtual void noteCaptures(const clang::CXXRecordDecl &Closure, const EntryFacts &Captured) = 0;
};

} // namespace placelint::analysis
