#include "Emitters.h"

#include "llvm/Support/Format.h"

namespace placelint::tool {

namespace {

// The source line and a caret under the column, in clang's layout:
//     12 |   auto z = x + w;
//        |              ^
void emitSnippet(const SourceLocation &Location, SourceCache &Sources, llvm::raw_ostream &OS) {
  const SourceFile *Source = Sources.get(Location.File);
  if (!Source || Location.Line == 0)
    return;
  llvm::StringRef Line = Source->lineText(Location.Line);
  OS << llvm::format("%5u | ", Location.Line) << Line << "\n      | ";
  for (unsigned I = 0; I + 1 < Location.Column && I < Line.size(); ++I)
    OS << (Line[I] == '\t' ? '\t' : ' ');
  OS << "^\n";
}

void emitDiagnostic(const std::optional<SourceLocation> &Location, llvm::StringRef Kind,
                    llvm::StringRef Message, llvm::StringRef Rule, SourceCache &Sources,
                    llvm::raw_ostream &OS) {
  if (Location)
    OS << Location->File << ':' << Location->Line << ':' << Location->Column << ": ";
  OS << Kind << ": " << Message;
  if (!Rule.empty())
    OS << " [" << Rule << ']';
  OS << '\n';
  if (Location)
    emitSnippet(*Location, Sources, OS);
}

} // namespace

void emitText(const RunReport &Report, SourceCache &Sources, llvm::raw_ostream &OS) {
  for (const Finding &F : Report.Findings) {
    emitDiagnostic(F.Location, severityName(F.Level), F.Message, F.Rule, Sources, OS);
    for (const Note &N : F.Notes)
      emitDiagnostic(N.Location, "note", N.Message, "", Sources, OS);
  }
  for (const Notification &N : Report.Notifications) {
    // A compile error without a place (a file the compile database names
    // that is gone) still names its unit, as other notifications do.
    if (N.Kind == NotificationKind::CompileError && N.Location) {
      emitDiagnostic(N.Location, "error", N.Message, "clang-diagnostic-error", Sources, OS);
      continue;
    }
    OS << N.File << ": error: " << N.Message << '\n';
  }
  // Not in clang's "file: kind: message" form, so that tools reading the
  // diagnostics do not take them for findings.
  for (const std::string &File : Report.Unchanged)
    OS << displayPath(File, Report.SourceRoot) << ": skipped: reads no changed file ("
       << Report.Changes << ")\n";
}

} // namespace placelint::tool
