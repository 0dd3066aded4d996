#include "CreateThenMoveCheck.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

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

void CreateThenMoveCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(CreateThenMoveCheck &Check) : Check(Check) {}

    void onCreateThenMove(const CreateThenMoveFinding &F) override {
      StringRef Factory = F.Factory->getDirectCallee()->getName();
      const char *Format =
          F.OnlyForOptions
              ? "'%0' creates a tensor on the host and moves it to %1 only to take its "
                "%select{options; give the device to the options|device; use that device}2 "
                "instead"
          : !F.Loop ? "'%0' creates a tensor on the host only to move it to %1; create it there"
          : F.Hoistable
              ? "'%0' creates a tensor on the host only to move it to %1, on every "
                "iteration; create it there, once, before the loop"
              : "'%0' creates a tensor on the host only to move it to %1, on every "
                "iteration; create it there";
      {
        // One diagnostic in flight at a time: the warning is emitted here.
        bool TakesDevice = F.ChainedOptions &&
                           F.ChainedOptions->getMethodDecl()->getName() == "device";
        auto Diag = Check.diag(F.Move->getExprLoc(), Format)
                    << Factory << devices(F.Target) << TakesDevice;
        addFix(Diag, F);
      }
      if (F.Factory != F.Receiver->IgnoreParenImpCasts())
        Check.diag(F.Factory->getExprLoc(), "'%0' was created on cpu here",
                   DiagnosticIDs::Note)
            << Check.text(F.Receiver);
    }

  private:
    // The device the move names, as the factory's options take it.
    std::optional<std::string> deviceText(const CreateThenMoveFinding &F, StringRef Api) {
      StringRef Method = F.Move->getMethodDecl()->getName();
      unsigned Written = 0;
      for (const Expr *Arg : F.Move->arguments())
        if (!isa<CXXDefaultArgExpr>(Arg))
          ++Written;
      if (Method == "cuda")
        return Written == 0 ? (Api + "::kCUDA").str()
                            : (Api + "::Device(" + Api + "::kCUDA, " +
                               Check.text(F.Move->getArg(0)) + ")")
                                  .str();
      if (Method != "to" || Written == 0)
        return std::nullopt;
      const Expr *Target = F.Move->getArg(0);
      std::string Text = Check.text(Target);
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
      const CXXRecordDecl *Record =
          Value->getType().getNonReferenceType()->getAsCXXRecordDecl();
      if (Record && Record->getName() == "Tensor")
        return Text + ".device()";
      if (Record && Record->getName() == "TensorOptions")
        return std::nullopt; // options that carry more than a device
      return Text;
    }

    void addFix(DiagnosticBuilder &Diag, const CreateThenMoveFinding &F) {
      const SourceManager &SM = Check.sourceManager();
      if (!F.Factory->getBeginLoc().isFileID() || !F.Move->getEndLoc().isFileID())
        return;
      StringRef Api = apiNamespace(*F.Factory);
      std::optional<std::string> Device = deviceText(F, Api);
      if (!Device)
        return;
      // `.to(device, dtype)` moves both.
      std::string Extra;
      if (F.Move->getMethodDecl()->getName() == "to" && F.Move->getNumArgs() >= 2 &&
          !isa<CXXDefaultArgExpr>(F.Move->getArg(1)) &&
          F.Move->getArg(1)->getType()->isEnumeralType())
        Extra = ".dtype(" + Check.text(F.Move->getArg(1)) + ")";
      // The factory's written options, if any: extended with the device.
      const Expr *Options = nullptr;
      for (const Expr *Arg : F.Factory->arguments())
        if (!isa<CXXDefaultArgExpr>(Arg) &&
            Arg->getType().getNonReferenceType()->getAsCXXRecordDecl() &&
            Arg->getType().getNonReferenceType()->getAsCXXRecordDecl()->getName() ==
                "TensorOptions")
          Options = Arg;
      if (F.ChainedOptions) {
        // `zeros({1}).to(device).options()`: the options, without the tensor.
        StringRef Read = F.ChainedOptions->getMethodDecl()->getName();
        std::string Replacement =
            Read == "device" ? (Api + "::Device(" + *Device + ")").str()
                             : (Api + "::TensorOptions(" +
                                (Options ? Check.text(Options) : std::string()) +
                                ").device(" + *Device + ")" + Extra)
                                   .str();
        if (F.ChainedOptions->getEndLoc().isFileID())
          Diag << FixItHint::CreateReplacement(
              CharSourceRange::getTokenRange(F.Factory->getBeginLoc(),
                                             F.ChainedOptions->getEndLoc()),
              Replacement);
        return;
      }
      std::string FactoryText = Check.text(F.Factory);
      if (FactoryText.empty() || FactoryText.back() != ')')
        return;
      std::string NewFactory;
      if (Options) {
        std::string OptionsText = Check.text(Options);
        size_t At = FactoryText.rfind(OptionsText);
        if (OptionsText.empty() || At == std::string::npos)
          return;
        NewFactory = FactoryText.substr(0, At) + (Api + "::TensorOptions(").str() +
                     OptionsText + ").device(" + *Device + ")" + Extra +
                     FactoryText.substr(At + OptionsText.size());
      } else {
        std::string NewOptions = Api == "pl" ? "pl::device(" + *Device + ")" + Extra
                                             : "torch::TensorOptions().device(" + *Device +
                                                   ")" + Extra;
        bool NoArguments = F.Factory->getNumArgs() == 0 ||
                           llvm::all_of(F.Factory->arguments(), [](const Expr *Arg) {
                             return isa<CXXDefaultArgExpr>(Arg);
                           });
        NewFactory = FactoryText.substr(0, FactoryText.size() - 1) +
                     (NoArguments ? "" : ", ") + NewOptions + ")";
      }
      CharSourceRange MoveRange = CharSourceRange::getTokenRange(F.Move->getSourceRange());
      if (F.Factory == F.Receiver->IgnoreParenImpCasts()) {
        Diag << FixItHint::CreateReplacement(MoveRange, NewFactory);
        return;
      }
      // Through a variable: create it on the device, and use it as it is.
      if (SM.getFileID(F.Factory->getBeginLoc()) != SM.getFileID(F.Move->getBeginLoc()))
        return;
      Diag << FixItHint::CreateReplacement(
                  CharSourceRange::getTokenRange(F.Factory->getSourceRange()), NewFactory)
           << FixItHint::CreateReplacement(MoveRange, Check.text(F.Receiver));
    }

    CreateThenMoveCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
