"""A loopback server that answers HTTP requests with whatever bytes a test scripts, however badly.

For the ways a real server (or whatever sits between jaxfix and GitHub) can
misbehave: bad status lines, truncated bodies, oversized headers, bytes that
are not UTF-8, a trickle of one byte at a time. 127.0.0.1 only, one daemon
thread per connection, every socket with a timeout, and ``close()`` stops it
all; a scripted trickle stops as soon as the client hangs up.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable

#: Given the connection, answer it (the request has been read).
Script = Callable[[socket.socket], None]


def answer(status: str, body: bytes, headers: dict[str, str] | None = None, *, length: int | None = None) -> bytes:
    """A whole HTTP/1.1 response: ``status`` like "200 OK", Content-Length given or counted."""
    lines = [f"HTTP/1.1 {status}", f"Content-Length: {len(body) if length is None else length}", "Connection: close"]
    lines += [f"{key}: {value}" for key, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def sends(data: bytes) -> Script:
    return lambda conn: conn.sendall(data)


def trickles(data: bytes, every: float) -> Script:
    """One byte, then a pause, and again: each read is quick, the whole answer never is."""

    def script(conn: socket.socket) -> None:
        for byte in data:
            conn.sendall(bytes([byte]))
            time.sleep(every)

    return script


class MisbehavingServer:
    def __init__(self, *scripts: Script) -> None:
        """Each connection gets the next script; the last one repeats."""
        self.scripts = list(scripts)
        self.connections = 0
        self.requests: list[bytes] = []
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self._threads: list[threading.Thread] = []
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    @property
    def url(self) -> str:
        host, port = self._listener.getsockname()[:2]
        return f"http://{host}:{port}"

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            script = self.scripts[min(self.connections, len(self.scripts) - 1)]
            self.connections += 1
            thread = threading.Thread(target=self._serve, args=(conn, script), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket, script: Script) -> None:
        conn.settimeout(5)
        with conn:
            try:
                self.requests.append(_read_request(conn))
                if not self._stop.is_set():
                    script(conn)
            except OSError:
                pass  # the client hung up (or timed out): that is what some tests want

    def close(self) -> None:
        self._stop.set()
        self._listener.close()
        self._accepting.join(timeout=5)
        for thread in self._threads:
            thread.join(timeout=10)


def _read_request(conn: socket.socket) -> bytes:
    """The request's head and its body (by Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body
