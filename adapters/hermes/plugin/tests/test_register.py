"""register(): settings, hook order against other plugins (G10), and the blocking stub when setup fails (G7)."""
from __future__ import annotations

import json
import os
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any, Callable, Dict, List
from unittest import mock

import tollgate
from tollgate import hermes_bridge
from tollgate.settings import SettingsError, load_settings

from .fake_daemon import FakeDaemon, allow_all, reply


class FakeManager:
    """The part of Hermes' PluginManager the plugin touches: ``_hooks`` and first-valid-directive resolution."""

    def __init__(self) -> None:
        self._hooks: Dict[str, List[Callable[..., Any]]] = {}

    def invoke(self, name: str, **kwargs: Any) -> List[Any]:
        results = []
        for cb in self._hooks.get(name, []):
            try:
                value = cb(**kwargs)
            except Exception:
                continue
            if value is not None:
                results.append(value)
        return results

    def directive(self, **kwargs: Any) -> Any:
        """Mirrors hermes_cli/plugins.py:2157-2175: the first valid block or approve wins."""
        for result in self.invoke("pre_tool_call", **kwargs):
            if isinstance(result, dict) and result.get("action") in ("block", "approve"):
                if result["action"] == "block" and not result.get("message"):
                    continue
                return result["action"]
        return None


class FakeContext:
    def __init__(self, manager: FakeManager):
        self._manager = manager

    def register_hook(self, name: str, callback: Callable[..., Any]) -> None:
        self._manager._hooks.setdefault(name, []).append(callback)


def approve_everything(**_kwargs: Any) -> Dict[str, str]:
    return {"action": "approve", "message": "another plugin approves everything"}


def blocking_daemon(path: str, body: Any) -> Any:
    if path.endswith("/pre_tool_call"):
        return reply(200, {"action": "block", "message": "Blocked by tollgate: hardline."})
    return allow_all(path, body)


class Registration(unittest.TestCase):
    def setUp(self) -> None:
        self.daemon = FakeDaemon(blocking_daemon)
        env = {"TOLLGATE_SOCKET": self.daemon.socket_path, "TOLLGATE_TIMEOUT_MS": "1000", "TOLLGATE_HERMES_PROMPT": "never"}
        self.env = mock.patch.dict(os.environ, env)
        self.env.start()

    def tearDown(self) -> None:
        hooks = tollgate.STATUS.get("_hooks")
        if hooks is not None:
            hooks.client.close()
        self.env.stop()
        self.daemon.stop()

    def call(self, manager: FakeManager) -> Any:
        return manager.directive(tool_name="terminal", args={"command": "rm -rf /"}, session_id="s1", task_id="t", tool_call_id="c")

    def test_register_puts_tollgate_first_even_after_a_plugin_that_approves_everything(self) -> None:
        manager = FakeManager()
        FakeContext(manager).register_hook("pre_tool_call", approve_everything)
        tollgate.register(FakeContext(manager))
        self.assertEqual(tollgate.STATUS["state"], "active")
        self.assertIs(tollgate.STATUS["first"], True)
        self.assertEqual(self.call(manager), "block")  # the first tool call of the process

    def test_a_plugin_that_moves_itself_first_later_is_put_back_behind_tollgate(self) -> None:
        manager = FakeManager()
        tollgate.register(FakeContext(manager))
        manager._hooks["pre_tool_call"].insert(0, approve_everything)  # a later plugin pushes in front
        manager.invoke("pre_llm_call", session_id="s1", user_message="hi", task_id="t", turn_id="s1:t:0123abcd")
        self.assertEqual(self.call(manager), "block")

    def test_each_decision_restores_the_order_for_the_next_one(self) -> None:
        manager = FakeManager()
        tollgate.register(FakeContext(manager))
        manager._hooks["pre_tool_call"].insert(0, approve_everything)
        self.assertEqual(self.call(manager), "approve")  # this one was already decided by list order
        self.assertEqual(self.call(manager), "block")

    def test_the_hook_list_is_replaced_not_edited_so_a_call_in_flight_is_not_disturbed(self) -> None:
        manager = FakeManager()
        tollgate.register(FakeContext(manager))
        in_flight = [approve_everything] + manager._hooks["pre_tool_call"]
        manager._hooks["pre_tool_call"] = in_flight
        snapshot = list(in_flight)
        manager.invoke("on_session_start", session_id="s1")
        self.assertEqual(in_flight, snapshot)
        self.assertIsNot(manager._hooks["pre_tool_call"], in_flight)
        self.assertIs(manager._hooks["pre_tool_call"][0], tollgate.STATUS["_hooks"].callbacks["pre_tool_call"])

    def test_transform_llm_output_is_first_too(self) -> None:
        manager = FakeManager()
        FakeContext(manager).register_hook("transform_llm_output", lambda **_: "rewritten by another plugin")
        tollgate.register(FakeContext(manager))
        self.assertIs(manager._hooks["transform_llm_output"][0], tollgate.STATUS["_hooks"].callbacks["transform_llm_output"])


class StartupFailure(unittest.TestCase):
    def assert_blocking_stub(self, manager: FakeManager) -> None:
        self.assertEqual(tollgate.STATUS["state"], "failed")
        result = manager._hooks["pre_tool_call"][0](tool_name="terminal", args={"command": "ls"}, session_id="s", anything=1)
        self.assertEqual(result["action"], "block")
        self.assertIn("failed to start", result["message"])
        self.assertEqual(manager._hooks["transform_llm_output"][0](response_text="hi"), tollgate.HELD_REPLY_NOTICE)

    def test_a_bad_setting_installs_a_hook_that_blocks_every_call(self) -> None:
        manager = FakeManager()
        FakeContext(manager).register_hook("pre_tool_call", approve_everything)
        with mock.patch.dict(os.environ, {"TOLLGATE_TIMEOUT_MS": "soon"}):
            tollgate.register(FakeContext(manager))
        self.assert_blocking_stub(manager)
        self.assertIn("TOLLGATE_TIMEOUT_MS", tollgate.STATUS["error"])
        self.assertEqual(manager.directive(tool_name="terminal", args={}), "block")

    def test_a_module_that_fails_to_import_installs_the_stub(self) -> None:
        manager = FakeManager()
        saved = sys.modules.get("tollgate.core")
        attribute = tollgate.__dict__.pop("core", None)
        sys.modules["tollgate.core"] = None  # type: ignore[assignment]  # makes `from . import core` raise
        try:
            tollgate.register(FakeContext(manager))
        finally:
            if saved is not None:
                sys.modules["tollgate.core"] = saved
            else:
                del sys.modules["tollgate.core"]
            if attribute is not None:
                tollgate.core = attribute  # type: ignore[attr-defined]
        self.assert_blocking_stub(manager)

    def test_a_failure_inside_registration_installs_the_stub(self) -> None:
        manager = FakeManager()

        class Exploding(FakeContext):
            calls = 0

            def register_hook(self, name: str, callback: Callable[..., Any]) -> None:
                Exploding.calls += 1
                if Exploding.calls == 3:
                    raise RuntimeError("registry full")
                super().register_hook(name, callback)
        with mock.patch.dict(os.environ, {"TOLLGATE_SOCKET": "/nonexistent.sock"}):
            tollgate.register(Exploding(manager))
        self.assert_blocking_stub(manager)


class Settings(unittest.TestCase):
    def config(self, data: Any) -> Path:
        folder = tempfile.mkdtemp(prefix="tollgate-settings-")
        path = Path(folder, "config.json")
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        self.addCleanup(lambda: (path.unlink(), os.rmdir(folder)))
        return path

    def test_defaults(self) -> None:
        s = load_settings(env={"TOLLGATE_HOME": "/srv/tollgate"}, config_file=Path("/nonexistent/config.json"))
        self.assertEqual(s.socket_path, "/srv/tollgate/data/tollgate.sock")
        self.assertEqual((s.timeout_ms, s.prompt_mode, s.keep_alive), (3000, "auto", True))

    def test_without_tollgate_home_the_default_is_relative_to_the_working_directory(self) -> None:
        s = load_settings(env={}, config_file=Path("/nonexistent/config.json"))
        self.assertEqual(s.socket_path, str(Path.cwd() / "data" / "tollgate.sock"))

    def test_the_environment_wins_over_config_json(self) -> None:
        path = self.config({"socket": "/from/file.sock", "timeout_ms": 1500, "prompt": "never"})
        s = load_settings(env={"TOLLGATE_SOCKET": "/from/env.sock"}, config_file=path)
        self.assertEqual((s.socket_path, s.timeout_ms, s.prompt_mode), ("/from/env.sock", 1500, "never"))
        self.assertEqual(s.sources["socket"], "env TOLLGATE_SOCKET")
        self.assertEqual(s.sources["timeout_ms"], "config.json timeout_ms")

    def test_a_relative_socket_is_resolved_against_tollgate_home(self) -> None:
        s = load_settings(env={"TOLLGATE_SOCKET": "run/t.sock", "TOLLGATE_HOME": "/opt/tg"}, config_file=Path("/nonexistent"))
        self.assertEqual(s.socket_path, "/opt/tg/run/t.sock")

    def test_unusable_values_are_errors(self) -> None:
        for env in ({"TOLLGATE_TIMEOUT_MS": "0"}, {"TOLLGATE_TIMEOUT_MS": "-5"}, {"TOLLGATE_TIMEOUT_MS": "3s"},
                    {"TOLLGATE_TIMEOUT_MS": "999999999"}, {"TOLLGATE_HERMES_PROMPT": "sometimes"},
                    {"TOLLGATE_KEEP_ALIVE": "maybe"}):
            with self.subTest(env=env), self.assertRaises(SettingsError):
                load_settings(env=env, config_file=Path("/nonexistent"))
        for data in ("{not json", "[1]", {"timeout_ms": True}, {"socket": ""}, {"socket": 5}):
            with self.subTest(data=data), self.assertRaises(SettingsError):
                load_settings(env={}, config_file=self.config(data))


class HookOrderHelpers(unittest.TestCase):
    def test_move_first_reports_a_missing_callback(self) -> None:
        manager = FakeManager()
        cb = lambda **_: None  # noqa: E731
        self.assertFalse(hermes_bridge.move_first(manager, {"pre_tool_call": cb}))
        manager._hooks["pre_tool_call"] = [approve_everything, cb]
        self.assertTrue(hermes_bridge.move_first(manager, {"pre_tool_call": cb}))
        self.assertEqual(manager._hooks["pre_tool_call"], [cb, approve_everything])

    def test_a_manager_without_hook_lists_is_left_alone(self) -> None:
        self.assertFalse(hermes_bridge.move_first(object(), {"pre_tool_call": approve_everything}))


if __name__ == "__main__":
    unittest.main()
