"""The daemon client: one JSON request over the tollgate Unix socket, standard library only.

Connections are kept alive and reused (measured: a fresh connection per call costs a connect and the daemon's
per-connection setup on every tool call). An idle connection is dropped after ``IDLE_LIMIT_S``, before the
daemon's own 5 s keep-alive timeout, so a reused one is never half-closed by the daemon; should a reused one
still fail before any answer arrived, the request is sent once more on a fresh connection.

Every failure raises ``DaemonError``; callers turn it into a block (tool calls) or a held reply.
"""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from typing import Any, List, Optional, Tuple

IDLE_LIMIT_S = 4.0
MAX_IDLE_CONNECTIONS = 8
MAX_ANSWER_BYTES = 4 * 1024 * 1024


class DaemonError(Exception):
    """The daemon could not be asked, or its answer could not be read."""


class DaemonAnswer:
    """An HTTP answer: status and the body parsed as JSON (``None`` when it is not JSON)."""

    __slots__ = ("status", "json", "text")

    def __init__(self, status: int, body: bytes):
        self.status = status
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

    def post(self, path: str, body: Any, timeout_s: Optional[float] = None) -> DaemonAnswer:
        payload = json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")
        budget = self.timeout_s if timeout_s is None else timeout_s
        deadline = time.monotonic() + budget
        conn, reused = self._take(budget)
        try:
            return self._exchange(conn, path, payload, deadline)
        except _NothingReceived as first:
            if not reused or time.monotonic() >= deadline:
                raise DaemonError(str(first.__cause__ or first)) from None
            # A kept-alive connection the daemon had already closed: the request never reached it. Once more, fresh.
            conn = self._fresh(max(deadline - time.monotonic(), 0.001))
            try:
                return self._exchange(conn, path, payload, deadline)
            except _NothingReceived as second:
                raise DaemonError(str(second.__cause__ or second)) from None

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn, _ in idle:
            conn.close()

    def _exchange(self, conn: _UnixConnection, path: str, payload: bytes, deadline: float) -> DaemonAnswer:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            conn.close()
            raise _NothingReceived("timed out before sending")
        conn.timeout = remaining
        if conn.sock is not None:
            conn.sock.settimeout(remaining)
        headers = {"Content-Type": "application/json", "Content-Length": str(len(payload)),
                   "Connection": "keep-alive" if self.keep_alive else "close"}
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
        if self.keep_alive and not response.will_close:
            self._give_back(conn)
        else:
            conn.close()
        return DaemonAnswer(response.status, body)

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


class _NothingReceived(Exception):
    """The connection failed before any byte of an answer arrived."""
