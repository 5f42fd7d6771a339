"""The agent's hook runner, as agent/shell_hooks.py runs a hook (_spawn)
and reads its answer (_evaluate_result, SPEC §7), for the guard's proof.

Reads one JSON request on stdin: {"argv": [...], "payload": "...",
"timeout": seconds, "event": "..."}; prints one JSON object: returncode,
stdout, stderr, timed_out and answer. A list of requests is run in order
and answered with a list.
"""
import json
import os
import signal
import subprocess
import sys


def spawn(argv, payload, timeout):
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        process_group=0,
        text=True,
        errors="replace",
    )
    timed_out = False
    try:
        out, err = proc.communicate(input=payload, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    return proc.returncode, out, err, timed_out


def block_directive(d):
    if d.get("action") == "block":
        msg = d.get("message") or d.get("reason")
    elif d.get("decision") == "block":
        msg = d.get("reason") or d.get("message")
    else:
        return None
    if isinstance(msg, str) and msg.strip():
        return msg
    return "Blocked by shell hook."


def evaluate(event, returncode, stdout, stderr, timed_out):
    if timed_out:
        return None
    out = stdout.strip()
    if returncode == 2 and event == "pre_tool_call":
        try:
            d = json.loads(out)
            msg = block_directive(d) if isinstance(d, dict) else None
        except ValueError:
            msg = None
        if msg is None:
            msg = stderr.strip()[:400] or "Blocked by shell hook."
        return {"action": "block", "message": msg}
    if not out:
        return None
    try:
        d = json.loads(out)
    except ValueError:
        return None
    if not isinstance(d, dict):
        return None
    if event == "pre_tool_call":
        msg = block_directive(d)
        if msg is not None:
            return {"action": "block", "message": msg}
        if d.get("action") == "modify" and isinstance(d.get("args"), dict):
            return {"action": "modify", "args": d["args"]}
        if d.get("action") == "approve":
            return {"action": "approve"}
        return None
    if event == "pre_verify":
        action = d.get("action") or d.get("decision")
        msg = d.get("message") or d.get("reason")
        if isinstance(action, str) and action.strip().lower() in ("continue", "block") \
                and isinstance(msg, str) and msg.strip():
            return {"action": "continue", "message": msg.strip()}
        return None
    ctx = d.get("context")
    if isinstance(ctx, str) and ctx.strip():
        return {"context": ctx}
    return None


def run(req):
    rc, out, err, timed_out = spawn(req["argv"], req["payload"], req["timeout"])
    return {"returncode": rc, "stdout": out, "stderr": err, "timed_out": timed_out,
            "answer": evaluate(req["event"], rc, out, err, timed_out)}


def main():
    req = json.load(sys.stdin)
    # A list of requests runs them one after the other, as one agent
    # process fires its hooks call after call, and prints a list.
    if isinstance(req, list):
        json.dump([run(r) for r in req], sys.stdout)
    else:
        json.dump(run(req), sys.stdout)


main()
