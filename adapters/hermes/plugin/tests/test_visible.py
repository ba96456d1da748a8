"""What the human sees in Hermes' approval prompt: escape sequences, direction overrides and invisible characters in
a call arrive visible, never interpreted. The table (tollgate/visible.py) row by row, its properties, and the prompt."""
from __future__ import annotations

import os
import random
import unittest
from typing import Any, Dict, List, Tuple
from unittest import mock

from .fake_daemon import FakeDaemon, allow_all, reply
from .test_hooks import close_clients, make_hooks, tool_call
from tollgate import hermes_bridge
from tollgate.visible import RULES, escaped_code_points, still_visible, visible_text

try:
    import hermes_cli  # noqa: F401
    HERMES = True
except Exception:  # pragma: no cover - depends on the interpreter running the tests
    HERMES = False

SPOOF = "rm -r build/ # \x1b[2K\x1b[1Gls -la"
SPOOF_SHOWN = "rm -r build/ # \\x1b[2K\\x1b[1Gls -la"
REVERSED = "echo done \u202e; rm -rf ~ #"
REVERSED_SHOWN = "echo done \\u202e; rm -rf ~ #"

# One example per row (as in domain/encoding/visibleText.mjs): the text and how it shows.
EXAMPLES: Dict[str, Tuple[str, str]] = {
    "backslash": ("C:\\tmp", "C:\\\\tmp"),
    "tab": ("a\tb", "a\\tb"),
    "newline": ("ls\nrm -rf ~", "ls\\nrm -rf ~"),
    "carriage-return": ("rm -rf ~\rls", "rm -rf ~\\rls"),
    "c0-control": (SPOOF, SPOOF_SHOWN),
    "delete": ("a\x7fb", "a\\x7fb"),
    "c1-control": ("ok\x9b2Kls", "ok\\x9b2Kls"),
    "unusual-space": ("rm\xa0-rf", "rm\\xa0-rf"),
    "soft-hyphen": ("pass\xadwd", "pass\\xadwd"),
    "combining-grapheme-joiner": ("a\u034fb", "a\\u034fb"),
    "prepended-format": ("x\u0600y", "x\\u0600y"),
    "bidi-mark": ("a\u200fb", "a\\u200fb"),
    "hangul-filler": ("a\u3164b", "a\\u3164b"),
    "braille-blank": ("rm\u2800-rf", "rm\\u2800-rf"),
    "khmer-inherent-vowel": ("a\u17b4b", "a\\u17b4b"),
    "mongolian-selector": ("a\u180eb", "a\\u180eb"),
    "zero-width": ("rm\u200b -rf", "rm\\u200b -rf"),
    "line-separator": ("ls\u2028rm", "ls\\u2028rm"),
    "bidi-embedding": (REVERSED, REVERSED_SHOWN),
    "invisible-operator": ("a\u2060b", "a\\u2060b"),
    "bidi-isolate": ("a\u2067b\u2069", "a\\u2067b\\u2069"),
    "deprecated-format": ("a\u206ab", "a\\u206ab"),
    "variation-selector": ("hi\ufe0f\U000e0101", "hi\\ufe0f\\u{e0101}"),
    "byte-order-mark": ("\ufeffls", "\\ufeffls"),
    "specials-format": ("a\ufff9b", "a\\ufff9b"),
    "egyptian-format": ("a\U00013430b", "a\\u{13430}b"),
    "shorthand-format": ("a\U0001bca0b", "a\\u{1bca0}b"),
    "musical-format": ("a\U0001d173b", "a\\u{1d173}b"),
    "tag": ("ok\U000e0072\U000e006d", "ok\\u{e0072}\\u{e006d}"),
    "reserved-ignorable": ("a\U000e0080b", "a\\u{e0080}b"),
    "lone-surrogate": ("a\ud800b", "a\\ud800b"),
}


def escaped(cp: int) -> bool:
    return any(low <= cp <= high for low, high in escaped_code_points())


def read_back(shown: str) -> str:
    """The test's own decoder: when it always gives the input back, no two inputs render alike."""
    out, i = [], 0
    while i < len(shown):
        ch = shown[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        kind = shown[i + 1]
        if kind in "\\ntr":
            out.append({"\\": "\\", "n": "\n", "t": "\t", "r": "\r"}[kind])
            i += 2
        elif kind == "x":
            out.append(chr(int(shown[i + 2:i + 4], 16)))
            i += 4
        elif shown[i + 2] == "{":
            end = shown.index("}", i)
            out.append(chr(int(shown[i + 3:end], 16)))
            i = end + 1
        else:
            out.append(chr(int(shown[i + 2:i + 6], 16)))
            i += 6
    return "".join(out)


class VisibleTable(unittest.TestCase):
    def test_every_row_has_an_example_and_it_shows_escaped(self) -> None:
        self.assertEqual(sorted(name for name, _ in RULES), sorted(EXAMPLES))
        for name, ranges in RULES:
            text, shown = EXAMPLES[name]
            self.assertEqual(visible_text(text), shown, name)
            for low, high in ranges:
                for cp in (low, (low + high) // 2, high):
                    self.assertTrue(visible_text(chr(cp)).startswith("\\"), f"{name} U+{cp:04x}")

    def test_ordinary_text_is_left_alone(self) -> None:
        plain = "ls -la ~/src | grep \"x\" > out.txt && echo $? é 中文 مرحبا שלום 😀 ~!@#$%^&*()_+{}[]:;'<>,.?/`|=-"
        self.assertEqual(visible_text(plain), plain)

    def test_multiline_keeps_line_feeds_only(self) -> None:
        self.assertEqual(visible_text("a\nb\r\n\u202ec", multiline=True), "a\nb\\r\n\\u202ec")

    def test_random_texts_render_with_nothing_hidden_and_read_back_exactly(self) -> None:
        rng = random.Random(6)
        pool = "\\xu{}1bntr \n\x1b\u202e\u200b😀"
        for _ in range(1500):
            parts = []
            for _ in range(rng.randint(0, 30)):
                pick = rng.random()
                parts.append(chr(rng.randint(0, 0xFFFF)) if pick < 0.4 else
                             chr(rng.randint(0x10000, 0x10FFFF)) if pick < 0.6 else rng.choice(pool))
            text = "".join(parts)
            single, multi = visible_text(text), visible_text(text, multiline=True)
            self.assertFalse([c for c in single if escaped(ord(c)) and c != "\\"], repr(text))
            self.assertFalse([c for c in multi if escaped(ord(c)) and c not in "\\\n"], repr(text))
            self.assertEqual(read_back(single), text)
            self.assertEqual(read_back(multi), text)

    def test_still_visible_leaves_a_correct_rendering_alone_and_escapes_what_is_raw(self) -> None:
        self.assertEqual(still_visible(SPOOF_SHOWN), SPOOF_SHOWN)
        self.assertEqual(still_visible("print(1)\nprint(2)"), "print(1)\nprint(2)")
        self.assertEqual(still_visible(SPOOF), SPOOF_SHOWN)
        self.assertEqual(still_visible(REVERSED), REVERSED_SHOWN)


class ThePromptShowsTheCallVisibly(unittest.TestCase):
    """Through the plugin's real pre_tool_call: what reaches Hermes' prompt surface."""

    def setUp(self) -> None:
        self.prompt_text: Any = None
        self.daemon = FakeDaemon(self.answer)
        self.hooks = make_hooks(self.daemon.socket_path)
        self.seen: List[Tuple[str, str]] = []

        def ask(display: str, description: str, _key: str) -> str:
            self.seen.append((display, description))
            return "deny"
        self.surface = mock.patch.object(hermes_bridge, "prompt_surface",
                                         return_value=hermes_bridge.PromptSurface("cli", ask))
        self.surface.start()

    def tearDown(self) -> None:
        self.surface.stop()
        close_clients()
        self.daemon.stop()

    def answer(self, path: str, body: Any) -> Any:
        if path.endswith("/pre_tool_call"):
            answer = {"action": "approve", "approval_id": "q-1", "rule_key": "q-1", "verdict": "ask",
                      "message": "Needs a human's approval \u202e\x1b[2K"}
            if self.prompt_text is not None:
                answer["prompt_text"] = self.prompt_text
            return reply(200, answer)
        if path.startswith("/v1/approvals/"):
            return reply(200, {"approvalId": "q-1", "outcome": "denied"})
        return allow_all(path, body)

    def test_the_daemons_escaped_text_is_shown_as_it_came(self) -> None:
        self.prompt_text = SPOOF_SHOWN
        self.assertEqual(tool_call(self.hooks, SPOOF)["action"], "block")
        display, description = self.seen[0]
        self.assertEqual(display, SPOOF_SHOWN)
        self.assertNotIn("\x1b", display + description)
        self.assertIn("\\u202e\\x1b[2K", description)

    def test_a_daemon_that_sends_raw_text_is_escaped_here(self) -> None:
        self.prompt_text = REVERSED
        tool_call(self.hooks, REVERSED)
        self.assertEqual(self.seen[0][0], REVERSED_SHOWN)
        self.assertNotIn("\u202e", "".join(self.seen[0]))

    def test_without_the_daemons_text_the_plugin_escapes_the_call_itself(self) -> None:
        tool_call(self.hooks, SPOOF)
        tool_call(self.hooks, REVERSED)
        self.assertEqual([display for display, _ in self.seen], [SPOOF_SHOWN, REVERSED_SHOWN])

    def test_code_keeps_its_lines_and_other_tools_show_their_arguments_escaped(self) -> None:
        tool_call(self.hooks, tool_name="execute_code", args={"code": "print(1)\nprint('\x1b[2K')"})
        tool_call(self.hooks, tool_name="write_file", args={"path": "notes\u202etxt.sh", "content": "x"})
        self.assertEqual(self.seen[0][0], "print(1)\nprint('\\x1b[2K')")
        self.assertIn("notes\\u202etxt.sh", self.seen[1][0])
        self.assertNotIn("\u202e", self.seen[1][0])


@unittest.skipUnless(HERMES, "hermes_cli is not importable by this Python (set TOLLGATE_HERMES_PYTHON to a Hermes venv)")
class InHermesOwnPrompt(unittest.TestCase):
    """Hermes' real approval prompt (tools.approval.prompt_dangerous_approval) with the CLI's callback."""

    def setUp(self) -> None:
        self.daemon = FakeDaemon(self.answer)
        self.hooks = make_hooks(self.daemon.socket_path, prompt="auto")
        self.env = mock.patch.dict(os.environ, {"HERMES_INTERACTIVE": "1"})
        self.env.start()
        for name in ("HERMES_GATEWAY_SESSION", "HERMES_CRON_SESSION", "HERMES_EXEC_ASK"):
            os.environ.pop(name, None)
        from tools import terminal_tool
        self.seen: List[Tuple[str, str]] = []

        def prompt(command: str, description: str, **_kw: Any) -> str:
            self.seen.append((command, description))
            return "deny"
        terminal_tool.set_approval_callback(prompt)
        self.addCleanup(terminal_tool.set_approval_callback, None)

    def tearDown(self) -> None:
        close_clients()
        self.env.stop()
        self.daemon.stop()

    @staticmethod
    def answer(path: str, body: Any) -> Any:
        if path.endswith("/pre_tool_call"):
            command = (body.get("args") or {}).get("command", "")
            return reply(200, {"action": "approve", "approval_id": "q-2", "rule_key": "q-2", "verdict": "ask",
                               "message": "Needs a human's approval", "prompt_text": visible_text(command)})
        if path.startswith("/v1/approvals/"):
            return reply(200, {"approvalId": "q-2", "outcome": "denied"})
        return allow_all(path, body)

    def test_the_escape_sequence_and_the_override_reach_hermes_prompt_visible(self) -> None:
        tool_call(self.hooks, SPOOF)
        tool_call(self.hooks, REVERSED)
        self.assertEqual([command for command, _ in self.seen], [SPOOF_SHOWN, REVERSED_SHOWN])
        self.assertFalse([c for c in "".join(c + d for c, d in self.seen) if c in "\x1b\u202e"])


if __name__ == "__main__":
    unittest.main()
