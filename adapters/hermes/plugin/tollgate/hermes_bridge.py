"""What the plugin needs from Hermes beyond the documented plugin API. Every use is feature-tested (never a version
string) and fails safe: when an internal is missing the plugin keeps blocking and falls back to its plain path.

Read against hermes-agent 0.19.0 (file:line below are that version's):

* Hook order. ``PluginManager.invoke_hook`` (hermes_cli/plugins.py:1892-1927) calls the callbacks of
  ``PluginManager._hooks[name]`` (:1253, appended by ``PluginContext.register_hook`` :1158-1173) in list order,
  and ``_get_pre_tool_call_directive_details`` (:2101-2175) takes the FIRST result that is a valid ``block`` or
  ``approve`` directive. So an earlier plugin that answers ``approve`` for everything hides a later block (and in
  Hermes' yolo mode ``request_tool_approval`` then approves it without asking, tools/approval.py:2692-2693).
  ``transform_llm_output`` takes the first non-empty string (agent/turn_finalizer.py:469-473). tollgate therefore
  puts its callbacks first in those lists: at registration, on every pre_llm_call and on_session_start, and on
  each of its own decisions (for the next one). The list is REPLACED, never edited in place: ``invoke_hook``
  iterates the list object it read, so a call in flight on another thread is not disturbed.
* Failure. A callback that raises is logged and skipped (plugins.py:1918-1926): fail OPEN. The plugin catches
  everything itself. If ``resolve_pre_tool_block`` itself raises, the dispatch sites run the tool
  (agent/tool_executor.py:454-466, model_tools.py:1183-1196): nothing a plugin can change.
* Asking a human. 0.19 has the ``approve`` directive (plugins.py:2101-2175, resolved by ``resolve_pre_tool_block``
  :2228-2276 through ``tools.approval.request_tool_approval`` :2940-3016). tollgate does not hand its questions to
  it: under Hermes yolo and for an earlier session/always answer it approves without asking
  (approval.py:2692-2697), and on the CLI it never tells the plugin what the human chose, so the answer could
  not be recorded. Instead the plugin asks through the same prompt itself, from its pre_tool_call callback
  (which runs on the agent thread, before the tool runs, tool_executor.py:454 and :1117):
  - CLI: ``tools.approval.prompt_dangerous_approval`` (:2273) with the thread's approval callback that the
    interactive CLI registers (``tools.terminal_tool.set_approval_callback`` / ``_get_approval_callback``,
    terminal_tool.py:180-200, cli.py:6193 and :12031) when its prompt UI is live, else Hermes' plain terminal
    prompt when stdin is a terminal. Interactive when ``tools.approval._is_interactive_cli()`` (:84).
  - Gateway: ``tools.approval._await_gateway_decision`` (:3058-3160) with the session's notify callback
    (``_gateway_notify_cbs`` :2045, registered by the gateway per session :2048), the same round trip (buttons,
    ``/approve`` ``/deny``) Hermes uses for dangerous commands (:2747-2790). Gateway context:
    ``_is_gateway_approval_context()`` (:227); the session key ``get_current_session_key()`` (:202).
  Both return once | session | always | deny (or nothing on timeout, which is a deny).
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Dict, Optional

# ---------------------------------------------------------------------------------------------------------------
# Hook order
# ---------------------------------------------------------------------------------------------------------------


def hook_lists(manager: Any) -> Optional[Dict[str, list]]:
    """``PluginManager._hooks`` (hermes_cli/plugins.py:1253), or None when this Hermes keeps hooks elsewhere."""
    hooks = getattr(manager, "_hooks", None)
    return hooks if isinstance(hooks, dict) else None


def plugin_manager(ctx: Any = None) -> Any:
    manager = getattr(ctx, "_manager", None) if ctx is not None else None
    if manager is not None:
        return manager
    try:
        from hermes_cli.plugins import get_plugin_manager  # type: ignore[import-not-found]
        return get_plugin_manager()
    except Exception:
        return None


def move_first(manager: Any, callbacks: Dict[str, Callable[..., Any]]) -> bool:
    """Puts each callback at the head of its hook list. True when every one is (or now is) first."""
    hooks = hook_lists(manager)
    if hooks is None:
        return False
    all_first = True
    for name, callback in callbacks.items():
        current = hooks.get(name)
        if not isinstance(current, list) or not any(cb is callback for cb in current):
            all_first = False
            continue
        if current[0] is callback:
            continue
        # Replace, do not mutate: invoke_hook (plugins.py:1913) iterates the list object it fetched.
        hooks[name] = [callback] + [cb for cb in current if cb is not callback]
    return all_first


def is_first(manager: Any, name: str, callback: Callable[..., Any]) -> bool:
    hooks = hook_lists(manager)
    current = hooks.get(name) if hooks is not None else None
    return isinstance(current, list) and bool(current) and current[0] is callback


# ---------------------------------------------------------------------------------------------------------------
# Features of the installed Hermes
# ---------------------------------------------------------------------------------------------------------------


def valid_hooks() -> Optional[frozenset]:
    try:
        from hermes_cli.plugins import VALID_HOOKS  # type: ignore[import-not-found]
        return frozenset(VALID_HOOKS)
    except Exception:
        return None


def has_approve_directive() -> bool:
    """Whether this Hermes understands ``{"action": "approve"}`` from pre_tool_call (0.19 does)."""
    try:
        import hermes_cli.plugins as plugins  # type: ignore[import-not-found]
        return callable(getattr(plugins, "resolve_pre_tool_block", None)) and _approval_module_has("request_tool_approval")
    except Exception:
        return False


def _approval_module_has(*names: str) -> bool:
    try:
        import tools.approval as approval  # type: ignore[import-not-found]
        return all(callable(getattr(approval, n, None)) for n in names)
    except Exception:
        return False


# ---------------------------------------------------------------------------------------------------------------
# Asking the human through Hermes' own approval prompt
# ---------------------------------------------------------------------------------------------------------------


class PromptSurface:
    """Where a question can be put to a human right now, from this thread."""

    def __init__(self, kind: str, ask: Callable[[str, str, str], Optional[str]]):
        self.kind = kind  # "cli" | "gateway"
        self._ask = ask

    def ask(self, display: str, description: str, key: str) -> Optional[str]:
        return self._ask(display, description, key)


def prompt_surface(mode: str) -> Optional[PromptSurface]:
    """The surface to ask on, or None (then tollgate blocks and the human answers with ``tollgate approve``).

    ``mode``: ``auto`` asks on the CLI only with the CLI's approval callback or a terminal on stdin, and on the
    gateway when the session has a notify callback; ``always`` also asks an interactive CLI without either (its
    ``input()`` prompt reads stdin); ``never`` never asks.
    """
    if mode == "never":
        return None
    try:
        import tools.approval as approval  # type: ignore[import-not-found]
    except Exception:
        return None
    try:
        if _env_on("HERMES_CRON_SESSION"):
            return None
        if _call(approval, "_is_gateway_approval_context") is True:
            return _gateway_surface(approval)
        if _call(approval, "_is_interactive_cli") is True:
            return _cli_surface(approval, mode)
    except Exception:
        return None
    return None


def _cli_surface(approval: Any, mode: str) -> Optional[PromptSurface]:
    prompt = getattr(approval, "prompt_dangerous_approval", None)
    if not callable(prompt):
        return None
    callback = _cli_approval_callback()
    if callback is not None and not _has_live_ui(callback):
        callback = None  # Hermes' own terminal prompt (input()) instead, when there is a terminal
    if callback is None and mode != "always" and not _stdin_is_terminal():
        return None

    def ask(display: str, description: str, _key: str) -> Optional[str]:
        return prompt(display, description, allow_permanent=True, approval_callback=callback)

    return PromptSurface("cli", ask)


def _gateway_surface(approval: Any) -> Optional[PromptSurface]:
    await_decision = getattr(approval, "_await_gateway_decision", None)
    session_key_of = getattr(approval, "get_current_session_key", None)
    callbacks = getattr(approval, "_gateway_notify_cbs", None)
    lock = getattr(approval, "_lock", None)
    if not callable(await_decision) or not callable(session_key_of) or not isinstance(callbacks, dict) or lock is None:
        return None
    session_key = session_key_of()
    with lock:
        notify = callbacks.get(session_key)
    if notify is None:
        return None

    def ask(display: str, description: str, key: str) -> Optional[str]:
        data = {"command": _redact(display), "pattern_key": key, "pattern_keys": [key],
                "description": _redact(description), "allow_permanent": True}
        decision = await_decision(session_key, notify, data, surface="gateway")
        if not isinstance(decision, dict) or decision.get("notify_failed") or not decision.get("resolved"):
            return None
        choice = decision.get("choice")
        return choice if isinstance(choice, str) else None

    return PromptSurface("gateway", ask)


def _cli_approval_callback() -> Optional[Callable[..., Any]]:
    try:
        from tools.terminal_tool import _get_approval_callback  # type: ignore[import-not-found]
        callback = _get_approval_callback()
        return callback if callable(callback) else None
    except Exception:
        return None


def _has_live_ui(callback: Callable[..., Any]) -> bool:
    """The interactive CLI's callback draws in its prompt_toolkit application (``HermesCLI._app``, cli.py:4037, set
    by ``run()``). ``hermes chat -q`` registers the same callback for its agent thread (cli.py:12031) without an
    application: nobody would see the question, and it would be denied after the approval timeout."""
    owner = getattr(callback, "__self__", None)
    if owner is None or not hasattr(owner, "_app"):
        return True
    return getattr(owner, "_app", None) is not None


def _redact(text: str) -> str:
    try:
        from agent.redact import redact_sensitive_text  # type: ignore[import-not-found]
        return redact_sensitive_text(text)
    except Exception:
        return text


def _call(module: Any, name: str) -> Any:
    fn = getattr(module, name, None)
    return fn() if callable(fn) else None


def _env_on(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _stdin_is_terminal() -> bool:
    try:
        return bool(sys.stdin) and sys.stdin.isatty()
    except Exception:
        return False
