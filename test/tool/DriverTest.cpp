// Unit tests of the placelint driver's pieces that need no compiler run:
// fingerprints, shards and unit selection, de-duplication, the summary,
// the baseline file, the worker protocol, the result cache's store and the
// remote cache's messages, changed-line ranges.
#include "Baseline.h"
#include "ChangeSelection.h"
#include "CompileDatabase.h"
#include "Fingerprint.h"
#include "RemoteCache.h"
#include "Report.h"
#include "ResultCache.h"
#include "SourceFiles.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <gtest/gtest.h>

#include <set>

namespace placelint::tool {
namespace {

Finding findingAt(std::string Rule, std::string File, unsigned Offset, std::string Statement) {
  Finding F;
  F.Rule = std::move(Rule);
  F.Message = "message";
  F.Location = SourceLocation{std::move(File), Offset, 1, Offset + 1};
  F.Statement = std::move(Statement);
  return F;
}

TEST(NormalisedStatement, CollapsesWhitespaceAndDropsComments) {
  llvm::StringRef Code = "int a;\n  // moves it\n  t.to(  dev /*async*/ );\n";
  EXPECT_EQ("t.to( dev )", normalisedStatement(Code, Code.find("to(")));
}

TEST(NormalisedStatement, SpansLinesAndStopsAtStatementBoundaries) {
  llvm::StringRef Code = "{ auto z = pl::matmul(x,\n      w); return z; }";
  EXPECT_EQ("auto z = pl::matmul(x, w)", normalisedStatement(Code, Code.find("matmul")));
}

TEST(NormalisedStatement, SemicolonsInsideParenthesesDoNotEndTheStatement) {
  llvm::StringRef Code = "for (int i = 0; i < n; ++i) { x.to(d); }";
  EXPECT_EQ("x.to(d)", normalisedStatement(Code, Code.find("to(d)")));
  EXPECT_EQ("for (int i = 0; i < n; ++i)", normalisedStatement(Code, Code.find("for")));
}

TEST(Fingerprints, IgnoreLinesButTellIdenticalStatementsApart) {
  std::vector<Finding> Before{findingAt("placement-mixed-device", "/r/a.cpp", 10, "x + y"),
                              findingAt("placement-mixed-device", "/r/a.cpp", 50, "x + y"),
                              findingAt("placement-mixed-device", "/r/b.cpp", 10, "x + y")};
  assignFingerprints(Before, "/r");
  std::set<std::string> Distinct;
  for (const Finding &F : Before)
    Distinct.insert(F.Fingerprint);
  EXPECT_EQ(3u, Distinct.size());
  EXPECT_EQ(":0", llvm::StringRef(Before[0].Fingerprint).take_back(2));
  EXPECT_EQ(":1", llvm::StringRef(Before[1].Fingerprint).take_back(2));

  // The same findings further down the file (an edit above them).
  std::vector<Finding> After{findingAt("placement-mixed-device", "/r/a.cpp", 110, "x + y"),
                             findingAt("placement-mixed-device", "/r/a.cpp", 150, "x + y"),
                             findingAt("placement-mixed-device", "/r/b.cpp", 10, "x + y")};
  assignFingerprints(After, "/r");
  for (size_t I = 0; I < Before.size(); ++I)
    EXPECT_EQ(Before[I].Fingerprint, After[I].Fingerprint);
}

TEST(Fingerprints, DependOnRuleFileAndStatement) {
  std::vector<Finding> Findings{findingAt("placement-mixed-device", "/r/a.cpp", 10, "x + y"),
                                findingAt("placement-transfer-in-loop", "/r/a.cpp", 10, "x + y"),
                                findingAt("placement-mixed-device", "/r/a.cpp", 10, "x - y")};
  assignFingerprints(Findings, "/r");
  EXPECT_NE(Findings[0].Fingerprint, Findings[1].Fingerprint);
  EXPECT_NE(Findings[0].Fingerprint, Findings[2].Fingerprint);
}

TEST(Shard, ParsesOneBasedSlices) {
  llvm::Expected<Shard> Second = parseShard("2/4");
  ASSERT_TRUE(static_cast<bool>(Second));
  EXPECT_EQ(2u, Second->Index);
  EXPECT_EQ(4u, Second->Count);
  for (llvm::StringRef Bad : {"0/4", "5/4", "1/0", "x", "1/", "/2", "1/2/3"}) {
    llvm::Expected<Shard> Parsed = parseShard(Bad);
    EXPECT_FALSE(static_cast<bool>(Parsed)) << Bad.str();
    llvm::consumeError(Parsed.takeError());
  }
}

std::unique_ptr<clang::tooling::CompilationDatabase> databaseOf(std::vector<std::string> Files) {
  std::string Json = "[";
  for (const std::string &File : Files)
    Json += (Json.size() > 1 ? "," : "") + std::string("{\"directory\": \"/r\", \"file\": \"") +
            File + "\", \"command\": \"c++ -c " + File + "\"}";
  Json += "]";
  std::string Error;
  auto Database = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Json, Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  EXPECT_TRUE(Database) << Error;
  return Database;
}

TEST(SelectUnits, SortsFiltersAndReportsPathsThatSelectNothing) {
  auto Database = databaseOf({"/r/src/b.cpp", "/r/src/a.cpp", "/r/tools/t.cpp", "/elsewhere/x.cpp"});
  llvm::Expected<std::vector<std::string>> All = selectUnits(*Database, "/r", {}, std::nullopt);
  ASSERT_TRUE(static_cast<bool>(All));
  EXPECT_EQ((std::vector<std::string>{"/r/src/a.cpp", "/r/src/b.cpp", "/r/tools/t.cpp"}), *All);

  llvm::Expected<std::vector<std::string>> Src =
      selectUnits(*Database, "/r", {"/r/src", "/r/src/a.cpp"}, std::nullopt);
  ASSERT_TRUE(static_cast<bool>(Src));
  EXPECT_EQ((std::vector<std::string>{"/r/src/a.cpp", "/r/src/b.cpp"}), *Src);

  llvm::Expected<std::vector<std::string>> Typo = selectUnits(*Database, "/r", {"/r/scr"}, std::nullopt);
  ASSERT_FALSE(static_cast<bool>(Typo));
  EXPECT_NE(std::string::npos, llvm::toString(Typo.takeError()).find("/r/scr"));
}

TEST(SelectUnits, ShardsAreDisjointAndCoverEveryUnit) {
  std::vector<std::string> Files;
  for (int I = 0; I < 11; ++I)
    Files.push_back("/r/u" + std::to_string(I) + ".cpp");
  auto Database = databaseOf(Files);
  std::multiset<std::string> Covered;
  for (unsigned Index = 1; Index <= 3; ++Index) {
    llvm::Expected<std::vector<std::string>> Slice =
        selectUnits(*Database, "/r", {}, Shard{Index, 3});
    ASSERT_TRUE(static_cast<bool>(Slice));
    EXPECT_GE(Slice->size(), 3u);
    Covered.insert(Slice->begin(), Slice->end());
  }
  EXPECT_EQ(std::multiset<std::string>(Files.begin(), Files.end()), Covered);
}

TEST(AbsolutePaths, RelativeIncludeDirectoriesAndSourceFollowTheCommandsDirectory) {
  clang::tooling::CompileCommand Command(
      "/r/build", "../src/a.cpp",
      {"clang++", "-Isrc", "-I", "../include", "-isystem", "third_party", "-isystemvendor",
       "-iquote./gen", "-idirafter", "late", "--include-directory=more", "--include-directory",
       "most", "-I/abs/inc", "-I=sysroot_inc", "-isystem-after", "-include", "config.h",
       "-DX=-Isrc", "-c", "../src/a.cpp", "-o", "a.o"},
      "a.o");
  clang::tooling::CompileCommand Adjusted = withAbsolutePaths(Command);
  EXPECT_EQ("/r/src/a.cpp", Adjusted.Filename);
  EXPECT_EQ((std::vector<std::string>{
                "clang++", "-I/r/build/src", "-I", "/r/include", "-isystem",
                "/r/build/third_party", "-isystem/r/build/vendor", "-iquote/r/build/gen",
                "-idirafter", "/r/build/late", "--include-directory=/r/build/more",
                "--include-directory", "/r/build/most", "-I/abs/inc", "-I=sysroot_inc",
                "-isystem-after", "-include", "config.h", "-DX=-Isrc", "-c", "/r/src/a.cpp", "-o",
                "a.o"}),
            Adjusted.CommandLine);
}

TEST(AbsolutePaths, AbsoluteCommandsAreUnchanged) {
  clang::tooling::CompileCommand Command("/r", "/r/a.cpp", {"clang++", "-I/r/inc", "-c", "/r/a.cpp"},
                                         "");
  EXPECT_EQ(Command.CommandLine, withAbsolutePaths(Command).CommandLine);
  EXPECT_EQ("/r/a.cpp", withAbsolutePaths(Command).Filename);
}

TEST(SourceFiles, LineAndColumnAndPaths) {
  SourceFile File(llvm::MemoryBuffer::getMemBuffer("ab\ncd\n\nef"));
  EXPECT_EQ(std::make_pair(1u, 1u), File.lineAndColumn(0));
  EXPECT_EQ(std::make_pair(2u, 2u), File.lineAndColumn(4));
  EXPECT_EQ(std::make_pair(4u, 2u), File.lineAndColumn(8));
  EXPECT_EQ("cd", File.lineText(2));
  EXPECT_EQ("", File.lineText(3));
  EXPECT_EQ("", File.lineText(9));
  EXPECT_EQ("src/a.cpp", relativeTo("/r/src/a.cpp", "/r"));
  EXPECT_EQ("", relativeTo("/rr/a.cpp", "/r"));
  EXPECT_EQ("/rr/a.cpp", displayPath("/rr/a.cpp", "/r"));
}

TEST(CombineUnits, ReportsAHeaderFindingOnceAndDropsFixesOfBrokenUnits) {
  Finding InHeader = findingAt("placement-mixed-device", "/r/h.h", 5, "a + b");
  Finding Discarded = findingAt("placement-discarded-transfer", "/r/b.cpp", 7, "t.to(d)");
  Discarded.Fixes.push_back({"/r/b.cpp", 7, 0, "t = "});
  UnitReport A{"/r/a.cpp", {InHeader}, {}};
  UnitReport B{"/r/b.cpp",
               {InHeader, Discarded},
               {{NotificationKind::CompileError, "/r/b.cpp", "expected ';'", std::nullopt}}};
  RunReport Report = combineUnits({A, B}, "/r");
  ASSERT_EQ(2u, Report.Findings.size());
  EXPECT_EQ("/r/h.h", Report.Findings[0].Location->File);
  EXPECT_TRUE(Report.Findings[1].Fixes.empty());
  EXPECT_EQ(1u, Report.FilesAnalysed);
  EXPECT_EQ(1u, Report.FilesFailed);
  EXPECT_EQ((std::vector<std::string>{"/r/a.cpp", "/r/b.cpp"}), Report.Files);
  EXPECT_EQ("placelint: 2 findings (placement-discarded-transfer: 1, placement-mixed-device: 1); "
            "1 file analysed, 1 failed",
            summaryLine(Report));
}

TEST(Summary, SaysNoFindingsAndCountsHiddenOnes) {
  RunReport Report;
  Report.FilesAnalysed = 3;
  Report.HiddenByBaseline = 2;
  EXPECT_EQ("placelint: no findings, 2 hidden by the baseline; 3 files analysed, 0 failed",
            summaryLine(Report));
}

class TemporaryPath {
public:
  TemporaryPath() { EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("baseline", "json", Path)); }
  ~TemporaryPath() { llvm::sys::fs::remove(Path); }
  llvm::StringRef str() const { return Path; }

private:
  llvm::SmallString<128> Path;
};

TEST(BaselineFile, RoundTripHidesRecordedFindingsOnly) {
  RunReport Recorded = combineUnits(
      {UnitReport{"/r/a.cpp", {findingAt("placement-mixed-device", "/r/a.cpp", 5, "a + b")}, {}}},
      "/r");
  TemporaryPath Path;
  ASSERT_FALSE(static_cast<bool>(Baseline::write(Path.str(), Recorded)));
  llvm::Expected<Baseline> Loaded = Baseline::load(Path.str());
  ASSERT_TRUE(static_cast<bool>(Loaded));

  RunReport Later = combineUnits(
      {UnitReport{"/r/a.cpp",
                  {findingAt("placement-mixed-device", "/r/a.cpp", 90, "a + b"),
                   findingAt("placement-mixed-device", "/r/a.cpp", 120, "c + d")},
                  {}}},
      "/r");
  Loaded->hide(Later);
  ASSERT_EQ(1u, Later.Findings.size());
  EXPECT_EQ("c + d", Later.Findings[0].Statement);
  EXPECT_EQ(1u, Later.HiddenByBaseline);
}

TEST(BaselineFile, RejectsFilesThatAreNotBaselines) {
  TemporaryPath Path;
  for (llvm::StringRef Text : {"not json", "{\"version\": 1}", "{\"version\": 2, \"findings\": []}",
                               "{\"version\": 1, \"findings\": [{}]}"}) {
    std::error_code EC;
    {
      llvm::raw_fd_ostream Out(Path.str(), EC);
      Out << Text;
    }
    llvm::Expected<Baseline> Loaded = Baseline::load(Path.str());
    EXPECT_FALSE(static_cast<bool>(Loaded)) << Text.str();
    llvm::consumeError(Loaded.takeError());
  }
  llvm::Expected<Baseline> Missing = Baseline::load("/nonexistent/baseline.json");
  EXPECT_FALSE(static_cast<bool>(Missing));
  llvm::consumeError(Missing.takeError());
}

TEST(WorkerProtocol, UnitReportsSurviveTheRoundTrip) {
  Finding F = findingAt("placement-discarded-transfer", "/r/a.cpp", 7, "t.to(d)");
  F.Notes.push_back({"'t' was created on cpu here", SourceLocation{"/r/a.cpp", /*Offset=*/30, /*Line=*/3, /*Column=*/4}});
  F.Notes.push_back({"a note without a place", std::nullopt});
  F.Fixes.push_back({"/r/a.cpp", 7, 0, "t = "});
  UnitReport Report{"/r/a.cpp",
                    {F},
                    {{NotificationKind::Crash, "/r/a.cpp", "the analysis crashed", std::nullopt}}};
  std::string Text;
  llvm::raw_string_ostream(Text) << toJSON(Report);
  llvm::Expected<UnitReport> Parsed = parseUnitReport(Text);
  ASSERT_TRUE(static_cast<bool>(Parsed)) << llvm::toString(Parsed.takeError());
  ASSERT_EQ(1u, Parsed->Findings.size());
  const Finding &G = Parsed->Findings[0];
  EXPECT_EQ(F.Rule, G.Rule);
  EXPECT_EQ(F.Location->Offset, G.Location->Offset);
  EXPECT_EQ(F.Location->Column, G.Location->Column);
  ASSERT_EQ(2u, G.Notes.size());
  EXPECT_EQ(3u, G.Notes[0].Location->Line);
  EXPECT_FALSE(G.Notes[1].Location.has_value());
  ASSERT_EQ(1u, G.Fixes.size());
  EXPECT_EQ("t = ", G.Fixes[0].Text);
  ASSERT_EQ(1u, Parsed->Notifications.size());
  EXPECT_EQ(NotificationKind::Crash, Parsed->Notifications[0].Kind);

  llvm::Expected<UnitReport> Garbage = parseUnitReport("{\"file\": 3}");
  EXPECT_FALSE(static_cast<bool>(Garbage));
  llvm::consumeError(Garbage.takeError());
}

TEST(RemoteCacheMessages, ActionResultRoundTrips) {
  std::string Hash(64, 'a');
  std::string Message = encodeActionResult("placelint-unit.json", Hash, 300);
  std::optional<BlobDigest> Digest = decodeActionResult(Message);
  ASSERT_TRUE(Digest.has_value());
  EXPECT_EQ(Hash, Digest->Hash);
  EXPECT_EQ(300u, Digest->Size);
  // Bazel's own action results (another file name) are not placelint's.
  EXPECT_FALSE(decodeActionResult(encodeActionResult("a.o", Hash, 300)).has_value());
  // Truncated messages and garbage decode to nothing, without a crash.
  for (size_t Length = 0; Length < Message.size(); ++Length)
    EXPECT_FALSE(decodeActionResult(llvm::StringRef(Message).take_front(Length)).has_value())
        << Length;
  EXPECT_FALSE(decodeActionResult("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff").has_value());
}

TEST(Sha256, MatchesTheStandardVector) {
  EXPECT_EQ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", sha256Hex("abc"));
}

class LocalCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("placelint-cache-test", Directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Directory); }
  llvm::SmallString<128> Directory;
};

TEST_F(LocalCacheTest, PutGetAndTrimOldestFirst) {
  LocalCache Cache(Directory.str().str());
  std::string Old(64, '1'), New(64, '2');
  EXPECT_FALSE(Cache.get(Old).has_value());
  ASSERT_FALSE(static_cast<bool>(Cache.put(Old, std::string(100, 'o'))));
  ASSERT_FALSE(static_cast<bool>(Cache.put(New, std::string(100, 'n'))));
  // Make Old the least recently used entry.
  llvm::SmallString<128> OldPath(Directory);
  llvm::sys::path::append(OldPath, "v1", "11", Old);
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(OldPath, FD, llvm::sys::fs::CD_OpenExisting,
                                               llvm::sys::fs::OF_Append));
  llvm::sys::fs::setLastAccessAndModificationTime(FD, llvm::sys::TimePoint<>());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);

  LocalCache::Usage Usage = Cache.trim(150);
  EXPECT_EQ(1u, Usage.Evicted);
  EXPECT_EQ(1u, Usage.Entries);
  EXPECT_EQ(100u, Usage.Bytes);
  EXPECT_FALSE(Cache.get(Old).has_value());
  ASSERT_TRUE(Cache.get(New).has_value());
  EXPECT_EQ(std::string(100, 'n'), *Cache.get(New));
}

TEST_F(LocalCacheTest, AnEntryNobodyCanWriteIsAnError) {
  LocalCache Cache("/proc/placelint-no-such-directory");
  llvm::Error Err = Cache.put(std::string(64, 'a'), "value");
  EXPECT_TRUE(static_cast<bool>(Err));
  llvm::consumeError(std::move(Err));
}

TEST(ChangeSet, LinesOfAFileListedWholeAllCount) {
  ChangeSet Changes;
  Changes.Files["/src/a.cpp"] = {{3, 5}, {10, 10}};
  Changes.Files["/src/new.cpp"];
  EXPECT_TRUE(Changes.containsLine("/src/a.cpp", 3));
  EXPECT_TRUE(Changes.containsLine("/src/a.cpp", 5));
  EXPECT_TRUE(Changes.containsLine("/src/a.cpp", 10));
  EXPECT_FALSE(Changes.containsLine("/src/a.cpp", 6));
  EXPECT_TRUE(Changes.containsLine("/src/new.cpp", 400));
  EXPECT_FALSE(Changes.containsLine("/src/other.cpp", 1));
}

} // namespace
} // namespace placelint::tool
