"""A small Language Server Protocol client over stdio, as an editor runs one.

Shared by the editor tests (test/editor) and the editor benchmark
(bench/editor): it starts a server, speaks JSON-RPC with LSP's framing
(`Content-Length: N` header, N bytes of JSON), answers nothing but reads
everything, and lets the caller wait for the notifications it expects.
"""

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

# What the client tells the server it can show: notes as related
# information, fixes as quick-fix code actions, versioned diagnostics.
CLIENT_CAPABILITIES = {
    "textDocument": {
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
        "codeAction": {
            "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}
        },
        "synchronization": {"didSave": True},
    },
    "window": {"showMessage": {}},
}


def uri(path: Path) -> str:
    return Path(path).resolve().as_uri()


class ServerDied(Exception):
    """The server exited (or crashed) while the client was waiting on it."""


class LanguageServer:
    """One server process and the messages it sent."""

    def __init__(self, command: List[str], root: Path, env: Optional[Dict[str, str]] = None):
        self.root = Path(root)
        self.stderr_path = self.root / "server.log"
        self._stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self._stderr, cwd=self.root, env=env)
        self._lock = threading.Condition()
        self._notifications: List[dict] = []
        self._responses: Dict[int, dict] = {}
        self._next_id = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # --- the wire ---------------------------------------------------------

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    with self._lock:
                        self._lock.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            with self._lock:
                if "id" in message and "method" not in message:
                    self._responses[message["id"]] = message
                elif "method" in message:
                    self._notifications.append(message)
                    if "id" in message:  # a request from the server: accept it
                        self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                self._lock.notify_all()

    def _wait(self, ready: Callable[[], Optional[object]], timeout: float, what: str):
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = ready()
                if found is not None:
                    return found
                if self.process.poll() is not None:
                    raise ServerDied(f"the server exited ({self.process.returncode}) while "
                                     f"waiting for {what}; its log: {self.stderr_path}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {what} within {timeout:.0f} s; server log: "
                                       f"{self.stderr_path}")
                self._lock.wait(min(left, 0.5))

    # --- JSON-RPC ----------------------------------------------------------

    def request(self, method: str, params, timeout: float = 60):
        with self._lock:
            self._next_id += 1
            request_id = self._next_id
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        response = self._wait(lambda: self._responses.pop(request_id, None), timeout,
                              f"answer to {method}")
        if "error" in response:
            raise RuntimeError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def notifications(self, method: str) -> List[dict]:
        with self._lock:
            return [n["params"] for n in self._notifications if n["method"] == method]

    # --- LSP ---------------------------------------------------------------

    def initialize(self) -> dict:
        result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": uri(self.root),
            "capabilities": CLIENT_CAPABILITIES})
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "cpp", "version": version, "text": text}})

    def change(self, path: Path, text: str, version: int) -> None:
        """Replaces the whole buffer, as an editor sends a typed change."""
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": text}]})

    def diagnostics(self, path: Path, version: int, timeout: float = 120) -> List[dict]:
        """The diagnostics the server publishes for this version of the file."""
        target = uri(path)

        def published():
            for n in reversed(self._notifications):
                params = n["params"]
                if (n["method"] == "textDocument/publishDiagnostics" and params["uri"] == target
                        and params.get("version") == version):
                    return params["diagnostics"]
            return None

        return self._wait(published, timeout, f"diagnostics of {path.name} version {version}")

    def code_actions(self, path: Path, diagnostic: dict) -> List[dict]:
        return self.request("textDocument/codeAction", {
            "textDocument": {"uri": uri(path)}, "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]}}) or []

    def shutdown(self, timeout: float = 60) -> int:
        """Ends the session as an editor does; the server's exit status."""
        if self.process.poll() is None:
            self.request("shutdown", None, timeout)
            self.notify("exit", None)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close()
        return self.process.returncode

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close()

    def _close(self) -> None:
        self._reader.join(10)
        for stream in (self.process.stdin, self.process.stdout, self._stderr):
            stream.close()


def apply_edits(text: str, edits: List[dict]) -> str:
    """The text after LSP TextEdits (positions in UTF-16 units; ASCII here)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position):
        return starts[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


class Project:
    """A scratch project: source files and the compile_commands.json naming them."""

    def __init__(self, compiler: str, flags: List[str]):
        self.root = Path(tempfile.mkdtemp(prefix="placelint-editor-"))
        self.compiler = compiler
        self.flags = flags
        self.entries: List[dict] = []

    def add(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if path.suffix == ".cpp":
            self.entries.append({"directory": str(self.root), "file": str(path),
                                 "arguments": [self.compiler, *self.flags, "-c", str(path)]})
            (self.root / "compile_commands.json").write_text(json.dumps(self.entries, indent=1))
        return path

    def environment(self) -> Dict[str, str]:
        """The process environment, without the user's clangd configuration."""
        env = dict(os.environ)
        env["XDG_CONFIG_HOME"] = str(self.root / "config")
        env.pop("CLANGD_FLAGS", None)
        return env

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
