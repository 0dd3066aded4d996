// The flow analysis of one function body (private to analyzer/lib): a state
// per CFG block, visited in reverse post-order, joined at merges, iterated
// to a fixed point; the transfer functions of expressions, one file per
// kind of expression:
//   FixedPoint.cpp   the driver, CFG elements, variables
//   Expressions.cpp  dispatch, casts, names, literals, device values
//   Constructors.cpp Device, TensorOptions and module constructions
//   Operators.cpp    overloaded operators on tensors and modules
//   MemberCalls.cpp  member calls, by the object's class: options, lists,
//                    modules, user classes
//   ApiCalls.cpp     the API's calls, method and free spellings alike: one
//                    switch from CallKind to its transfer function
//   Transfers.cpp    to / cuda / cpu and item(); synchronisations
//   Modules.cpp      Module::to and calling a module
//   Calls.cpp        free functions: std's, the unit's (summaries)
//   FunctionObjects.cpp  the lambda a std::function holds
//   Lists.cpp        lists of tensors, and cat / stack over them
//   Operations.cpp   operations combining tensors, and PyTorch's device rule
//   CudaGuards.cpp   where CUDA is asked for, and how many devices the checks
//                    on the way ensure (AvailabilityGuards, CallerGuards)
// What it finds goes to FunctionFacts; rules/ turn that into findings.
#pragma once

#include "flow/AbstractValue.h"
#include "flow/FunctionFacts.h"
#include "flow/SummaryProvider.h"
#include "placelint/analysis/ApiModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <vector>

namespace placelint::analysis {

// The fact of each tracked place: locals, parameters, fields of `this`, and
// parts of them (AccessPath). A place not listed holds what its nearest
// listed ancestor holds.
using FlowState = llvm::DenseMap<AccessPath, ValueFact>;

class DeviceFlow {
public:
  // Inputs: what the call being summarised gives the function (none: the
  // function analysed on its own, its parameters unknown).
  // Entry: what the function starts from besides its inputs (a module's
  // fields, a lambda's captures; null: nothing known).
  DeviceFlow(clang::ASTContext &Context, const ApiModel &Model, SummaryProvider &Summaries,
             const CallInputs &Inputs, FunctionFacts &Facts, const EntryFacts *Entry = nullptr)
      : Context(Context), Model(Model), Summaries(Summaries), Inputs(Inputs), Facts(Facts),
        Function(Facts.function()), Entry(Entry) {}

  // Runs to the fixed point. False when no CFG could be built.
  bool run();

private:
  // Where an expression's value lives: a path, and whether it is one element
  // of a container there (written, it joins the others).
  struct Place {
    AccessPath Path;
    bool OneElement = false;
  };

  // FixedPoint.cpp
  FlowState initialState() const;
  FlowState entryState(const clang::CFGBlock &Block) const;
  // At the exit of a loop that writes every element of a container (`for
  // (auto &t : v) t = t.to(d);`), the container holds what the last
  // iteration left in it.
  void takeLoopWrites(const clang::CFGBlock &Condition, FlowState &Exit) const;
  // DeviceTests.cpp: what a branch on whether a device is CUDA says on the
  // edge from Branch to Successor.
  void refineByDeviceTest(const clang::CFGBlock &Branch, const clang::CFGBlock &Successor,
                          FlowState &State) const;
  void visitElement(const clang::CFGElement &Element);
  void declare(const clang::VarDecl &Var);
  ValueFact initialFact(const clang::ValueDecl &Decl) const;
  // What State holds at Path (its nearest listed ancestor's, else the
  // variable's initial fact).
  ValueFact lookup(const FlowState &State, const AccessPath &Path) const;
  // What a variable holds before anything here sets it: a global constant's
  // device, a parameter's symbolic device, unknown.
  ValueFact defaultOf(const clang::ValueDecl &Root) const;
  AbstractValue read(const AccessPath &Path) const;
  // `this` as State holds it: every field State lists, and the parts below
  // it, as parts by field over an unknown whole. State's iteration order
  // (its hash order, which follows the fields' addresses) does not matter.
  AbstractValue objectOf(const FlowState &State) const;
  void write(const Place &Where, const AbstractValue &Value, const clang::Expr *Source,
             clang::SourceLocation At);
  // Drops what is known at Path and below it.
  void forget(const AccessPath &Path);
  // A callee may change what it gets by non-const reference, and a
  // non-const member function of `this` may change every field.
  void forgetReferenceArguments(const clang::CallExpr &Call, const clang::FunctionDecl &Callee);
  void forgetFields();

  // CudaGuards.cpp
  // CUDA is asked for where a device is used to place something (a move, a
  // factory, Module::to, a call of the unit's): at Where, the device as
  // written (`kCUDA`, `"cuda:1"`, `.cuda()`), or the use.
  void noteCudaRequest(const clang::Expr &Where, const AbstractDevice &Device);
  // A device (or options) used by Use to place something: a request at the
  // place the device was written, if it was written in this function's
  // body, else at Use (a device kept in a member, a global).
  void noteCudaUse(const clang::Expr &Use, const ValueFact &Device);
  // Call writes Value into a part of Tensor (`t[i][j] = x`,
  // `t.index_put_({i}, x)`): an ElementWrite when Tensor is on a device and
  // Value a number or a host tensor.
  void noteElementWrite(const clang::CallExpr &Call, const clang::Expr &Tensor,
                        const clang::Expr &Value);
  void resolveCudaGuards();

  // HostReads.cpp
  // After the fixed point: the reads of values that a non_blocking
  // download still fills (FunctionFacts::hostReads).
  void recordHostReads();

  // Expressions.cpp
  ValueFact factOf(const clang::Expr *E);
  AbstractValue valueOf(const clang::Expr *E);
  ValueFact evaluate(const clang::Expr *E);
  // Records Value as E's (its parts beside its fact) and returns its fact.
  ValueFact yield(const clang::Expr &E, AbstractValue Value);
  // The place an expression names: a variable, a field, a tuple's element,
  // an element of a container; nullopt for values that live nowhere.
  std::optional<Place> placeOf(const clang::Expr *E) const;
  // An element of Container read at Index (`v[i]`, `m.at("ids")`).
  AbstractValue elementOf(const clang::Expr &Container, const clang::Expr *Index);
  ValueFact evaluateMember(const clang::MemberExpr &Member);
  ValueFact evaluateDeviceTypeConstant(const clang::Expr *E);
  // The device Where writes (`kCUDA`, `"cuda:1"`): made there.
  ValueFact mentioned(const clang::Expr &Where, const AbstractDevice &Device) const;
  // The value of an integer expression: a constant, or a parameter the call
  // being summarised gave a constant.
  std::optional<std::int64_t> integerOf(const clang::Expr *E) const;
  ValueFact deviceFromArguments(llvm::ArrayRef<const clang::Expr *> Args);
  // The fact of a new value that Call computed on Devices.
  ValueFact resultOf(const clang::Expr &Call, DeviceSet Devices, ZeroDim Dim) const;
  // The fact of a new value that Call computed from Source alone (a view,
  // a detach, a reduction): on its devices, and never run if Source's
  // operation threw.
  ValueFact derivedFrom(const clang::Expr &Call, const ValueFact &Source, ZeroDim Dim) const;
  // Nothing for values the model does not track, unknown for those it does.
  ValueFact untracked(const clang::Expr &E) const;

  // Constructors.cpp
  ValueFact evaluateConstruct(const clang::CXXConstructExpr &Construct);
  // A struct made by its constructor: the fields as the constructor leaves them.
  ValueFact constructByUser(const clang::CXXConstructExpr &Construct);
  // The argument of Construct that its constructor stores in Field as it is
  // (`Step(Tensor x) : x(x) {}`, a body that names neither): its index.
  static std::optional<unsigned> argumentStoredIn(const clang::CXXConstructExpr &Construct,
                                                  const clang::FieldDecl &Field);
  // `Batch{x, y}`, `Config{dev}`: each field from its initializer.
  ValueFact evaluateInitList(const clang::InitListExpr &List);
  // An optimizer made (in any spelling) from Args, which holds the tensors
  // its first argument lists as parameters.
  void recordOptimizer(const clang::Expr &Construction, llvm::ArrayRef<const clang::Expr *> Args);

  // Operators.cpp
  ValueFact evaluateOperatorCall(const clang::CXXOperatorCallExpr &Op);

  // MemberCalls.cpp
  ValueFact evaluateMemberCall(const clang::CXXMemberCallExpr &Call);
  // ApiCalls.cpp: a call of the API, method or free function, by its kind.
  ValueFact evaluateApiCall(const clang::CallExpr &Call, ApiCall Api);
  ValueFact evaluateOptionsMethod(const clang::CXXMemberCallExpr &Call, ApiCall Api);

  // Transfers.cpp
  ValueFact evaluateTransfer(const clang::CXXMemberCallExpr &Call, ApiCall Api);
  ValueFact evaluateSync(const clang::CXXMemberCallExpr &Call);
  // `d.copy_(s[, non_blocking])`: s's bytes into d's memory, on d's device.
  ValueFact evaluateCopyInto(const clang::CXXMemberCallExpr &Call);
  // The host waited for the device at Sync: the values that non_blocking
  // downloads are filling are complete from here on (made by Sync).
  // A stream's synchronize() (OnStream: that stream, flow/Streams.cpp)
  // completes only the downloads queued on it.
  void completeDownloads(const clang::Expr &Sync,
                         std::optional<const clang::ValueDecl *> OnStream = std::nullopt);

  // Streams.cpp
  // The stream work queued at S runs on: the stream of the innermost stream
  // guard in scope there (the variable it was given, or the guard), null
  // outside every guard (the current stream).
  const clang::ValueDecl *streamAt(const clang::Stmt &S) const;
  // The stream Stream names: a stream variable, or the current stream at
  // `getCurrentCUDAStream()`; nullopt when it cannot be said (an event).
  std::optional<const clang::ValueDecl *> streamNamed(const clang::Expr &Stream) const;

  // Modules.cpp
  // A module just made by Creation from Args: on the cpu, or for a
  // library module without parameters, where the tensor its options hold is.
  ValueFact newModule(const clang::Expr &Creation, clang::SourceLocation At,
                      llvm::ArrayRef<const clang::Expr *> Args);
  ValueFact evaluateModuleMethod(const clang::CXXMemberCallExpr &Call, ApiCall Api);
  ValueFact applyModule(const clang::Expr &Call, const clang::Expr &ModuleExpr,
                        llvm::ArrayRef<const clang::Expr *> Args);
  // The modules Args put into a container (`push_back(m)`, `insert("m", m)`,
  // a constructor's list): the join of theirs; unknown when an argument
  // holds none the flow can see.
  ValueFact heldModules(llvm::ArrayRef<const clang::Expr *> Args);
  // The places that share the module at Path: the containers it was put
  // into, the modules put into it, the handles copied from it (`auto p =
  // model.ptr()`), anywhere in the body; made on first use.
  llvm::ArrayRef<AccessPath> moduleSharers(const AccessPath &Path);

  // Calls.cpp
  ValueFact evaluateCall(const clang::CallExpr &Call);
  // A call of a function of the unit, through its summary: its result, and
  // what it leaves in its object (Object, for a method) and in what it
  // takes by non-const reference.
  // A lambda called by a std facility: the arguments it is given, and the
  // summary of the call (for what it returns and writes back).
  struct Callback {
    llvm::SmallVector<AbstractValue, 4> Arguments;
    CallSummary Summary;
  };
  ValueFact summaryCall(const clang::CallExpr &Call, const clang::FunctionDecl &Callee,
                        const clang::Expr *Object = nullptr, Callback *Back = nullptr);
  // A std facility given a lambda (`std::for_each(v.begin(), v.end(), f)`,
  // `std::transform(..., std::back_inserter(out), f)`, `std::generate`, a
  // comparator) calls it, zero or more times, on the elements of the list
  // its first argument walks; what it returns goes to a list a later
  // argument names.
  ValueFact callBack(const clang::CallExpr &Call, const clang::Expr &Callable,
                     const clang::CXXMethodDecl &Operator);
  // The call operator of a (non-generic) lambda Arg is, or null.
  const clang::CXXMethodDecl *lambdaCallOperator(const clang::Expr &Arg) const;
  // FunctionObjects.cpp: the lambda the std::function Callable names was
  // given where the function stores it, or null.
  const clang::LambdaExpr *functionTarget(const clang::Expr &Callable);
  // The values of the arguments of a call of the unit's code.
  llvm::SmallVector<AbstractValue, 4> argumentValues(llvm::ArrayRef<const clang::Expr *> Args);
  // `std::get<I>(t)`: I.
  std::optional<unsigned> tupleIndex(const clang::CallExpr &Get) const;

  // Lists.cpp
  ValueFact evaluateListOp(const clang::CallExpr &Call, ApiCall Api, llvm::StringRef Name);
  ValueFact evaluateListMethod(const clang::CXXMemberCallExpr &Call, ApiCall Api);
  // The value a list gets from Element (a tensor, or a value holding one).
  AbstractValue elementValue(const clang::Expr *Element);
  // A list holding Elements (InOrder: written out, each at its position,
  // which stays a part of its own; else copies of one value).
  ValueFact newList(const clang::Expr &Made, llvm::ArrayRef<const clang::Expr *> Elements,
                    bool InOrder);
  // A tuple or pair made of Elements: each its own part, the whole their join.
  ValueFact newTuple(const clang::Expr &Made, llvm::ArrayRef<const clang::Expr *> Elements);

  // Operations.cpp
  Operand operand(const clang::Expr *E, bool Promotable = true) {
    return {E, factOf(E), Promotable};
  }
  // The tensor an argument passes: itself, or the one an optional wraps
  // (`nll_loss(out, y, weight)` takes `optional<Tensor>`); null for others.
  const clang::Expr *tensorArgument(const clang::Expr *Arg) const;
  // Records the operation (Name, for messages) and returns the fact of its
  // result, of the rank Rank says.
  ValueFact operation(const clang::Expr &Call, llvm::StringRef Name, ResultRank Rank,
                      llvm::SmallVector<Operand, 3> Operands);
  ValueFact operation(const clang::CallExpr &Call, ApiCall Api,
                      llvm::SmallVector<Operand, 3> Operands);
  ValueFact combine(const clang::Expr &Call, llvm::ArrayRef<Operand> Operands) const;

  clang::ASTContext &Context;
  const ApiModel &Model;
  SummaryProvider &Summaries;
  const CallInputs &Inputs;
  FunctionFacts &Facts;
  const clang::FunctionDecl &Function;
  const EntryFacts *Entry;

  std::unique_ptr<clang::CFG> Graph;
  std::vector<std::optional<FlowState>> BlockExit;
  FlowState Current;
  const clang::CFGBlock *CurrentBlock = nullptr;
  // The std::function places of the function and the one lambda each is
  // given (null: several, or not a lambda); made on first use.
  std::optional<llvm::DenseMap<AccessPath, const clang::LambdaExpr *>> FunctionTargets;
  std::optional<llvm::DenseMap<AccessPath, llvm::SmallVector<AccessPath, 2>>> ModuleSharing;
};

} // namespace placelint::analysis
