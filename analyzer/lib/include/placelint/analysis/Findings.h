// What the device analysis finds, and the handler that receives it: one
// virtual method per kind of finding, no-op by default (after Clang's
// ThreadSafetyHandler). Checks subclass it and turn findings into diagnostics.
#pragma once

#include "placelint/analysis/DeviceLattice.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang {
class CallExpr;
class CXXMemberCallExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
} // namespace clang

namespace placelint::analysis {

// How a value got its device, for notes ("'x' was moved to cuda:0 here").
enum class OriginKind : std::uint8_t {
  None,     // not known
  Created,  // a factory
  Moved,    // to/cuda/cpu, Module::to
  Assigned  // anything else: copies, function results, op results
};

struct Origin {
  OriginKind Kind = OriginKind::None;
  clang::SourceLocation Loc;
  friend bool operator==(const Origin &, const Origin &) = default;
};

// One operand of an operation as the analysis saw it.
struct OperandFact {
  const clang::Expr *Operand = nullptr;
  DeviceSet Devices;
  Origin From;
};

struct MixedDeviceFinding {
  const clang::Expr *Call = nullptr; // the operation; report at getExprLoc()
  std::string OpName;                // operator+, add, matmul, cat, forward
  // First: the first operand (definite), or the one whose device is uncertain
  // (may). Second: the operand that conflicts with it.
  OperandFact First;
  OperandFact Second;
  AbstractDevice FirstDevice = AbstractDevice::cpu();
  AbstractDevice SecondDevice = AbstractDevice::cpu();
  // When the operation is in a function of the unit that the analysed one
  // calls, and fails only with what this call gives it: that call.
  const clang::Expr *Through = nullptr;
};

struct DiscardedTransferFinding {
  const clang::Expr *Call = nullptr;     // the to/cuda/cpu call
  const clang::Expr *Receiver = nullptr; // the tensor that was not moved
  std::string Method;                    // to, cuda, cpu
  // Receiver is a plain non-const local variable, or a by-value parameter
  // read after the call, so `v = ` before the statement is the fix.
  bool ReceiverIsAssignable = false;
};

// A transfer, or a device-to-host copy, inside a loop.
struct LoopTransferFinding {
  const clang::Expr *Call = nullptr;     // the transfer or item() call
  const clang::Expr *Receiver = nullptr; // the tensor transferred
  const clang::Stmt *Loop = nullptr;     // the innermost enclosing loop
  DeviceSet Target;                      // where the transfer moves it
  // Instead of a loop: the method that moves a field of its object on
  // every call.
  const clang::FunctionDecl *PerCallOf = nullptr;
  // With PerCallOf, where the target is unknown in the method: the tensor
  // the method is given whose device the field goes to
  // (`anchors_.to(deltas.device())`).
  const clang::Expr *TargetDeviceOf = nullptr;
  // The tensor (or container of them) a part of which Receiver is, when
  // Loop is an outer loop in which that whole does not change (a stored
  // rollout uploaded a minibatch at a time in every epoch).
  const clang::Expr *Whole = nullptr;
};

struct RoundTripFinding : LoopTransferFinding {
  const clang::Expr *FirstTransfer = nullptr; // moved Receiver to Intermediate
  DeviceSet Intermediate;
};

struct SyncFinding : LoopTransferFinding {
  DeviceSet Source; // the (non-cpu) device copied from
  // Source holds the device of a Device variable, which may be CUDA.
  bool FromDeviceVariable = false;
};

// A factory that made a tensor on the host (no device given) whose first
// use is a move to a device.
struct CreateThenMoveFinding {
  const clang::CallExpr *Factory = nullptr;        // zeros({n}), ...
  const clang::CXXMemberCallExpr *Move = nullptr;  // .to(device), .cuda()
  // The tensor moved: the factory call itself, or the variable holding it.
  const clang::Expr *Receiver = nullptr;
  DeviceSet Target;
  const clang::Stmt *Loop = nullptr; // the loop the move repeats in, if any
  bool Hoistable = false;            // and the factory's arguments do not change in it
  // The moved tensor serves only to take its options or device (`.options()`,
  // `.device()`) for something else; the first such read when it is chained
  // on the move, else null.
  bool OnlyForOptions = false;
  const clang::CXXMemberCallExpr *ChainedOptions = nullptr;
  // That read takes the device (`.device()`) rather than the options.
  bool ChainedReadsDevice = false;
  // The statement `v = v.to(device);` that makes the move, when Receiver is
  // that variable: with the tensor made on the device, it goes.
  const clang::Stmt *MovesBack = nullptr;
  // Making the tensor on the device keeps the program's behaviour: the move
  // runs on every path from the factory (no branch, loop or early exit
  // between), so no path needs the host tensor, and the factory's values do
  // not depend on the device (not libtorch's `randn`, whose generator is the
  // device's). A fix-it only then.
  bool FixKeepsBehaviour = false;
};

// A CUDA device written in the code on a path no availability check guards.
struct UnguardedCudaFinding {
  const clang::Expr *Request = nullptr; // `.cuda()`, `kCUDA`, `"cuda:1"`
  // A request of the same function that a check does guard (a model moved
  // under the check, its input not), or null.
  const clang::Expr *GuardedRequest = nullptr;
  // Requested cuda:i needs i + 1 devices; the checks on this path ensure
  // DevicesEnsured (0: there is none; fewer: `is_available()` before cuda:1).
  unsigned DevicesNeeded = 1;
  unsigned DevicesEnsured = 0;
  // For a function of the unit whose other calls are guarded: the call
  // that ensures the fewest devices (null when it is not called here).
  const clang::Expr *WeakestCall = nullptr;
};

// Where autograd must give a tensor a gradient.
enum class ParameterUseKind {
  Optimizer,  // given to an optimizer, which updates it from its gradient
  GradRead,   // `w.grad()`
  Registered  // register_parameter("w", w)
};

// A tensor used as a parameter that is not a leaf: the copy a move made of
// a tensor that requires grad, so its own gradient stays undefined.
struct NonLeafParameterFinding {
  const clang::Expr *Use = nullptr;    // the optimizer, `w.grad()`, the registration
  const clang::Expr *Tensor = nullptr; // `w` there
  ParameterUseKind Kind = ParameterUseKind::GradRead;
  const clang::CXXMemberCallExpr *Move = nullptr; // `.to(device)` that made the copy
  // The factory the move is chained on (`randn({n}, requires_grad()).to(d)`),
  // which the fix-it gives the device; else null.
  const clang::CallExpr *Factory = nullptr;
};

// A host tensor filled by a non_blocking download, read before anything
// waited for the copy: it may hold stale or partial values.
struct UnsynchronizedReadFinding {
  const clang::Expr *Read = nullptr;     // `h` where it is read
  const clang::CallExpr *Copy = nullptr; // `d.to(kCPU, true)`, `h.copy_(d, true)`
  // The statement the read is in, when the copy is in the same block before
  // it and copies from CUDA: `Synchronize` inserted before it fixes the
  // read; else null.
  const clang::Stmt *InsertBefore = nullptr;
  llvm::StringRef Synchronize; // `torch::cuda::synchronize()`
};

// A non_blocking copy to a device from host memory that is not pinned: the
// driver stages it synchronously, so it overlaps nothing.
struct PageableNonBlockingFinding {
  const clang::CallExpr *Copy = nullptr;   // `x.to(device, true)`, `d.copy_(x, true)`
  const clang::Expr *Source = nullptr;     // `x`
  const clang::CallExpr *Factory = nullptr; // what made x, on the host
  // Whether `.pin_memory()` may go after Factory: a factory, the whole
  // initializer of the local the copy reads.
  bool FactoryInitializesSource = false;
};

// What runs work on the current CUDA device.
enum class LaunchKind {
  Kernel,        // `kernel<<<grid, block, shared, stream>>>(...)`
  CurrentHandle, // a stream or library handle of the current device
                 // (`getCurrentCUDAStream()`, `getCurrentCUDABlasHandle()`)
  Call           // a call of a function of the unit, taking no tensors, that
                 // launches with no device guard of its own
};

// Work launched on the current CUDA device by a function that takes
// tensors, with no device guard set on the path: with the tensors on
// another GPU it runs on the wrong one.
struct MissingDeviceGuardFinding {
  const clang::Expr *Launch = nullptr; // the launch, the handle's call, or the call
  LaunchKind Kind = LaunchKind::Kernel;
  const clang::FunctionDecl *Function = nullptr; // whose path has no guard
  // Its first tensor parameter, whose device a guard would take (null when
  // the tensors come otherwise, e.g. in a list).
  const clang::ParmVarDecl *Tensor = nullptr;
  // Kind == Call: the launch in the called function (any number of calls down).
  const clang::Expr *LaunchInCallee = nullptr;
  // A call of Function in the unit with no guard on its path, when the
  // unit calls Function; null when it does not.
  const clang::Expr *UnguardedCall = nullptr;
};

class FindingsHandler {
public:
  virtual ~FindingsHandler();
#define PL_FINDING(Method, Struct, Rule, Subject) virtual void Method(const Struct &) {}
#include "placelint/analysis/Findings.def"
#undef PL_FINDING
};

} // namespace placelint::analysis
