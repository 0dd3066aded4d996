#include "CreateThenMoveCheck.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

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
        // Where to: the device, or as written when it is not one known here.
        std::string Target = devices(F.Target);
        if (!F.Target.single() && F.Move->getNumArgs() >= 1)
          Target = "'" + Check.text(F.Move->getArg(0)) + "'";
        auto Diag = Check.diag(F.Move->getExprLoc(), Format)
                    << Factory << Target << F.ChainedReadsDevice;
        addFix(Diag, F);
      }
      // Through a variable or a field: where it was made (a chain shows its
      // factory).
      if (isa<DeclRefExpr, MemberExpr>(F.Receiver->IgnoreParenImpCasts()))
        Check.diag(F.Factory->getExprLoc(), "'%0' was created on cpu here",
                   DiagnosticIDs::Note)
            << Check.text(F.Receiver);
    }

  private:
    void addFix(DiagnosticBuilder &Diag, const CreateThenMoveFinding &F) {
      if (!F.FixKeepsBehaviour)
        return;
      std::optional<PlacementCheck::FactoryOnDevice> New =
          Check.factoryOnDevice(*F.Factory, *F.Move);
      if (!New)
        return;
      if (F.ChainedOptions) {
        // `zeros({1}).to(device).options()`: the options, without the tensor.
        const std::string &Replacement =
            F.ChainedReadsDevice ? New->DeviceObject : New->OptionsOnDevice;
        if (F.ChainedOptions->getEndLoc().isFileID())
          Diag << FixItHint::CreateReplacement(
              CharSourceRange::getTokenRange(F.Factory->getBeginLoc(),
                                             F.ChainedOptions->getEndLoc()),
              Replacement);
        return;
      }
      CharSourceRange MoveRange = CharSourceRange::getTokenRange(F.Move->getSourceRange());
      if (F.Factory == F.Receiver->IgnoreParenImpCasts()) {
        Diag << FixItHint::CreateReplacement(MoveRange, New->Factory);
        return;
      }
      // Chained through conversions (`ones({3}).unsqueeze(0).to(d)`): the
      // conversions stay, on a tensor made on the device.
      if (!isa<DeclRefExpr, MemberExpr>(F.Receiver->IgnoreParenImpCasts())) {
        std::string Chain = Check.text(F.Receiver);
        std::string Made = Check.text(F.Factory);
        if (Made.empty() || Chain.compare(0, Made.size(), Made) != 0)
          return;
        Diag << FixItHint::CreateReplacement(MoveRange,
                                             New->Factory + Chain.substr(Made.size()));
        return;
      }
      // Through a variable or a field: create it on the device, and use it
      // as it is; `v = v.to(device);` has nothing left to do.
      const SourceManager &SM = Check.sourceManager();
      if (SM.getFileID(F.Factory->getBeginLoc()) != SM.getFileID(F.Move->getBeginLoc()))
        return;
      Diag << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(F.Factory->getSourceRange()), New->Factory);
      if (!F.MovesBack) {
        Diag << FixItHint::CreateReplacement(MoveRange, Check.text(F.Receiver));
        return;
      }
      SourceLocation AfterSemicolon =
          Lexer::findLocationAfterToken(F.MovesBack->getEndLoc(), tok::semi, SM,
                                        Check.getLangOpts(), /*SkipTrailingWhitespaceAndNewLine=*/false);
      // The whole line when the statement has it to itself (from the end of
      // the line before).
      SourceLocation Begin = F.MovesBack->getBeginLoc();
      if (std::optional<StringRef> Indent = Check.indentationBefore(Begin);
          Indent && SM.getFileOffset(Begin) > Indent->size())
        Begin = Begin.getLocWithOffset(-static_cast<int>(Indent->size()) - 1);
      if (AfterSemicolon.isValid())
        Diag << FixItHint::CreateRemoval(CharSourceRange::getCharRange(Begin, AfterSemicolon));
    }

    CreateThenMoveCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
