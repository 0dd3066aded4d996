// The factory call rewritten to make its tensor where a move then took it:
// the fix-it of placement-create-then-move and placement-non-leaf-parameter.
#include "CheckSupport.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::placement {

namespace {

// `torch` or `pl`: the namespace the factory was called from, which spells
// the options the fix-it writes.
StringRef apiNamespace(const CallExpr &Factory) {
  const FunctionDecl *Callee = Factory.getDirectCallee();
  for (const DeclContext *Ctx = Callee ? Callee->getDeclContext() : nullptr; Ctx;
       Ctx = Ctx->getParent())
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(Ctx);
        Namespace && Namespace->getName() == "pl" && Ctx->getParent()->isTranslationUnit())
      return "pl";
  return "torch";
}

} // namespace

std::optional<std::string> PlacementCheck::moveTargetText(const CXXMemberCallExpr &Move,
                                                          StringRef Api) const {
  StringRef Method = Move.getMethodDecl()->getName();
  unsigned Written = 0;
  for (const Expr *Arg : Move.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      ++Written;
  if (Method == "cuda")
    return Written == 0
               ? (Api + "::kCUDA").str()
               : (Api + "::Device(" + Api + "::kCUDA, " + text(Move.getArg(0)) + ")").str();
  if (Method != "to" || Written == 0)
    return std::nullopt;
  const Expr *Target = Move.getArg(0);
  std::string Text = text(Target);
  if (Text.empty())
    return std::nullopt;
  // What was written, before a conversion (a Device becomes options for
  // `to(TensorOptions)`).
  const Expr *Value = Target->IgnoreImplicit();
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(Value)) {
    if (Construct->getNumArgs() != 1 || Construct->isListInitialization())
      break;
    Value = Construct->getArg(0)->IgnoreImplicit();
  }
  const CXXRecordDecl *Record = Value->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (Record && Record->getName() == "Tensor")
    return Text + ".device()";
  if (Record && Record->getName() == "TensorOptions")
    return std::nullopt; // options that carry more than a device
  return Text;
}

std::optional<PlacementCheck::FactoryOnDevice>
PlacementCheck::factoryOnDevice(const CallExpr &Factory, const CXXMemberCallExpr &Move) const {
  if (!Factory.getBeginLoc().isFileID() || !Move.getEndLoc().isFileID())
    return std::nullopt;
  FactoryOnDevice Result;
  Result.Api = apiNamespace(Factory);
  std::optional<std::string> Device = moveTargetText(Move, Result.Api);
  if (!Device)
    return std::nullopt;
  Result.Device = *Device;
  // `.to(device, dtype)` moves both.
  if (Move.getMethodDecl()->getName() == "to" && Move.getNumArgs() >= 2 &&
      !isa<CXXDefaultArgExpr>(Move.getArg(1)) && Move.getArg(1)->getType()->isEnumeralType())
    Result.Extra = ".dtype(" + text(Move.getArg(1)) + ")";
  // The factory's written options, if any: extended with the device.
  for (const Expr *Arg : Factory.arguments())
    if (const CXXRecordDecl *Record = Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
        !isa<CXXDefaultArgExpr>(Arg) && Record && Record->getName() == "TensorOptions")
      Result.Options = text(Arg);
  std::string FactoryText = text(&Factory);
  if (FactoryText.empty() || FactoryText.back() != ')')
    return std::nullopt;
  if (!Result.Options.empty()) {
    size_t At = FactoryText.rfind(Result.Options);
    if (At == std::string::npos)
      return std::nullopt;
    Result.Factory = FactoryText.substr(0, At) + Result.Api + "::TensorOptions(" +
                     Result.Options + ").device(" + Result.Device + ")" + Result.Extra +
                     FactoryText.substr(At + Result.Options.size());
    return Result;
  }
  std::string NewOptions = Result.Api == "pl"
                               ? "pl::device(" + Result.Device + ")" + Result.Extra
                               : "torch::TensorOptions().device(" + Result.Device + ")" +
                                     Result.Extra;
  bool NoArguments = llvm::all_of(Factory.arguments(),
                                  [](const Expr *Arg) { return isa<CXXDefaultArgExpr>(Arg); });
  Result.Factory = FactoryText.substr(0, FactoryText.size() - 1) + (NoArguments ? "" : ", ") +
                   NewOptions + ")";
  return Result;
}

} // namespace clang::tidy::placement
