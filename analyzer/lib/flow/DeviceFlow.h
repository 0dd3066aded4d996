// The flow analysis of one function body (private to analyzer/lib): a state
// per CFG block, visited in reverse post-order, joined at merges, iterated
// to a fixed point; the transfer functions of expressions, one file per
// kind of expression:
//   FixedPoint.cpp   the driver, CFG elements, variables
//   Expressions.cpp  dispatch, casts, names, literals, device values
//   Constructors.cpp Device, TensorOptions and module constructions
//   Operators.cpp    overloaded operators on tensors and modules
//   MemberCalls.cpp  methods of tensors, options and user classes
//   Transfers.cpp    to / cuda / cpu and item()
//   Modules.cpp      Module::to and calling a module
//   Calls.cpp        free functions: the API model's, std's, the unit's
//   Lists.cpp        lists of tensors, and cat / stack over them
//   Operations.cpp   operations combining tensors, and PyTorch's device rule
//   CudaGuards.cpp   where CUDA is asked for, and how many devices the checks
//                    on the way ensure (AvailabilityGuards, CallerGuards)
// What it finds goes to FunctionFacts; rules/ turn that into findings.
#pragma once

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

// The fact of each tracked variable: locals, parameters, fields of `this`.
using FlowState = llvm::DenseMap<const clang::ValueDecl *, ValueFact>;

class DeviceFlow {
public:
  // Arguments: the facts of the parameters (empty: unknown, the function
  // analysed on its own rather than for a summary).
  // Entry: what the function starts from besides its arguments (a module's
  // fields, a lambda's captures; null: nothing known).
  DeviceFlow(clang::ASTContext &Context, const ApiModel &Model, SummaryProvider &Summaries,
             llvm::ArrayRef<ValueFact> Arguments, FunctionFacts &Facts,
             const EntryFacts *Entry = nullptr)
      : Context(Context), Model(Model), Summaries(Summaries), Arguments(Arguments),
        Facts(Facts), Function(Facts.function()), Entry(Entry) {}

  // Runs to the fixed point. False when no CFG could be built.
  bool run();

private:
  // FixedPoint.cpp
  FlowState initialState() const;
  FlowState entryState(const clang::CFGBlock &Block) const;
  void visitElement(const clang::CFGElement &Element);
  ValueFact initialFact(const clang::ValueDecl &Decl) const;
  ValueFact read(const clang::ValueDecl &Decl, const clang::Expr &Ref);
  void assign(const clang::ValueDecl &Decl, ValueFact Fact, const clang::Expr *Source,
              clang::SourceLocation At);
  // A callee may change what it gets by non-const reference, and a
  // non-const member function of `this` may change every field.
  void forgetReferenceArguments(const clang::CallExpr &Call, const clang::FunctionDecl &Callee);
  void forgetFields();

  // CudaGuards.cpp
  // Where is a CUDA device written where one is asked for (not compared).
  void noteCudaRequest(const clang::Expr &Where, const AbstractDevice &Device);
  void resolveCudaGuards();

  // Expressions.cpp
  ValueFact factOf(const clang::Expr *E);
  ValueFact evaluate(const clang::Expr *E);
  ValueFact evaluateDeviceTypeConstant(const clang::Expr *E);
  // The loop variable of a data-loader range-for that `batch.data` reads.
  const clang::VarDecl *loaderBatchOf(const clang::MemberExpr &Member) const;
  ValueFact deviceFromArguments(llvm::ArrayRef<const clang::Expr *> Args);
  // The fact of a new value that Call computed on Devices.
  ValueFact resultOf(const clang::Expr &Call, DeviceSet Devices, ZeroDim Dim) const;
  // Nothing for values the model does not track, unknown for those it does.
  ValueFact untracked(const clang::Expr &E) const;

  // Constructors.cpp
  ValueFact evaluateConstruct(const clang::CXXConstructExpr &Construct);

  // Operators.cpp
  ValueFact evaluateOperatorCall(const clang::CXXOperatorCallExpr &Op);

  // MemberCalls.cpp
  ValueFact evaluateMemberCall(const clang::CXXMemberCallExpr &Call);
  ValueFact evaluateTensorMethod(const clang::CXXMemberCallExpr &Call, llvm::StringRef Name);
  ValueFact evaluateOptionsMethod(const clang::CXXMemberCallExpr &Call, llvm::StringRef Name);

  // Transfers.cpp
  ValueFact evaluateTransfer(const clang::CXXMemberCallExpr &Call, llvm::StringRef Name);
  ValueFact evaluateSync(const clang::CXXMemberCallExpr &Call);

  // Modules.cpp
  // A module just made by Creation from Args: on the cpu, or for a
  // library module without parameters, where the tensor its options hold is.
  ValueFact newModule(const clang::Expr &Creation, clang::SourceLocation At,
                      llvm::ArrayRef<const clang::Expr *> Args);
  ValueFact evaluateModuleMethod(const clang::CXXMemberCallExpr &Call, llvm::StringRef Name);
  ValueFact applyModule(const clang::Expr &Call, const clang::Expr &ModuleExpr,
                        llvm::ArrayRef<const clang::Expr *> Args);

  // Calls.cpp
  ValueFact evaluateCall(const clang::CallExpr &Call);
  ValueFact evaluateApiCall(const clang::CallExpr &Call, const clang::FunctionDecl &Callee,
                            CallKind Kind);
  ValueFact summaryCall(const clang::CallExpr &Call, const clang::FunctionDecl &Callee);

  // Lists.cpp
  ValueFact evaluateListOp(const clang::CallExpr &Call, llvm::StringRef Name);
  ValueFact evaluateListMethod(const clang::CXXMemberCallExpr &Call, llvm::StringRef Name);
  // The fact a list gets from Element (a tensor, or a value holding one).
  ValueFact elementFact(const clang::Expr *Element);
  ValueFact newList(llvm::ArrayRef<const clang::Expr *> Elements);

  // Operations.cpp
  Operand operand(const clang::Expr *E, bool Promotable = true) {
    return {E, factOf(E), Promotable};
  }
  // Records the operation and returns the fact of its result.
  ValueFact operation(const clang::Expr &Call, llvm::StringRef Name,
                      llvm::SmallVector<Operand, 3> Operands);
  ValueFact combine(const clang::Expr &Call, llvm::ArrayRef<Operand> Operands) const;

  clang::ASTContext &Context;
  const ApiModel &Model;
  SummaryProvider &Summaries;
  llvm::ArrayRef<ValueFact> Arguments;
  FunctionFacts &Facts;
  const clang::FunctionDecl &Function;
  const EntryFacts *Entry;

  std::unique_ptr<clang::CFG> Graph;
  std::vector<std::optional<FlowState>> BlockExit;
  FlowState Current;
  const clang::CFGBlock *CurrentBlock = nullptr;
};

} // namespace placelint::analysis
