"""One long-lived reader process for many cases (the reader matrix's batch protocol).

A reader written in Python costs seconds to import (pandas, numpy); the matrix has
hundreds of cases per reader. A driver imports the reader once, then reads requests
from stdin, one per line ("TIMEOUT<tab>CONTENT<tab>PATH": CPU seconds, 1 to print
what was decoded, the input), and answers each with one JSON line ({"outcome",
"message", "content"}).
Each case runs in a forked child, so a crash (a signal, an exhausted stack, memory)
or a hang (past the timeout, in CPU seconds or ten times that in wall seconds;
the message is the same either way, so a loaded machine does not change the page)
is the child's alone and the next case starts clean.

The driver decides accepted / refused / crash / hang itself, as the reader's kind of
failure is only visible in the process that raised it: an exception the reader raises
on purpose (a `raise` statement in the reader's own files, or an OSError: a missing
or unreadable file) is a refusal; any other exception (an IndexError, a KeyError, a
struct.error, a RecursionError, a MemoryError, a numpy or pandas error on what the
reader handed them) is a crash."""
import json
import linecache
import os
import resource
import select
import signal
import sys
import time
import traceback

# A child may use this much address space; a reader that allocates by a count read
# from a hostile file fails with MemoryError (a crash) instead of taking the machine.
MEMORY_LIMIT = 4 << 30
HANG = "no answer within %d s of CPU time"


def classify_exception(exc, reader_roots):
    """(outcome, message) for an exception the reader let escape."""
    tb = traceback.extract_tb(exc.__traceback__)
    name = type(exc).__name__
    text = str(exc).split("\n")[0][:300]
    where = ""
    if tb:
        last = tb[-1]
        where = " (%s:%d)" % (os.path.basename(last.filename), last.lineno)
    message = ("%s: %s" % (name, text) if text else name) + where
    if isinstance(exc, OSError):
        return "refused", message
    if isinstance(exc, (RecursionError, MemoryError)):
        return "crash", message
    if tb:
        last = tb[-1]
        own = any(os.path.abspath(last.filename).startswith(r) for r in reader_roots)
        line = (last.line or linecache.getline(last.filename, last.lineno)).strip()
        if own and (line.startswith("raise") or line.startswith("assert")):
            return "refused", message
    return "crash", message


def _child(load, path, want_content, reader_roots, wfd):
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ValueError, OSError):
        pass
    sys.setrecursionlimit(10000)
    out = {}
    try:
        content = load(path, want_content)
        out["outcome"] = "accepted"
        if want_content and content is not None:
            out["content"] = content
    except BaseException as e:  # the reader's failure, whatever it is, is the result
        out["outcome"], out["message"] = classify_exception(e, reader_roots)
    data = json.dumps(out).encode()
    view = memoryview(data)
    while view:
        n = os.write(wfd, view)
        view = view[n:]
    os.close(wfd)
    os._exit(0)


def run_one(load, path, timeout, want_content, reader_roots):
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 1))
        except (ValueError, OSError):
            pass
        _child(load, path, want_content, reader_roots, wfd)
    os.close(wfd)
    chunks = []
    deadline = time.monotonic() + 10 * timeout
    hung = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            hung = True
            break
        ready, _, _ = select.select([rfd], [], [], left)
        if not ready:
            continue
        b = os.read(rfd, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(rfd)
    if hung:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if hung:
        return {"outcome": "hang", "message": HANG % timeout}
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return {"outcome": "hang", "message": HANG % timeout}
        return {"outcome": "crash", "message": "killed by %s" % signal.Signals(sig).name}
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return {"outcome": "crash", "message": "exited %d without an answer" % os.WEXITSTATUS(status)}


def serve(load, reader_roots, version):
    """Answer requests on stdin until it closes. The first line out is the version."""
    roots = [os.path.abspath(r) for r in reader_roots]
    print(json.dumps({"version": version}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        timeout, content, path = line.rstrip("\n").split("\t", 2)
        res = run_one(load, path, int(timeout), content == "1", roots)
        print(json.dumps(res), flush=True)
