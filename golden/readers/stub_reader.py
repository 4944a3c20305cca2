"""The batch stub reader (stub.py): answers the matrix's batch protocol (batch.py)
doing, per case, what the plan in argv[1] says."""
import json
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import batch  # noqa: E402
from stub import behaviour  # noqa: E402

PLAN = sys.argv[1]


def content_file(path):
    """The content file of the corpus case the input was made from (the stub reads
    it to misread it on purpose)."""
    base = path[:-2] if path.endswith(".d") else os.path.splitext(path)[0]
    return base + ".content.json"


def load(path, want_content):
    b = behaviour(PLAN, path)
    if b == "refuse":
        raise ValueError("stub: not a trace I read")
    if b == "raise":
        return [][1]
    if b == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if b == "hang":
        while True:
            pass
    if not want_content:
        return None
    with open(content_file(path)) as f:
        want = json.load(f)
    files = []
    for fl in want["files"]:
        ev = [{"kind": "event", "offset": it["offset"], "clock": it["clock"]}
              for it in fl["items"] if it["kind"] == "event"]
        if not ev:
            continue
        if b == "misread":
            ev[0]["clock"] += 1
        base = os.path.basename(path) + "/"
        i = fl["name"].find(base)
        name = os.path.join(path, fl["name"][i + len(base):]) if i >= 0 else path
        files.append({"name": name, "items": ev})
    return {"adapter_kinds": [], "files": files}


if __name__ == "__main__":
    batch.serve(load, [HERE], "stub-batch 1")
