#include "RemoteCache.h"

#include "ResultCache.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <curl/curl.h>

#include <chrono>

namespace placelint::tool {

namespace {

// The one file an action-cache entry of placelint's names.
constexpr llvm::StringLiteral kEntryFileName = "placelint-unit.json";

// Protocol buffers' wire format, for the three small messages of
// ActionResult { repeated OutputFile output_files = 2; }
// OutputFile { string path = 1; Digest digest = 2; }
// Digest { string hash = 1; int64 size_bytes = 2; }
enum WireType : unsigned { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

void putVarint(std::string &Out, uint64_t Value) {
  while (Value >= 0x80) {
    Out += static_cast<char>((Value & 0x7f) | 0x80);
    Value >>= 7;
  }
  Out += static_cast<char>(Value);
}

void putBytes(std::string &Out, unsigned Field, llvm::StringRef Bytes) {
  putVarint(Out, (Field << 3) | LengthDelimited);
  putVarint(Out, Bytes.size());
  Out += Bytes;
}

class ProtoReader {
public:
  explicit ProtoReader(llvm::StringRef Data) : Data(Data) {}

  // The next field; false at the end or on malformed input (then bad()).
  bool next(unsigned &Field, unsigned &Wire, uint64_t &Number, llvm::StringRef &Bytes) {
    if (Data.empty())
      return false;
    uint64_t Tag;
    if (!varint(Tag))
      return fail();
    Field = Tag >> 3;
    Wire = Tag & 7;
    switch (Wire) {
    case Varint:
      return varint(Number) || fail();
    case Fixed64:
    case Fixed32: {
      size_t Width = Wire == Fixed64 ? 8 : 4;
      if (Data.size() < Width)
        return fail();
      Data = Data.drop_front(Width);
      return true;
    }
    case LengthDelimited: {
      uint64_t Length;
      if (!varint(Length) || Length > Data.size())
        return fail();
      Bytes = Data.take_front(Length);
      Data = Data.drop_front(Length);
      return true;
    }
    default:
      return fail();
    }
  }
  bool bad() const { return Bad; }

private:
  bool varint(uint64_t &Value) {
    Value = 0;
    for (unsigned Shift = 0; Shift < 64 && !Data.empty(); Shift += 7) {
      uint8_t Byte = Data.front();
      Data = Data.drop_front();
      Value |= uint64_t(Byte & 0x7f) << Shift;
      if (!(Byte & 0x80))
        return true;
    }
    return false;
  }
  bool fail() {
    Bad = true;
    return false;
  }

  llvm::StringRef Data;
  bool Bad = false;
};

std::optional<BlobDigest> decodeDigest(llvm::StringRef Message) {
  ProtoReader Reader(Message);
  BlobDigest Digest;
  unsigned Field, Wire;
  uint64_t Number = 0;
  llvm::StringRef Bytes;
  while (Reader.next(Field, Wire, Number, Bytes)) {
    if (Field == 1 && Wire == LengthDelimited)
      Digest.Hash = Bytes.str();
    else if (Field == 2 && Wire == Varint)
      Digest.Size = Number;
  }
  if (Reader.bad() || Digest.Hash.size() != 64)
    return std::nullopt;
  return Digest;
}

size_t appendBody(char *Data, size_t Size, size_t Count, void *Body) {
  static_cast<std::string *>(Body)->append(Data, Size * Count);
  return Size * Count;
}

// libcurl must be initialised once per process before any thread uses it.
void initialiseCurl() {
  static const bool Initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  (void)Initialised;
}

} // namespace

std::string encodeActionResult(llvm::StringRef FileName, llvm::StringRef Hash, uint64_t Size) {
  std::string Digest;
  putBytes(Digest, 1, Hash);
  putVarint(Digest, (2 << 3) | Varint);
  putVarint(Digest, Size);
  std::string File;
  putBytes(File, 1, FileName);
  putBytes(File, 2, Digest);
  std::string Result;
  putBytes(Result, 2, File);
  return Result;
}

std::optional<BlobDigest> decodeActionResult(llvm::StringRef Message) {
  ProtoReader Reader(Message);
  unsigned Field, Wire;
  uint64_t Number;
  llvm::StringRef Bytes;
  std::optional<BlobDigest> Found;
  while (Reader.next(Field, Wire, Number, Bytes)) {
    if (Field != 2 || Wire != LengthDelimited || Found)
      continue;
    ProtoReader File(Bytes);
    llvm::StringRef Path, DigestMessage;
    while (File.next(Field, Wire, Number, Bytes))
      if (Field == 1 && Wire == LengthDelimited)
        Path = Bytes;
      else if (Field == 2 && Wire == LengthDelimited)
        DigestMessage = Bytes;
    if (!File.bad() && Path == kEntryFileName)
      Found = decodeDigest(DigestMessage);
  }
  if (Reader.bad())
    return std::nullopt;
  return Found;
}

RemoteCache::RemoteCache(std::string BaseUrl, unsigned TimeoutMs)
    : BaseUrl(llvm::StringRef(BaseUrl).rtrim('/').str()), TimeoutMs(TimeoutMs) {
  initialiseCurl();
}

RemoteCache::Response RemoteCache::request(llvm::StringRef Method, llvm::StringRef Path,
                                           llvm::StringRef Body) {
  Response R;
  CURL *Handle = curl_easy_init();
  if (!Handle) {
    R.Error = "cannot start an HTTP request";
    return R;
  }
  auto Start = std::chrono::steady_clock::now();
  std::string Url = BaseUrl + Path.str();
  char ErrorText[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(Handle, CURLOPT_URL, Url.c_str());
  curl_easy_setopt(Handle, CURLOPT_ERRORBUFFER, ErrorText);
  curl_easy_setopt(Handle, CURLOPT_TIMEOUT_MS, static_cast<long>(TimeoutMs));
  curl_easy_setopt(Handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(TimeoutMs));
  // Worker threads: no signals for timeouts.
  curl_easy_setopt(Handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(Handle, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(Handle, CURLOPT_WRITEDATA, &R.Body);
  struct curl_slist *Headers = nullptr;
  if (Method == "PUT") {
    Headers = curl_slist_append(Headers, "Content-Type: application/octet-stream");
    curl_easy_setopt(Handle, CURLOPT_CUSTOMREQUEST, "PUT");
    curl_easy_setopt(Handle, CURLOPT_POSTFIELDS, Body.data());
    curl_easy_setopt(Handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(Body.size()));
    curl_easy_setopt(Handle, CURLOPT_HTTPHEADER, Headers);
  }
  CURLcode Code = curl_easy_perform(Handle);
  if (Code == CURLE_OK)
    curl_easy_getinfo(Handle, CURLINFO_RESPONSE_CODE, &R.Status);
  else
    R.Error = ErrorText[0] ? ErrorText : curl_easy_strerror(Code);
  curl_slist_free_all(Headers);
  curl_easy_cleanup(Handle);
  ++Requests;
  Microseconds += std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
  BytesDown += R.Body.size();
  BytesUp += Body.size();
  return R;
}

void RemoteCache::fail(llvm::StringRef What, const Response &R) {
  Failed = true;
  std::string Why = R.Status ? "HTTP status " + std::to_string(R.Status) : R.Error;
  std::call_once(Warned, [&] {
    llvm::WithColor::warning(llvm::errs(), "placelint")
        << "remote cache " << BaseUrl << ": " << What << " failed (" << Why
        << "); not using it for the rest of this run\n";
  });
}

void RemoteCache::failUpload(llvm::StringRef What, const Response &R) {
  // No HTTP status: the server is gone, for reads too.
  if (!R.Status)
    return fail(What, R);
  UploadsFailed = true;
  std::call_once(WarnedUpload, [&] {
    llvm::WithColor::warning(llvm::errs(), "placelint")
        << "remote cache " << BaseUrl << ": " << What << " refused (HTTP status " << R.Status
        << "); reading it but not writing to it for the rest of this run\n";
  });
}

std::optional<std::string> RemoteCache::get(llvm::StringRef Key) {
  if (Failed)
    return std::nullopt;
  Response Action = request("GET", "/ac/" + Key.str(), "");
  if (Action.Status == 404)
    return std::nullopt;
  if (Action.Status != 200) {
    fail("GET /ac/", Action);
    return std::nullopt;
  }
  std::optional<BlobDigest> Digest = decodeActionResult(Action.Body);
  if (!Digest) {
    llvm::WithColor::warning(llvm::errs(), "placelint")
        << "remote cache " << BaseUrl << ": /ac/" << Key
        << " is not an action result of placelint's; treated as a miss\n";
    return std::nullopt;
  }
  Response Blob = request("GET", "/cas/" + Digest->Hash, "");
  if (Blob.Status == 404)
    return std::nullopt;
  if (Blob.Status != 200) {
    fail("GET /cas/", Blob);
    return std::nullopt;
  }
  if (sha256Hex(Blob.Body) != Digest->Hash || Blob.Body.size() != Digest->Size) {
    llvm::WithColor::warning(llvm::errs(), "placelint")
        << "remote cache " << BaseUrl << ": /cas/" << Digest->Hash
        << " does not match its digest; treated as a miss\n";
    return std::nullopt;
  }
  return std::move(Blob.Body);
}

void RemoteCache::put(llvm::StringRef Key, llvm::StringRef Value) {
  if (Failed || UploadsFailed)
    return;
  std::string Hash = sha256Hex(Value);
  // The blob first: a server may refuse an action result whose outputs it
  // does not hold.
  Response Blob = request("PUT", "/cas/" + Hash, Value);
  if (Blob.Status < 200 || Blob.Status >= 300) {
    failUpload("PUT /cas/", Blob);
    return;
  }
  Response Action =
      request("PUT", "/ac/" + Key.str(), encodeActionResult(kEntryFileName, Hash, Value.size()));
  if (Action.Status < 200 || Action.Status >= 300)
    failUpload("PUT /ac/", Action);
}

} // namespace placelint::tool
