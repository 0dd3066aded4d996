#include "ShowMessage.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace placelint::clangd {

namespace {

// LSP's MessageType for window/showMessage.
constexpr int WarningMessage = 2;

// Where clangd's LSP messages end in its output: each is a header
// ("Content-Length: N\r\n", other fields, "\r\n") and N bytes of JSON.
class MessageBoundaries {
public:
  // The length of the start of Data that completes the message under way,
  // or npos when it does not end within Data.
  size_t endIn(llvm::StringRef Data) {
    size_t Pos = 0;
    while (Pos < Data.size() && !NotLsp) {
      if (BodyLeft == 0) {
        Header.push_back(Data[Pos++]);
        if (!llvm::StringRef(Header).ends_with("\r\n\r\n")) {
          NotLsp = Header.size() > MaxHeader;
          continue;
        }
        std::optional<size_t> Length = contentLength(Header);
        Header.clear();
        NotLsp = !Length || *Length == 0;
        BodyLeft = Length.value_or(0);
        continue;
      }
      size_t Taken = std::min(BodyLeft, Data.size() - Pos);
      Pos += Taken;
      BodyLeft -= Taken;
      if (BodyLeft == 0)
        return Pos;
    }
    return llvm::StringRef::npos;
  }

  // Between two messages. Output that is not LSP (such as --help) never is.
  bool between() const { return !NotLsp && BodyLeft == 0 && Header.empty(); }

private:
  static constexpr size_t MaxHeader = 1024;

  static std::optional<size_t> contentLength(llvm::StringRef Header) {
    while (!Header.empty()) {
      auto [Line, Rest] = Header.split("\r\n");
      Header = Rest;
      auto [Name, Value] = Line.split(':');
      size_t Length;
      if (Name.trim().equals_insensitive("Content-Length") &&
          !Value.trim().getAsInteger(10, Length))
        return Length;
    }
    return std::nullopt;
  }

  std::string Header;
  size_t BodyLeft = 0;
  bool NotLsp = false;
};

// Copies clangd's stdout (a pipe) to the real one, and sends a posted
// message as soon as clangd has sent at least one message (so the editor
// has initialized the connection) and is between two.
class LspRelay {
public:
  bool start() {
    int ClangdOut[2];
    if (pipe(ClangdOut) != 0 || pipe(Wake) != 0)
      return false;
    Editor = dup(STDOUT_FILENO);
    if (Editor < 0 || dup2(ClangdOut[1], STDOUT_FILENO) < 0)
      return false;
    close(ClangdOut[1]);
    FromClangd = ClangdOut[0];
    Thread = std::thread([this] { run(); });
    return true;
  }

  void post(std::string Text) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Pending = std::move(Text);
    }
    char Byte = 0;
    (void)!write(Wake[1], &Byte, 1);
  }

  // At exit: clangd's output is complete once stdout is closed.
  void finish() {
    if (!Thread.joinable() || Thread.get_id() == std::this_thread::get_id())
      return;
    llvm::outs().flush();
    close(STDOUT_FILENO);
    Thread.join();
  }

private:
  void run() {
    pollfd Inputs[] = {{FromClangd, POLLIN, 0}, {Wake[0], POLLIN, 0}};
    char Buffer[1 << 16];
    while (true) {
      if (poll(Inputs, 2, -1) < 0) {
        if (errno == EINTR)
          continue;
        return;
      }
      if (Inputs[1].revents & POLLIN)
        (void)!read(Wake[0], Buffer, sizeof Buffer);
      if (Inputs[0].revents & (POLLIN | POLLHUP)) {
        ssize_t Read = read(FromClangd, Buffer, sizeof Buffer);
        if (Read < 0 && errno == EINTR)
          continue;
        if (Read <= 0)
          return;
        forward(llvm::StringRef(Buffer, Read));
      }
      if (SawMessage && Boundaries.between())
        sendPending();
    }
  }

  void forward(llvm::StringRef Data) {
    while (!Data.empty()) {
      size_t End = Boundaries.endIn(Data);
      if (End == llvm::StringRef::npos) {
        writeToEditor(Data);
        return;
      }
      writeToEditor(Data.take_front(End));
      Data = Data.drop_front(End);
      SawMessage = true;
      sendPending();
    }
  }

  void sendPending() {
    std::optional<std::string> Text;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Text.swap(Pending);
    }
    if (!Text)
      return;
    llvm::json::Value Notification = llvm::json::Object{
        {"jsonrpc", "2.0"},
        {"method", "window/showMessage"},
        {"params", llvm::json::Object{{"type", WarningMessage}, {"message", *Text}}}};
    std::string Body = llvm::formatv("{0}", Notification).str();
    writeToEditor(llvm::formatv("Content-Length: {0}\r\n\r\n{1}", Body.size(), Body).str());
  }

  // A closed stdout means the editor is gone; clangd sees its input end too.
  void writeToEditor(llvm::StringRef Data) {
    while (!Data.empty() && !EditorGone) {
      ssize_t Written = write(Editor, Data.data(), Data.size());
      if (Written < 0 && errno == EINTR)
        continue;
      EditorGone = Written <= 0;
      Data = Data.drop_front(std::max<ssize_t>(Written, 0));
    }
  }

  int FromClangd = -1;
  int Editor = -1;
  int Wake[2] = {-1, -1};
  std::thread Thread;
  MessageBoundaries Boundaries;
  bool SawMessage = false;
  bool EditorGone = false;
  std::mutex Mutex;
  std::optional<std::string> Pending;
};

LspRelay *ActiveRelay = nullptr;

} // namespace

void relayLspOutput() {
  // Never destroyed: exit may come from any thread, the relay's included.
  auto *Relay = new LspRelay;
  if (!Relay->start())
    return;
  ActiveRelay = Relay;
  // clangd writes through llvm::outs(), which finish() flushes: made now, it
  // is destroyed after the exit handler registered below runs.
  llvm::outs();
  std::atexit([] { ActiveRelay->finish(); });
}

void showMessageOnce(const std::string &Text) {
  static std::atomic_flag Shown = ATOMIC_FLAG_INIT;
  if (Shown.test_and_set())
    return;
  // One write, so that the line does not interleave with clangd's log.
  std::string Line = "placelint-clangd: " + Text + "\n";
  (void)!write(STDERR_FILENO, Line.data(), Line.size());
  if (ActiveRelay)
    ActiveRelay->post(Text);
}

} // namespace placelint::clangd
