#include "Fixes.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace placelint::tool {

namespace tooling = clang::tooling;

namespace {

tooling::Replacement toReplacement(const Edit &E) {
  return tooling::Replacement(E.File, E.Offset, E.Length, E.Text);
}

} // namespace

llvm::Expected<FixOutcome> applyFixes(const RunReport &Report) {
  FixOutcome Outcome;
  std::map<std::string, tooling::Replacements> ByFile;
  for (const Finding &F : Report.Findings) {
    if (F.Fixes.empty())
      continue;
    ++Outcome.Suggested;
    std::map<std::string, tooling::Replacements> Trial;
    bool Conflict = false;
    for (const Edit &E : F.Fixes) {
      auto [It, Inserted] = Trial.try_emplace(E.File);
      if (Inserted)
        It->second = ByFile[E.File];
      if (llvm::Error Err = It->second.add(toReplacement(E))) {
        llvm::consumeError(std::move(Err));
        Conflict = true;
        break;
      }
    }
    if (Conflict)
      continue;
    for (auto &[File, Replacements] : Trial)
      ByFile[File] = std::move(Replacements);
    ++Outcome.Applied;
  }
  for (const auto &[File, Replacements] : ByFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "cannot read '%s' to fix it: %s",
                                     File.c_str(), Buffer.getError().message().c_str());
    llvm::Expected<std::string> Fixed =
        tooling::applyAllReplacements((*Buffer)->getBuffer(), Replacements);
    if (!Fixed)
      return Fixed.takeError();
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write '%s': %s", File.c_str(),
                                     EC.message().c_str());
    Out << *Fixed;
  }
  return Outcome;
}

llvm::Error exportFixes(const RunReport &Report, llvm::StringRef Path) {
  tooling::TranslationUnitDiagnostics Document;
  for (const Finding &F : Report.Findings) {
    tooling::DiagnosticMessage Message(F.Message);
    if (F.Location) {
      Message.FilePath = F.Location->File;
      Message.FileOffset = F.Location->Offset;
    }
    for (const Edit &E : F.Fixes)
      if (llvm::Error Err = Message.Fix[E.File].add(toReplacement(E)))
        return Err;
    llvm::SmallVector<tooling::DiagnosticMessage, 1> Notes;
    for (const Note &N : F.Notes) {
      tooling::DiagnosticMessage NoteMessage(N.Message);
      if (N.Location) {
        NoteMessage.FilePath = N.Location->File;
        NoteMessage.FileOffset = N.Location->Offset;
      }
      Notes.push_back(std::move(NoteMessage));
    }
    Document.Diagnostics.emplace_back(
        F.Rule, Message, Notes,
        F.Level == Severity::Error ? tooling::Diagnostic::Error : tooling::Diagnostic::Warning,
        /*BuildDirectory=*/"");
  }
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                                   EC.message().c_str());
  llvm::yaml::Output YAML(Out);
  YAML << Document;
  return llvm::Error::success();
}

} // namespace placelint::tool
