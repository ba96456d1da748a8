"""tollgate for Hermes Agent: every tool call and final reply is decided by the tollgate daemon.

Loaded by Hermes as a directory plugin (``$HERMES_HOME/plugins/tollgate/``, enabled in ``plugins.enabled``).
Standard library only. This file stays small on purpose: if anything below it fails to import or to set up,
``register`` still installs hooks that block every tool call and hold every reply, so Hermes is never left
unguarded by a broken install (a plugin whose register() raises would otherwise just be skipped, with its hooks
missing: hermes_cli/plugins.py:1824-1829).
"""
from __future__ import annotations

import logging
from typing import Any, Dict, Optional

__all__ = ["register", "STATUS"]

_log = logging.getLogger("tollgate.hermes")

HELD_REPLY_NOTICE = "[tollgate held this reply back: it could not be checked or a guard stopped it.]"

# What `tollgate doctor` (or a test) can read back: "active" with the settings and features, or "failed" and why.
STATUS: Dict[str, Any] = {"state": "not-registered"}


def register(ctx: Any) -> None:
    try:
        from . import core, hermes_bridge
        from .client import DaemonClient
        from .settings import load_settings

        settings = load_settings()
        client = DaemonClient(settings.socket_path, settings.timeout_ms, keep_alive=settings.keep_alive)
        # The key this process signs with, kept in memory only; without it nothing can be trusted, so the stub blocks.
        client.register()
        hooks = core.TollgateHooks(settings, client, manager=hermes_bridge.plugin_manager(ctx),
                                   valid_hooks=hermes_bridge.valid_hooks())
        hooks.register(ctx)
        STATUS.clear()
        STATUS.update({
            "state": "active", "settings": settings.describe(), "hooks": hooks.hook_names(),
            "registration_id": client.registration_id,
            "approve_directive": hooks.approve_directive, "session_end_is_turn_end": hooks.session_end_is_turn_end,
            "first": hermes_bridge.is_first(hooks.manager, "pre_tool_call", hooks.callbacks["pre_tool_call"]),
        })
        STATUS["_hooks"] = hooks
    except Exception as exc:  # noqa: BLE001 - any setup failure must leave a blocking hook behind
        _install_blocking_stub(ctx, exc)


def _install_blocking_stub(ctx: Any, error: BaseException) -> None:
    """G7: a startup failure leaves a hook that blocks every call (and holds every reply)."""
    reason = f"{type(error).__name__}: {error}"
    message = (f"Blocked by tollgate: the guard plugin failed to start ({reason}), so every tool call is blocked "
               "until it is fixed. Run `tollgate doctor`.")
    _log.error("tollgate failed to start; every tool call will be blocked: %s", reason)

    def tollgate_startup_failed_pre_tool_call(**_kwargs: Any) -> Dict[str, str]:
        return {"action": "block", "message": message}

    def tollgate_startup_failed_transform_llm_output(**_kwargs: Any) -> Optional[str]:
        return HELD_REPLY_NOTICE

    STATUS.clear()
    STATUS.update({"state": "failed", "error": reason})
    stub = {"pre_tool_call": tollgate_startup_failed_pre_tool_call,
            "transform_llm_output": tollgate_startup_failed_transform_llm_output}
    for name, callback in stub.items():
        try:
            ctx.register_hook(name, callback)
        except Exception as exc:  # noqa: BLE001
            _log.error("tollgate could not even register its blocking %s hook: %s", name, exc)
    _put_first(ctx, stub)


def _put_first(ctx: Any, callbacks: Dict[str, Any]) -> None:
    # Same Hermes internal as hermes_bridge.move_first (PluginManager._hooks, hermes_cli/plugins.py:1253), inlined
    # so the stub works even when that module is what failed to import.
    hooks = getattr(getattr(ctx, "_manager", None), "_hooks", None)
    if not isinstance(hooks, dict):
        return
    for name, callback in callbacks.items():
        current = hooks.get(name)
        if isinstance(current, list) and any(cb is callback for cb in current) and current[0] is not callback:
            hooks[name] = [callback] + [cb for cb in current if cb is not callback]
