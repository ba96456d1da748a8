"""The plugin's hooks against a fake daemon: every answer, every failure, and what is sent."""
from __future__ import annotations

import os
import time
import unittest
from typing import Any, Dict, List, Optional

from .fake_daemon import FakeDaemon, allow_all, reply
from tollgate import core
from tollgate.client import DaemonClient, DaemonError
from tollgate.core import HELD_REPLY_NOTICE, TollgateHooks
from tollgate.settings import Settings

ALL_HOOKS = frozenset({"pre_tool_call", "post_tool_call", "transform_llm_output", "pre_llm_call", "on_session_start",
                       "on_session_end", "on_session_finalize", "on_session_reset", "subagent_start", "subagent_stop"})


_clients: List[DaemonClient] = []


def make_hooks(daemon_socket: str, timeout_ms: int = 1000, prompt: str = "never", manager: Any = None,
               valid_hooks: Optional[frozenset] = ALL_HOOKS, keep_alive: bool = True) -> TollgateHooks:
    settings = Settings(daemon_socket, timeout_ms, prompt, keep_alive, {})
    client = DaemonClient(daemon_socket, timeout_ms, keep_alive=keep_alive)
    _clients.append(client)
    try:
        client.register()  # as the plugin's register() does; a daemon that is down leaves it unregistered (it blocks)
    except DaemonError:
        pass
    return TollgateHooks(settings, client, manager=manager, valid_hooks=valid_hooks)


def close_clients() -> None:
    while _clients:
        _clients.pop().close()


def tool_call(hooks: TollgateHooks, command: str = "ls", **extra: Any) -> Any:
    kwargs: Dict[str, Any] = dict(tool_name="terminal", args={"command": command}, task_id="task-1", session_id="s1",
                                  tool_call_id="call-1", turn_id="s1:task-1:0123abcd", api_request_id="",
                                  middleware_trace=[], telemetry_schema_version=1)
    kwargs.update(extra)
    return hooks.callbacks["pre_tool_call"](**kwargs)


class Base(unittest.TestCase):
    def tearDown(self) -> None:
        close_clients()


class ToolCallAnswers(Base):
    def setUp(self) -> None:
        self.daemon = FakeDaemon(allow_all)
        self.hooks = make_hooks(self.daemon.socket_path)

    def tearDown(self) -> None:
        close_clients()
        self.daemon.stop()

    def test_allow_lets_the_call_run(self) -> None:
        self.assertIsNone(tool_call(self.hooks))
        [body] = self.daemon.bodies("pre_tool_call")
        self.assertEqual(body["session_id"], "s1")
        self.assertEqual(body["tool_name"], "terminal")
        self.assertEqual(body["args"], {"command": "ls"})
        self.assertEqual(body["tool_call_id"], "call-1")
        self.assertIs(body["approve_directive"], False)
        self.assertNotIn("resumption", body)

    def test_sends_the_terminals_working_directory_so_relative_paths_resolve(self) -> None:
        previous = os.environ.get("TERMINAL_CWD")
        os.environ["TERMINAL_CWD"] = "/srv/project"
        try:
            tool_call(self.hooks, task_id="task-without-a-recorded-cwd")
        finally:
            if previous is None:
                del os.environ["TERMINAL_CWD"]
            else:
                os.environ["TERMINAL_CWD"] = previous
        [body] = self.daemon.bodies("pre_tool_call")
        self.assertEqual(body["cwd"], "/srv/project")

    def test_without_terminal_cwd_the_process_cwd_is_sent(self) -> None:
        previous = os.environ.pop("TERMINAL_CWD", None)
        try:
            tool_call(self.hooks)
        finally:
            if previous is not None:
                os.environ["TERMINAL_CWD"] = previous
        [body] = self.daemon.bodies("pre_tool_call")
        self.assertEqual(body["cwd"], os.getcwd())

    def test_block_returns_hermes_block_directive_with_the_daemons_message(self) -> None:
        self.daemon.app = lambda p, b: reply(200, {"action": "block", "message": "Blocked: rm -rf / deletes everything.", "verdict": "block"})
        self.assertEqual(tool_call(self.hooks, "rm -rf /"), {"action": "block", "message": "Blocked: rm -rf / deletes everything."})

    def test_block_without_message_still_blocks_with_a_message(self) -> None:
        self.daemon.app = lambda p, b: reply(200, {"action": "block"})
        result = tool_call(self.hooks)
        self.assertEqual(result["action"], "block")
        self.assertTrue(result["message"])

    def test_ask_without_a_prompt_is_the_daemons_block_naming_the_question(self) -> None:
        message = "Asks: recursive delete. A human has been asked to approve it outside this conversation."
        self.daemon.app = lambda p, b: reply(200, {"action": "block", "verdict": "ask", "approval_id": "q-1", "message": message})
        self.assertEqual(tool_call(self.hooks, "rm -r build/"), {"action": "block", "message": message})
        self.assertIs(self.daemon.bodies("pre_tool_call")[0]["approve_directive"], False)

    def test_an_approve_directive_the_plugin_cannot_ask_becomes_a_block_saying_a_human_was_asked_without_the_id(self) -> None:
        self.daemon.app = lambda p, b: reply(200, {"action": "approve", "approval_id": "q-2", "rule_key": "q-2", "message": "Asks."})
        result = tool_call(self.hooks, "rm -r build/")
        self.assertEqual(result["action"], "block")
        self.assertIn("A human has been asked", result["message"])
        self.assertNotIn("q-2", result["message"])
        self.assertNotIn("tollgate approve", result["message"])

    def test_unknown_action_blocks(self) -> None:
        self.daemon.app = lambda p, b: reply(200, {"action": "modify", "args": {"command": "ls"}})
        self.assertEqual(tool_call(self.hooks)["action"], "block")

    def test_allow_with_an_error_status_blocks(self) -> None:
        self.daemon.app = lambda p, b: reply(500, {"action": "allow"})
        self.assertEqual(tool_call(self.hooks)["action"], "block")

    def test_error_status_with_the_daemons_fail_closed_body_uses_its_message(self) -> None:
        body = {"action": "block", "message": "Blocked by tollgate: the request could not be decided (bad args).",
                "error": {"code": "invalid-body", "message": "x", "where": "args"}}
        self.daemon.app = lambda p, b: reply(400, body)
        self.assertEqual(tool_call(self.hooks), {"action": "block", "message": body["message"]})

    def test_error_status_without_usable_body_blocks(self) -> None:
        self.daemon.app = lambda p, b: reply(503, "Service Unavailable")
        result = tool_call(self.hooks)
        self.assertEqual(result["action"], "block")
        self.assertIn("503", result["message"])

    def test_garbage_answers_block(self) -> None:
        for garbage in (b"not json at all", b"[1, 2, 3]", b"", b"\xff\xfe", b'"allow"', b"null", b'{"action": null}'):
            with self.subTest(garbage=garbage):
                self.daemon.app = lambda p, b, g=garbage: reply(200, g)
                self.assertEqual(tool_call(self.hooks)["action"], "block")

    def test_unknown_keyword_arguments_are_accepted(self) -> None:
        self.assertIsNone(tool_call(self.hooks, brand_new_argument={"x": 1}, another=None))
        for name, callback in self.hooks.callbacks.items():
            with self.subTest(hook=name):
                callback(session_id="s1", some_future_kwarg=1, telemetry_schema_version=2)

    def test_arguments_that_are_not_json_are_sent_as_text(self) -> None:
        self.assertIsNone(tool_call(self.hooks, args={"command": "ls", "when": object(), "n": float("nan"), "t": (1, 2)}))
        args = self.daemon.bodies("pre_tool_call")[0]["args"]
        self.assertEqual(args["command"], "ls")
        self.assertIsInstance(args["when"], str)
        self.assertEqual(args["n"], "nan")
        self.assertEqual(args["t"], [1, 2])

    def test_missing_tool_name_blocks_without_asking(self) -> None:
        self.assertEqual(self.hooks.callbacks["pre_tool_call"](args={}, session_id="s1")["action"], "block")
        self.assertEqual(self.daemon.requests, [])


class ToolCallFailures(Base):
    def test_daemon_down_blocks(self) -> None:
        hooks = make_hooks("/nonexistent/tollgate.sock")
        result = tool_call(hooks)
        self.assertEqual(result["action"], "block")
        self.assertIn("could not be asked", result["message"])

    def test_socket_path_that_is_not_a_socket_blocks(self) -> None:
        hooks = make_hooks(__file__)
        self.assertEqual(tool_call(hooks)["action"], "block")

    def test_timeout_blocks_within_the_budget(self) -> None:
        with FakeDaemon(lambda p, b: reply(200, {"action": "allow"}, delay=1.5)) as daemon:
            hooks = make_hooks(daemon.socket_path, timeout_ms=200)
            started = time.monotonic()
            result = tool_call(hooks)
            elapsed = time.monotonic() - started
            close_clients()
            self.assertEqual(result["action"], "block")
            self.assertLess(elapsed, 1.0)

    def test_the_plugins_own_exception_blocks(self) -> None:
        with FakeDaemon(allow_all) as daemon:
            hooks = make_hooks(daemon.socket_path)

            def explode(*_a: Any, **_k: Any) -> Any:
                raise RuntimeError("boom")
            hooks.client.post = explode  # type: ignore[method-assign]
            result = tool_call(hooks)
            self.assertEqual(result["action"], "block")
            self.assertIn("boom", result["message"])

    def test_an_exception_while_reading_the_answer_blocks(self) -> None:
        with FakeDaemon(allow_all) as daemon:
            hooks = make_hooks(daemon.socket_path)
            hooks._tool_reply = lambda *a: 1 / 0  # type: ignore[method-assign]
            self.assertEqual(tool_call(hooks)["action"], "block")


class Replies(Base):
    def call(self, app: Any, text: Any = "Here is the answer.", **extra: Any) -> Any:
        with FakeDaemon(app) as daemon:
            hooks = make_hooks(daemon.socket_path, timeout_ms=300)
            result = hooks.callbacks["transform_llm_output"](response_text=text, session_id="s1", model="m", platform="cli", **extra)
            self.requests = daemon.requests
            close_clients()
            return result

    def test_an_allowed_reply_is_left_alone(self) -> None:
        self.assertIsNone(self.call(allow_all))
        self.assertEqual(self.requests[0][1]["response_text"], "Here is the answer.")

    def test_a_held_reply_is_replaced_by_the_daemons_text(self) -> None:
        self.assertEqual(self.call(lambda p, b: reply(200, {"response_text": "[held]", "verdict": "block"})), "[held]")

    def test_daemon_down_holds_the_reply(self) -> None:
        hooks = make_hooks("/nonexistent/tollgate.sock")
        self.assertEqual(hooks.callbacks["transform_llm_output"](response_text="secret", session_id="s1"), HELD_REPLY_NOTICE)

    def test_timeout_holds_the_reply(self) -> None:
        self.assertEqual(self.call(lambda p, b: reply(200, {"response_text": None}, delay=1.0)), HELD_REPLY_NOTICE)

    def test_garbage_holds_the_reply(self) -> None:
        for garbage in (b"nope", b"[]", b"{}", b'{"response_text": 5}', b'{"response_text": ""}'):
            with self.subTest(garbage=garbage):
                self.assertEqual(self.call(lambda p, b, g=garbage: reply(200, g)), HELD_REPLY_NOTICE)

    def test_an_error_status_holds_the_reply_even_when_it_says_null(self) -> None:
        self.assertEqual(self.call(lambda p, b: reply(500, {"response_text": None})), HELD_REPLY_NOTICE)
        self.assertEqual(self.call(lambda p, b: reply(400, {"response_text": "[held: bad input]"})), "[held: bad input]")

    def test_the_plugins_own_exception_holds_the_reply(self) -> None:
        hooks = make_hooks("/nonexistent/tollgate.sock")
        hooks.transform_llm_output = lambda kw: 1 / 0  # type: ignore[method-assign]
        self.assertEqual(hooks.callbacks["transform_llm_output"](response_text="x", session_id="s1"), HELD_REPLY_NOTICE)

    def test_an_empty_reply_is_not_sent(self) -> None:
        self.assertIsNone(self.call(allow_all, text=""))
        self.assertEqual(self.requests, [])


class SessionsAndTurns(Base):
    def setUp(self) -> None:
        self.daemon = FakeDaemon(allow_all)
        self.hooks = make_hooks(self.daemon.socket_path)

    def tearDown(self) -> None:
        close_clients()
        self.daemon.stop()

    def pre_llm_call(self, **extra: Any) -> Any:
        kwargs: Dict[str, Any] = dict(session_id="s1", task_id="task-1", turn_id="s1:task-1:0123abcd",
                                      user_message="Clean the build folder.", conversation_history=[{"role": "user", "content": "x" * 1000}],
                                      is_first_turn=True, model="m", platform="telegram", sender_id=42)
        kwargs.update(extra)
        return self.hooks.callbacks["pre_llm_call"](**kwargs)

    def test_pre_llm_call_sends_the_turn_without_the_history_and_adds_no_context(self) -> None:
        self.assertIsNone(self.pre_llm_call())
        [body] = self.daemon.bodies("pre_llm_call")
        self.assertEqual(body["user_message"], "Clean the build folder.")
        self.assertEqual(body["sender_id"], 42)
        self.assertEqual(body["platform"], "telegram")
        self.assertIs(body["is_first_turn"], True)
        self.assertIsNone(body["parent_session_id"])
        self.assertNotIn("conversation_history", body)

    def test_multimodal_user_message_keeps_its_text_parts(self) -> None:
        self.pre_llm_call(user_message=[{"type": "text", "text": "What is this?"}, {"type": "image_url", "image_url": {"url": "data:..."}}])
        self.assertEqual(self.daemon.bodies("pre_llm_call")[0]["user_message"], "What is this?")

    def test_a_huge_message_drops_attached_context_first_then_is_marked_truncated(self) -> None:
        self.pre_llm_call(user_message="explain this\n\n--- Attached Context ---\n\n" + "y" * 300_000)
        body = self.daemon.bodies("pre_llm_call")[-1]
        self.assertEqual(body["user_message"], "explain this")
        self.assertNotIn("user_message_truncated", body)
        self.pre_llm_call(user_message="z" * 300_000)
        body = self.daemon.bodies("pre_llm_call")[-1]
        self.assertIs(body["user_message_truncated"], True)
        self.assertEqual(len(body["user_message"]), core.MAX_USER_MESSAGE_CHARS)

    def test_daemon_down_at_pre_llm_call_does_not_raise(self) -> None:
        hooks = make_hooks("/nonexistent/tollgate.sock")
        self.assertIsNone(hooks.callbacks["pre_llm_call"](session_id="s1", user_message="hi"))

    def test_execute_code_inner_calls_use_their_tasks_session(self) -> None:
        tool_call(self.hooks)  # the outer call names session s1 for task-1
        self.assertIsNone(tool_call(self.hooks, session_id="", tool_call_id="", turn_id="", tool_name="read_file", args={"path": "a"}))
        self.assertEqual(self.daemon.bodies("pre_tool_call")[-1]["session_id"], "s1")

    def test_a_call_with_no_session_at_all_blocks_without_asking(self) -> None:
        result = tool_call(self.hooks, session_id="", task_id="unknown-task")
        self.assertEqual(result["action"], "block")
        self.assertEqual(self.daemon.bodies("pre_tool_call"), [])

    def test_a_subagents_calls_name_its_parent(self) -> None:
        self.hooks.callbacks["subagent_start"](parent_session_id="parent", child_session_id="child", child_role="leaf",
                                               child_goal="do it", parent_turn_id="t", child_subagent_id="sa-1", parent_subagent_id=None)
        tool_call(self.hooks, session_id="child", task_id="child-task", turn_id="child:child-task:89abcdef")
        self.assertEqual(self.daemon.bodies("pre_tool_call")[-1]["parent_session_id"], "parent")
        [start] = self.daemon.bodies("subagent_start")
        self.assertEqual((start["child_session_id"], start["parent_session_id"]), ("child", "parent"))
        self.assertNotIn("child_goal", start)

    def test_compression_mid_turn_links_the_new_session_to_the_one_the_turn_began_in(self) -> None:
        self.pre_llm_call()
        tool_call(self.hooks, session_id="s2")  # same turn id, new session id after compression
        self.assertEqual(self.daemon.bodies("pre_tool_call")[-1]["parent_session_id"], "s1")

    def test_preflight_compression_is_read_from_the_turn_id(self) -> None:
        self.pre_llm_call(session_id="s2", turn_id="s1:task-1:0123abcd")
        self.assertEqual(self.daemon.bodies("pre_llm_call")[-1]["parent_session_id"], "s1")

    def test_newer_hermes_parent_session_id_is_forwarded(self) -> None:
        self.pre_llm_call(session_id="s9", parent_session_id="s8", turn_id="s9:task-1:0123abcd")
        self.assertEqual(self.daemon.bodies("pre_llm_call")[-1]["parent_session_id"], "s8")

    def test_per_turn_session_end_is_not_a_session_end_where_hermes_has_finalize(self) -> None:
        self.hooks.callbacks["on_session_end"](session_id="s1", completed=True, interrupted=False, task_id="t", turn_id="x")
        self.assertEqual(self.daemon.bodies("on_session_end"), [])
        self.hooks.callbacks["on_session_finalize"](session_id="s1", platform="cli", reason="shutdown")
        self.assertEqual([b["session_id"] for b in self.daemon.bodies("on_session_end")], ["s1"])

    def test_without_finalize_on_session_end_ends_the_session(self) -> None:
        hooks = make_hooks(self.daemon.socket_path, valid_hooks=ALL_HOOKS - {"on_session_finalize", "on_session_reset"})
        self.assertNotIn("on_session_finalize", hooks.hook_names())
        hooks.callbacks["on_session_end"](session_id="s1")
        self.assertEqual([b["session_id"] for b in self.daemon.bodies("on_session_end")], ["s1"])

    def test_post_tool_call_records_the_result_without_the_output(self) -> None:
        self.hooks.callbacks["post_tool_call"](tool_name="terminal", args={"command": "ls"}, result="secret output",
                                               session_id="s1", tool_call_id="call-1", duration_ms=12, status="ok", task_id="task-1")
        [body] = self.daemon.bodies("post_tool_call")
        self.assertEqual((body["tool_call_id"], body["status"], body["duration_ms"]), ("call-1", "ok", 12))
        self.assertNotIn("result", body)
        self.hooks.callbacks["post_tool_call"](tool_name="read_file", session_id="", tool_call_id="", task_id="nope")
        self.assertEqual(len(self.daemon.bodies("post_tool_call")), 1)

    def test_hooks_this_hermes_does_not_know_are_not_registered(self) -> None:
        hooks = make_hooks(self.daemon.socket_path, valid_hooks=frozenset({"pre_tool_call", "transform_llm_output", "pre_llm_call"}))
        registered: List[str] = []

        class Ctx:
            def register_hook(self, name: str, _cb: Any) -> None:
                registered.append(name)
        hooks.register(Ctx())
        self.assertEqual(sorted(registered), ["pre_llm_call", "pre_tool_call", "transform_llm_output"])


class Connections(Base):
    def test_connections_are_kept_alive_and_reused(self) -> None:
        with FakeDaemon(allow_all) as daemon:
            hooks = make_hooks(daemon.socket_path)
            for _ in range(5):
                self.assertIsNone(tool_call(hooks))
            self.assertEqual(daemon.connections, 1)
            hooks.client.close()

    def test_without_keep_alive_every_call_connects(self) -> None:
        with FakeDaemon(allow_all) as daemon:
            hooks = make_hooks(daemon.socket_path, keep_alive=False)
            for _ in range(3):
                self.assertIsNone(tool_call(hooks))
            self.assertEqual(daemon.connections, 4)  # the registration, then one per call

    def test_a_kept_connection_the_daemon_closed_is_replaced_transparently(self) -> None:
        with FakeDaemon(lambda p, b: reply(200, {"action": "allow"}, drop_connection=True)) as daemon:
            hooks = make_hooks(daemon.socket_path)
            for _ in range(3):
                self.assertIsNone(tool_call(hooks))
                time.sleep(0.05)
            self.assertEqual(len(daemon.bodies("pre_tool_call")), 3)
            hooks.client.close()


if __name__ == "__main__":
    unittest.main()


class DaemonIdentity(Base):
    """The plugin trusts only answers signed by the daemon it registered with (a fake bound to the socket later is refused)."""

    def test_every_request_is_signed_with_the_registration_key(self) -> None:
        with FakeDaemon(allow_all) as daemon:
            hooks = make_hooks(daemon.socket_path)
            self.assertIsNone(tool_call(hooks))
            hooks.callbacks["pre_llm_call"](session_id="s1", user_message="hi", platform="cli")
            self.assertEqual(daemon.registrations, 1)
            self.assertEqual(daemon.bad_auth, [])
            self.assertEqual(len(daemon.requests), 2)

    def test_a_fake_daemon_on_the_socket_that_answers_allow_is_refused(self) -> None:
        real = FakeDaemon(allow_all)
        hooks = make_hooks(real.socket_path)
        self.assertIsNone(tool_call(hooks))
        path = real.socket_path
        real.stop()  # the agent kills the daemon ...
        hooks.client.close()  # (a killed daemon's connections die with it; the stand-in's handler threads would not)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fake = FakeDaemon(allow_all, sign=False, socket_path=path)  # ... and binds its own, which answers allow
        try:
            result = tool_call(hooks, "rm -r build/")
            self.assertEqual(result["action"], "block")
            self.assertIn("not signed by the daemon this plugin registered with", result["message"])
            self.assertEqual(hooks.callbacks["transform_llm_output"](response_text="done", session_id="s1"), HELD_REPLY_NOTICE)
            self.assertEqual(fake.registrations, 0, "the plugin must not register again with whoever answers")
        finally:
            fake.stop()

    def test_a_fake_daemon_signing_with_a_key_of_its_own_is_refused(self) -> None:
        real = FakeDaemon(allow_all)
        hooks = make_hooks(real.socket_path)
        path = real.socket_path
        real.stop()
        hooks.client.close()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with FakeDaemon(allow_all, socket_path=path, forge_key=os.urandom(32)):
            self.assertEqual(tool_call(hooks)["action"], "block")

    def test_an_unknown_registration_blocks_and_does_not_re_register(self) -> None:
        unknown = reply(401, {"action": "block", "message": "no", "error": {"code": "unknown-registration", "message": "no", "where": "header"}})
        with FakeDaemon(lambda p, b: unknown, sign=False) as daemon:
            hooks = make_hooks(daemon.socket_path)
            with self.assertLogs("tollgate.hermes", level="ERROR") as logged:
                self.assertEqual(tool_call(hooks)["action"], "block")
            self.assertIn("does not know this plugin's registration", "\n".join(logged.output))
            self.assertEqual(daemon.registrations, 1)

    def test_an_answer_replayed_from_another_request_is_refused(self) -> None:
        # A MAC is bound to the request's nonce: the answer to one request does not verify for another.
        with FakeDaemon(allow_all) as daemon:
            hooks = make_hooks(daemon.socket_path)
            stale = {}
            original = daemon.answer_mac
            def replay(headers: Any, status: int, data: bytes) -> Optional[str]:
                mac = original(headers, status, data)
                first = stale.setdefault("mac", mac)
                return first
            daemon.answer_mac = replay  # type: ignore[method-assign]
            self.assertIsNone(tool_call(hooks))
            self.assertEqual(tool_call(hooks, tool_call_id="call-2")["action"], "block")

    def test_a_plugin_that_could_not_register_blocks_everything(self) -> None:
        with FakeDaemon(allow_all, handles_registration=False) as daemon:
            daemon.app = lambda p, b: reply(404, {"error": {"code": "unknown-route"}}) if p.endswith("/register") else allow_all(p, b)
            hooks = make_hooks(daemon.socket_path)
            result = tool_call(hooks)
            self.assertEqual(result["action"], "block")
            self.assertIn("not registered", result["message"])
