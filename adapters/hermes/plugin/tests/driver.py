"""Drives the plugin from another process (the mocha specs): one JSON command per line on stdin, one JSON answer
per line on stdout. The plugin is registered the way Hermes does it (``register(ctx)``) on a stand-in context, and
hooks are called with Hermes' keyword arguments.

    {"hook": "pre_tool_call", "kwargs": {...}}          -> {"result": <what the hook returned>}
    {"bench": 200, "kwargs": {...}}                      -> {"ms": [per-call milliseconds of pre_tool_call]}
    {"status": true}                                     -> {"status": <tollgate.STATUS without objects>}
    {"prompts": true}                                    -> {"prompts": [[display, description], ...]}

With ``TOLLGATE_DRIVER_PROMPT=<answer>`` the plugin asks a recording stand-in for Hermes' approval prompt, which
answers <answer>; ``prompts`` returns what it was shown.
"""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Callable, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import tollgate  # noqa: E402


class Manager:
    def __init__(self) -> None:
        self._hooks: Dict[str, List[Callable[..., Any]]] = {}


class Context:
    def __init__(self, manager: Manager) -> None:
        self._manager = manager

    def register_hook(self, name: str, callback: Callable[..., Any]) -> None:
        self._manager._hooks.setdefault(name, []).append(callback)


PROMPTS: List[List[str]] = []


def record_prompts(answer: str) -> None:
    from tollgate import hermes_bridge

    def ask(display: str, description: str, _key: str) -> str:
        PROMPTS.append([display, description])
        return answer
    hermes_bridge.prompt_surface = lambda _mode: hermes_bridge.PromptSurface("cli", ask)


def main() -> None:
    if os.environ.get("TOLLGATE_DRIVER_PROMPT"):
        record_prompts(os.environ["TOLLGATE_DRIVER_PROMPT"])
    manager = Manager()
    tollgate.register(Context(manager))
    for line in sys.stdin:
        if not line.strip():
            continue
        command = json.loads(line)
        try:
            if "hook" in command:
                results = [cb(**command.get("kwargs", {})) for cb in manager._hooks.get(command["hook"], [])]
                answer: Dict[str, Any] = {"result": results[0] if results else None}
            elif "bench" in command:
                callback = manager._hooks["pre_tool_call"][0]
                timings = []
                for i in range(int(command["bench"])):
                    kwargs = dict(command["kwargs"], tool_call_id=f"bench-{i}")
                    started = time.perf_counter()
                    result = callback(**kwargs)
                    timings.append((time.perf_counter() - started) * 1000)
                    if result is not None:
                        answer = {"error": result}
                        break
                else:
                    answer = {"ms": timings}
            elif "prompts" in command:
                answer = {"prompts": PROMPTS}
            elif "status" in command:
                answer = {"status": {k: v for k, v in tollgate.STATUS.items() if not k.startswith("_")}}
            else:
                answer = {"error": "unknown command"}
        except Exception as exc:  # the driver reports; the plugin itself never raises
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
