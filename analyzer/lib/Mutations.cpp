#include "Mutations.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// How far a change is followed through what API calls give back (`v[i]`
// gives a reference into v).
constexpr unsigned kMaxReferenceDepth = 4;

// An expression naming Var or a part of it: the nodes rootDecl walks.
bool namesPart(const Stmt &S, const ValueDecl &Var) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&S);
  const auto *Unary = dyn_cast<UnaryOperator>(&S);
  bool Part = isa<DeclRefExpr, MemberExpr>(S) ||
              (Op && (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Arrow ||
                      Op->getOperator() == OO_Star)) ||
              (Unary && Unary->getOpcode() == UO_Deref);
  return Part && rootDecl(cast<Expr>(&S)) == &Var;
}

// What the analyzer counts as a change but is none in itself. A lambda
// capturing by reference: what its body does to the variable is asked
// apart (its uses are in the scope too). A braced list that initialises
// through a constructor (`{"w", w}` for a pair) is typed void in its
// written form, which the analyzer takes for a list binding references;
// the constructor takes what it is given as its parameters say.
bool isWrittenFormOnly(const Stmt &Mutation) {
  const auto *List = dyn_cast<InitListExpr>(&Mutation);
  return isa<LambdaExpr>(Mutation) || (List && List->getType()->isVoidType());
}

} // namespace

Mutations::Mutations(const ApiModel &Model) : Model(Model) {}
Mutations::~Mutations() = default;

bool Mutations::isApiClass(const CXXRecordDecl *Record) const {
  return Record && Model.classify(QualType(Record->getTypeForDecl(), 0)) != ValueKind::Other;
}

bool Mutations::apiLeavesUnchanged(const Stmt &Mutation) const {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Mutation)) {
    // `x = y`, `x += y`, `++it` change x even when its class is the API's.
    OverloadedOperatorKind Kind = Op->getOperator();
    if (Op->isAssignmentOp() || Kind == OO_PlusPlus || Kind == OO_MinusMinus)
      return false;
  }
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(&Mutation)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    return Method && isApiClass(Method->getParent()) && !Model.classifyCall(*Call).InPlace;
  }
  if (const auto *Call = dyn_cast<CallExpr>(&Mutation)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return false;
    const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
    return Model.classifyFunction(*Callee).isModelled() ||
           (Method && isApiClass(Method->getParent()));
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(&Mutation))
    return Construct->getConstructor() && isApiClass(Construct->getConstructor()->getParent());
  return false;
}

bool Mutations::changes(const Expr &Part, ExprMutationAnalyzer &Analyzer, unsigned Depth) const {
  const Stmt *Mutation = Analyzer.findMutation(&Part);
  if (!Mutation || isWrittenFormOnly(*Mutation))
    return false;
  if (!apiLeavesUnchanged(*Mutation))
    return true;
  // The API call itself changes nothing, but what it gives back may be a
  // reference into Part (`v[i] = t`): a change of that is one of Part.
  const auto *Given = dyn_cast<Expr>(Mutation);
  return Given && Depth < kMaxReferenceDepth && Given->isGLValue() &&
         !Given->getType().isConstQualified() && changes(*Given, Analyzer, Depth + 1);
}

bool Mutations::changesIn(const ValueDecl &Var, const Stmt &Scope) {
  std::unique_ptr<ExprMutationAnalyzer> &Analyzer = Analyzers[&Scope];
  if (!Analyzer)
    Analyzer = std::make_unique<ExprMutationAnalyzer>(Scope, Var.getASTContext());
  return findInTree(&Scope, [&](const Stmt &S) {
           if (const auto *Call = dyn_cast<CallExpr>(&S)) {
             ApiCall Api = Model.classifyCall(*Call);
             // In place, though declared const.
             if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call);
                 Method && Api.InPlace && rootDecl(Method->getImplicitObjectArgument()) == &Var)
               return true;
             // Moved from: whatever takes it may leave it empty.
             if (Api.Kind == CallKind::StdMove && Call->getNumArgs() == 1 &&
                 rootDecl(Call->getArg(0)) == &Var)
               return true;
             // A non-const method of `this` may change any of its fields.
             if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call);
                 Method && isa<FieldDecl>(Var) && Method->getMethodDecl() &&
                 !Method->getMethodDecl()->isConst() && Method->getImplicitObjectArgument() &&
                 isa<CXXThisExpr>(Method->getImplicitObjectArgument()->IgnoreParenImpCasts()) &&
                 !isApiClass(Method->getMethodDecl()->getParent()))
               return true;
           }
           return namesPart(S, Var) && changes(cast<Expr>(S), *Analyzer, 0);
         }) != nullptr;
}

} // namespace placelint::analysis
