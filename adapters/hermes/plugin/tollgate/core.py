"""The hooks: each forwards what the daemon needs and turns every failure into a block or a held reply.

Hermes 0.19 skips a callback that raises (hermes_cli/plugins.py:1918-1926), which for ``pre_tool_call`` runs the
tool and for ``transform_llm_output`` sends the reply unchecked. So no callback here lets an exception out:
``pre_tool_call`` answers a block, ``transform_llm_output`` answers the held-reply notice.
"""
from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from typing import Any, Callable, Dict, Mapping, Optional
from urllib.parse import quote

from . import hermes_bridge
from .client import DaemonAnswer, DaemonClient, DaemonError
from .settings import Settings
from .visible import still_visible, visible_text

logger = logging.getLogger("tollgate.hermes")

HOOK_PATH = "/v1/hooks/hermes/"
# The daemon's own notice (ops/gate/verdicts.ts heldReplyNotice), used when the daemon cannot say it.
HELD_REPLY_NOTICE = "[tollgate held this reply back: it could not be checked or a guard stopped it.]"
ANSWERS = ("once", "session", "always", "deny")
# Larger user messages are not sent whole (the daemon refuses bodies over 1 MiB by default); see _user_text.
MAX_USER_MESSAGE_CHARS = 100_000
# Hermes' @-reference expansion appends these after the typed text (agent/context_references.py:201-205).
TRAILING_CONTEXT_MARKERS = ("\n\n--- Context Warnings ---\n", "\n\n--- Attached Context ---\n\n")
MAX_TRACKED = 4096
# What the model hears about a question (adapters/http/replies.ts humanAskedNotice): that a human decides it, never
# the question's id or how to answer it. The id stays on human surfaces (Hermes' prompt, `tollgate approvals`).
HUMAN_ASKED_NOTICE = ("A human has been asked to approve it outside this conversation; it can run only after they do. "
                      "Wait for the user, then try again.")


def block(message: str) -> Dict[str, str]:
    return {"action": "block", "message": message or "Blocked by tollgate."}


class _Recent:
    """A small map that forgets its oldest entries (session bookkeeping must not grow without bound)."""

    def __init__(self, limit: int = MAX_TRACKED):
        self._items: "OrderedDict[str, str]" = OrderedDict()
        self._limit = limit
        self._lock = threading.Lock()

    def put(self, key: Any, value: Any) -> None:
        if not isinstance(key, str) or not key or not isinstance(value, str) or not value:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._limit:
                self._items.popitem(last=False)

    def get(self, key: Any) -> Optional[str]:
        if not isinstance(key, str) or not key:
            return None
        with self._lock:
            return self._items.get(key)


class TollgateHooks:
    def __init__(self, settings: Settings, client: DaemonClient, manager: Any = None,
                 valid_hooks: Optional[frozenset] = None):
        self.settings = settings
        self.client = client
        self.manager = manager
        self.valid_hooks = valid_hooks
        self.approve_directive = hermes_bridge.has_approve_directive()
        # 0.19 fires on_session_end after EVERY run_conversation (agent/turn_finalizer.py:609-626): a turn end, not
        # a session end. Where Hermes has on_session_finalize (cli.py:1252-1266, gateway/run.py:6417) that is the end.
        # Ending a session too early would drop its grants and open questions (and block its later calls), so when
        # the hook list cannot be read, on_session_end is taken as a turn end too.
        self.session_end_is_turn_end = valid_hooks is None or "on_session_finalize" in valid_hooks
        self._task_sessions = _Recent()
        self._turn_sessions = _Recent()
        self._parents = _Recent()
        self.callbacks: Dict[str, Callable[..., Any]] = self._build_callbacks()

    # ---- registration -----------------------------------------------------------------------------------------

    def hook_names(self) -> list:
        names = ["pre_tool_call", "transform_llm_output", "pre_llm_call", "post_tool_call", "on_session_start",
                 "on_session_end", "subagent_start", "subagent_stop", "on_session_finalize", "on_session_reset"]
        if self.valid_hooks is None:
            return names
        return [n for n in names if n in self.valid_hooks]

    def register(self, ctx: Any) -> None:
        for name in self.hook_names():
            ctx.register_hook(name, self.callbacks[name])
        self.keep_first()

    def keep_first(self) -> None:
        """tollgate decides first: see hermes_bridge (Hermes takes the first block/approve, the first string)."""
        if self.manager is None:
            return
        try:
            hermes_bridge.move_first(self.manager, {n: self.callbacks[n] for n in ("pre_tool_call", "transform_llm_output")})
        except Exception as exc:  # a Hermes without the internal: the registration order stands
            logger.debug("tollgate could not reorder Hermes hooks: %s", exc)

    def _build_callbacks(self) -> Dict[str, Callable[..., Any]]:
        def pre_tool_call(**kwargs: Any) -> Optional[Dict[str, str]]:
            try:
                self.keep_first()
                return self.pre_tool_call(kwargs)
            except Exception as exc:
                logger.warning("tollgate pre_tool_call failed: %s", exc, exc_info=True)
                return block(f"Blocked by tollgate: the guard plugin failed ({type(exc).__name__}: {exc}). "
                             "Nothing runs that was not checked.")

        def transform_llm_output(**kwargs: Any) -> Optional[str]:
            try:
                self.keep_first()
                return self.transform_llm_output(kwargs)
            except Exception as exc:
                logger.warning("tollgate transform_llm_output failed: %s", exc, exc_info=True)
                return HELD_REPLY_NOTICE

        def observer(method: Callable[[Dict[str, Any]], None]) -> Callable[..., None]:
            def hook(**kwargs: Any) -> None:
                try:
                    method(kwargs)
                except Exception as exc:
                    logger.warning("tollgate %s failed: %s", method.__name__, exc)
                return None
            hook.__name__ = f"tollgate_{method.__name__}"
            return hook

        pre_tool_call.__name__ = "tollgate_pre_tool_call"
        transform_llm_output.__name__ = "tollgate_transform_llm_output"
        return {
            "pre_tool_call": pre_tool_call,
            "transform_llm_output": transform_llm_output,
            "pre_llm_call": observer(self.pre_llm_call),
            "post_tool_call": observer(self.post_tool_call),
            "on_session_start": observer(self.on_session_start),
            "on_session_end": observer(self.on_session_end),
            "on_session_finalize": observer(self.on_session_finalize),
            "on_session_reset": observer(self.on_session_finalize),
            "subagent_start": observer(self.subagent_start),
            "subagent_stop": observer(self.subagent_stop),
        }

    # ---- tool calls -------------------------------------------------------------------------------------------

    def pre_tool_call(self, kw: Mapping[str, Any]) -> Optional[Dict[str, str]]:
        tool = kw.get("tool_name")
        if not isinstance(tool, str) or not tool:
            return block("Blocked by tollgate: the tool call has no tool name.")
        args = kw.get("args")
        args = args if isinstance(args, dict) else {}
        session_id = self._session_of(kw)
        if not session_id:
            return block("Blocked by tollgate: the tool call carries no session id, so it cannot be checked.")
        surface = hermes_bridge.prompt_surface(self.settings.prompt_mode)
        body: Dict[str, Any] = {
            "session_id": session_id, "tool_name": tool, "args": json_safe(args),
            "tool_call_id": _text(kw.get("tool_call_id")), "task_id": _text(kw.get("task_id")),
            "turn_id": _text(kw.get("turn_id")), "parent_session_id": self._parent_of(session_id, kw),
            # An ask comes back as "approve" only when this plugin can put the question to a human right now;
            # otherwise the daemon answers a block naming the question, and the retried call passes once.
            "approve_directive": surface is not None,
            # Where the terminal runs (Hermes' tools/terminal_tool.py: the session's recorded cwd after its last
            # `cd`, else TERMINAL_CWD, else the process cwd): the floor resolves `rm -rf data` against it.
            "cwd": _terminal_cwd(_text(kw.get("task_id"))),
        }
        if surface is not None:
            body["resumption"] = "held"
        try:
            answer = self.client.post(HOOK_PATH + "pre_tool_call", body)
        except DaemonError as exc:
            return block(f"Blocked by tollgate: the guard daemon could not be asked ({exc}). Nothing runs unchecked; "
                         "start it with `tollgate serve`.")
        return self._tool_reply(answer, surface, tool, args)

    def _tool_reply(self, answer: DaemonAnswer, surface: Optional[hermes_bridge.PromptSurface], tool: str,
                    args: Mapping[str, Any]) -> Optional[Dict[str, str]]:
        reply = answer.json
        if not isinstance(reply, dict):
            return block(f"Blocked by tollgate: the daemon's answer could not be read (HTTP {answer.status}).")
        action = reply.get("action")
        message = reply.get("message") if isinstance(reply.get("message"), str) else ""
        if action == "block":
            return block(message or "Blocked by tollgate.")
        if answer.status != 200:
            return block(message or f"Blocked by tollgate: the daemon answered HTTP {answer.status}.")
        if action == "allow":
            return None
        if action == "approve":
            approval_id = reply.get("approval_id")
            if surface is None or not isinstance(approval_id, str) or not approval_id:
                return block(f"{message or 'This call needs a human approval.'} {HUMAN_ASKED_NOTICE}")
            return self._ask_human(surface, approval_id, message, tool, args, reply.get("prompt_text"))
        return block(f"Blocked by tollgate: the daemon answered an unknown action {str(action)[:40]!r}.")

    def _ask_human(self, surface: hermes_bridge.PromptSurface, approval_id: str, message: str, tool: str,
                   args: Mapping[str, Any], prompt_text: Any = None) -> Optional[Dict[str, str]]:
        # The human reads this: shown visible, so escape sequences in the call cannot redraw the question.
        description = visible_text(f"{message or 'tollgate asks before this call runs.'} [tollgate question {approval_id}]")
        try:
            choice = surface.ask(_shown(tool, args, prompt_text), description, f"tollgate:{approval_id}")
        except Exception as exc:
            logger.warning("tollgate: Hermes' approval prompt failed: %s", exc)
            choice = None
        answer = choice if choice in ANSWERS else "deny"
        try:
            # Signed with this plugin's key: the daemon records it as runtime-prompt:<registration>/hermes-<surface>.
            result = self.client.post(f"/v1/approvals/{quote(approval_id, safe='')}",
                                      {"answer": answer, "surface": f"hermes-{surface.kind}"})
        except DaemonError as exc:
            return block(f"Blocked by tollgate: the answer to this call's question could not be recorded ({exc}).")
        outcome = result.json.get("outcome") if isinstance(result.json, dict) else None
        if result.status == 200 and outcome == "allowed":
            return None
        if choice is None:
            return block("Blocked by tollgate: nobody answered this call's question in time, and no answer is a "
                         "deny. Do not retry it unless the user asks again.")
        if answer == "deny":
            return block("Blocked by tollgate: the user denied this call. Do not retry it, "
                         "and do not reach the same outcome another way.")
        return block("Blocked by tollgate: the answer to this call's question could not be applied "
                     f"({outcome or 'HTTP ' + str(result.status)}).")

    def post_tool_call(self, kw: Mapping[str, Any]) -> None:
        session_id = self._session_of(kw)
        call_id = _text(kw.get("tool_call_id"))
        tool = _text(kw.get("tool_name"))
        if not session_id or not call_id or not tool:
            return  # nothing the ledger could attach the result to (e.g. execute_code's inner calls)
        duration = kw.get("duration_ms")
        self._forward("post_tool_call", {
            "session_id": session_id, "tool_name": tool, "tool_call_id": call_id,
            "status": _text(kw.get("status")) or None,
            "duration_ms": duration if isinstance(duration, (int, float)) and not isinstance(duration, bool) and duration >= 0 else None,
            "turn_id": _text(kw.get("turn_id")), "task_id": _text(kw.get("task_id")),
        })

    # ---- replies ----------------------------------------------------------------------------------------------

    def transform_llm_output(self, kw: Mapping[str, Any]) -> Optional[str]:
        text = kw.get("response_text")
        if not isinstance(text, str) or text == "":
            return None  # Hermes only calls with a non-empty reply (agent/turn_finalizer.py:459); nothing to hold
        body = {"session_id": self._session_of(kw) or "", "response_text": text,
                "platform": _text(kw.get("platform")), "model": _text(kw.get("model"))}
        try:
            answer = self.client.post(HOOK_PATH + "transform_llm_output", body)
        except DaemonError as exc:
            logger.warning("tollgate held a reply: %s", exc)
            return HELD_REPLY_NOTICE
        reply = answer.json
        if isinstance(reply, dict) and "response_text" in reply:
            replacement = reply["response_text"]
            if replacement is None and answer.status == 200:
                return None
            if isinstance(replacement, str) and replacement:
                return replacement
        return HELD_REPLY_NOTICE

    # ---- turns and sessions -----------------------------------------------------------------------------------

    def pre_llm_call(self, kw: Mapping[str, Any]) -> None:
        self.keep_first()
        session_id = _text(kw.get("session_id"))
        if not session_id:
            return
        self._task_sessions.put(kw.get("task_id"), session_id)
        parent = self._parent_of(session_id, kw)
        self._turn_sessions.put(kw.get("turn_id"), session_id)
        text, truncated = _user_text(kw.get("user_message"))
        sender = kw.get("sender_id")
        body: Dict[str, Any] = {
            "session_id": session_id, "user_message": text,
            "sender_id": sender if isinstance(sender, (str, int)) and not isinstance(sender, bool) else None,
            "platform": _text(kw.get("platform")) or None, "parent_session_id": parent,
            "is_first_turn": kw.get("is_first_turn") if isinstance(kw.get("is_first_turn"), bool) else None,
            "turn_id": _text(kw.get("turn_id")), "task_id": _text(kw.get("task_id")), "model": _text(kw.get("model")),
        }
        if truncated:
            body["user_message_truncated"] = True
        self._forward("pre_llm_call", body)

    def on_session_start(self, kw: Mapping[str, Any]) -> None:
        self.keep_first()
        self._forward("on_session_start", {"session_id": _text(kw.get("session_id")) or None,
                                           "platform": _text(kw.get("platform")), "model": _text(kw.get("model"))})

    def on_session_end(self, kw: Mapping[str, Any]) -> None:
        if self.session_end_is_turn_end:
            return  # a turn ended; the session goes on (its grants and open questions with it)
        self._end(kw)

    def on_session_finalize(self, kw: Mapping[str, Any]) -> None:
        self._end(kw)

    def _end(self, kw: Mapping[str, Any]) -> None:
        session_id = _text(kw.get("session_id"))
        if session_id:
            self._forward("on_session_end", {"session_id": session_id, "reason": _text(kw.get("reason")) or None})

    def subagent_start(self, kw: Mapping[str, Any]) -> None:
        child, parent = _text(kw.get("child_session_id")), _text(kw.get("parent_session_id"))
        if child and parent and child != parent:
            self._parents.put(child, parent)
        self._forward("subagent_start", {
            "session_id": child or None, "child_session_id": child or None, "parent_session_id": parent or None,
            "parent_turn_id": _text(kw.get("parent_turn_id")), "child_role": _text(kw.get("child_role")),
            "child_subagent_id": _text(kw.get("child_subagent_id")), "parent_subagent_id": _text(kw.get("parent_subagent_id")),
        })

    def subagent_stop(self, kw: Mapping[str, Any]) -> None:
        child = _text(kw.get("child_session_id"))
        duration = kw.get("duration_ms")
        self._forward("subagent_stop", {
            "session_id": child or None, "child_session_id": child or None,
            "parent_session_id": _text(kw.get("parent_session_id")) or None, "child_role": _text(kw.get("child_role")),
            "child_status": _text(kw.get("child_status")),
            "duration_ms": duration if isinstance(duration, int) and not isinstance(duration, bool) else None,
        })

    def _forward(self, hook: str, body: Dict[str, Any]) -> None:
        try:
            answer = self.client.post(HOOK_PATH + hook, body)
            if answer.status != 200:
                logger.warning("tollgate %s: the daemon answered HTTP %s: %s", hook, answer.status, answer.text[:300])
        except DaemonError as exc:
            logger.warning("tollgate %s not recorded: %s", hook, exc)

    # ---- which session a call belongs to ----------------------------------------------------------------------

    def _session_of(self, kw: Mapping[str, Any]) -> str:
        """The call's session; execute_code's inner calls come without one (tools/code_execution_tool.py:648,
        :933 pass only task_id), so their task's session stands in."""
        session_id = _text(kw.get("session_id"))
        task_id = kw.get("task_id")
        if session_id:
            self._task_sessions.put(task_id, session_id)
            return session_id
        return self._task_sessions.get(task_id) or ""

    def _parent_of(self, session_id: str, kw: Mapping[str, Any]) -> Optional[str]:
        """The session this one continues: given by Hermes (newer versions), a subagent's parent (subagent_start),
        or the session a turn began in when context compression rotated to a new session id mid-turn."""
        given = _text(kw.get("parent_session_id"))
        if given and given != session_id:
            self._parents.put(session_id, given)
            return given
        known = self._parents.get(session_id)
        if known:
            return known
        turn_id = _text(kw.get("turn_id"))
        started_in = self._turn_sessions.get(turn_id) or _turn_session(turn_id, _text(kw.get("task_id")))
        if started_in and started_in != session_id:
            self._parents.put(session_id, started_in)
            return started_in
        return None


# ---- helpers ----------------------------------------------------------------------------------------------------


def _terminal_cwd(task_id: str) -> Optional[str]:
    """The terminal's directory as Hermes 0.19 picks it for the local backend; None when unknowable."""
    recorded = None
    try:
        from tools.terminal_tool import get_session_cwd  # type: ignore[import-not-found]
        recorded = get_session_cwd(task_id or None)
    except Exception:  # an older or newer Hermes without the record: fall back to the seed
        recorded = None
    try:
        cwd = os.path.expanduser(recorded or os.environ.get("TERMINAL_CWD") or os.getcwd())
    except OSError:
        return None
    return cwd if os.path.isabs(cwd) else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _turn_session(turn_id: str, task_id: str) -> str:
    """The session a turn began in: 0.19 builds turn ids as ``{session_id}:{task_id}:{8 hex}`` before preflight
    compression may rotate the session (agent/turn_context.py:370)."""
    if not turn_id or not task_id:
        return ""
    marker = f":{task_id}:"
    at = turn_id.rfind(marker)
    if at <= 0 or len(turn_id) - (at + len(marker)) != 8:
        return ""
    prefix = turn_id[:at]
    return "" if prefix == "session" else prefix


def _user_text(message: Any) -> "tuple[str, bool]":
    """The turn's user message as text. Multimodal content (a list of parts) keeps its text parts."""
    if isinstance(message, str):
        text = message
    elif isinstance(message, list):
        parts = []
        for part in message:
            if isinstance(part, dict) and part.get("type") in ("text", "input_text") and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        text = "\n\n".join(parts)
    else:
        text = ""
    if len(text) <= MAX_USER_MESSAGE_CHARS:
        return text, False
    # Large messages are nearly always @-attached context after the typed words: drop it here (the daemon would).
    for marker in TRAILING_CONTEXT_MARKERS:
        at = text.find(marker)
        if at >= 0:
            text = text[:at]
    if len(text) <= MAX_USER_MESSAGE_CHARS:
        return text, False
    return text[:MAX_USER_MESSAGE_CHARS], True


def _shown(tool: str, args: Mapping[str, Any], prompt_text: Any) -> str:
    """The call as the prompt shows it: the daemon's rendering (already escaped; re-checked here), else our own."""
    if isinstance(prompt_text, str) and prompt_text:
        return still_visible(prompt_text)
    text_arg = args.get({"terminal": "command", "execute_code": "code"}.get(tool, ""))
    if isinstance(text_arg, str) and text_arg:
        return visible_text(_display(tool, args), multiline=tool == "execute_code")
    return still_visible(_display(tool, args))  # JSON: its own escapes stay single, what it left raw is escaped


def _display(tool: str, args: Mapping[str, Any]) -> str:
    command = args.get("command") if tool == "terminal" else None
    if isinstance(command, str) and command:
        return command
    code = args.get("code") if tool == "execute_code" else None
    if isinstance(code, str) and code:
        return code[:2000]
    try:
        import json
        rendered = json.dumps(json_safe(args), ensure_ascii=False)
    except Exception:
        rendered = "{…}"
    return f"{tool} {rendered[:2000]}"


def json_safe(value: Any, depth: int = 0) -> Any:
    """Tool arguments as JSON: what JSON cannot carry becomes its text."""
    if depth > 64:
        return "…"
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else str(value)
    if isinstance(value, dict):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v, depth + 1) for v in value]
    return str(value)
