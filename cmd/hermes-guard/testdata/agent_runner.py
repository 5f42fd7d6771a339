"""The agent's hook runner, as agent/shell_hooks.py runs a hook (_spawn)
and reads its answer (_evaluate_result, SPEC §7), for the guard's proof.

Reads one JSON request on stdin: {"argv": [...], "payload": "...",
"timeout": seconds, "event": "...", "fail_closed": bool (optional),
"env": {...} (optional, the hook's whole environment)}; prints one JSON
object: returncode, stdout, stderr, timed_out, spawn_error and answer. A
list of requests is run in order and answered with a list; {"batch":
[...]} runs them several at once (threads) and answers with a list.

fail_closed is read as the agent reads it (SPEC §25, upstream issue
#102417): a spawn error, a timeout, or stdout that is not a JSON object
blocks; a death by signal, or a non-zero exit with nothing on stdout, does
not (the gap a fail-closed guard closes).
"""
import json
import os
import signal
import subprocess
import sys


def spawn(argv, payload, timeout, env=None):
    proc = subprocess.Popen(
        argv,
        env=env,
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


def failed_closed(argv, reason):
    return {"action": "block", "message": "hook %s failed closed: %s" % (" ".join(argv), reason)}


def is_object(out):
    try:
        return isinstance(json.loads(out), dict)
    except ValueError:
        return False


def run_one(req):
    argv, event = req["argv"], req["event"]
    fail_closed = bool(req.get("fail_closed")) and event == "pre_tool_call"
    try:
        rc, out, err, timed_out = spawn(argv, req["payload"], req["timeout"], req.get("env"))
    except OSError as e:
        return {"returncode": None, "stdout": "", "stderr": "", "timed_out": False,
                "spawn_error": str(e),
                "answer": failed_closed(argv, str(e)) if fail_closed else None}
    answer = evaluate(event, rc, out, err, timed_out)
    if fail_closed and answer is None:
        if timed_out:
            answer = failed_closed(argv, "timed out after %ss" % req["timeout"])
        elif out.strip() and not is_object(out.strip()):
            answer = failed_closed(argv, "unparseable stdout (expected a JSON object)")
    return {"returncode": rc, "stdout": out, "stderr": err, "timed_out": timed_out,
            "spawn_error": None, "answer": answer}


def main():
    req = json.load(sys.stdin)
    # A list of requests runs them one after the other, as one agent
    # process fires its hooks call after call, and prints a list.
    if isinstance(req, list):
        json.dump([run_one(r) for r in req], sys.stdout)
        return
    if "batch" in req:
        # Each request run as the agent runs a hook, several at once (as
        # the agent's hooks of different sessions may be).
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(8) as pool:
            json.dump(list(pool.map(run_one, req["batch"])), sys.stdout)
        return
    json.dump(run_one(req), sys.stdout)


if __name__ == "__main__":
    main()
