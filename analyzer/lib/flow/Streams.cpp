// Which stream queued work runs on, for the asynchrony rules: a stream
// guard (`CUDAStreamGuard g(side)`) makes its stream current from its
// declaration to the end of its scope; outside every guard, work runs on
// the current stream. A stream's synchronize() waits for its own work only.
#include "flow/DeviceFlow.h"

#include "ApiSpellings.h"
#include "Syntax.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

namespace {

bool hasQualifiedApiName(ApiNameRole Role, const NamedDecl *D) {
  return D && D->getIdentifier() && hasApiName(Role, D->getQualifiedNameAsString());
}

// The variable a stream expression names, through copies and conversions
// (`CUDAStream` to `c10::Stream`): null for a stream made there.
const ValueDecl *streamVariable(const Expr *Stream) {
  const Expr *E = stripCopies(Stream)->IgnoreParenImpCasts();
  if (const auto *Converted = dyn_cast<CXXMemberCallExpr>(E);
      Converted && isa_and_nonnull<CXXConversionDecl>(Converted->getMethodDecl()))
    E = stripCopies(Converted->getImplicitObjectArgument())->IgnoreParenImpCasts();
  return trackedDecl(E);
}

// The stream a guard declared by Var makes current: the variable its
// argument names, or the guard itself (a stream no other name reaches).
const ValueDecl *guardedStream(const VarDecl &Var) {
  const Expr *Init = Var.getInit() ? Var.getInit()->IgnoreImplicit() : nullptr;
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
  if (Construct && Construct->getNumArgs() >= 1)
    if (const ValueDecl *Stream = streamVariable(Construct->getArg(0)))
      return Stream;
  return &Var;
}

// The innermost guard's stream in scope at Target inside S (Active: the
// one in scope at S); nullopt when Target is not inside S.
std::optional<const ValueDecl *> streamIn(const Stmt &S, const Stmt &Target,
                                         const ValueDecl *Active) {
  if (&S == &Target)
    return Active;
  if (isa<LambdaExpr>(S))
    return std::nullopt; // its body runs where it is called
  for (const Stmt *Child : S.children()) {
    if (!Child)
      continue;
    if (std::optional<const ValueDecl *> Found = streamIn(*Child, Target, Active))
      return Found;
    // A guard declared in a block is in force for the statements after it.
    if (const auto *Declaration = dyn_cast<DeclStmt>(Child); Declaration && isa<CompoundStmt>(S))
      for (const Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && hasQualifiedApiName(ApiNameRole::StreamGuard,
                                       Var->getType()->getAsCXXRecordDecl()))
          Active = guardedStream(*Var);
  }
  return std::nullopt;
}

} // namespace

const ValueDecl *DeviceFlow::streamAt(const Stmt &S) const {
  return streamIn(*Function.getBody(), S, nullptr).value_or(nullptr);
}

std::optional<const ValueDecl *> DeviceFlow::streamNamed(const Expr &Stream) const {
  const Expr *E = stripCopies(&Stream)->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && hasQualifiedApiName(ApiNameRole::CurrentStream, Call->getDirectCallee()))
    return streamAt(*Call);
  const ValueDecl *Var = streamVariable(E);
  if (Var && hasQualifiedApiName(ApiNameRole::StreamClass,
                                 Var->getType().getNonReferenceType()->getAsCXXRecordDecl()))
    return Var;
  return std::nullopt;
}

} // namespace placelint::analysis
