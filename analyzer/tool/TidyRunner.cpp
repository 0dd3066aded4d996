#include "TidyRunner.h"

#include "CompileDatabase.h"
#include "Fingerprint.h"
#include "ResultCache.h"
#include "SourceFiles.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>

namespace placelint::tool {

namespace tidy = clang::tidy;

llvm::Expected<std::unique_ptr<tidy::ClangTidyOptionsProvider>>
createOptionsProvider(const TidySettings &Settings) {
  tidy::ClangTidyOptions Defaults;
  Defaults.Checks = std::string(kDefaultChecks);
  Defaults.WarningsAsErrors = "";
  Defaults.HeaderFilterRegex = Settings.DefaultHeaderFilter;
  Defaults.SystemHeaders = false;
  Defaults.User = llvm::sys::Process::GetEnv("USER");

  tidy::ClangTidyOptions Overrides;
  Overrides.Checks = Settings.Checks;
  Overrides.HeaderFilterRegex = Settings.HeaderFilter;

  std::optional<std::string> ConfigText = Settings.Config;
  std::string ConfigSource = "<command-line-config>";
  if (Settings.ConfigFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(*Settings.ConfigFile);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "cannot read config file '%s': %s",
                                     Settings.ConfigFile->c_str(),
                                     Buffer.getError().message().c_str());
    ConfigText = (*Buffer)->getBuffer().str();
    ConfigSource = *Settings.ConfigFile;
  }
  if (!ConfigText)
    return std::make_unique<tidy::FileOptionsProvider>(tidy::ClangTidyGlobalOptions(),
                                                       std::move(Defaults), std::move(Overrides));
  llvm::ErrorOr<tidy::ClangTidyOptions> Parsed =
      tidy::parseConfiguration(llvm::MemoryBufferRef(*ConfigText, ConfigSource));
  if (!Parsed)
    return llvm::createStringError(Parsed.getError(), "invalid configuration in %s: %s",
                                   ConfigSource.c_str(), Parsed.getError().message().c_str());
  return std::make_unique<tidy::ConfigOptionsProvider>(
      tidy::ClangTidyGlobalOptions(), tidy::ClangTidyOptions::getDefaults().merge(Defaults, 0),
      std::move(*Parsed), std::move(Overrides));
}

llvm::Expected<std::vector<std::string>> enabledChecks(const TidySettings &Settings,
                                                       llvm::StringRef File) {
  auto Provider = createOptionsProvider(Settings);
  if (!Provider)
    return Provider.takeError();
  return tidy::getCheckNames((*Provider)->getOptions(File),
                             /*AllowEnablingAnalyzerAlphaCheckers=*/false);
}

// The builtin headers (stddef.h, ...) must come from the clang that this
// tool was built against. clang looks for them next to the executable,
// which for a build tree is the wrong place, so name them unless the
// compile command already does.
std::vector<std::string> withResourceDir(std::vector<std::string> Args) {
  for (const std::string &Arg : Args)
    if (llvm::StringRef(Arg).starts_with("-resource-dir"))
      return Args;
  Args.insert(Args.begin() + (Args.empty() ? 0 : 1), "-resource-dir=" PL_CLANG_RESOURCE_DIR);
  return Args;
}

namespace {

clang::tooling::ArgumentsAdjuster resourceDirAdjuster() {
  return [](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
    return withResourceDir(Args);
  };
}

// Records every file the compiler reads, with the digest of the bytes it
// got, for the result cache: those are exactly the files a unit's findings
// can depend on, and hashing them as they are read cannot race with an
// edit made during the analysis.
class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Real)
      : ProxyFileSystem(std::move(Real)) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    auto Opened = ProxyFileSystem::openFileForRead(Path);
    if (!Opened)
      return Opened;
    llvm::SmallString<256> Absolute;
    Path.toVector(Absolute);
    makeAbsolute(Absolute);
    // Not "..": through a symbolic link, dropping "dir/.." names another file.
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
    return std::unique_ptr<llvm::vfs::File>(
        std::make_unique<RecordedFile>(std::move(*Opened), Absolute.str().str(), Inputs));
  }

  std::vector<InputFile> inputs() const {
    std::vector<InputFile> Sorted;
    for (const auto &[Path, Digest] : Inputs)
      Sorted.push_back({Path, Digest});
    return Sorted;
  }

private:
  class RecordedFile : public llvm::vfs::File {
  public:
    RecordedFile(std::unique_ptr<llvm::vfs::File> Inner, std::string Path,
                 std::map<std::string, std::string> &Inputs)
        : Inner(std::move(Inner)), Path(std::move(Path)), Inputs(Inputs) {}
    llvm::ErrorOr<llvm::vfs::Status> status() override { return Inner->status(); }
    llvm::ErrorOr<std::string> getName() override { return Inner->getName(); }
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
    getBuffer(const llvm::Twine &Name, int64_t FileSize, bool RequiresNullTerminator,
              bool IsVolatile) override {
      auto Buffer = Inner->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
      if (Buffer)
        Inputs[Path] = sha256Hex((*Buffer)->getBuffer());
      return Buffer;
    }
    std::error_code close() override { return Inner->close(); }

  private:
    std::unique_ptr<llvm::vfs::File> Inner;
    std::string Path;
    std::map<std::string, std::string> &Inputs;
  };

  std::map<std::string, std::string> Inputs; // absolute path -> digest
};

std::optional<SourceLocation> locate(SourceCache &Sources, llvm::StringRef File,
                                     unsigned Offset) {
  if (File.empty())
    return std::nullopt;
  SourceLocation Location{File.str(), Offset, 0, 0};
  if (const SourceFile *Source = Sources.get(File))
    std::tie(Location.Line, Location.Column) = Source->lineAndColumn(Offset);
  return Location;
}

Finding toFinding(const tidy::ClangTidyError &Error, SourceCache &Sources) {
  Finding F;
  F.Rule = Error.DiagnosticName;
  F.Level = Error.DiagLevel == clang::tooling::Diagnostic::Error ? Severity::Error
                                                                 : Severity::Warning;
  F.Message = Error.Message.Message;
  F.Location = locate(Sources, Error.Message.FilePath, Error.Message.FileOffset);
  for (const clang::tooling::DiagnosticMessage &N : Error.Notes)
    F.Notes.push_back({N.Message, locate(Sources, N.FilePath, N.FileOffset)});
  for (const auto &FileFixes : Error.Message.Fix)
    for (const clang::tooling::Replacement &R : FileFixes.second)
      F.Fixes.push_back(
          {R.getFilePath().str(), R.getOffset(), R.getLength(), R.getReplacementText().str()});
  if (F.Location)
    if (const SourceFile *Source = Sources.get(F.Location->File))
      F.Statement = normalisedStatement(Source->text(), F.Location->Offset);
  return F;
}

} // namespace

UnitReport analyzeUnit(std::unique_ptr<clang::tooling::CompilationDatabase> Database,
                       llvm::StringRef File, const TidySettings &Settings) {
  UnitReport Report;
  Report.File = File.str();
  // A compile database may name a file that is gone (deleted, or generated
  // by a build step not run yet): one message that says so, rather than the
  // three the compiler driver gives.
  if (std::error_code EC = llvm::sys::fs::access(File, llvm::sys::fs::AccessMode::Exist)) {
    Report.Notifications.push_back(
        {NotificationKind::CompileError, Report.File,
         "cannot read the file the compile database names: " + EC.message()});
    return Report;
  }
  auto Provider = createOptionsProvider(Settings);
  if (!Provider) {
    Report.Notifications.push_back(
        {NotificationKind::ToolError, Report.File, llvm::toString(Provider.takeError())});
    return Report;
  }
  clang::tooling::ArgumentsAdjustingCompilations Compilations(
      withAbsolutePaths(std::move(Database)));
  Compilations.appendArgumentsAdjuster(resourceDirAdjuster());
  tidy::ClangTidyContext Context(std::move(*Provider));
  auto Recorder = llvm::makeIntrusiveRefCnt<RecordingFileSystem>(llvm::vfs::getRealFileSystem());
  std::vector<tidy::ClangTidyError> Errors = tidy::runClangTidy(
      Context, Compilations, {Report.File},
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Recorder), /*ApplyAnyFix=*/false);
  Report.Inputs = Recorder->inputs();
  SourceCache Sources;
  for (const tidy::ClangTidyError &Error : Errors) {
    Finding F = toFinding(Error, Sources);
    if (!F.isCompilerError()) {
      Report.Findings.push_back(std::move(F));
      continue;
    }
    Report.Notifications.push_back(
        {NotificationKind::CompileError, Report.File, F.Message, F.Location});
  }
  return Report;
}

} // namespace placelint::tool
