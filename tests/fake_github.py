"""A local stand-in for GitHub's REST API that records every request it gets.

Loopback only, in a thread, with a socket timeout: the tests that post
reviews never touch the network. It keeps the reviews posted to it, lists
them back as GitHub does (so duplicate detection is exercised for real),
and can be told to fail a number of requests with a given status first.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: object


@dataclass
class FakeGitHub:
    requests: list[Recorded] = field(default_factory=list)
    reviews: list[dict] = field(default_factory=list)
    #: (method, status, extra headers) answered, in order, before the real answer.
    failures: list[tuple[str, int, dict[str, str]]] = field(default_factory=list)
    #: Sent as the body of failures.
    failure_body: dict = field(default_factory=lambda: {"message": "Validation Failed"})
    #: Answer every request with this redirect target instead.
    redirect_to: str | None = None
    reviewer: dict = field(default_factory=lambda: {"login": "github-actions[bot]", "type": "Bot"})
    association: str = "NONE"

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            timeout = 10

            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def _answer(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                with fake.lock:
                    fake.requests.append(
                        Recorded(
                            method,
                            parts.path,
                            parse_qs(parts.query),
                            {k.lower(): v for k, v in self.headers.items()},
                            json.loads(raw) if raw else None,
                        )
                    )
                    if fake.redirect_to:
                        self._answer(307, {}, {"Location": fake.redirect_to + self.path})
                        return
                    for i, (fail_method, status, headers) in enumerate(fake.failures):
                        if fail_method == method:
                            del fake.failures[i]
                            self._answer(status, fake.failure_body, headers)
                            return
                    if method == "GET" and parts.path.endswith("/reviews"):
                        page = int(parse_qs(parts.query).get("page", ["1"])[0])
                        self._answer(200, fake.reviews[(page - 1) * 100 : page * 100])
                    elif method == "POST" and parts.path.endswith("/reviews"):
                        review = {
                            "id": len(fake.reviews) + 1,
                            "body": json.loads(raw)["body"],
                            "user": fake.reviewer,
                            "author_association": fake.association,
                            "html_url": f"https://github.example/pull/7#review-{len(fake.reviews) + 1}",
                        }
                        fake.reviews.append(review)
                        self._answer(200, review)
                    else:
                        self._answer(404, {"message": "Not Found"})

            def do_GET(self) -> None:
                self._handle("GET")

            def do_POST(self) -> None:
                self._handle("POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        if self.thread.is_alive():
            self.server.shutdown()
            self.server.server_close()
            self.thread.join(timeout=5)

    def posts(self) -> list[Recorded]:
        return [r for r in self.requests if r.method == "POST"]
