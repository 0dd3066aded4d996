#include "PageableNonBlockingCheck.h"

#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

void PageableNonBlockingCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(PageableNonBlockingCheck &Check) : Check(Check) {}

    void onPageableNonBlocking(const PageableNonBlockingFinding &F) override {
      {
        auto Diag = Check.diag(F.Copy->getExprLoc(),
                               "non_blocking copy of '%0' from pageable host memory: it is staged "
                               "synchronously and overlaps nothing; pin the tensor (pin_memory(), "
                               "or pinned_memory(true) in its options)")
                    << Check.text(F.Source);
        // Pinned where it is made, once, rather than a pinned copy per move.
        const FunctionDecl *Maker = F.Factory->getDirectCallee();
        std::optional<ApiProfile> Profile = Maker ? profileDeclaring(*Maker) : std::nullopt;
        if (F.FactoryInitializesSource && Profile &&
            Check.sourceManager().isWrittenInSameFile(F.Factory->getEndLoc(),
                                                      F.Copy->getBeginLoc()))
          Diag << FixItHint::CreateInsertion(
              Lexer::getLocForEndOfToken(F.Factory->getEndLoc(), 0, Check.sourceManager(),
                                         Check.getLangOpts()),
              "." + profileTable(*Profile).FixSpelling.PinMemory.str() + "()");
      }
      Check.diag(F.Factory->getExprLoc(), "'%0' is made here in pageable memory",
                 DiagnosticIDs::Note)
          << Check.text(F.Source);
    }

  private:
    PageableNonBlockingCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
