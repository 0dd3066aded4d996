#include "DiscardedTransfers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// Statements whose value is discarded: the children of a block and the
// branches and bodies of control statements.
class DiscardedScan : public RecursiveASTVisitor<DiscardedScan> {
public:
  explicit DiscardedScan(const ApiModel &Model) : Model(Model) {}

  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    for (Expr *Init : Lambda->capture_inits())
      if (Init && !TraverseStmt(Init))
        return false;
    return true;
  }

  bool VisitCompoundStmt(CompoundStmt *Block) {
    for (Stmt *Child : Block->body())
      note(Child);
    return true;
  }
  bool VisitIfStmt(IfStmt *If) {
    note(If->getThen());
    note(If->getElse());
    return true;
  }
  bool VisitForStmt(ForStmt *S) { note(S->getBody()); return true; }
  bool VisitWhileStmt(WhileStmt *S) { note(S->getBody()); return true; }
  bool VisitDoStmt(DoStmt *S) { note(S->getBody()); return true; }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { note(S->getBody()); return true; }
  bool VisitSwitchCase(SwitchCase *S) { note(S->getSubStmt()); return true; }
  bool VisitLabelStmt(LabelStmt *S) { note(S->getSubStmt()); return true; }

  llvm::SmallVector<const CXXMemberCallExpr *, 4> Found;

private:
  void note(const Stmt *S) {
    const auto *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return;
    // A tensor's to/cuda/cpu, or a batch type's own (`batch.to(device);`).
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()->IgnoreParens());
    if (Call && Call->getMethodDecl() && Call->getMethodDecl()->getIdentifier() &&
        Model.classifyCall(*Call).Kind == CallKind::Transfer)
      Found.push_back(Call);
  }

  const ApiModel &Model;
};

} // namespace

llvm::SmallVector<const CXXMemberCallExpr *, 4> findDiscardedTransfers(const Stmt &Body,
                                                                       const ApiModel &Model) {
  DiscardedScan Scan(Model);
  Scan.TraverseStmt(const_cast<Stmt *>(&Body));
  return std::move(Scan.Found);
}

} // namespace placelint::analysis
