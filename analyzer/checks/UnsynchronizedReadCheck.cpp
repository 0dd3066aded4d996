#include "UnsynchronizedReadCheck.h"

#include "clang/AST/Expr.h"

namespace clang::tidy::placement {

using namespace placelint::analysis;

void UnsynchronizedReadCheck::report(const RecordedFindings &Findings) {
  class Reporter : public FindingsHandler {
  public:
    explicit Reporter(UnsynchronizedReadCheck &Check) : Check(Check) {}

    void onUnsynchronizedRead(const UnsynchronizedReadFinding &F) override {
      {
        auto Diag = Check.diag(F.Read->getExprLoc(),
                               "'%0' is read on the host before the non_blocking copy that "
                               "fills it is synchronized; it may hold stale or partial values")
                    << Check.text(F.Read);
        const SourceManager &SM = Check.sourceManager();
        if (F.InsertBefore && SM.isWrittenInSameFile(F.InsertBefore->getBeginLoc(),
                                                     F.Copy->getBeginLoc())) {
          // On its own line, indented as the read's statement.
          SourceLocation Begin = F.InsertBefore->getBeginLoc();
          if (std::optional<StringRef> Indent = Check.indentationBefore(Begin))
            Diag << FixItHint::CreateInsertion(Begin,
                                               (F.Synchronize + ";\n" + *Indent).str());
        }
      }
      Check.diag(F.Copy->getExprLoc(),
                 "copied here with non_blocking=true; synchronize before reading it",
                 DiagnosticIDs::Note);
    }

  private:
    UnsynchronizedReadCheck &Check;
  };
  Reporter Handler(*this);
  Findings.replay(Handler);
}

} // namespace clang::tidy::placement
