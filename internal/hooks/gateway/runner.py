"""Runs Hermes gateway hook handlers for `hermes hooks` (embedded in the binary).

Two modes:

  runner.py --run           read a request from stdin:
                              {"event_type", "context", "handlers": [{"name", "path"}],
                               "reply": FILE, "capture": DIR, "stop_on_decision": bool}
                            and run each handler's handle(event_type, context) in order
                            (with stop_on_decision, until one returns a deny, handled or
                            rewrite decision: a slash command's routing ends there).
                            One JSON line per step is appended to FILE:
                              {"index": i, "phase": "start"}
                              {"index": i, "phase": "done", "status": "ok" | "error",
                               "error", "result_json", "repr", "elapsed",
                               "logs": [{"level", "logger", "message"}], "threads": n}
                            logs are the handler's log records at INFO and above (the
                            gateway logs them; a test would otherwise hide them) and
                            threads the threads it started that were still running
                            when handle returned (the gateway keeps running them).
                            Each handler runs in a child process of its own (fork), so
                            one that ends the process (os._exit, a crash) cannot take
                            its siblings' results with it. Its file descriptors 1 and 2
                            are pipes this process drains, keeping the first
                            CAPTURE_LIMIT bytes of stdout and the last of stderr in
                            DIR/i.out and DIR/i.err (one byte more when cut), so
                            whatever it prints (from Python or C, or its children) is
                            bounded and can never reach the reply file.
  runner.py --check PATH    parse PATH with ast, never executing it, and print one JSON
                            object: {"ok": bool, "error": str, "line": int,
                            "missing": [{"module", "line"}]}: the top-level imports
                            this Python cannot find (importlib.util.find_spec of each
                            top-level package name, which runs no code of the handler).

It must run on any python3 the user has (3.8+), with the standard library only.
"""

import ast
import asyncio
import importlib.util
import inspect
import json
import os
import re
import select
import sys
import threading
import time
import traceback

# Results and error texts are capped so one handler cannot make the reply
# unreasonably large; the Go side reads the reply whole.
RESULT_LIMIT = 1 << 20
TEXT_LIMIT = 64 << 10
# What is kept of each handler's stdout (its start) and stderr (its end),
# as for shell hooks; the Go side knows the same number.
CAPTURE_LIMIT = 1 << 20
# At most this many log records of a handler are kept, each cut to
# TEXT_LIMIT // 16 characters.
LOG_LIMIT = 200
# How long output is still read once a handler's process has exited: a
# grandchild holding the pipes open must not hold the runner.
PIPE_GRACE = 1.0


def main(argv):
    if len(argv) == 3 and argv[1] == "--check":
        return check(argv[2])
    if len(argv) == 2 and argv[1] == "--run":
        return run()
    sys.stderr.write("usage: runner.py --run | --check PATH\n")
    return 2


# ---------------------------------------------------------------- --run


def run():
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    sys.dont_write_bytecode = True  # leave no __pycache__ in the user's hook folders
    for stream in (sys.stdout, sys.stderr):
        try:
            # A handler's odd characters must not raise in its print().
            stream.reconfigure(errors="backslashreplace")
        except Exception:
            pass
    # Opened before any handler runs, and not inheritable by their children.
    reply = open(request["reply"], "a", encoding="utf-8")
    taken = set()
    stop = request.get("stop_on_decision", False)
    for index, handler in enumerate(request["handlers"]):
        emit(reply, {"index": index, "phase": "start"})
        name = module_name(handler["name"], taken)
        entry = run_one(request, handler, name, index)
        entry["index"] = index
        entry["phase"] = "done"
        emit(reply, entry)
        if stop and decided(entry):
            # A slash command's routing ends at the first deny, handled or
            # rewrite: the gateway runs no later handler.
            break
    reply.close()
    flush()
    # Do not wait for anything a handler left behind: every answer is in.
    os._exit(0)


def run_one(request, handler, name, index):
    """Runs one handler in a child process and returns its reply entry."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    res_r, res_w = os.pipe()
    start = time.monotonic()
    flush()
    pid = os.fork()
    if pid == 0:  # the child: run the handler, send its entry, and go
        code = 0
        try:
            os.close(out_r)
            os.close(err_r)
            os.close(res_r)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            os.close(out_w)
            os.close(err_w)
            # A fresh copy: one handler mutating the context must not change
            # what the next one sees.
            context = json.loads(json.dumps(request["context"]))
            logs = capture_logs()
            before = set(threading.enumerate())
            entry = call(handler, request["event_type"], context, name)
            entry["logs"] = logs()
            entry["threads"] = len([t for t in threading.enumerate() if t not in before and t.is_alive()])
            flush()
            write_all(res_w, json.dumps(entry, ensure_ascii=True).encode("ascii"))
        except BaseException:
            code = 70
        finally:
            # Do not wait for threads or atexit hooks the handler left.
            os._exit(code)
    for fd in (out_w, err_w, res_w):
        os.close(fd)
    res, status = drain(pid, out_r, err_r, res_r,
                        os.path.join(request["capture"], "%d.out" % index),
                        os.path.join(request["capture"], "%d.err" % index))
    elapsed = time.monotonic() - start
    entry = None
    if res:
        try:
            entry = json.loads(res.decode("ascii"))
        except ValueError:
            entry = None
    if entry is None:
        if os.WIFSIGNALED(status):
            how = "was killed by signal %d" % os.WTERMSIG(status)
        else:
            how = "exited with code %d" % os.WEXITSTATUS(status)
        entry = failure("the handler's process %s before handle returned (os._exit, sys.exit in a thread, or a crash)" % how)
    entry["elapsed"] = elapsed
    return entry


def capture_logs():
    """Starts keeping the log records at INFO and above that a handler emits
    through the logging module, as the gateway (which logs at INFO) would
    show them; returns a function that stops and returns them. The handler
    is on the root logger, which is set to INFO when it is less verbose; a
    logger the handler set to a level of its own keeps it. Imported here, in
    the handler's process: the runner's own start-up does not pay for it."""
    import logging

    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            if len(records) >= LOG_LIMIT:
                return
            try:
                message = record.getMessage()
            except BaseException as exc:
                message = "(message cannot be formatted: %s)" % type(exc).__name__
            records.append({"level": record.levelname, "logger": record.name,
                            "message": message[: TEXT_LIMIT // 16]})

    keep = Keep(logging.INFO)
    root = logging.getLogger()
    if root.getEffectiveLevel() > logging.INFO:
        root.setLevel(logging.INFO)
    root.addHandler(keep)

    def taken():
        root.removeHandler(keep)
        return records

    return taken


class Capture:
    """Writes what a handler prints to a capture file as it comes, so it is
    kept even when the timeout kills the runner: the first CAPTURE_LIMIT
    bytes (plus one to say there was more) or, with tail, the last ones (the
    file never grows past twice the limit)."""

    def __init__(self, path, tail):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        self.tail = tail
        self.size = 0
        self.last = bytearray()

    def add(self, chunk):
        if not self.tail:
            room = CAPTURE_LIMIT + 1 - self.size
            if room > 0:
                write_all(self.fd, chunk[:room])
                self.size += min(room, len(chunk))
            return
        self.last += chunk
        if len(self.last) > CAPTURE_LIMIT + 1:
            del self.last[: len(self.last) - CAPTURE_LIMIT - 1]
        if self.size + len(chunk) > 2 * CAPTURE_LIMIT:
            os.ftruncate(self.fd, 0)
            os.lseek(self.fd, 0, os.SEEK_SET)
            write_all(self.fd, self.last)
            self.size = len(self.last)
        else:
            write_all(self.fd, chunk)
            self.size += len(chunk)

    def close(self):
        os.close(self.fd)


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def drain(pid, out_r, err_r, res_r, out_path, err_path):
    """Reads the child's stdout and stderr into their capture files and its
    result, until they close and it has exited; returns the result bytes and
    its wait status."""
    out, err, res = Capture(out_path, False), Capture(err_path, True), bytearray()
    sinks = {out_r: out.add, err_r: err.add, res_r: res.extend}
    status, exited_at = None, None
    while sinks:
        if status is None:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status, exited_at = st, time.monotonic()
        if exited_at is not None and time.monotonic() - exited_at > PIPE_GRACE:
            break
        ready, _, _ = select.select(list(sinks), [], [], 0.05)
        for fd in ready:
            chunk = os.read(fd, 65536)
            if chunk:
                sinks[fd](chunk)
            else:
                del sinks[fd]
    for fd in (out_r, err_r, res_r):
        os.close(fd)
    out.close()
    err.close()
    if status is None:
        _, status = os.waitpid(pid, 0)
    return bytes(res), status


def decided(entry):
    """Whether a handler's entry ends a slash command's routing (the Go
    side's gateway.Decided says the same)."""
    if entry.get("status") != "ok" or entry.get("repr"):
        return False
    try:
        value = json.loads(entry.get("result_json", "null"))
    except ValueError:
        return False
    if not isinstance(value, dict):
        return False
    decision = value.get("decision")
    if decision in ("deny", "handled"):
        return True
    target = value.get("command_name")
    return decision == "rewrite" and isinstance(target, str) and target.strip() != ""


def emit(reply, entry):
    # ensure_ascii: lone surrogates a handler returned cannot break the file.
    reply.write(json.dumps(entry, ensure_ascii=True) + "\n")
    reply.flush()


def flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def module_name(name, taken):
    base = "hermes_hook_" + re.sub(r"\W", "_", name, flags=re.ASCII)
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = "%s_%d" % (base, n)
    taken.add(candidate)
    return candidate


def call(handler, event_type, context, name):
    path = handler["path"]
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return failure("cannot import %s: not a Python source file" % path)
        module = importlib.util.module_from_spec(spec)
        # Registered before it runs, as the agent does: code in the module
        # (dataclasses, pickling, typing) looks itself up in sys.modules.
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
    except BaseException as exc:
        return failure("importing %s failed:\n%s" % (path, format_exception(exc)))

    handle = getattr(module, "handle", None)
    if not callable(handle):
        return failure("%s defines no handle(event_type, context) function" % path)
    try:
        value = handle(event_type, context)
        if inspect.isawaitable(value):
            value = asyncio.run(wait_for(value))
    except BaseException as exc:
        return failure(format_exception(exc))
    return encode(value)


async def wait_for(awaitable):
    return await awaitable


def format_exception(exc):
    # Drop the runner's own frame: the user wants to see their code.
    tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
    text = "".join(traceback.format_exception(type(exc), exc, tb)).rstrip()
    if len(text) > TEXT_LIMIT:
        # The end of a traceback says what went wrong; keep it.
        text = "...\n" + text[-TEXT_LIMIT:]
    return text


def failure(message):
    return {"status": "error", "error": message, "result_json": "null", "repr": False}


def encode(value):
    is_repr = False
    try:
        # allow_nan=False: NaN and Infinity are not JSON.
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except BaseException:
        is_repr = True
        text = json.dumps(safe_repr(value), ensure_ascii=False)
    if len(text) > RESULT_LIMIT:
        return failure("handle returned %d characters of JSON; the limit is %d" % (len(text), RESULT_LIMIT))
    return {"status": "ok", "error": "", "result_json": text, "repr": is_repr}


def safe_repr(value):
    try:
        text = repr(value)
    except BaseException as exc:
        text = "<%s object: repr() raised %s>" % (type(value).__name__, type(exc).__name__)
    if len(text) > RESULT_LIMIT // 2:
        text = text[: RESULT_LIMIT // 2] + "..."
    return text


# ---------------------------------------------------------------- --check


def check(path):
    print(json.dumps(check_source(path)))
    return 0


def missing_imports(tree):
    """The modules the handler imports at its top level (unconditionally,
    outside try/if) that this Python cannot find, as the gateway would fail
    to import them. Only the first name of a dotted import is looked up:
    finding "a.b" would import (run) the package "a"."""
    missing, seen = [], set()
    # python -c puts the working directory first on sys.path; the gateway
    # does not run from the user's working directory, nor from the hook's
    # folder (it never adds that), so neither may answer for it.
    here = os.getcwd()
    sys.path[:] = [p for p in sys.path if p not in ("", ".", here)]
    for node in tree.body:
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if top in seen or top == "__future__":
                continue
            seen.add(top)
            try:
                found = importlib.util.find_spec(top) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                missing.append({"module": top, "line": node.lineno})
    return missing


def check_source(path):
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as exc:
        return {"ok": False, "line": 0, "error": "cannot read %s: %s" % (path, exc.strerror)}
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        return {"ok": False, "line": exc.lineno or 0, "error": "syntax error: %s" % exc.msg}
    except ValueError as exc:  # null bytes, undecodable source
        return {"ok": False, "line": 0, "error": "cannot parse: %s" % exc}

    result = check_handle(tree)
    result["missing"] = missing_imports(tree)
    return result


def check_handle(tree):
    handle = None
    for node in tree.body:
        # The last top-level binding wins, as it would at import time.
        if binds_handle(node):
            handle = node
    if handle is None:
        return {"ok": False, "line": 0,
                "error": "no top-level handle function: define def handle(event_type, context) (or async def)"}
    if not isinstance(handle, (ast.FunctionDef, ast.AsyncFunctionDef)):
        # Bound some other way (assignment, import): its signature can only
        # be known by running the module, which a check must not do.
        return {"ok": True, "line": handle.lineno, "error": ""}
    problem = arity_problem(handle.args)
    if problem:
        return {"ok": False, "line": handle.lineno, "error": problem}
    return {"ok": True, "line": handle.lineno, "error": ""}


def binds_handle(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == "handle"
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name.split(".")[0]) == "handle" for a in node.names)
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    return any(isinstance(t, ast.Name) and t.id == "handle" for t in targets)


def arity_problem(args):
    positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
    required = len(positional) - len(args.defaults)
    names = ", ".join(a.arg for a in positional) or "none"
    want = "it is called as handle(event_type, context)"
    if len(positional) < 2 and args.vararg is None:
        return "handle takes %d positional parameter(s) (%s); %s" % (len(positional), names, want)
    if required > 2:
        return "handle requires %d positional parameters (%s); %s" % (required, names, want)
    missing = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    if missing:
        return "handle has required keyword-only parameter(s) %s; %s" % (", ".join(missing), want)
    return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv))
