"""An agent that calls one hook again and again, as the agent's runner does
(agent_runner.spawn and evaluate, fail_closed as the agent reads it), until
a stop file appears; one JSON line per call on stdout, flushed.

Reads one JSON request on stdin: {"argv": [...], "payload": "...",
"timeout": seconds, "event": "...", "fail_closed": bool, "stop": path}.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


def main():
    req = json.load(sys.stdin)
    argv, event = req["argv"], req["event"]
    fail_closed = bool(req.get("fail_closed")) and event == "pre_tool_call"
    while not os.path.exists(req["stop"]):
        rc, out, err, timed_out = agent_runner.spawn(argv, req["payload"], req["timeout"])
        answer = agent_runner.evaluate(event, rc, out, err, timed_out)
        if fail_closed and answer is None and (timed_out or (out.strip() and not agent_runner.is_object(out.strip()))):
            answer = agent_runner.failed_closed(argv, "timed out or unparseable stdout")
        print(json.dumps({"returncode": rc, "stdout": out, "stderr": err, "answer": answer}), flush=True)


main()
