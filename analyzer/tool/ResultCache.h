// The result cache: a unit's report, reused when nothing that decides its
// findings changed. Two levels, as ccache's direct mode has them:
//
//   unit key     = H(placelint's identity, the checks' configuration for
//                    the unit, its compile command, its path, its contents)
//   manifest     : unit key -> the paths of every file its last analysis read
//   result key   = H(unit key, each of those paths with its contents' digest)
//   result       : result key -> the unit's report (Finding.h's JSON)
//
// A lookup hashes the files the manifest names (each file once per run);
// no preprocessing, so a warm run costs file reads, not parses. Entries
// live in a local directory and, optionally, a remote HTTP cache (Bazel's
// protocol, RemoteCache.h); a local miss that the remote has is copied in.
#pragma once

#include "Finding.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace placelint::tool {

class RemoteCache;

// Lowercase hexadecimal SHA-256 of Data.
std::string sha256Hex(llvm::StringRef Data);

// The digests of files' current contents, each file read once per run.
// Safe to use from several threads.
class FileDigests {
public:
  // Empty when the file cannot be read.
  std::string digest(llvm::StringRef Path);

private:
  std::mutex Mutex;
  llvm::StringMap<std::string> Known;
};

// The local tier: one file per entry under Directory, written to a
// temporary name and renamed, so that concurrent runs sharing it never see
// half an entry. Reading an entry refreshes its time; trimming deletes the
// least recently used entries first.
class LocalCache {
public:
  explicit LocalCache(std::string Directory) : Directory(std::move(Directory)) {}

  const std::string &directory() const { return Directory; }
  std::optional<std::string> get(llvm::StringRef Key) const;
  llvm::Error put(llvm::StringRef Key, llvm::StringRef Value) const;
  // Deletes the oldest entries until the total size is at most MaxBytes.
  struct Usage {
    uint64_t Bytes = 0;
    unsigned Entries = 0;
    unsigned Evicted = 0;
  };
  Usage trim(uint64_t MaxBytes) const;
  // Removes one entry (found unreadable).
  void remove(llvm::StringRef Key) const;

private:
  std::string entryPath(llvm::StringRef Key) const;
  std::string Directory;
};

struct CacheCounters {
  std::atomic<unsigned> LocalHits{0}, RemoteHits{0}, Misses{0}, Stored{0}, Corrupt{0};
};

class ResultCache {
public:
  // Identity: what names this build of placelint (its version and a digest
  // of the executable, so that a rebuilt analyzer never reuses old results).
  ResultCache(std::string Identity, std::unique_ptr<LocalCache> Local,
              std::unique_ptr<RemoteCache> Remote);
  ~ResultCache();

  // The unit key of File: Configuration is the checks' configuration as
  // text, Command the compile command (directory and arguments).
  std::string unitKey(llvm::StringRef File, llvm::StringRef Configuration,
                      llvm::StringRef Command);
  // The cached report of the unit, or nothing (a miss). An unreadable
  // entry is a miss with a warning on stderr.
  std::optional<UnitReport> lookup(llvm::StringRef UnitKey, llvm::StringRef File);
  // Records a unit's report: only a complete analysis (no notification)
  // that recorded what it read.
  void store(llvm::StringRef UnitKey, const UnitReport &Report);

  const CacheCounters &counters() const { return Counters; }
  LocalCache &local() { return *Local; }
  const std::string &localDirectory() const { return Local->directory(); }
  const RemoteCache *remote() const { return Remote.get(); }

private:
  std::optional<std::string> fetch(llvm::StringRef Key, bool &FromRemote);
  void save(llvm::StringRef Key, llvm::StringRef Value);
  void warnCorrupt(llvm::StringRef Key, llvm::StringRef File, llvm::StringRef Why);

  std::string Identity;
  std::unique_ptr<LocalCache> Local;
  std::unique_ptr<RemoteCache> Remote;
  FileDigests Digests;
  CacheCounters Counters;
};

// $XDG_CACHE_HOME/placelint, else ~/.cache/placelint.
std::string defaultCacheDirectory();

// "placelint VERSION" and the SHA-256 of the executable.
std::string toolIdentity(llvm::StringRef Executable);

} // namespace placelint::tool
