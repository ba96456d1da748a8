"""A tiny HTTP/1.1 server on a Unix socket standing in for the tollgate daemon: each test says how it answers.

Like the daemon it registers runtimes (``POST /v1/runtime/register`` hands out a key) and signs its answers to
signed requests; ``sign=False`` makes it the attacker's fake daemon, which never saw the plugin register and so
cannot sign (``forge_key`` signs with a key of its own instead).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import http.server
import json
import os
import socketserver
import tempfile
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

# (status, body, delay in seconds, close the connection afterwards without saying so)
Answer = Tuple[int, Any, float, bool]
App = Callable[[str, Any], Any]


def reply(status: int = 200, body: Any = None, delay: float = 0.0, drop_connection: bool = False) -> Answer:
    return (status, {} if body is None else body, delay, drop_connection)


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    allow_reuse_address = True


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "_Server"

    def setup(self) -> None:
        super().setup()
        self.server.fake.connections += 1  # type: ignore[attr-defined]

    def log_message(self, *_args: Any) -> None:
        return

    def address_string(self) -> str:  # Unix sockets have no client address
        return "unix"

    def do_POST(self) -> None:
        fake: FakeDaemon = self.server.fake  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            body = raw
        if self.path == "/v1/runtime/register" and fake.handles_registration:
            fake.registrations += 1  # not in requests: the tests count what the hooks send
            answer: Any = reply(200, {"registration_id": fake.registration_id, "key": base64.b64encode(fake.key).decode("ascii")})
        else:
            fake.requests.append((self.path, body))
            fake.check_auth(self.command, self.path, self.headers, raw)
            answer = fake.app(self.path, body)
        if not isinstance(answer, tuple):
            answer = reply(200, answer)
        status, payload, delay, drop = answer
        if delay:
            time.sleep(delay)
        data = payload if isinstance(payload, bytes) else (
            payload.encode("utf-8") if isinstance(payload, str) else json.dumps(payload).encode("utf-8"))
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            mac = fake.answer_mac(self.headers, status, data)
            if mac is not None:
                self.send_header("x-tollgate-mac", mac)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        if drop:
            self.close_connection = True


def _mac(key: bytes, *parts: bytes) -> str:
    return base64.b64encode(hmac.new(key, b"\n".join(parts), hashlib.sha256).digest()).decode("ascii")


class FakeDaemon:
    def __init__(self, app: Optional[App] = None, sign: bool = True, socket_path: Optional[str] = None,
                 forge_key: Optional[bytes] = None, handles_registration: bool = True):
        self._dir = tempfile.mkdtemp(prefix="tollgate-fake-")
        self.socket_path = socket_path or os.path.join(self._dir, "tollgate.sock")
        self.app: App = app or (lambda path, body: reply(200, {}))
        self.requests: List[Tuple[str, Any]] = []
        self.connections = 0
        self.sign = sign
        self.forge_key = forge_key
        self.handles_registration = handles_registration
        self.key = os.urandom(32)
        self.registration_id = "reg-" + base64.b16encode(os.urandom(6)).decode("ascii").lower()
        self.registrations = 0
        # Requests that claimed the registration with a wrong or missing signature.
        self.bad_auth: List[str] = []
        self._server = _Server(self.socket_path, _Handler)
        self._server.fake = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    def check_auth(self, method: str, path: str, headers: Any, raw: bytes) -> None:
        nonce, auth = headers.get("x-tollgate-nonce") or "", headers.get("x-tollgate-auth") or ""
        expected = _mac(self.key, method.encode(), path.encode(), nonce.encode(), raw)
        if headers.get("x-tollgate-registration") != self.registration_id or not hmac.compare_digest(auth, expected):
            self.bad_auth.append(path)

    def answer_mac(self, headers: Any, status: int, data: bytes) -> Optional[str]:
        nonce = headers.get("x-tollgate-nonce")
        key = self.forge_key if self.forge_key is not None else (self.key if self.sign else None)
        if nonce is None or key is None:
            return None
        return _mac(key, nonce.encode(), str(status).encode(), data)

    def bodies(self, hook: str) -> List[Dict[str, Any]]:
        return [b for p, b in self.requests if p == hook or p == f"/v1/hooks/hermes/{hook}"]

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        try:
            os.unlink(self.socket_path)
        except FileNotFoundError:
            pass
        try:
            os.rmdir(self._dir)
        except OSError:
            pass

    def __enter__(self) -> "FakeDaemon":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.stop()


def allow_all(path: str, body: Any) -> Answer:
    if path.endswith("/pre_tool_call"):
        return reply(200, {"action": "allow", "verdict": "allow"})
    if path.endswith("/transform_llm_output"):
        return reply(200, {"response_text": None, "verdict": "allow"})
    return reply(200, {})
