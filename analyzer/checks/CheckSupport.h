// What the placement checks share: the options of the analysis, the matcher
// (one callback per user function), the shared analysis run, and the words
// for devices, operands and "where the device came from" notes.
#pragma once

#include "placelint/analysis/AnalysisCache.h"
#include "placelint/analysis/ApiModel.h"
#include "placelint/analysis/Findings.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>

namespace clang::tidy {

template <> struct OptionEnumMapping<placelint::analysis::ApiProfile> {
  static llvm::ArrayRef<std::pair<placelint::analysis::ApiProfile, StringRef>>
  getEnumMapping();
};

namespace placement {

// A check that reports findings of the shared device analysis.
class PlacementCheck : public ClangTidyCheck {
public:
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) final;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

protected:
  PlacementCheck(StringRef Name, ClangTidyContext *Context);

  // Turns the findings of one function into diagnostics.
  virtual void report(const placelint::analysis::RecordedFindings &Findings) = 0;

  const SourceManager &sourceManager() const { return CurrentContext->getSourceManager(); }
  // The source text of an operand, as the user wrote it.
  std::string text(const Expr *E) const;
  // The text from the start of At's line to At when it is only blanks (At
  // begins its line's code): the indentation a fix-it keeps; else nullopt.
  std::optional<StringRef> indentationBefore(SourceLocation At) const;
  // `cpu`, `cuda:1`, `the device in 'dev'`, `cpu or cuda`.
  static std::string device(const placelint::analysis::AbstractDevice &Device);
  static std::string devices(const placelint::analysis::DeviceSet &Devices);
  // "'x' was moved to cuda:0 here" at the place Operand got Device ("an
  // element of 'parts' ..." for an element of a list).
  void noteOrigin(const placelint::analysis::OperandFact &Operand,
                  const placelint::analysis::AbstractDevice &Device, bool OfListElement = false);

  // A factory call rewritten to make its tensor where Move then took it
  // (FactoryOnDevice.cpp): `zeros({n}).to(dev)` -> `zeros({n},
  // torch::TensorOptions().device(dev))`, written options extended.
  struct FactoryOnDevice {
    std::string Api;     // the namespace that spells the options: torch or pl
    std::string Device;  // the device, as the options take it
    std::string Extra;   // `.dtype(...)` when the move also converts
    std::string Options; // the factory's written options, or empty
    std::string Factory; // the whole new factory call
    // The device as a Device (`torch::Device(dev)`), and the options with
    // it (`torch::TensorOptions(opts).device(dev)`): for a move that only
    // served to read them.
    std::string DeviceObject;
    std::string OptionsOnDevice;
  };
  std::optional<FactoryOnDevice> factoryOnDevice(const CallExpr &Factory,
                                                 const CXXMemberCallExpr &Move) const;

  // What the analysis is configured with (every placement check reads it).
  const placelint::analysis::AnalysisOptions &analysisOptions() const { return AnalysisOptions; }

private:
  // Walks the declarations of user files only (the main file and headers
  // the header filter selects), reporting on each function defined there.
  void visitUserDecls(const DeclContext &Context);
  void visitUserDecl(const Decl &D);
  void reportOn(const FunctionDecl &Function);
  std::optional<std::string>
  moveTargetText(const CXXMemberCallExpr &Move, placelint::analysis::ApiProfile Profile) const;
  bool isUserFile(SourceLocation Loc);

  // ApiProfile, AvailabilityChecks and GpuTestSuffixes: local or global
  // options, since one analysis serves every check configured alike.
  const placelint::analysis::AnalysisOptions AnalysisOptions;
  ClangTidyContext &TidyContext;
  ASTContext *CurrentContext = nullptr;
  std::optional<llvm::Regex> HeaderFilter;
  llvm::DenseMap<FileID, bool> UserFiles;
  llvm::SmallPtrSet<const FunctionDecl *, 32> Visited;
};

} // namespace placement
} // namespace clang::tidy
