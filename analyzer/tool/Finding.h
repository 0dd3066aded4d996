// The finding model shared by every part of the driver: what a worker
// reports for one translation unit, what the emitters print, what the
// baseline records. Locations keep clang-tidy's file path and byte offset
// (the source of truth) plus the 1-based line and byte column derived from
// them, so that emitters never need the original source again.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace placelint::tool {

struct SourceLocation {
  std::string File; // as clang reported it (absolute for compile databases)
  unsigned Offset = 0;
  unsigned Line = 0;
  unsigned Column = 0; // 1-based, in bytes, like clang's diagnostics
};

struct Note {
  std::string Message;
  std::optional<SourceLocation> Location;
};

// One edit of a fix-it, in clang::tooling::Replacement terms.
struct Edit {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

enum class Severity { Warning, Error };

struct Finding {
  std::string Rule; // the clang-tidy check name, e.g. placement-mixed-device
  Severity Level = Severity::Warning;
  std::string Message;
  std::optional<SourceLocation> Location;
  std::vector<Note> Notes;
  std::vector<Edit> Fixes;
  // Whitespace-normalised text of the statement the finding points into;
  // the line-independent part of the fingerprint.
  std::string Statement;
  // Assigned by assignFingerprints once all translation units are in.
  std::string Fingerprint;

  // Compiler diagnostics (clang-diagnostic-*) at error level mean the
  // translation unit did not compile; they are not rule findings.
  bool isCompilerError() const;
};

enum class NotificationKind { CompileError, Crash, ToolError };

// Something that kept a translation unit from being analysed completely.
struct Notification {
  NotificationKind Kind = NotificationKind::ToolError;
  std::string File; // the translation unit concerned
  std::string Message;
  std::optional<SourceLocation> Location; // where a compile error is
};

// A file the analysis of a unit read, and the SHA-256 of the bytes it got.
struct InputFile {
  std::string Path; // absolute
  std::string Digest;
};

// What one worker reports for one translation unit.
struct UnitReport {
  std::string File;
  std::vector<Finding> Findings;
  std::vector<Notification> Notifications;
  // Every file the compiler read, for the result cache's key; sorted by path.
  std::vector<InputFile> Inputs;
  // Taken from the result cache rather than analysed (not serialised).
  bool FromCache = false;
};

llvm::StringRef severityName(Severity Level);
llvm::StringRef notificationKindName(NotificationKind Kind);

// The worker protocol: lossless JSON for one unit report.
llvm::json::Value toJSON(const SourceLocation &Location);
llvm::json::Value toJSON(const Finding &F);
llvm::json::Value toJSON(const Notification &N);
llvm::json::Value toJSON(const UnitReport &R);
llvm::Expected<UnitReport> parseUnitReport(llvm::StringRef Text);

} // namespace placelint::tool
