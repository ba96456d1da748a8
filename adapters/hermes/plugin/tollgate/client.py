"""The daemon client: one JSON request over the tollgate Unix socket, standard library only.

Connections are kept alive and reused (measured: a fresh connection per call costs a connect and the daemon's
per-connection setup on every tool call). An idle connection is dropped after ``IDLE_LIMIT_S``, before the
daemon's own 5 s keep-alive timeout, so a reused one is never half-closed by the daemon; should a reused one
still fail before any answer arrived, the request is sent once more on a fresh connection.

Every failure raises ``DaemonError``; callers turn it into a block (tool calls) or a held reply.

The plugin registers once (``register``, at Hermes' plugin ``register()``) and gets a key that stays in this
process's memory only. Every request is signed with it (``x-tollgate-auth``: HMAC-SHA256 over method, path, a fresh
nonce and the body) and every answer must carry the daemon's MAC over the same nonce, status and body
(``x-tollgate-mac``). An answer without a valid MAC is a ``DaemonError``: it comes from a process that is not the
daemon this plugin registered with (a fake one bound to the socket later), or it was meant for another request.
A daemon that no longer knows the registration is not re-registered with silently: the one answering may be a
fake, so the plugin keeps blocking and says so (restart Hermes to register again).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import logging
import os
import secrets
import socket
import threading
import time
from typing import Any, List, Optional, Tuple

IDLE_LIMIT_S = 4.0
MAX_IDLE_CONNECTIONS = 8
MAX_ANSWER_BYTES = 4 * 1024 * 1024
REGISTER_PATH = "/v1/runtime/register"

logger = logging.getLogger("tollgate.hermes")


class DaemonError(Exception):
    """The daemon could not be asked, or its answer could not be read."""


class DaemonAnswer:
    """An HTTP answer: status and the body parsed as JSON (``None`` when it is not JSON)."""

    __slots__ = ("status", "json", "text", "raw")

    def __init__(self, status: int, body: bytes):
        self.status = status
        self.raw = body
        self.text = body.decode("utf-8", errors="replace")
        try:
            self.json: Any = json.loads(self.text) if self.text else None
        except ValueError:
            self.json = None


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float):
        super().__init__("tollgate", timeout=timeout)
        self._socket_path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self._socket_path)
        except BaseException:
            sock.close()
            raise
        self.sock = sock


class DaemonClient:
    """Thread-safe: Hermes calls hooks from the agent thread, tool worker threads and gateway sessions at once."""

    def __init__(self, socket_path: str, timeout_ms: int, keep_alive: bool = True):
        self.socket_path = socket_path
        self.timeout_s = max(timeout_ms, 1) / 1000.0
        self.keep_alive = keep_alive
        self._idle: List[Tuple[_UnixConnection, float]] = []
        self._lock = threading.Lock()
        self._registration: Optional[Tuple[str, bytes]] = None

    @property
    def registration_id(self) -> Optional[str]:
        return None if self._registration is None else self._registration[0]

    def register(self, runtime: str = "hermes", pid: Optional[int] = None) -> str:
        """Asks the daemon for this process's key (once). Raises DaemonError when it cannot be had."""
        if self._registration is not None:
            return self._registration[0]
        answer = self._post(REGISTER_PATH, {"runtime": runtime, "pid": os.getpid() if pid is None else pid}, None, None)
        reply = answer.json if isinstance(answer.json, dict) else {}
        registration_id, key_text = reply.get("registration_id"), reply.get("key")
        if answer.status != 200 or not isinstance(registration_id, str) or not registration_id or not isinstance(key_text, str):
            raise DaemonError(f"the daemon did not register this runtime (HTTP {answer.status}): {answer.text[:200]}")
        try:
            key = base64.b64decode(key_text, validate=True)
        except ValueError as exc:
            raise DaemonError(f"the daemon's registration key is not base64: {exc}") from None
        if len(key) < 32:
            raise DaemonError("the daemon's registration key is too short")
        self._registration = (registration_id, key)
        return registration_id

    def post(self, path: str, body: Any, timeout_s: Optional[float] = None) -> DaemonAnswer:
        if self._registration is None:
            raise DaemonError("this plugin is not registered with the tollgate daemon, so no answer can be trusted")
        return self._post(path, body, timeout_s, self._registration)

    def _post(self, path: str, body: Any, timeout_s: Optional[float], registration: Optional[Tuple[str, bytes]]) -> DaemonAnswer:
        payload = json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")
        budget = self.timeout_s if timeout_s is None else timeout_s
        deadline = time.monotonic() + budget
        signing = None if registration is None else _Signing(registration, path, payload)
        conn, reused = self._take(budget)
        try:
            return self._checked(self._exchange(conn, path, payload, deadline, signing), signing)
        except _NothingReceived as first:
            if not reused or time.monotonic() >= deadline:
                raise DaemonError(str(first.__cause__ or first)) from None
            # A kept-alive connection the daemon had already closed: the request never reached it. Once more, fresh.
            conn = self._fresh(max(deadline - time.monotonic(), 0.001))
            try:
                # A fresh nonce: the daemon accepts each nonce once.
                signing = None if registration is None else _Signing(registration, path, payload)
                return self._checked(self._exchange(conn, path, payload, deadline, signing), signing)
            except _NothingReceived as second:
                raise DaemonError(str(second.__cause__ or second)) from None

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn, _ in idle:
            conn.close()

    def _checked(self, exchanged: "Tuple[DaemonAnswer, Optional[str]]", signing: "Optional[_Signing]") -> DaemonAnswer:
        answer, mac = exchanged
        if signing is None:
            return answer
        if mac is None or not hmac.compare_digest(mac.encode("ascii", "replace"), signing.answer_mac(answer.status, answer.raw)):
            code = answer.json.get("error", {}).get("code") if isinstance(answer.json, dict) and isinstance(answer.json.get("error"), dict) else None
            if code == "unknown-registration":
                logger.error("tollgate: the daemon on %s does not know this plugin's registration; every call stays blocked "
                             "(not re-registering: the process answering may not be the daemon). Restart Hermes.", self.socket_path)
            raise DaemonError(f"the answer (HTTP {answer.status}) is not signed by the daemon this plugin registered with"
                              + (f" ({code})" if code else ""))
        return answer

    def _exchange(self, conn: _UnixConnection, path: str, payload: bytes, deadline: float,
                  signing: "Optional[_Signing]" = None) -> "Tuple[DaemonAnswer, Optional[str]]":
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            conn.close()
            raise _NothingReceived("timed out before sending")
        conn.timeout = remaining
        if conn.sock is not None:
            conn.sock.settimeout(remaining)
        headers = {"Content-Type": "application/json", "Content-Length": str(len(payload)),
                   "Connection": "keep-alive" if self.keep_alive else "close"}
        if signing is not None:
            headers.update(signing.headers)
        try:
            conn.request("POST", path, body=payload, headers=headers)
            response = conn.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
            conn.close()
            raise _NothingReceived(str(exc)) from exc
        except socket.timeout as exc:
            conn.close()
            raise DaemonError(f"no answer within {self.timeout_s * 1000:.0f} ms") from exc
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise DaemonError(f"cannot reach the tollgate daemon at {self.socket_path}: {exc}") from exc
        try:
            body = response.read(MAX_ANSWER_BYTES + 1)
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise DaemonError(f"the answer was cut off: {exc}") from exc
        if len(body) > MAX_ANSWER_BYTES:
            conn.close()
            raise DaemonError("the answer is too large")
        if time.monotonic() > deadline:
            conn.close()
            raise DaemonError(f"no complete answer within {self.timeout_s * 1000:.0f} ms")
        mac = response.getheader("x-tollgate-mac")
        if self.keep_alive and not response.will_close:
            self._give_back(conn)
        else:
            conn.close()
        return DaemonAnswer(response.status, body), mac

    def _take(self, timeout: float) -> Tuple[_UnixConnection, bool]:
        now = time.monotonic()
        stale: List[_UnixConnection] = []
        found: Optional[_UnixConnection] = None
        with self._lock:
            while self._idle:
                conn, since = self._idle.pop()
                if now - since < IDLE_LIMIT_S:
                    found = conn
                    break
                stale.append(conn)
        for conn in stale:
            conn.close()
        if found is not None:
            return found, True
        return self._fresh(timeout), False

    def _fresh(self, timeout: float) -> _UnixConnection:
        return _UnixConnection(self.socket_path, timeout)

    def _give_back(self, conn: _UnixConnection) -> None:
        with self._lock:
            if len(self._idle) < MAX_IDLE_CONNECTIONS:
                self._idle.append((conn, time.monotonic()))
                return
        conn.close()


class _Signing:
    """One request's signature headers, and the MAC its answer must carry (over the same fresh nonce)."""

    __slots__ = ("headers", "_key", "_nonce")

    def __init__(self, registration: Tuple[str, bytes], path: str, payload: bytes):
        registration_id, self._key = registration
        self._nonce = secrets.token_urlsafe(18).encode("ascii")
        auth = _mac(self._key, b"POST", path.encode("utf-8"), self._nonce, payload)
        self.headers = {"x-tollgate-registration": registration_id, "x-tollgate-nonce": self._nonce.decode("ascii"),
                        "x-tollgate-auth": auth.decode("ascii")}

    def answer_mac(self, status: int, body: bytes) -> bytes:
        return _mac(self._key, self._nonce, str(status).encode("ascii"), body)


def _mac(key: bytes, *parts: bytes) -> bytes:
    return base64.b64encode(hmac.new(key, b"\n".join(parts), hashlib.sha256).digest())


class _NothingReceived(Exception):
    """The connection failed before any byte of an answer arrived."""
