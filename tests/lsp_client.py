"""A Language Server Protocol client over stdio, scripted: what an editor sends, and what it reads back.

JSON-RPC messages framed by ``Content-Length`` headers, written to the
server's stdin and read from its stdout by a thread, so that notifications
(diagnostics) are collected while the test waits. Requests the server sends
the client (``client/registerCapability``) are answered with ``null``, as an
editor that accepts them would. Every message the server sends is kept in
`received`, in order. Used by tests/test_server.py and benchmarks/server_latency.py.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path


class ServerError(Exception):
    """The server answered a request with an error."""


class LspClient:
    def __init__(self, argv: list[str], *, cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.received: list[dict] = []
        self._responses: dict[int, queue.Queue] = {}
        self._notifications: queue.Queue = queue.Queue()
        self._next_id = 0
        self._write_lock = threading.Lock()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._read_messages, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.extend(self.process.stderr), daemon=True).start()  # type: ignore[arg-type]

    # -- the wire ------------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        with self._write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)  # type: ignore[union-attr]
            self.process.stdin.flush()  # type: ignore[union-attr]

    def _read_messages(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()  # type: ignore[union-attr]
                if not line:
                    self._notifications.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))  # type: ignore[union-attr, arg-type]
            self.received.append(message)
            if "id" in message and "method" in message:  # a request to the client
                self._send({"id": message["id"], "result": None})
            elif "id" in message:
                self._responses.setdefault(message["id"], queue.Queue()).put(message)
            else:
                self._notifications.put(message)

    # -- what a test says ----------------------------------------------------------------------

    def request(self, method: str, params: object, timeout: float = 60) -> object:
        self._next_id += 1
        ident = self._next_id
        answers = self._responses.setdefault(ident, queue.Queue())
        self._send({"id": ident, "method": method, "params": params})
        try:
            answer = answers.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer to {method} in {timeout} s; server stderr:\n{self.stderr}") from None
        if "error" in answer:
            raise ServerError(answer["error"])
        return answer.get("result")

    def notify(self, method: str, params: object) -> None:
        self._send({"method": method, "params": params})

    def notification(self, method: str, where: Callable[[dict], bool] = lambda p: True, timeout: float = 60) -> dict:
        """The params of the next notification `method` that satisfies `where` (others are passed by)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                message = self._notifications.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise TimeoutError(f"no {method} in {timeout} s; server stderr:\n{self.stderr}") from None
            if message is None:
                raise ConnectionError(f"the server closed its output; stderr:\n{self.stderr}")
            if message.get("method") == method and where(message["params"]):
                return message["params"]

    def pending(self, method: str) -> list[dict]:
        """The params of every `method` notification already received and not yet waited for."""
        out = []
        while True:
            try:
                message = self._notifications.get_nowait()
            except queue.Empty:
                return out
            if message is not None and message.get("method") == method:
                out.append(message["params"])

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode(errors="replace")

    # -- a session -----------------------------------------------------------------------------

    def initialize(self, root: Path, capabilities: dict | None = None, options: dict | None = None) -> dict:
        result = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": capabilities if capabilities is not None else EDITOR_CAPABILITIES,
                "initializationOptions": options or {},
            },
        )
        self.notify("initialized", {})
        return result  # type: ignore[return-value]

    def open(self, path: Path, text: str, version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": path.as_uri(), "languageId": "python", "version": version, "text": text}},
        )

    def change(self, path: Path, text: str, version: int) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [{"text": text}]},
        )

    def diagnostics(self, path: Path, version: int, timeout: float = 60) -> list[dict]:
        uri = path.as_uri()
        return self.notification(
            "textDocument/publishDiagnostics", lambda p: p["uri"] == uri and p.get("version") == version, timeout
        )["diagnostics"]

    def shutdown(self, timeout: float = 30) -> int:
        """shutdown, then exit: the server's exit status."""
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


#: What a current editor announces (VS Code's shape, trimmed to what the server reads).
EDITOR_CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "workspace": {
        "workspaceEdit": {"documentChanges": True},
        "didChangeWatchedFiles": {"dynamicRegistration": True},
    },
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "publishDiagnostics": {"versionSupport": True},
        "codeAction": {
            "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source", "source.fixAll"]}},
            "isPreferredSupport": True,
            "resolveSupport": {"properties": ["edit"]},
            "dataSupport": True,
        },
    },
}


def apply_text_edits(text: str, edits: list[dict]) -> str:
    """Apply LSP TextEdits (UTF-16 positions, all relative to the original text) as an editor does."""

    def offset(position: dict) -> int:
        lines = text.splitlines(keepends=True)
        start = sum(len(line) for line in lines[: position["line"]])
        if position["line"] >= len(lines):
            return len(text)
        line, units, index = lines[position["line"]], 0, 0
        while index < len(line) and units < position["character"] and line[index] not in "\r\n":
            units += 2 if ord(line[index]) > 0xFFFF else 1
            index += 1
        return start + index

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text
