"""The plugin inside the installed Hermes (skipped when ``hermes_cli`` cannot be imported; the e2e suite drives a
whole Hermes). Loaded by Hermes' own PluginManager from a temporary HERMES_HOME, decided through Hermes' own
``resolve_pre_tool_block``, and asking through Hermes' own approval prompt."""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import unittest
from pathlib import Path
from typing import Any, Dict, List
from unittest import mock

from .fake_daemon import FakeDaemon, allow_all, reply

import logging

logging.getLogger("tools.approval").setLevel(logging.CRITICAL)  # the failing-prompt test makes it log a traceback

try:
    import hermes_cli  # noqa: F401
    HERMES = True
except Exception:  # pragma: no cover - depends on the interpreter running the tests
    HERMES = False

PLUGIN_DIR = Path(__file__).resolve().parent.parent / "tollgate"
APPROVE_ALL = '''def register(ctx):
    ctx.register_hook("pre_tool_call", lambda **kw: {"action": "approve", "message": "approve all"})
'''


@unittest.skipUnless(HERMES, "hermes_cli is not importable by this Python (set TOLLGATE_HERMES_PYTHON to a Hermes venv)")
class InsideHermes(unittest.TestCase):
    """One discovery per class: Hermes keeps its plugin manager in a process-wide singleton."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.daemon = FakeDaemon(cls.answer)
        cls.home = tempfile.mkdtemp(prefix="tollgate-hermes-home-")
        plugins = Path(cls.home, "plugins")
        shutil.copytree(PLUGIN_DIR, plugins / "tollgate", ignore=shutil.ignore_patterns("__pycache__", "config.json"))
        (plugins / "aaa-approve-all").mkdir()
        (plugins / "aaa-approve-all" / "plugin.yaml").write_text("name: aaa-approve-all\nversion: 1.0.0\nkind: standalone\n")
        (plugins / "aaa-approve-all" / "__init__.py").write_text(APPROVE_ALL)
        Path(cls.home, "config.yaml").write_text("plugins:\n  enabled: [aaa-approve-all, tollgate]\n")
        cls.env = mock.patch.dict(os.environ, {"HERMES_HOME": cls.home, "TOLLGATE_SOCKET": cls.daemon.socket_path,
                                               "TOLLGATE_TIMEOUT_MS": "2000", "TOLLGATE_HERMES_PROMPT": "never"})
        cls.env.start()
        for name in ("HERMES_INTERACTIVE", "HERMES_GATEWAY_SESSION", "HERMES_CRON_SESSION", "HERMES_SAFE_MODE"):
            os.environ.pop(name, None)
        from hermes_cli import plugins as hermes_plugins
        hermes_plugins.discover_plugins(force=True)
        cls.manager = hermes_plugins.get_plugin_manager()
        cls.resolve = staticmethod(hermes_plugins.resolve_pre_tool_block)

    @classmethod
    def tearDownClass(cls) -> None:
        from hermes_cli import plugins as hermes_plugins
        hermes_plugins.get_plugin_manager()._hooks.clear()
        cls.env.stop()
        cls.daemon.stop()
        shutil.rmtree(cls.home, ignore_errors=True)

    @staticmethod
    def answer(path: str, body: Any) -> Any:
        if path.endswith("/pre_tool_call") and isinstance(body, dict):
            command = (body.get("args") or {}).get("command", "")
            if command.startswith("rm -rf /"):
                return reply(200, {"action": "block", "message": "Blocked by tollgate: hardline delete-filesystem-root."})
        return allow_all(path, body)

    def setUp(self) -> None:
        from tools import approval
        self.approval = approval
        self.token = approval.set_current_session_key("tollgate-test")
        approval.enable_session_yolo("tollgate-test")  # Hermes yolo: an approve directive passes without asking

    def tearDown(self) -> None:
        self.approval.disable_session_yolo("tollgate-test")
        self.approval.reset_current_session_key(self.token)

    def tollgate_callback(self) -> Any:
        return self.manager._plugins["tollgate"].module.STATUS["_hooks"].callbacks["pre_tool_call"]

    def test_hermes_loads_the_plugin_and_it_is_active(self) -> None:
        loaded = self.manager._plugins["tollgate"]
        self.assertTrue(loaded.enabled, loaded.error)
        status = loaded.module.STATUS
        self.assertEqual(status["state"], "active")
        self.assertTrue(status["approve_directive"])       # 0.19 has it (tollgate asks through the prompt instead)
        self.assertTrue(status["session_end_is_turn_end"])  # 0.19 fires on_session_end after every turn

    def test_a_block_wins_over_an_earlier_plugin_that_approves_everything_on_the_first_call(self) -> None:
        self.assertIs(self.manager._hooks["pre_tool_call"][0], self.tollgate_callback())
        message = self.resolve("terminal", {"command": "rm -rf /"}, session_id="s1", task_id="t1", tool_call_id="c1")
        self.assertEqual(message, "Blocked by tollgate: hardline delete-filesystem-root.")

    def test_when_pushed_back_the_next_decision_is_first_again(self) -> None:
        callback = self.tollgate_callback()
        others = [cb for cb in self.manager._hooks["pre_tool_call"] if cb is not callback]
        self.manager._hooks["pre_tool_call"] = others + [callback]
        # This call was ordered before tollgate could move: Hermes' yolo approves the other plugin's directive.
        self.assertIsNone(self.resolve("terminal", {"command": "rm -rf /"}, session_id="s1", task_id="t1", tool_call_id="c2"))
        self.assertEqual(self.resolve("terminal", {"command": "rm -rf /"}, session_id="s1", task_id="t1", tool_call_id="c3"),
                         "Blocked by tollgate: hardline delete-filesystem-root.")

    def test_pre_llm_call_restores_the_order(self) -> None:
        from hermes_cli.plugins import invoke_hook
        callback = self.tollgate_callback()
        self.manager._hooks["pre_tool_call"] = [cb for cb in self.manager._hooks["pre_tool_call"] if cb is not callback] + [callback]
        invoke_hook("pre_llm_call", session_id="s1", task_id="t1", turn_id="s1:t1:0123abcd", user_message="hi",
                    conversation_history=[], is_first_turn=True, model="m", platform="cli", sender_id="")
        self.assertIs(self.manager._hooks["pre_tool_call"][0], callback)

    def test_an_allowed_call_passes_hermes_resolution(self) -> None:
        self.assertIsNone(self.resolve("terminal", {"command": "ls"}, session_id="s1", task_id="t1", tool_call_id="c4"))


@unittest.skipUnless(HERMES, "hermes_cli is not importable by this Python (set TOLLGATE_HERMES_PYTHON to a Hermes venv)")
class AskingThroughHermes(unittest.TestCase):
    """An ask goes to Hermes' approval prompt; the answer is recorded with the daemon; no answer is a deny."""

    def setUp(self) -> None:
        self.answers: List[Dict[str, Any]] = []
        self.daemon = FakeDaemon(self.answer)
        from tollgate.client import DaemonClient
        from tollgate.core import TollgateHooks
        from tollgate.settings import Settings
        settings = Settings(self.daemon.socket_path, 2000, "auto", True, {})
        client = DaemonClient(self.daemon.socket_path, 2000)
        client.register()
        self.hooks = TollgateHooks(settings, client, manager=None, valid_hooks=None)
        self.env = mock.patch.dict(os.environ, {})
        self.env.start()
        for name in ("HERMES_INTERACTIVE", "HERMES_GATEWAY_SESSION", "HERMES_CRON_SESSION", "HERMES_EXEC_ASK"):
            os.environ.pop(name, None)
        from tools import terminal_tool
        self.terminal_tool = terminal_tool
        self.addCleanup(terminal_tool.set_approval_callback, None)

    def tearDown(self) -> None:
        self.hooks.client.close()
        self.env.stop()
        self.daemon.stop()

    def answer(self, path: str, body: Any) -> Any:
        if path.endswith("/pre_tool_call"):
            if body.get("approve_directive"):
                return reply(200, {"action": "approve", "approval_id": "q-7", "rule_key": "q-7", "verdict": "ask",
                                   "message": "Asks: recursive delete (dangerous:recursive-delete)."})
            return reply(200, {"action": "block", "approval_id": "q-7", "verdict": "ask",
                               "message": "Asks. A human has been asked to approve it outside this conversation."})
        if path == "/v1/approvals/q-7":
            self.answers.append(body)
            allowed = body.get("answer") in ("once", "session", "always")
            return reply(200, {"approvalId": "q-7", "outcome": "allowed" if allowed else "denied", "answer": body.get("answer")})
        return allow_all(path, body)

    def call(self) -> Any:
        return self.hooks.callbacks["pre_tool_call"](tool_name="terminal", args={"command": "rm -r build/"}, session_id="s1",
                                                      task_id="t1", tool_call_id="c1")

    def test_the_interactive_cli_asks_through_hermes_prompt_and_records_the_answer(self) -> None:
        os.environ["HERMES_INTERACTIVE"] = "1"
        seen: List[Any] = []

        def prompt(command: str, description: str, **kwargs: Any) -> str:
            seen.append((command, description, kwargs))
            return "once"
        self.terminal_tool.set_approval_callback(prompt)
        self.assertIsNone(self.call())
        [body] = self.daemon.bodies("pre_tool_call")
        self.assertEqual((body["approve_directive"], body["resumption"]), (True, "held"))
        self.assertEqual(seen[0][0], "rm -r build/")
        self.assertIn("q-7", seen[0][1])
        self.assertEqual(self.answers, [{"answer": "once", "surface": "hermes-cli"}])

    def test_the_cli_callback_without_a_live_prompt_ui_is_not_used(self) -> None:
        os.environ["HERMES_INTERACTIVE"] = "1"  # `hermes chat -q`: the callback is there, the UI is not

        class SingleQueryCli:
            _app = None

            def _approval_callback(self, command: str, description: str, **kwargs: Any) -> str:
                raise AssertionError("nobody can see this prompt")
        self.terminal_tool.set_approval_callback(SingleQueryCli()._approval_callback)
        with mock.patch("sys.stdin") as stdin:
            stdin.isatty.return_value = False
            result = self.call()
        self.assertIn("A human has been asked", result["message"])
        self.assertNotIn("q-7", result["message"])
        self.assertIs(self.daemon.bodies("pre_tool_call")[0]["approve_directive"], False)

    def test_the_cli_callback_with_a_live_prompt_ui_is_used(self) -> None:
        os.environ["HERMES_INTERACTIVE"] = "1"

        class InteractiveCli:
            _app = object()

            def _approval_callback(self, command: str, description: str, **kwargs: Any) -> str:
                return "session"
        self.terminal_tool.set_approval_callback(InteractiveCli()._approval_callback)
        self.assertIsNone(self.call())
        self.assertEqual(self.answers, [{"answer": "session", "surface": "hermes-cli"}])

    def test_a_denial_in_hermes_prompt_blocks(self) -> None:
        os.environ["HERMES_INTERACTIVE"] = "1"
        self.terminal_tool.set_approval_callback(lambda command, description, **kw: "deny")
        result = self.call()
        self.assertEqual(result["action"], "block")
        self.assertIn("denied", result["message"])
        self.assertEqual(self.answers[0]["answer"], "deny")

    def test_a_prompt_that_fails_is_a_deny(self) -> None:
        os.environ["HERMES_INTERACTIVE"] = "1"

        def broken(*_a: Any, **_k: Any) -> str:
            raise RuntimeError("terminal gone")
        self.terminal_tool.set_approval_callback(broken)
        self.assertEqual(self.call()["action"], "block")
        self.assertEqual(self.answers[0]["answer"], "deny")

    def test_the_gateway_asks_the_chat_and_records_the_answer(self) -> None:
        from tools import approval
        os.environ["HERMES_GATEWAY_SESSION"] = "1"
        token = approval.set_current_session_key("gw-session")
        self.addCleanup(approval.reset_current_session_key, token)
        sent: List[Dict[str, Any]] = []

        def notify(data: Dict[str, Any]) -> None:  # the chat shows buttons; the user taps "session"
            sent.append(data)
            threading.Timer(0.05, approval.resolve_gateway_approval, args=("gw-session", "session")).start()
        approval.register_gateway_notify("gw-session", notify)
        self.addCleanup(approval.unregister_gateway_notify, "gw-session")
        self.assertIsNone(self.call())
        self.assertEqual(sent[0]["pattern_key"], "tollgate:q-7")
        self.assertEqual(self.answers, [{"answer": "session", "surface": "hermes-gateway"}])

    def test_no_answer_on_the_gateway_is_a_deny(self) -> None:
        from tools import approval
        os.environ["HERMES_GATEWAY_SESSION"] = "1"
        token = approval.set_current_session_key("gw-quiet")
        self.addCleanup(approval.reset_current_session_key, token)
        approval.register_gateway_notify("gw-quiet", lambda data: None)
        self.addCleanup(approval.unregister_gateway_notify, "gw-quiet")
        with mock.patch.object(approval, "_get_approval_timeout", return_value=1):
            result = self.call()
        self.assertEqual(result["action"], "block")
        self.assertIn("nobody answered", result["message"])
        self.assertEqual(self.answers[0]["answer"], "deny")

    def test_without_a_human_the_daemon_is_told_to_answer_with_a_block(self) -> None:
        result = self.call()  # not interactive, no gateway: a human answers outside the agent (tollgate approve)
        self.assertEqual(result, {"action": "block", "message": "Asks. A human has been asked to approve it outside this conversation."})
        self.assertIs(self.daemon.bodies("pre_tool_call")[0]["approve_directive"], False)

    def test_a_cron_session_never_asks(self) -> None:
        os.environ["HERMES_INTERACTIVE"] = "1"
        os.environ["HERMES_CRON_SESSION"] = "1"
        self.terminal_tool.set_approval_callback(lambda *a, **k: "once")
        self.assertEqual(self.call()["action"], "block")
        self.assertEqual(self.answers, [])

    def test_a_gateway_session_without_a_chat_to_ask_falls_back_to_the_block(self) -> None:
        os.environ["HERMES_GATEWAY_SESSION"] = "1"
        self.assertEqual(self.call()["action"], "block")
        self.assertIs(self.daemon.bodies("pre_tool_call")[0]["approve_directive"], False)


if __name__ == "__main__":
    unittest.main()
