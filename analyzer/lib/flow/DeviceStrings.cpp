#include "flow/DeviceStrings.h"

#include "Syntax.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace placelint::analysis {

using namespace clang;

namespace {

// The variable or field E names.
const ValueDecl *namedBy(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast_or_null<MemberExpr>(E))
    return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

bool mayWriteThrough(QualType Type) {
  if (Type->isReferenceType())
    return !Type.getNonReferenceType().isConstQualified();
  return Type->isPointerType() && !Type->getPointeeType().isConstQualified();
}

// Every write of one string (Held) in the code it visits: one literal, or
// Unknown.
class StringWrites : public RecursiveASTVisitor<StringWrites> {
public:
  explicit StringWrites(const ValueDecl &Held) : Held(Held) {}

  const StringLiteral *Value = nullptr;
  bool Unknown = false;

  void give(const Expr *Written) {
    const StringLiteral *Literal = Written ? stringLiteralIn(Written) : nullptr;
    if (!Literal || (Value && Value->getString() != Literal->getString()))
      Unknown = true;
    else if (!Value)
      Value = Literal;
  }

  bool VisitBinaryOperator(BinaryOperator *Binary) {
    if (Binary->isAssignmentOp() && names(Binary->getLHS()))
      give(Binary->getOpcode() == BO_Assign ? Binary->getRHS() : nullptr);
    return !Unknown;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned First = 0;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && isa_and_nonnull<CXXMethodDecl>(Callee) && Op->getNumArgs() > 0) {
      // A member operator: its object is the first argument.
      First = 1;
      if (names(Op->getArg(0))) {
        if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
          give(Op->getArg(1));
        else if (!cast<CXXMethodDecl>(Callee)->isConst())
          Unknown = true;
      }
    }
    if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call);
        Method && names(Method->getImplicitObjectArgument()) &&
        !(Method->getMethodDecl() && Method->getMethodDecl()->isConst()))
      Unknown = true;
    for (unsigned I = First; I < Call->getNumArgs(); ++I) {
      if (!names(Call->getArg(I)))
        continue;
      unsigned Index = I - First;
      if (!Callee || Index >= Callee->getNumParams() ||
          mayWriteThrough(Callee->getParamDecl(Index)->getType()))
        Unknown = true;
    }
    return !Unknown;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I)
      if (names(Construct->getArg(I)) &&
          (!Ctor || I >= Ctor->getNumParams() || mayWriteThrough(Ctor->getParamDecl(I)->getType())))
        Unknown = true;
    return !Unknown;
  }
  bool VisitUnaryOperator(UnaryOperator *Unary) {
    if (Unary->getOpcode() == UO_AddrOf && names(Unary->getSubExpr()))
      Unknown = true;
    return !Unknown;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (mayWriteThrough(Var->getType()) && Var->getType()->isReferenceType() &&
        names(Var->getInit()))
      Unknown = true;
    return !Unknown;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getMember() == &Held)
        give(Init->getInit());
    return !Unknown;
  }
  bool VisitInitListExpr(InitListExpr *List) {
    const auto *Field = dyn_cast<FieldDecl>(&Held);
    const auto *Record = List->getType()->getAsRecordDecl();
    if (!Field || !List->isSemanticForm() || Record != Field->getParent())
      return true;
    unsigned Index = Field->getFieldIndex();
    const Expr *Element = Index < List->getNumInits() ? List->getInit(Index) : nullptr;
    if (Element && !isa<ImplicitValueInitExpr, CXXDefaultInitExpr>(Element->IgnoreImplicit()))
      give(Element);
    return !Unknown;
  }

private:
  bool names(const Expr *E) const { return namedBy(E) == &Held; }

  const ValueDecl &Held;
};

} // namespace

const StringLiteral *deviceStringHeldBy(const Expr &E, const ASTContext &Context) {
  const ValueDecl *Held = namedBy(&E);
  const Expr *Initial = nullptr;
  if (const auto *Field = dyn_cast_or_null<FieldDecl>(Held))
    Initial = Field->getInClassInitializer();
  else if (const auto *Var = dyn_cast_or_null<VarDecl>(Held); Var && !isa<ParmVarDecl>(Var))
    Initial = Var->getInit();
  else
    return nullptr;
  const SourceManager &SM = Context.getSourceManager();
  if (!Held->getType()->isRecordType() ||
      !SM.isInMainFile(SM.getExpansionLoc(Held->getLocation())))
    return nullptr;
  StringWrites Writes(*Held);
  if (Initial)
    Writes.give(Initial);
  for (Decl *D : Context.getTranslationUnitDecl()->decls()) {
    if (Writes.Unknown)
      break;
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Writes.TraverseDecl(D);
  }
  return Writes.Unknown ? nullptr : Writes.Value;
}

} // namespace placelint::analysis
