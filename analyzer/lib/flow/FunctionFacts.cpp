// FunctionFacts: the records the flow analysis leaves, and what rules ask
// of a value's provenance (the call that made it, and that call's
// arguments as they stood there).
#include "flow/FunctionFacts.h"

#include "BodyFacts.h"
#include "Syntax.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"

#include <algorithm>
#include <numeric>

namespace placelint::analysis {

using namespace clang;

namespace {

// One record per key: the first visit appends it, later visits (the fixed
// point's iterations) replace it, so the converged one remains in place.
template <class Key, class Record>
void keepLatest(std::vector<Record> &Records, llvm::DenseMap<Key, unsigned> &Index,
                const Key &At, Record New) {
  auto [It, Inserted] = Index.try_emplace(At, Records.size());
  if (Inserted)
    Records.push_back(std::move(New));
  else
    Records[It->second] = std::move(New);
}

// Records in the order the function runs them (stable: what the CFG does
// not order keeps the order the analysis met it in), their index rebuilt.
// PlaceOf gives the expression of this function where a record happens.
// Stable by the old position breaking ties, not by std::stable_sort, whose
// temporary buffer libstdc++ 12 takes with a function clang 19 warns is
// deprecated.
template <class Key, class Record, class KeyOf, class PlaceOf>
void orderRecords(std::vector<Record> &Records, llvm::DenseMap<Key, unsigned> &Index,
                  const FunctionSequence &Sequence, KeyOf keyOf, PlaceOf placeOf) {
  auto Earlier = [&](const Record &L, const Record &R) {
    const clang::Stmt *Left = placeOf(L);
    const clang::Stmt *Right = placeOf(R);
    if (!Left || !Right)
      return Left && !Right; // nowhere: last
    return Sequence.isEarlier(*Left, *Right);
  };
  std::vector<unsigned> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0u);
  std::sort(Order.begin(), Order.end(), [&](unsigned L, unsigned R) {
    return Earlier(Records[L], Records[R]) || (!Earlier(Records[R], Records[L]) && L < R);
  });
  std::vector<Record> Sorted;
  Sorted.reserve(Records.size());
  for (unsigned I : Order)
    Sorted.push_back(std::move(Records[I]));
  Records = std::move(Sorted);
  Index.clear();
  for (unsigned I = 0; I < Records.size(); ++I)
    Index[keyOf(Records[I])] = I;
}

} // namespace

FunctionFacts::~FunctionFacts() = default;

void FunctionFacts::orderByExecution() {
  const FunctionSequence &Order = sequence();
  using Pair = std::pair<const Expr *, const Expr *>;
  orderRecords(Operations, OperationIndex, Order, [](const Operation &O) { return O.Call; },
               [](const Operation &O) { return O.Call; });
  orderRecords(Transfers, TransferIndex, Order,
               [](const Transfer &T) -> const Expr * { return T.Call; },
               [](const Transfer &T) { return T.Call; });
  orderRecords(ParameterUses, ParameterUseIndex, Order,
               [](const ParameterUse &U) { return Pair{U.Where, U.Tensor}; },
               [](const ParameterUse &U) { return U.Where; });
  orderRecords(CalleeFailures, CalleeFailureIndex, Order,
               [](const CalleeFailure &F) { return Pair{F.Finding.Call, F.Finding.Through}; },
               [](const CalleeFailure &F) { return F.Finding.Through; });
  orderRecords(CalleeTransfers, CalleeTransferIndex, Order,
               [](const TransferThroughCall &M) { return Pair{M.Transfer.Call, M.Through}; },
               [](const TransferThroughCall &M) { return M.Through; });
  orderRecords(ReadsThroughCalls, ReadThroughCallIndex, Order,
               [](const ReadThroughCall &R) { return Pair{R.Read.Read, R.Through}; },
               [](const ReadThroughCall &R) { return R.Through; });
  orderRecords(Synchronizations, SynchronizationIndex, Order,
               [](const Synchronization &S) { return S.Call; },
               [](const Synchronization &S) { return S.Call; });
  orderRecords(ElementWrites, ElementWriteIndex, Order,
               [](const ElementWrite &W) -> const Expr * { return W.Call; },
               [](const ElementWrite &W) -> const Expr * { return W.Call; });
  orderRecords(CudaRequests, CudaRequestIndex, Order,
               [](const CudaRequest &R) { return std::make_pair(R.Where, R.Block); },
               [](const CudaRequest &R) { return R.Where; });
}

const FunctionSequence &FunctionFacts::sequence() const {
  if (!Sequence)
    Sequence.emplace(Function, std::move(Graph));
  return *Sequence;
}

void FunctionFacts::record(Operation Op) {
  const Expr *At = Op.Call;
  keepLatest(Operations, OperationIndex, At, std::move(Op));
}

void FunctionFacts::recordLambdaCall(const FunctionDecl &CallOperator,
                                     llvm::ArrayRef<AbstractValue> Arguments) {
  auto [It, Inserted] = LambdaArguments.try_emplace(&CallOperator);
  if (Inserted) {
    It->second.assign(Arguments.begin(), Arguments.end());
    return;
  }
  for (size_t I = 0; I < It->second.size() && I < Arguments.size(); ++I)
    It->second[I] = It->second[I].join(Arguments[I]);
}

void FunctionFacts::recordCudaRequest(const Expr &Where, unsigned Block,
                                      unsigned DevicesNeeded) {
  auto [It, Inserted] = CudaRequestIndex.try_emplace({&Where, Block}, CudaRequests.size());
  if (Inserted) {
    CudaRequests.push_back({&Where, Block, DevicesNeeded, 0});
    return;
  }
  CudaRequest &Request = CudaRequests[It->second];
  Request.Block = Block;
  Request.DevicesNeeded = std::max(Request.DevicesNeeded, DevicesNeeded);
}

unsigned FunctionFacts::devicesEstablishedAtExit() const {
  const clang::CFG *Walked = Graph ? Graph.get() : Sequence ? Sequence->graph() : nullptr;
  if (!Walked || CudaRequests.empty())
    return 0;
  clang::CFGDomTree Dominators(const_cast<clang::CFG *>(Walked));
  llvm::DenseMap<unsigned, const clang::CFGBlock *> ById;
  for (const clang::CFGBlock *Block : *Walked)
    ById[Block->getBlockID()] = Block;
  unsigned Devices = 0;
  for (const CudaRequest &Request : CudaRequests)
    if (const clang::CFGBlock *Block = ById.lookup(Request.Block);
        Block && Dominators.dominates(Block, &Walked->getExit()))
      Devices = std::max(Devices, Request.DevicesNeeded);
  return Devices;
}

void FunctionFacts::setCudaGuards(
    llvm::function_ref<std::pair<unsigned, const Expr *>(const CudaRequest &)> Guard) {
  for (CudaRequest &Request : CudaRequests)
    std::tie(Request.DevicesEnsured, Request.WeakestCall) = Guard(Request);
}

void FunctionFacts::record(CalleeFailure Failure) {
  std::pair<const Expr *, const Expr *> At{Failure.Finding.Call, Failure.Finding.Through};
  keepLatest(CalleeFailures, CalleeFailureIndex, At, std::move(Failure));
}

void FunctionFacts::record(ReadThroughCall Read) {
  std::pair<const Expr *, const Expr *> At{Read.Read.Read, Read.Through};
  keepLatest(ReadsThroughCalls, ReadThroughCallIndex, At, std::move(Read));
}

void FunctionFacts::record(TransferThroughCall Moved) {
  std::pair<const Expr *, const Expr *> At{Moved.Transfer.Call, Moved.Through};
  keepLatest(CalleeTransfers, CalleeTransferIndex, At, std::move(Moved));
}

void FunctionFacts::record(ParameterUse Use) {
  std::pair<const Expr *, const Expr *> At{Use.Where, Use.Tensor};
  keepLatest(ParameterUses, ParameterUseIndex, At, std::move(Use));
}

void FunctionFacts::record(Synchronization Sync) {
  const Expr *At = Sync.Call;
  keepLatest(Synchronizations, SynchronizationIndex, At, Sync);
}

void FunctionFacts::record(ElementWrite Write) {
  const Expr *At = Write.Call;
  keepLatest(ElementWrites, ElementWriteIndex, At, std::move(Write));
}

void FunctionFacts::record(Transfer T) {
  const Expr *At = T.Call;
  keepLatest(Transfers, TransferIndex, At, std::move(T));
}

void FunctionFacts::recordCallResult(const CallExpr &Call, const ValueFact &Returned) {
  if (Returned.MadeIn)
    CallResults[&Call] = Returned;
  else
    CallResults.erase(&Call);
}

const CXXMemberCallExpr *FunctionFacts::conversionThatMade(const ValueFact &Fact) const {
  if (&makerFacts(Fact) != this)
    return makerFacts(Fact).conversionThatMade(Fact);
  // A to() the flow recorded no transfer for changes no device.
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Fact.MadeBy);
  return Call && ExprFacts.count(Call) && !TransferIndex.count(Call) &&
                 Body.model().classifyCall(*Call).Kind == CallKind::Transfer &&
                 ExprFacts.count(Call->getImplicitObjectArgument())
             ? Call
             : nullptr;
}

const ValueFact *FunctionFacts::convertedSource(const ValueFact &Fact) const {
  // Through a chain of conversions made here, to the tensor before the
  // first; a value made elsewhere is for its own analysis to follow.
  const ValueFact *Source = nullptr;
  for (unsigned Depth = 0; Depth < kMaxChain; ++Depth) {
    const ValueFact &Current = Source ? *Source : Fact;
    const CXXMemberCallExpr *Conversion =
        &makerFacts(Current) == this ? conversionThatMade(Current) : nullptr;
    if (!Conversion)
      return Source;
    Source = factAt(Conversion->getImplicitObjectArgument());
  }
  return nullptr; // conversions of conversions in a loop: nothing before them
}

const ValueFact *FunctionFacts::madeInCallee(const ValueFact &Fact) const {
  if (&makerFacts(Fact) != this)
    return makerFacts(Fact).madeInCallee(Fact);
  if (const ValueFact *Source = convertedSource(Fact))
    return madeInCallee(*Source);
  auto It = Fact.MadeBy ? CallResults.find(Fact.MadeBy) : CallResults.end();
  return It == CallResults.end() ? nullptr : &It->second;
}

const ValueFact *FunctionFacts::factAt(const Expr *E) const {
  auto It = ExprFacts.find(E);
  return It == ExprFacts.end() ? nullptr : &It->second;
}

const CallExpr *FunctionFacts::callThatMade(const ValueFact &Fact, ApiCall &Api) const {
  if (&makerFacts(Fact) != this)
    return makerFacts(Fact).callThatMade(Fact, Api);
  if (const ValueFact *Source = convertedSource(Fact))
    return callThatMade(*Source, Api);
  const auto *Call = dyn_cast_or_null<CallExpr>(Fact.MadeBy);
  // Only calls of this function carry their arguments' facts here.
  if (!Call || !ExprFacts.count(Call))
    return nullptr;
  Api = Body.model().classifyCall(*Call);
  return Call;
}

const Transfer *FunctionFacts::transferThatMade(const ValueFact &Fact) const {
  if (&makerFacts(Fact) != this)
    return makerFacts(Fact).transferThatMade(Fact);
  if (const ValueFact *Source = convertedSource(Fact))
    return transferThatMade(*Source);
  auto It = Fact.MadeBy ? TransferIndex.find(Fact.MadeBy) : TransferIndex.end();
  if (It == TransferIndex.end())
    return nullptr;
  const Transfer &T = Transfers[It->second];
  return T.IsSync || T.IntoDestination ? nullptr : &T;
}

const Transfer *FunctionFacts::transferAt(const Expr &Call) const {
  auto It = TransferIndex.find(&Call);
  return It == TransferIndex.end() ? nullptr : &Transfers[It->second];
}

std::optional<llvm::SmallVector<const ValueFact *, 2>>
FunctionFacts::storedInto(const VarDecl &Var) const {
  if (!Var.isLocalVarDecl() || Var.getType()->isReferenceType() || Body.isEscaped(Var))
    return std::nullopt;
  auto FactOfValue = [&](const Expr *E) {
    const ValueFact *Fact = factAt(E);
    Fact = Fact ? Fact : factAt(E->IgnoreParenImpCasts());
    return Fact ? Fact : factAt(stripCopies(E)->IgnoreParenImpCasts());
  };
  llvm::SmallVector<const ValueFact *, 2> Stored;
  const auto *Empty = dyn_cast_or_null<CXXConstructExpr>(Var.getInit());
  if (Var.getInit() && !(Empty && Empty->getNumArgs() == 0))
    Stored.push_back(FactOfValue(Var.getInit()));
  for (const Expr *Assigned : Body.assignmentsTo(Var))
    Stored.push_back(FactOfValue(Assigned));
  if (llvm::is_contained(Stored, nullptr))
    return std::nullopt;
  return Stored;
}

bool FunctionFacts::optionsAskFor(const ValueFact &Options, CallKind Flag,
                                  bool UnknownAsks) const {
  const ValueFact *Fact = &Options;
  // Through the chain of builders: `TensorOptions().dtype(t).pinned_memory(true)`.
  for (unsigned Depth = 0; Fact && Depth < kMaxChain; ++Depth) {
    if (const ValueFact *Returned = madeInCallee(*Fact))
      Fact = Returned;
    const FunctionFacts &Home = makerFacts(*Fact);
    ApiCall Api;
    const CallExpr *Call = Home.callThatMade(*Fact, Api);
    if (!Call)
      return false;
    if (Api.Kind == Flag) {
      llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
      return UnknownAsks ? !isWrittenFalse(Args) : isTrueOrDefault(Args);
    }
    const auto *Method = dyn_cast<CXXMemberCallExpr>(Call);
    if (!Method || (Api.Kind != CallKind::OptionsBuilder && Api.Kind != CallKind::OptionsDevice &&
                    Api.Kind != CallKind::OptionsRequiresGrad &&
                    Api.Kind != CallKind::OptionsPinnedMemory))
      return false;
    Fact = Home.factAt(Method->getImplicitObjectArgument());
  }
  return false;
}

namespace {

// A number or a braced list of numbers written in the code.
bool isLiteralData(const Expr *E) {
  const Expr *Value = convertedValue(E)->IgnoreParenImpCasts();
  if (const auto *Negated = dyn_cast<UnaryOperator>(Value); Negated && Negated->isArithmeticOp())
    Value = Negated->getSubExpr()->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(Value))
    return true;
  std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(E);
  return Elements && llvm::all_of(*Elements, isLiteralData);
}

} // namespace

bool FunctionFacts::madeOnHostByDefault(const CallExpr &Factory) const {
  // No device given, nor pinned memory asked for (a pinned host tensor is
  // made to be copied with non_blocking).
  const ApiModel &Model = Body.model();
  for (const Expr *Arg : Factory.arguments()) {
    if (isDefaultArgument(Arg))
      continue;
    ValueKind Kind = Model.classify(Arg->getType());
    if (Kind == ValueKind::Device || Kind == ValueKind::DeviceType)
      return false;
    if (Kind != ValueKind::TensorOptions)
      continue;
    const ValueFact *Options = factAt(Arg);
    if (!Options || !Options->OptionsWithoutDevice ||
        optionsAskFor(*Options, CallKind::OptionsPinnedMemory, /*UnknownAsks=*/true))
      return false;
  }
  return true;
}

const CallExpr *FunctionFacts::hostFactoryThatMade(const ValueFact &Fact, unsigned Depth) const {
  if (&makerFacts(Fact) != this)
    return makerFacts(Fact).hostFactoryThatMade(Fact, Depth);
  ApiCall Api;
  const CallExpr *Call = callThatMade(Fact, Api);
  if (!Call || Depth >= kMaxChain)
    return nullptr;
  std::optional<AbstractDevice> On = Fact.Devices.single();
  bool OnHost = On && On->isCpu();
  // The tensor operands of a call: its object and tensor arguments.
  llvm::SmallVector<const Expr *, 3> Tensors;
  if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call))
    Tensors.push_back(Method->getImplicitObjectArgument());
  for (const Expr *Arg : Call->arguments())
    if (Body.model().isTensor(Arg->getType()))
      Tensors.push_back(Arg);
  switch (Api.Kind) {
  case CallKind::Factory:
    // `tensor({0, 1})` of literals could be made on the device; `tensor(v)`
    // of run-time host data is the data's way there.
    if (Api.Rank == ResultRank::OfLiteral &&
        (Call->getNumArgs() == 0 || !isLiteralData(Call->getArg(0))))
      return nullptr;
    return madeOnHostByDefault(*Call) ? Call : nullptr;
  // `zeros_like(t)` is on t's device.
  case CallKind::FactoryLike:
    return OnHost && madeOnHostByDefault(*Call) ? Call : nullptr;
  // Drawn from numbers, a factory; from fresh host tensors, as fresh.
  case CallKind::Sample:
    if (Tensors.empty())
      return madeOnHostByDefault(*Call) ? Call : nullptr;
    break;
  // A reshaped or converted copy of a fresh host tensor
  // (`ones({3}).unsqueeze(0)`) is as fresh.
  case CallKind::Reshape:
  case CallKind::ShapePreserving:
    if (Api.InPlace)
      return nullptr;
    break;
  default:
    return nullptr;
  }
  const CallExpr *Made = nullptr;
  for (const Expr *Tensor : Tensors) {
    const ValueFact *Input = factAt(Tensor);
    const CallExpr *Factory = Input ? hostFactoryThatMade(*Input, Depth + 1) : nullptr;
    if (!Factory)
      return nullptr;
    Made = Made ? Made : Factory;
  }
  return OnHost ? Made : nullptr;
}

bool FunctionFacts::requiresGrad(const ValueFact &Fact) const {
  if (&makerFacts(Fact) != this)
    return makerFacts(Fact).requiresGrad(Fact);
  if (const ValueFact *Returned = madeInCallee(Fact))
    return requiresGrad(*Returned);
  ApiCall Api;
  const CallExpr *Call = callThatMade(Fact, Api);
  // An element of a list written here (`{randn(…, requires_grad()), …}`):
  // if every element does.
  if (!Call && Fact.MadeBy && ExprFacts.count(Fact.MadeBy))
    if (std::optional<llvm::SmallVector<const Expr *, 4>> Elements = listElements(Fact.MadeBy))
      return !Elements->empty() && llvm::all_of(*Elements, [&](const Expr *Element) {
        const ValueFact *Made = factAt(convertedValue(Element));
        return Made && requiresGrad(*Made);
      });
  if (!Call)
    return false;
  if (Api.Kind == CallKind::MarkRequiresGrad)
    return isTrueOrDefault(llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
  if (Api.Kind != CallKind::Factory)
    return false;
  return llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
    const ValueFact *Options = factAt(Arg);
    return Options && Body.model().classify(Arg->getType()) == ValueKind::TensorOptions &&
           optionsAskFor(*Options, CallKind::OptionsRequiresGrad);
  });
}

const CXXMemberCallExpr *FunctionFacts::nonLeafMove(const ValueFact &Fact,
                                                    unsigned Depth) const {
  if (&makerFacts(Fact) != this)
    return makerFacts(Fact).nonLeafMove(Fact, Depth);
  if (const ValueFact *Returned = madeInCallee(Fact); Returned && Depth < kMaxChain)
    return nonLeafMove(*Returned, Depth + 1);
  ApiCall Api;
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(callThatMade(Fact, Api));
  const ValueFact *Source = Call ? factAt(Call->getImplicitObjectArgument()) : nullptr;
  if (!Source || Depth >= kMaxChain)
    return nullptr;
  // requires_grad_() on a non-leaf leaves it one.
  if (Api.Kind == CallKind::MarkRequiresGrad)
    return nonLeafMove(*Source, Depth + 1);
  if (Api.Kind != CallKind::Transfer)
    return nullptr;
  // The copy of a leaf that requires grad is not a leaf: its gradient goes
  // back to the leaf, and it has none of its own. A copy of such a copy is
  // still the first move's.
  if (const CXXMemberCallExpr *Earlier = nonLeafMove(*Source, Depth + 1))
    return Earlier;
  return requiresGrad(*Source) ? Call : nullptr;
}

} // namespace placelint::analysis
