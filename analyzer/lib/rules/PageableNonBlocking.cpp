// placement-pageable-non-blocking: a non_blocking copy to a device
// (`x.to(device, /*non_blocking=*/true)`, `d.copy_(x, true)`) from host
// memory known not to be pinned: the driver stages it synchronously, so the
// copy overlaps nothing (docs/rules/placement-pageable-non-blocking.md).
// Known pageable: made here on the host by a factory that asked for no
// pinned memory, an operation or a blocking download (FunctionFacts::
// pageableMaker); a tensor of unknown origin (a parameter, a loader's batch)
// may be pinned and is not reported.
#include "rules/Rules.h"

#include "BodyFacts.h"
#include "Syntax.h"
#include "flow/FunctionFacts.h"
#include "placelint/analysis/Findings.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

namespace placelint::analysis {

using namespace clang;

namespace {

bool onHostOnly(const DeviceSet &Devices) {
  std::optional<AbstractDevice> Single = Devices.single();
  return Single && Single->isCpu();
}

// Whether Factory is the whole initializer of the local that Source names,
// so that `.pin_memory()` after it pins that local.
bool initializesSource(const Expr &Source, const CallExpr &Factory) {
  const auto *Ref = dyn_cast<DeclRefExpr>(stripCopies(&Source)->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->isLocalVarDecl() && Var->getInit() &&
         stripCopies(Var->getInit())->IgnoreParenImpCasts() == &Factory;
}

} // namespace

void diagnosePageableNonBlocking(const FunctionFacts &Facts, FindingsHandler &Handler) {
  const ApiModel &Model = Facts.body().model();
  auto Report = [&](const CallExpr &Copy, const Expr &Source, const ValueFact &SourceFact) {
    const CallExpr *Maker = Facts.pageableMaker(SourceFact);
    if (!Maker)
      return;
    bool Factory = Model.classifyCall(*Maker).Kind == CallKind::Factory;
    Handler.onPageableNonBlocking(
        {&Copy, &Source, Maker, Factory && initializesSource(Source, *Maker)});
  };
  for (const Transfer &T : Facts.transfers()) {
    // An upload: to a device that is not (only) the host.
    if (T.IsSync || !T.NonBlocking || !T.Target.isKnown() || onHostOnly(T.Target))
      continue;
    Report(*T.Call, *T.Call->getImplicitObjectArgument(), T.Source);
  }
  // `d.copy_(x, true)` into a tensor that may be on a device, in
  // control-flow order.
  llvm::SmallVector<const CXXMemberCallExpr *, 4> Copies;
  for (const auto &[E, Fact] : Facts.expressions())
    if (const auto *Copy = dyn_cast<CXXMemberCallExpr>(E))
      Copies.push_back(Copy);
  const FunctionSequence &Sequence = Facts.sequence();
  llvm::sort(Copies, [&](const Expr *L, const Expr *R) { return Sequence.isEarlier(*L, *R); });
  for (const CXXMemberCallExpr *Copy : Copies) {
    if (Copy->getNumArgs() == 0 ||
        Model.classifyCall(*Copy).Kind != CallKind::CrossDeviceCopy || !Model.isNonBlocking(*Copy))
      continue;
    const ValueFact *Destination = Facts.factAt(Copy->getImplicitObjectArgument());
    const ValueFact *Source = Facts.factAt(Copy->getArg(0));
    if (Destination && Source && Destination->Devices.isKnown() &&
        !onHostOnly(Destination->Devices))
      Report(*Copy, *Copy->getArg(0), *Source);
  }
}

} // namespace placelint::analysis
