"""tollgate doctor's plugin probe: does the installed plugin actually block, through the path Hermes uses?

Usage: python3 probe_plugin.py <plugin_dir> <session_id>

With Hermes importable (its own Python): ``PluginManager.discover_and_load()`` loads every plugin the way Hermes
starts (HERMES_HOME from the environment, plugins.enabled / disabled, HERMES_SAFE_MODE, load order), then the
probe asks Hermes' own dispatch function ``get_pre_tool_call_directive`` (hermes_cli/plugins.py in 0.19), which
is what runs before every tool call: all registered pre_tool_call callbacks, first block/approve wins.
Without Hermes: the plugin folder is imported the way Hermes imports it (``hermes_plugins.<key>``) and its
register(ctx) is given a minimal context; its callbacks are then called in registration order.

Prints one line ``TOLLGATE-PROBE <json>`` last. Standard library only.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

HARDLINE = "rm -rf /"
PLAIN = "echo tollgate-doctor"


def directive_of(results: List[Any]) -> Dict[str, Any]:
    """Hermes 0.19's rule (_get_pre_tool_call_directive_details): the first valid block (with a message) or approve."""
    for result in results:
        if not isinstance(result, dict):
            continue
        action = result.get("action")
        message = result.get("message")
        if action == "block" and isinstance(message, str) and message:
            return {"action": "block", "message": message}
        if action == "approve":
            return {"action": "approve", "message": message if isinstance(message, str) else None}
    return {"action": None, "message": None}


def call_kwargs(session: str, command: str, n: int) -> Dict[str, Any]:
    return {"tool_name": "terminal", "args": {"command": command}, "task_id": "", "session_id": session,
            "tool_call_id": f"tollgate-doctor-{n}", "turn_id": f"{session}:turn", "api_request_id": "",
            "middleware_trace": []}


def llm_kwargs(session: str) -> Dict[str, Any]:
    return {"session_id": session, "task_id": "", "turn_id": f"{session}:turn",
            "user_message": "tollgate doctor: probe that the guard answers", "conversation_history": [],
            "is_first_turn": True, "model": "probe", "platform": "cli", "sender_id": None}


def with_hermes(plugin_dir: Path, session: str, out: Dict[str, Any]) -> None:
    from hermes_cli import plugins as hp  # type: ignore[import-not-found]

    out["mode"] = "hermes"
    try:
        from importlib.metadata import version
        out["hermes_version"] = version("hermes-agent")
    except Exception:
        out["hermes_version"] = None
    manager = hp.get_plugin_manager()
    manager.discover_and_load()
    listed = []
    for key, loaded in getattr(manager, "_plugins", {}).items():
        manifest = getattr(loaded, "manifest", None)
        listed.append({"key": key, "name": getattr(manifest, "name", key), "source": getattr(manifest, "source", None),
                       "enabled": bool(getattr(loaded, "enabled", False)), "error": getattr(loaded, "error", None),
                       "hooks": list(getattr(loaded, "hooks_registered", []) or []),
                       "path": getattr(manifest, "path", None)})
    out["plugins"] = listed
    mine = [p for p in listed if p["path"] and Path(p["path"]).resolve() == plugin_dir.resolve()]
    out["loaded"] = bool(mine) and mine[0]["enabled"] and not mine[0]["error"]
    out["load_error"] = mine[0]["error"] if mine else "Hermes did not find or load the plugin folder"
    callbacks = getattr(manager, "_hooks", {}).get("pre_tool_call", [])
    out["pre_tool_call_callbacks"] = [getattr(cb, "__name__", repr(cb)) for cb in callbacks]
    hp.invoke_hook("pre_llm_call", **llm_kwargs(session))

    def decide(command: str, n: int) -> Dict[str, Any]:
        kw = call_kwargs(session, command, n)
        action, message = hp.get_pre_tool_call_directive(
            kw["tool_name"], kw["args"], task_id=kw["task_id"], session_id=session, tool_call_id=kw["tool_call_id"],
            turn_id=kw["turn_id"])
        return {"action": action, "message": message}

    out["hardline"] = decide(HARDLINE, 1)
    out["plain"] = decide(PLAIN, 2)
    for hook in ("on_session_finalize", "on_session_end"):
        try:
            hp.invoke_hook(hook, session_id=session, reason="tollgate doctor probe done")
        except Exception:
            pass
    status_of(out, sys.modules.get("hermes_plugins.tollgate"))


class ProbeContext:
    """The part of Hermes' PluginContext the plugin uses: register_hook, and the manager's hook lists."""

    def __init__(self) -> None:
        self._hooks: Dict[str, List[Callable[..., Any]]] = {}
        self._manager = self

    def register_hook(self, name: str, callback: Callable[..., Any]) -> None:
        self._hooks.setdefault(name, []).append(callback)

    def invoke(self, name: str, **kwargs: Any) -> List[Any]:
        results = []
        for callback in list(self._hooks.get(name, [])):
            try:
                result = callback(**kwargs)
            except Exception as exc:  # Hermes 0.19 logs and skips a raising callback
                results.append({"_raised": f"{type(exc).__name__}: {exc}"})
                continue
            if result is not None:
                results.append(result)
        return results


def without_hermes(plugin_dir: Path, session: str, out: Dict[str, Any]) -> None:
    out["mode"] = "plugin-only"
    parent = "hermes_plugins"
    if parent not in sys.modules:
        package = types.ModuleType(parent)
        package.__path__ = []  # type: ignore[attr-defined]
        sys.modules[parent] = package
    name = f"{parent}.tollgate"
    spec = importlib.util.spec_from_file_location(name, plugin_dir / "__init__.py", submodule_search_locations=[str(plugin_dir)])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {plugin_dir}")
    module = importlib.util.module_from_spec(spec)
    module.__package__ = name
    module.__path__ = [str(plugin_dir)]  # type: ignore[attr-defined]
    sys.modules[name] = module
    spec.loader.exec_module(module)
    ctx = ProbeContext()
    module.register(ctx)
    out["loaded"] = True
    out["load_error"] = None
    out["pre_tool_call_callbacks"] = [getattr(cb, "__name__", repr(cb)) for cb in ctx._hooks.get("pre_tool_call", [])]
    ctx.invoke("pre_llm_call", **llm_kwargs(session))
    out["hardline"] = directive_of(ctx.invoke("pre_tool_call", **call_kwargs(session, HARDLINE, 1)))
    out["plain"] = directive_of(ctx.invoke("pre_tool_call", **call_kwargs(session, PLAIN, 2)))
    for hook in ("on_session_finalize", "on_session_end"):
        ctx.invoke(hook, session_id=session, reason="tollgate doctor probe done")
    status_of(out, module)


def status_of(out: Dict[str, Any], module: Optional[types.ModuleType]) -> None:
    status = getattr(module, "STATUS", None) if module is not None else None
    if isinstance(status, dict):
        out["status"] = {k: v for k, v in status.items() if not k.startswith("_")}


def main() -> None:
    plugin_dir = Path(sys.argv[1])
    session = sys.argv[2]
    out: Dict[str, Any] = {"python": sys.version.split()[0], "executable": sys.executable}
    started = time.monotonic()
    try:
        try:
            import hermes_cli.plugins  # type: ignore[import-not-found]  # noqa: F401
            have_hermes = True
        except Exception:
            have_hermes = False
        if have_hermes:
            with_hermes(plugin_dir, session, out)
        else:
            without_hermes(plugin_dir, session, out)
    except BaseException as exc:  # noqa: BLE001 - the probe reports, it never crashes silently
        out["error"] = f"{type(exc).__name__}: {exc}"
        out["trace"] = traceback.format_exc()[-2000:]
    out["ms"] = round((time.monotonic() - started) * 1000)
    sys.stdout.flush()
    print("TOLLGATE-PROBE " + json.dumps(out, default=str), flush=True)


if __name__ == "__main__":
    main()
