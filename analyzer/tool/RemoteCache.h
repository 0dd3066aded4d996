// The remote tier of the result cache, over the HTTP protocol of Bazel's
// remote cache, so that users point it at a server they already run
// (bazel-remote, BuildBuddy, nginx with WebDAV):
//
//   GET/PUT BASE/cas/<sha256 of the bytes>   the entry itself
//   GET/PUT BASE/ac/<key>                    an ActionResult naming it
//
// The action-cache entry is a real ActionResult message (one output file
// whose digest is the blob's), because servers such as bazel-remote check
// that what is stored under /ac/ is one. A remote that fails or is slow
// costs a warning, once, and is not asked again in the same run: it never
// fails the run. A refused upload stops only the uploads (a cache that
// developers may read but only CI may write).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace placelint::tool {

class RemoteCache {
public:
  // BaseUrl: http(s)://host[:port][/prefix]. TimeoutMs bounds each request.
  RemoteCache(std::string BaseUrl, unsigned TimeoutMs);

  // The bytes stored under Key; nothing on a miss, an error (then with a
  // warning) or a blob whose digest does not match.
  std::optional<std::string> get(llvm::StringRef Key);
  void put(llvm::StringRef Key, llvm::StringRef Value);

  const std::string &url() const { return BaseUrl; }
  unsigned requests() const { return Requests; }
  double seconds() const { return Microseconds / 1e6; }
  uint64_t bytesDown() const { return BytesDown; }
  uint64_t bytesUp() const { return BytesUp; }
  bool failed() const { return Failed; }
  bool uploadsFailed() const { return UploadsFailed; }

private:
  struct Response {
    long Status = 0; // 0: no HTTP response
    std::string Body;
    std::string Error;
  };
  Response request(llvm::StringRef Method, llvm::StringRef Path, llvm::StringRef Body);
  void fail(llvm::StringRef What, const Response &R);
  void failUpload(llvm::StringRef What, const Response &R);

  std::string BaseUrl;
  unsigned TimeoutMs;
  std::atomic<bool> Failed{false}, UploadsFailed{false};
  std::once_flag Warned, WarnedUpload;
  std::atomic<unsigned> Requests{0};
  std::atomic<uint64_t> Microseconds{0}, BytesDown{0}, BytesUp{0};
};

// The ActionResult message (build.bazel.remote.execution.v2) with one
// output file, FileName, whose digest is Hash and Size; and back.
std::string encodeActionResult(llvm::StringRef FileName, llvm::StringRef Hash, uint64_t Size);
struct BlobDigest {
  std::string Hash;
  uint64_t Size = 0;
};
std::optional<BlobDigest> decodeActionResult(llvm::StringRef Message);

} // namespace placelint::tool
