"""Times tollgate's Hermes plugin callback end to end: plugin -> Unix socket -> gate -> durable append -> answer.

Loads the plugin package exactly as Hermes does (``register(ctx)``) with a minimal context that records the
callbacks, then calls ``pre_tool_call`` the way Hermes' dispatch does. Prints one JSON object.
Usage: python3 pluginOverhead.py PLUGIN_PARENT_DIR ITERATIONS  (TOLLGATE_SOCKET must point at a running daemon)
"""
import importlib
import json
import sys
import time


class RecordingContext:
    def __init__(self):
        self.callbacks = {}

    def register_hook(self, name, callback):
        self.callbacks.setdefault(name, []).append(callback)


def main():
    plugin_parent, iterations = sys.argv[1], int(sys.argv[2])
    sys.path.insert(0, plugin_parent)
    plugin = importlib.import_module("tollgate")
    ctx = RecordingContext()
    plugin.register(ctx)
    if plugin.STATUS.get("state") != "active":
        raise SystemExit(f"the plugin did not start: {plugin.STATUS}")
    ctx.callbacks["pre_llm_call"][0](session_id="bench", user_message="run the usual checks", platform="cli",
                                      is_first_turn=True, conversation_history=[], model="fake", sender_id="u1")
    commands = ["ls -la src", "git log --oneline -20", "npm test", "rm -rf /", "cat README.md | grep -n tollgate",
                "find . -name '*.ts' -exec wc -l {} +", "echo $(date) >> log.txt"]
    pre_tool_call = ctx.callbacks["pre_tool_call"][0]
    samples = []
    for i in range(iterations):
        started = time.perf_counter()
        answer = pre_tool_call(tool_name="terminal", args={"command": commands[i % len(commands)]},
                               task_id="t", session_id="bench", tool_call_id=f"c{i}", turn_id="1")
        samples.append((time.perf_counter() - started) * 1000)
        if commands[i % len(commands)] == "rm -rf /" and (answer or {}).get("action") != "block":
            raise SystemExit(f"the hardline command was not blocked: {answer}")
    measured = sorted(samples[iterations // 10:])
    pick = lambda p: measured[min(len(measured) - 1, max(0, -(-p * len(measured) // 100) - 1))]
    print(json.dumps({"p50_ms": pick(50), "p99_ms": pick(99), "n": len(measured)}))


if __name__ == "__main__":
    main()
