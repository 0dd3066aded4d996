#include "ResultCache.h"

#include "RemoteCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <vector>

namespace placelint::tool {

namespace json = llvm::json;

std::string sha256Hex(llvm::StringRef Data) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Data)), /*LowerCase=*/true);
}

std::string FileDigests::digest(llvm::StringRef Path) {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Known.find(Path);
    if (It != Known.end())
      return It->second;
  }
  std::string Digest;
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false))
    Digest = sha256Hex((*Buffer)->getBuffer());
  std::lock_guard<std::mutex> Lock(Mutex);
  Known[Path] = Digest;
  return Digest;
}

namespace {

// Bumped when the layout or the meaning of entries changes.
constexpr llvm::StringLiteral kLayout = "v1";

// Keys hash fields separated by a byte no path or digest holds, with a
// label per kind of key so that a unit key never equals a result key.
class KeyBuilder {
public:
  explicit KeyBuilder(llvm::StringRef Label) { add(Label); }
  KeyBuilder &add(llvm::StringRef Field) {
    Hash.update(Field);
    Hash.update(llvm::StringRef("\0", 1));
    return *this;
  }
  std::string hex() { return llvm::toHex(Hash.final(), /*LowerCase=*/true); }

private:
  llvm::SHA256 Hash;
};

} // namespace

std::optional<std::string> LocalCache::get(llvm::StringRef Key) const {
  std::string Path = entryPath(Key);
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  // The entry's time is its last use, for trim().
  int FD;
  if (!llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                       llvm::sys::fs::OF_Append)) {
    llvm::sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return (*Buffer)->getBuffer().str();
}

llvm::Error LocalCache::put(llvm::StringRef Key, llvm::StringRef Value) const {
  std::string Path = entryPath(Key);
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
    return llvm::createStringError(EC, "cannot create the cache directory '%s': %s",
                                   Parent.str().c_str(), EC.message().c_str());
  int FD;
  llvm::SmallString<256> Temporary;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temporary))
    return llvm::createStringError(EC, "cannot write to the cache directory '%s': %s",
                                   Parent.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Value;
    Out.close();
    if (Out.has_error()) {
      Out.clear_error();
      llvm::sys::fs::remove(Temporary);
      return llvm::createStringError("cannot write the cache entry '%s'", Temporary.c_str());
    }
  }
  // Atomic on POSIX: a reader sees the old entry or the whole new one.
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    return llvm::createStringError(EC, "cannot write the cache entry '%s': %s", Path.c_str(),
                                   EC.message().c_str());
  }
  return llvm::Error::success();
}

void LocalCache::remove(llvm::StringRef Key) const { llvm::sys::fs::remove(entryPath(Key)); }

LocalCache::Usage LocalCache::trim(uint64_t MaxBytes) const {
  struct Entry {
    std::string Path;
    uint64_t Bytes;
    llvm::sys::TimePoint<> Used;
  };
  std::vector<Entry> Entries;
  Usage Result;
  std::error_code EC;
  llvm::SmallString<256> Root(Directory);
  llvm::sys::path::append(Root, kLayout);
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(It->path(), Status) ||
        Status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    Entries.push_back({It->path(), Status.getSize(), Status.getLastModificationTime()});
    Result.Bytes += Status.getSize();
  }
  Result.Entries = Entries.size();
  if (Result.Bytes <= MaxBytes)
    return Result;
  std::sort(Entries.begin(), Entries.end(),
            [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  for (const Entry &E : Entries) {
    if (Result.Bytes <= MaxBytes)
      break;
    if (llvm::sys::fs::remove(E.Path))
      continue;
    Result.Bytes -= E.Bytes;
    --Result.Entries;
    ++Result.Evicted;
  }
  return Result;
}

std::string LocalCache::entryPath(llvm::StringRef Key) const {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, kLayout, Key.take_front(2), Key);
  return Path.str().str();
}

ResultCache::ResultCache(std::string Identity, std::unique_ptr<LocalCache> Local,
                         std::unique_ptr<RemoteCache> Remote)
    : Identity(std::move(Identity)), Local(std::move(Local)), Remote(std::move(Remote)) {}

ResultCache::~ResultCache() = default;

std::string ResultCache::unitKey(llvm::StringRef File, llvm::StringRef Configuration,
                                 llvm::StringRef Command) {
  return KeyBuilder("placelint unit")
      .add(Identity)
      .add(Configuration)
      .add(Command)
      .add(File)
      .add(Digests.digest(File))
      .hex();
}

std::optional<std::string> ResultCache::fetch(llvm::StringRef Key, bool &FromRemote) {
  FromRemote = false;
  if (std::optional<std::string> Value = Local->get(Key))
    return Value;
  if (!Remote)
    return std::nullopt;
  std::optional<std::string> Value = Remote->get(Key);
  if (!Value)
    return std::nullopt;
  FromRemote = true;
  if (llvm::Error Err = Local->put(Key, *Value))
    llvm::WithColor::warning(llvm::errs(), "placelint") << llvm::toString(std::move(Err)) << '\n';
  return Value;
}

void ResultCache::warnCorrupt(llvm::StringRef Key, llvm::StringRef File, llvm::StringRef Why) {
  ++Counters.Corrupt;
  Local->remove(Key);
  llvm::WithColor::warning(llvm::errs(), "placelint")
      << "ignoring an unreadable cache entry for '" << File << "' (" << Why
      << "); analysing it again\n";
}

std::optional<UnitReport> ResultCache::lookup(llvm::StringRef UnitKey, llvm::StringRef File) {
  bool ManifestFromRemote = false;
  std::optional<std::string> Manifest = fetch(UnitKey, ManifestFromRemote);
  if (!Manifest) {
    ++Counters.Misses;
    return std::nullopt;
  }
  llvm::Expected<std::vector<std::string>> Parsed =
      json::parse<std::vector<std::string>>(*Manifest, "cache manifest");
  if (!Parsed || Parsed->empty()) {
    warnCorrupt(UnitKey, File, Parsed ? "empty manifest" : llvm::toString(Parsed.takeError()));
    ++Counters.Misses;
    return std::nullopt;
  }
  KeyBuilder ResultKey("placelint result");
  ResultKey.add(UnitKey);
  for (const std::string &Path : *Parsed) {
    std::string Digest = Digests.digest(Path);
    if (Digest.empty()) { // a file it read is gone: the unit changed
      ++Counters.Misses;
      return std::nullopt;
    }
    ResultKey.add(Path).add(Digest);
  }
  std::string Key = ResultKey.hex();
  bool ResultFromRemote = false;
  std::optional<std::string> Stored = fetch(Key, ResultFromRemote);
  if (!Stored) {
    ++Counters.Misses;
    return std::nullopt;
  }
  llvm::Expected<UnitReport> Report = parseUnitReport(*Stored);
  if (!Report || Report->File != File) {
    warnCorrupt(Key, File,
                Report ? "it is another file's report" : llvm::toString(Report.takeError()));
    ++Counters.Misses;
    return std::nullopt;
  }
  ++(ResultFromRemote || ManifestFromRemote ? Counters.RemoteHits : Counters.LocalHits);
  return std::move(*Report);
}

void ResultCache::save(llvm::StringRef Key, llvm::StringRef Value) {
  if (llvm::Error Err = Local->put(Key, Value))
    llvm::WithColor::warning(llvm::errs(), "placelint") << llvm::toString(std::move(Err)) << '\n';
  if (Remote)
    Remote->put(Key, Value);
}

void ResultCache::store(llvm::StringRef UnitKey, const UnitReport &Report) {
  if (!Report.Notifications.empty() || Report.Inputs.empty())
    return;
  KeyBuilder ResultKey("placelint result");
  ResultKey.add(UnitKey);
  json::Array Paths;
  for (const InputFile &Input : Report.Inputs) {
    ResultKey.add(Input.Path).add(Input.Digest);
    Paths.push_back(Input.Path);
  }
  UnitReport Result = Report;
  Result.Inputs.clear();
  // The result first: a reader that finds the manifest finds its result.
  save(ResultKey.hex(), llvm::formatv("{0}", json::Value(toJSON(Result))).str());
  save(UnitKey, llvm::formatv("{0}", json::Value(std::move(Paths))).str());
  ++Counters.Stored;
}

std::string defaultCacheDirectory() {
  llvm::SmallString<256> Path;
  if (std::optional<std::string> Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && !Xdg->empty()) {
    Path = *Xdg;
  } else {
    llvm::sys::path::home_directory(Path);
    llvm::sys::path::append(Path, ".cache");
  }
  llvm::sys::path::append(Path, "placelint");
  return Path.str().str();
}

std::string toolIdentity(llvm::StringRef Executable) {
  std::string Identity = "placelint " PL_VERSION;
  if (auto Buffer = llvm::MemoryBuffer::getFile(Executable, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false))
    Identity += " " + sha256Hex((*Buffer)->getBuffer());
  return Identity;
}

} // namespace placelint::tool
