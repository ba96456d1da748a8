"""Where the daemon is and how long to wait for it. Read once, at registration; a bad value is a startup failure
(the plugin then blocks every tool call and says why), never a silent default.

| setting | environment | config.json key | default |
|---|---|---|---|
| socket path | ``TOLLGATE_SOCKET`` | ``socket`` | ``$TOLLGATE_HOME/data/tollgate.sock`` (else ``./data/tollgate.sock``) |
| answer timeout | ``TOLLGATE_TIMEOUT_MS`` | ``timeout_ms`` | ``3000`` |
| ask through Hermes' prompt | ``TOLLGATE_HERMES_PROMPT`` | ``prompt`` | ``auto`` (``always`` / ``never``) |
| keep connections alive | ``TOLLGATE_KEEP_ALIVE`` | ``keep_alive`` | ``1`` |

``config.json`` lives beside this file (``tollgate install hermes`` writes it). The environment wins over it. A
relative socket path is resolved against ``TOLLGATE_HOME``, else the working directory of the Hermes process.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Mapping, Optional

DEFAULT_TIMEOUT_MS = 3000
MAX_TIMEOUT_MS = 120_000
PROMPT_MODES = ("auto", "always", "never")
CONFIG_FILE = Path(__file__).with_name("config.json")


class SettingsError(Exception):
    """A setting is present but unusable."""


class Settings:
    __slots__ = ("socket_path", "timeout_ms", "prompt_mode", "keep_alive", "sources")

    def __init__(self, socket_path: str, timeout_ms: int, prompt_mode: str, keep_alive: bool, sources: Dict[str, str]):
        self.socket_path = socket_path
        self.timeout_ms = timeout_ms
        self.prompt_mode = prompt_mode
        self.keep_alive = keep_alive
        self.sources = sources

    def describe(self) -> Dict[str, Any]:
        return {"socket": self.socket_path, "timeout_ms": self.timeout_ms, "prompt": self.prompt_mode,
                "keep_alive": self.keep_alive, "sources": dict(self.sources)}


def load_settings(env: Optional[Mapping[str, str]] = None, config_file: Optional[Path] = None) -> Settings:
    env = os.environ if env is None else env
    file_values = _read_config_file(CONFIG_FILE if config_file is None else config_file)
    sources: Dict[str, str] = {}

    def pick(env_name: str, key: str) -> Any:
        raw = env.get(env_name)
        if raw is not None and raw.strip() != "":
            sources[key] = f"env {env_name}"
            return raw.strip()
        if key in file_values and file_values[key] is not None:
            sources[key] = f"config.json {key}"
            return file_values[key]
        sources[key] = "default"
        return None

    socket_value = pick("TOLLGATE_SOCKET", "socket")
    if socket_value is not None and (not isinstance(socket_value, str) or socket_value.strip() == ""):
        raise SettingsError("the socket path must be a non-empty string")
    home = env.get("TOLLGATE_HOME", "").strip()
    base = Path(home).expanduser() if home else Path.cwd()
    socket_path = Path(socket_value).expanduser() if socket_value else Path("data") / "tollgate.sock"
    if not socket_path.is_absolute():
        socket_path = base / socket_path

    timeout_ms = _positive_int(pick("TOLLGATE_TIMEOUT_MS", "timeout_ms"), DEFAULT_TIMEOUT_MS, "TOLLGATE_TIMEOUT_MS / timeout_ms")
    if timeout_ms > MAX_TIMEOUT_MS:
        raise SettingsError(f"TOLLGATE_TIMEOUT_MS / timeout_ms is {timeout_ms}; at most {MAX_TIMEOUT_MS} ms")

    prompt_mode = pick("TOLLGATE_HERMES_PROMPT", "prompt") or "auto"
    if not isinstance(prompt_mode, str) or prompt_mode.lower() not in PROMPT_MODES:
        raise SettingsError(f"TOLLGATE_HERMES_PROMPT / prompt must be one of {', '.join(PROMPT_MODES)}, not {prompt_mode!r}")

    keep_alive = _flag(pick("TOLLGATE_KEEP_ALIVE", "keep_alive"), True, "TOLLGATE_KEEP_ALIVE / keep_alive")
    return Settings(str(socket_path), timeout_ms, prompt_mode.lower(), keep_alive, sources)


def _read_config_file(path: Path) -> Dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc}") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SettingsError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise SettingsError(f"{path} must hold a JSON object")
    return data


def _positive_int(value: Any, default: int, name: str) -> int:
    if value is None:
        return default
    if isinstance(value, bool):
        raise SettingsError(f"{name} must be a whole number of milliseconds, not {value!r}")
    try:
        number = int(value) if not isinstance(value, float) or value.is_integer() else None
    except (TypeError, ValueError):
        number = None
    if number is None or number <= 0:
        raise SettingsError(f"{name} must be a positive whole number of milliseconds, not {value!r}")
    return number


def _flag(value: Any, default: bool, name: str) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"0", "false", "no", "off"}:
        return False
    raise SettingsError(f"{name} must be 1 or 0, not {value!r}")
