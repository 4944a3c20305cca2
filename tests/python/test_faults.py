"""One allocation failing inside the library, through the Python API: the
result is the unfaulted one, or verdict INTERNAL_ERROR (or MemoryError when
not even the report could be made) -- never another verdict, never a crash
of the interpreter.

A child python3 runs with tests/torture/faultinject.so preloaded (built with
the plain build; the sanitizer build's allocator cannot be interposed). It
counts the allocations of one hpcvet.validate call (cJSON's and libyaml's
included), then validates again once per fault point k, the injector armed
around the call only (hv_fault_reset(k) ... hv_fault_disarm()), and prints
what each call gave."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT, SANITIZED, gen

INJECT = BUILD / "torture" / "faultinject.so"

CHILD = r"""
import ctypes, json, sys
sys.path.insert(0, sys.argv[2])
import hpcvet
inj = ctypes.CDLL(None)
inj.hv_fault_reset.argtypes = [ctypes.c_ulonglong]
inj.hv_fault_calls.restype = ctypes.c_ulonglong

def once(k):
    inj.hv_fault_reset(k)
    try:
        r = hpcvet.validate(sys.argv[1])
    except (MemoryError, RuntimeError) as e:
        # the library had no memory for the report, or the interpreter none
        # for its own objects (threading.Lock: "can't allocate lock")
        inj.hv_fault_disarm()
        if isinstance(e, RuntimeError) and "allocate" not in str(e):
            raise
        return {"verdict": "MemoryError"}
    inj.hv_fault_disarm()
    return {"verdict": r.verdict.name,
            "diags": [[d.rule, d.file, d.offset, d.message] for d in r.diagnostics],
            "rules": [i.rules_checked for i in r.inputs],
            "problem": [i.problem for i in r.inputs]}

want = once(0)
calls = inj.hv_fault_calls()
stride = max(1, calls // int(sys.argv[3]))
got = {k: once(k) for k in range(1, calls + 1, stride)}
sys.stdout.write(json.dumps({"want": want, "calls": calls, "got": got}))
"""

pytestmark = pytest.mark.skipif(SANITIZED or not INJECT.exists(),
                                reason="needs the plain build's fault injector (build/torture/faultinject.so)")


@pytest.mark.parametrize("what,extra", [("hpctoolkit-db", ()), ("ovni-trace", ("--break=ovni.tree.duplicate-tid",)),
                                         ("dumpi-trace", ())])
def test_allocation_failure_is_internal_error(tmp_path, what, extra):
    path = gen(tmp_path / "in", what, *extra)
    env = dict(os.environ, LD_PRELOAD=str(INJECT), HV_FAULT_KIND="alloc", HV_FAULT_ARMED="0")
    p = subprocess.run([sys.executable, "-c", CHILD, str(path), str(ROOT / "python"), "200"], capture_output=True,
                       env=env, timeout=300)
    assert p.returncode == 0, f"the interpreter failed\n{p.stderr[-800:]!r}"
    out = json.loads(p.stdout)
    want = out["want"]
    assert want["verdict"] in ("CONFORMING", "NONCONFORMING")
    assert out["calls"] > 10, "the injector counted no allocation of the library"
    internal = 0
    for k, got in out["got"].items():
        if got == want:
            continue
        assert got["verdict"] in ("INTERNAL_ERROR", "MemoryError"), f"allocation {k} of {out['calls']}: {got} vs {want}"
        if got["verdict"] == "INTERNAL_ERROR":
            internal += 1
            assert any(pr and "out of memory" in pr for pr in got["problem"]), got["problem"]
    assert internal > 0, "no failed allocation gave INTERNAL_ERROR: the injector did not reach the library"
