// What the flow analysis leaves behind for the rules (private to
// analyzer/lib): the converged fact of every expression, and the
// operations and transfers of the function with their operands' facts as
// they stand at the fixed point. Rules read these; they never walk the CFG.
#pragma once

#include "FunctionSequence.h"
#include "flow/AbstractValue.h"
#include "flow/SummaryProvider.h"
#include "placelint/analysis/ApiModel.h"
#include "placelint/analysis/ValueFact.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CFG;
class CallExpr;
class CXXMemberCallExpr;
class Expr;
class FunctionDecl;
class LambdaExpr;
class VarDecl;
} // namespace clang

namespace placelint::analysis {

class BodyFacts;
class CallIndex;

// One tensor (or module) operand of an operation.
struct Operand {
  const clang::Expr *E = nullptr;
  ValueFact Fact;
  // Whether a 0-dim cpu tensor may stand here for a scalar (PyTorch's
  // TensorIterator promotes inputs of element-wise ops; not the tensor an
  // in-place op writes to, nor a module's input or a cat/stack element).
  bool Promotable = true;
};

// An operation whose tensor operands must share one device: an operator, a
// tensor method, a free op, cat/stack over a list, a module call.
struct Operation {
  const clang::Expr *Call = nullptr;
  std::string Name; // operator+, add, matmul, cat, forward
  llvm::SmallVector<Operand, 3> Operands;
};

// A device change asked for by `to`, `cuda`, `cpu`, a copy to the host by
// `item()`, or a copy into a tensor that already exists (`d.copy_(h)`).
struct Transfer {
  const clang::CXXMemberCallExpr *Call = nullptr;
  const clang::Expr *Tensor = nullptr; // what is copied: the object, or copy_'s argument
  ValueFact Source;  // Tensor's fact before the call
  DeviceSet Target;  // where the call moves it
  bool IsSync = false; // item(): the value itself comes to the host
  // Asked not to block (`to(kCPU, /*non_blocking=*/true)`): the copy is
  // queued, its bytes arrive later.
  bool NonBlocking = false;
  // copy_: the bytes go into the memory of the tensor it is called on
  // (Target: its devices); no new tensor is made.
  bool IntoDestination = false;
};

// A write of host values into a part of a device tensor (`t[i][j] = x`,
// `t.index_put_({i}, row)`): each is an operation of its own on the device,
// its value sent from the host.
struct ElementWrite {
  const clang::CallExpr *Call = nullptr; // the assignment or index_put_
  const clang::Expr *Tensor = nullptr;   // `t`, the tensor written
  DeviceSet Target;                      // t's devices
};

// A point where the host waits for the device's queued work:
// `cuda::synchronize()`, a stream's or an event's `synchronize()`, `item()`
// or a blocking download of a device tensor, or a call of a function of the
// unit that does one of these.
struct Synchronization {
  const clang::Expr *Call = nullptr;
};

// A use of a host tensor's values (a method, an operator, a function
// outside the unit) while a non_blocking download still fills it. Only
// these reads are recorded: the only ones a rule asks about.
struct HostRead {
  const clang::Expr *E = nullptr;        // a variable, a field, a call handing the tensor back
  const clang::CallExpr *Copy = nullptr; // the download still pending there
};

// A CUDA device written in the code (`.cuda()`, `kCUDA`, `"cuda:1"` where a
// device is expected), and whether availability checks guard it: every path
// to it, here or in every caller, passed `cuda::is_available()` (one device)
// or `device_count() > i` (i + 1) being true.
struct CudaRequest {
  const clang::Expr *Where = nullptr;
  unsigned Block = 0;
  unsigned DevicesNeeded = 1;  // cuda:1 needs two
  unsigned DevicesEnsured = 0; // by the checks on the way
  // When callers' checks were looked at: the call that ensures the fewest.
  const clang::Expr *WeakestCall = nullptr;
  bool guarded() const { return DevicesEnsured >= DevicesNeeded; }
};

// A tensor used as a parameter, where autograd must give it a gradient:
// given to an optimizer, its grad() read, registered with register_parameter.
struct ParameterUse {
  const clang::Expr *Where = nullptr;  // the optimizer, `w.grad()`, the call
  const clang::Expr *Tensor = nullptr; // `w`
  ValueFact Fact;                      // the tensor's, there
  ParameterUseKind Kind = ParameterUseKind::GradRead;
};

// Two operands of one operation that are, or may be, on different devices.
struct Conflict {
  const Operand *First = nullptr;
  const Operand *Second = nullptr;
  AbstractDevice FirstDevice = AbstractDevice::cpu();
  AbstractDevice SecondDevice = AbstractDevice::cpu();
  bool Definite = false;
};

// PyTorch's device rule over Operands: the pair that breaks it, if any.
// Unknown devices never conflict; a 0-dim cpu input follows the others.
std::optional<Conflict> findConflict(llvm::ArrayRef<Operand> Operands);
// A tensor on the cpu that may be 0-dim, which PyTorch would promote like
// a scalar: of unknown rank counts, so that an unknown rank never reports.
bool mayBeCpuScalar(const ValueFact &Fact);

// What a function's analysis starts from besides its parameters: for a
// method of a module, its fields' facts and the device of `forward`'s
// tensor inputs; for a lambda, what it captured.
struct EntryFacts {
  llvm::DenseMap<AccessPath, ValueFact> Known;
  std::optional<AbstractDevice> InputDevice;
};

// A transfer a called function makes once per call (Through: that call;
// Given: the expressions given for the transfer's inputs, in Transfer.Inputs'
// order, null for a captured variable, which Transfer.Inputs names, and for
// what a std algorithm gives a callback).
struct TransferThroughCall {
  CalleeTransfer Transfer;
  const clang::Expr *Through = nullptr;
  llvm::SmallVector<const clang::Expr *, 2> Given;
};

// A read, in a called function, of a tensor this function gave it that
// still waits for a non_blocking download (Through: the call here).
struct ReadThroughCall {
  UnsynchronizedReadFinding Read;
  const clang::Expr *Through = nullptr;
};

class FunctionFacts {
public:
  // Calls: the unit's call index, which rules judging a function by its
  // callers read.
  FunctionFacts(const clang::FunctionDecl &Function, BodyFacts &Body, CallIndex &Calls)
      : Function(Function), Body(Body), Calls(Calls) {}
  ~FunctionFacts();

  const clang::FunctionDecl &function() const { return Function; }
  BodyFacts &body() const { return Body; }
  CallIndex &calls() const { return Calls; }
  // The order the function's statements run in, and their parents; made
  // on first use from the CFG the analysis walked (summaries of callees
  // never ask).
  const FunctionSequence &sequence() const;

  // In control-flow order once orderByExecution() ran (DeviceAnalysis
  // calls it before the rules); before, in the order the analysis met them.
  llvm::ArrayRef<Operation> operations() const { return Operations; }
  llvm::ArrayRef<Transfer> transfers() const { return Transfers; }
  llvm::ArrayRef<CudaRequest> cudaRequests() const { return CudaRequests; }
  llvm::ArrayRef<ParameterUse> parameterUses() const { return ParameterUses; }
  llvm::ArrayRef<Synchronization> synchronizations() const { return Synchronizations; }
  llvm::ArrayRef<ElementWrite> elementWrites() const { return ElementWrites; }
  // In control-flow order: recorded once, after the fixed point.
  llvm::ArrayRef<HostRead> hostReads() const { return HostReads; }
  // Operations in the functions this one calls that fail with what the
  // calls give them (Finding.Through: the call here).
  llvm::ArrayRef<CalleeFailure> calleeFailures() const { return CalleeFailures; }
  llvm::ArrayRef<ReadThroughCall> readsThroughCalls() const { return ReadsThroughCalls; }
  // Transfers in the functions this one calls of what the calls give them.
  llvm::ArrayRef<TransferThroughCall> calleeTransfers() const { return CalleeTransfers; }
  const llvm::DenseMap<const clang::Expr *, ValueFact> &expressions() const {
    return ExprFacts;
  }
  // The converged fact of E, an expression of this function the analysis
  // evaluated (null for others).
  const ValueFact *factAt(const clang::Expr *E) const;

  // The analysis that holds what made Fact (its MadeBy and the facts of
  // that call's operands): this one, or that of the function of the unit
  // that made it (a helper that returned it, a constructor that stored it).
  const FunctionFacts &makerFacts(const ValueFact &Fact) const {
    return Fact.MadeIn ? *Fact.MadeIn : *this;
  }
  // For the result of a call of a function of the unit (Fact made by that
  // call, here): the value as the callee made it, whose MadeIn is the
  // callee's analysis; null when the callee made it from what it was given,
  // or is not analysed.
  const ValueFact *madeInCallee(const ValueFact &Fact) const;
  // A value's provenance: the call that made it (still unchanged), here or
  // in makerFacts(), classified into Api; null when it was made outside
  // the unit's analysed code, or not by a call.
  const clang::CallExpr *callThatMade(const ValueFact &Fact, ApiCall &Api) const;
  // The transfer (to/cuda/cpu) whose copy the value is, or null.
  const Transfer *transferThatMade(const ValueFact &Fact) const;
  // The transfer Call records (a to/cuda/cpu, item() or copy_ this
  // function runs), or null.
  const Transfer *transferAt(const clang::Expr &Call) const;
  // The dtype conversion (`to(kHalf)`, a to() that names no device) that
  // made the value, here, or null. The queries above and below look through
  // it to its tensor: the factory, move or transfer behind a converted
  // tensor is its source's; only memory (pinned or not) is the conversion's.
  const clang::CXXMemberCallExpr *conversionThatMade(const ValueFact &Fact) const;
  // The factory that made the value on the host, no device given nor pinned
  // memory asked for (the value itself, or a reshaped or converted copy of
  // it), or null.
  const clang::CallExpr *hostFactoryThatMade(const ValueFact &Fact) const {
    return hostFactoryThatMade(Fact, 0);
  }
  // Whether options ask for Flag (OptionsRequiresGrad, OptionsPinnedMemory)
  // anywhere in the chain of builders that made them; with UnknownAsks, a
  // flag known only at run time (`pinned_memory(use_cuda)`) counts as asked.
  bool optionsAskFor(const ValueFact &Options, CallKind Flag, bool UnknownAsks = false) const;
  // A tensor made to require grad: a leaf that autograd gives a gradient
  // (its factory's options asked, or requires_grad_()).
  bool requiresGrad(const ValueFact &Fact) const;
  // When the value is the copy a move made of a tensor that requires grad
  // (a non-leaf, which gets no gradient of its own): that move.
  const clang::CXXMemberCallExpr *nonLeafMove(const ValueFact &Fact) const {
    return nonLeafMove(Fact, 0);
  }

  // The facts of the values the function stores into its local Var (its
  // initialiser, each assignment), for a use whose fact is their join; an
  // initialiser that constructs an empty value stores none. Nullopt when Var
  // may change otherwise (a reference to it escaped) or a stored value was
  // not evaluated.
  std::optional<llvm::SmallVector<const ValueFact *, 2>>
  storedInto(const clang::VarDecl &Var) const;

  const AbstractValue &returned() const { return Returned; }
  // `this` as the function leaves it: the fields it knows of, as parts by
  // field (`.mask_`).
  const AbstractValue &objectAtExit() const { return ObjectAtExit; }
  // What each parameter taken by non-const reference holds when the
  // function returns (nullopt for the others).
  llvm::ArrayRef<std::optional<AbstractValue>> byReferenceAtExit() const {
    return ByReferenceAtExit;
  }
  // The parts of E's value tracked apart, when it has any.
  const llvm::DenseMap<const clang::Expr *, llvm::SmallVector<AbstractValue::Part, 0>> &
  expressionParts() const {
    return ExprParts;
  }

  // Written by the flow analysis; each visit replaces the record of the
  // previous one, so the last visit, at the fixed point, is what remains.
  void record(Operation Op);
  void record(Transfer T);
  void record(ParameterUse Use);
  void record(CalleeFailure Failure);
  void record(TransferThroughCall Moved);
  void record(Synchronization Sync);
  void record(ElementWrite Write);
  void record(ReadThroughCall Read);
  void recordHostReads(std::vector<HostRead> Reads) { HostReads = std::move(Reads); }
  // What a call of a function of the unit returned, as the callee made it.
  void recordCallResult(const clang::CallExpr &Call, const ValueFact &Returned);
  void recordCudaRequest(const clang::Expr &Where, unsigned Block, unsigned DevicesNeeded);
  // How many CUDA devices the requests made on every path to the function's
  // exit need: a return proves them there.
  unsigned devicesEstablishedAtExit() const;
  // After the fixed point: how many devices the checks on the way to each
  // request ensure, and the weakest call when callers' checks count.
  void setCudaGuards(
      llvm::function_ref<std::pair<unsigned, const clang::Expr *>(const CudaRequest &)> Guard);
  llvm::DenseMap<const clang::Expr *, ValueFact> &mutableExpressions() { return ExprFacts; }
  llvm::DenseMap<const clang::Expr *, llvm::SmallVector<AbstractValue::Part, 0>> &
  mutableParts() {
    return ExprParts;
  }
  // After the fixed point: the records above in the order the function
  // runs them, so that rules read one event log in control-flow order.
  void orderByExecution();
  // The CFG the analysis walked, kept for sequence().
  void keepGraph(std::unique_ptr<clang::CFG> Graph) { this->Graph = std::move(Graph); }
  void addReturned(const AbstractValue &Value) { Returned = Returned.join(Value); }
  void setExit(AbstractValue Object, llvm::SmallVector<std::optional<AbstractValue>, 2> ByReference) {
    ObjectAtExit = std::move(Object);
    ByReferenceAtExit = std::move(ByReference);
  }
  // What each lambda of the function captured, as it was when the lambda
  // was made.
  EntryFacts &capturesOf(const clang::LambdaExpr &Lambda) { return Captures[&Lambda]; }
  const EntryFacts *capturesOf(const clang::LambdaExpr &Lambda) const {
    auto It = Captures.find(&Lambda);
    return It == Captures.end() ? nullptr : &It->second;
  }
  // The values of the arguments a lambda of the function is called with
  // here, joined over its calls (empty when it is not called here).
  void recordLambdaCall(const clang::FunctionDecl &CallOperator,
                        llvm::ArrayRef<AbstractValue> Arguments);
  llvm::ArrayRef<AbstractValue> lambdaArguments(const clang::FunctionDecl &CallOperator) const {
    auto It = LambdaArguments.find(&CallOperator);
    return It == LambdaArguments.end() ? llvm::ArrayRef<AbstractValue>() : It->second;
  }

private:
  // How far provenance is followed back through calls.
  static constexpr unsigned kMaxChain = 8;
  // The fact of the tensor a conversion that made Fact converted, or null.
  const ValueFact *convertedSource(const ValueFact &Fact) const;
  const clang::CXXMemberCallExpr *nonLeafMove(const ValueFact &Fact, unsigned Depth) const;
  const clang::CallExpr *hostFactoryThatMade(const ValueFact &Fact, unsigned Depth) const;
  bool madeOnHostByDefault(const clang::CallExpr &Factory) const;

  const clang::FunctionDecl &Function;
  BodyFacts &Body;
  CallIndex &Calls;
  // Handed to Sequence on its first use.
  mutable std::unique_ptr<clang::CFG> Graph;
  mutable std::optional<FunctionSequence> Sequence;
  llvm::DenseMap<const clang::Expr *, ValueFact> ExprFacts;
  std::vector<Operation> Operations;
  llvm::DenseMap<const clang::Expr *, unsigned> OperationIndex;
  std::vector<Transfer> Transfers;
  llvm::DenseMap<const clang::Expr *, unsigned> TransferIndex;
  std::vector<ParameterUse> ParameterUses;
  std::vector<Synchronization> Synchronizations;
  std::vector<ElementWrite> ElementWrites;
  llvm::DenseMap<const clang::Expr *, unsigned> ElementWriteIndex;
  std::vector<HostRead> HostReads;
  llvm::DenseMap<const clang::Expr *, unsigned> SynchronizationIndex;
  std::vector<CalleeFailure> CalleeFailures;
  std::vector<ReadThroughCall> ReadsThroughCalls;
  llvm::DenseMap<std::pair<const clang::Expr *, const clang::Expr *>, unsigned> ReadThroughCallIndex;
  std::vector<TransferThroughCall> CalleeTransfers;
  llvm::DenseMap<std::pair<const clang::Expr *, const clang::Expr *>, unsigned> CalleeTransferIndex;
  llvm::DenseMap<std::pair<const clang::Expr *, const clang::Expr *>, unsigned> CalleeFailureIndex;
  llvm::DenseMap<std::pair<const clang::Expr *, const clang::Expr *>, unsigned> ParameterUseIndex;
  std::vector<CudaRequest> CudaRequests;
  // By the device written and the block that uses it.
  llvm::DenseMap<std::pair<const clang::Expr *, unsigned>, unsigned> CudaRequestIndex;
  llvm::DenseMap<const clang::Expr *, llvm::SmallVector<AbstractValue::Part, 0>> ExprParts;
  AbstractValue Returned;
  AbstractValue ObjectAtExit;
  llvm::SmallVector<std::optional<AbstractValue>, 2> ByReferenceAtExit;
  llvm::DenseMap<const clang::LambdaExpr *, EntryFacts> Captures;
  llvm::DenseMap<const clang::Expr *, ValueFact> CallResults;
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<AbstractValue, 2>> LambdaArguments;
};


} // namespace placelint::analysis
