// The analysis of one function body (private to analyzer/lib): the state
// per CFG block, the transfer functions over expressions, and the findings.
// FunctionAnalyzer.cpp holds the fixed-point driver, variables and the loop
// rules; ExprEvaluation.cpp the transfer functions of expressions and the
// same-device rule.
#pragma once

#include "placelint/analysis/BodyFacts.h"
#include "placelint/analysis/DeviceAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>
#include <vector>

namespace placelint::analysis::detail {

using namespace clang;

using State = llvm::DenseMap<const ValueDecl *, ValueFact>;

struct Operand {
  const Expr *E;
  ValueFact Fact;
  bool InPlaceSelf = false;
};

// The variable an expression names, when the analysis tracks it: a local,
// a parameter, or a field of `this`.
const ValueDecl *trackedDecl(const Expr *E);

class FunctionAnalyzer {
public:
  FunctionAnalyzer(DeviceAnalysis &Owner, const FunctionDecl &Function,
                   llvm::ArrayRef<ValueFact> Arguments, FindingsHandler *Handler,
                   BodyFacts &Body)
      : Owner(Owner), Function(Function), Context(Owner.context()),
        Model(Owner.model()), Arguments(Arguments), Handler(Handler), Body(Body) {}

  // Runs to the fixed point, then once more reporting. Returns the join of
  // the returned values, or nullopt when no CFG could be built.
  std::optional<ValueFact> run(FactObserver Observer);

private:
  // Fixed point.
  State entryState(const CFGBlock &Block) const;
  State initialState() const;
  void visitBlock(const CFGBlock &Block);
  void visitElement(const CFGElement &Element);

  // Variables.
  ValueFact initialFact(const ValueDecl &Decl) const;
  ValueFact read(const ValueDecl &Decl, const Expr &Ref);
  void assign(const ValueDecl &Decl, ValueFact Fact, const Expr *Source,
              SourceLocation At);

  // Expressions.
  ValueFact factOf(const Expr *E);
  ValueFact evaluate(const Expr *E);
  ValueFact evaluateDeviceTypeConstant(const Expr *E);
  ValueFact deviceFromArguments(llvm::ArrayRef<const Expr *> Args);
  ValueFact evaluateConstruct(const CXXConstructExpr &Construct);
  ValueFact evaluateOperatorCall(const CXXOperatorCallExpr &Op);
  ValueFact evaluateMemberCall(const CXXMemberCallExpr &Call);
  ValueFact evaluateTensorMethod(const CXXMemberCallExpr &Call, StringRef Name);
  ValueFact evaluateModuleMethod(const CXXMemberCallExpr &Call, StringRef Name);
  ValueFact evaluateCall(const CallExpr &Call);
  ValueFact evaluateApiCall(const CallExpr &Call, const FunctionDecl &Callee, CallKind Kind);
  ValueFact evaluateTransfer(const CXXMemberCallExpr &Call, StringRef Name);
  ValueFact applyModule(const Expr &Call, const Expr &ModuleExpr,
                        llvm::ArrayRef<const Expr *> Args);
  ValueFact summaryCall(const CallExpr &Call, const FunctionDecl &Callee);
  // A callee may change what it gets by non-const reference, and a
  // non-const member function of this may change every field.
  void forgetReferenceArguments(const CallExpr &Call, const FunctionDecl &Callee);
  void forgetFields();
  ValueFact resultOf(const Expr &Call, DeviceSet Devices, ZeroDim Dim) const;

  // Operations combining tensors.
  ValueFact combine(const Expr &Call, llvm::ArrayRef<Operand> Operands) const;
  void checkSameDevice(const Expr &Call, StringRef OpName, llvm::ArrayRef<Operand> Operands);
  Operand operand(const Expr *E, bool InPlaceSelf = false) {
    return {E, factOf(E), InPlaceSelf};
  }

  // Loops.
  void checkTransferInLoop(const CXXMemberCallExpr &Call, const ValueFact &Source,
                           const DeviceSet &Target);
  bool reporting() const { return Reporting && Handler; }

  DeviceAnalysis &Owner;
  const FunctionDecl &Function;
  ASTContext &Context;
  const ApiModel &Model;
  llvm::ArrayRef<ValueFact> Arguments;
  FindingsHandler *Handler;
  BodyFacts &Body;

  std::unique_ptr<CFG> Graph;
  std::vector<std::optional<State>> BlockExit;
  State Current;
  llvm::DenseMap<const Expr *, ValueFact> ExprFacts;
  llvm::DenseSet<const Expr *> Reported;
  ValueFact Returned;
  bool Reporting = false;
};


} // namespace placelint::analysis::detail
