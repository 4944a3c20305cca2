"""One allocation failing inside the library, through the Python API: the
result is the unfaulted one, or verdict INTERNAL_ERROR (or MemoryError when
not even the report could be made) -- never another verdict, never a crash
of the interpreter.

A child python3 runs with tests/torture/faultinject.so preloaded (built with
the plain build; the sanitizer build's allocator cannot be interposed) and
arms it around hpcvet.validate only, so the k-th allocation made while the
library validates is the one that fails."""

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
arm = ctypes.CDLL(None).hv_fault_arm
arm()
try:
    r = hpcvet.validate(sys.argv[1])
    out = {"verdict": r.verdict.name,
           "diags": [[d.rule, d.file, d.offset, d.message] for d in r.diagnostics],
           "rules": [i.rules_checked for i in r.inputs],
           "problem": [i.problem for i in r.inputs]}
except MemoryError:
    out = {"verdict": "MemoryError"}
sys.stdout.write(json.dumps(out))
"""

pytestmark = pytest.mark.skipif(SANITIZED or not INJECT.exists(),
                                reason="needs the plain build's fault injector (build/torture/faultinject.so)")


def child(path, at: int, count_file) -> subprocess.CompletedProcess:
    env = dict(os.environ, LD_PRELOAD=str(INJECT), HV_FAULT_KIND="alloc", HV_FAULT_AT=str(at),
               HV_FAULT_ARMED="0", HV_FAULT_COUNT=str(count_file))
    return subprocess.run([sys.executable, "-c", CHILD, str(path), str(ROOT / "python")], capture_output=True,
                          env=env, timeout=60)


@pytest.mark.parametrize("what,extra", [("hpctoolkit-db", ()), ("ovni-trace", ("--break=ovni.tree.duplicate-tid",)),
                                         ("dumpi-trace", ())])
def test_allocation_failure_is_internal_error(tmp_path, what, extra):
    path = gen(tmp_path / "in", what, *extra)
    count = tmp_path / "count"
    base = child(path, 0, count)
    assert base.returncode == 0, base.stderr
    want = json.loads(base.stdout)
    assert want["verdict"] in ("CONFORMING", "NONCONFORMING")
    calls = int(count.read_text())
    assert calls > 10, "the injector counted no allocation of the library"
    stride = max(1, calls // 12)
    internal = 0
    for k in range(1, calls + 1, stride):
        p = child(path, k, count)
        assert p.returncode == 0, f"allocation {k} of {calls}: the interpreter failed\n{p.stderr[-600:]!r}"
        got = json.loads(p.stdout)
        if got == want:
            continue
        assert got["verdict"] in ("INTERNAL_ERROR", "MemoryError"), f"allocation {k} of {calls}: {got} vs {want}"
        if got["verdict"] == "INTERNAL_ERROR":
            internal += 1
            assert any(pr and "out of memory" in pr for pr in got["problem"]), got["problem"]
    assert internal > 0, "no failed allocation gave INTERNAL_ERROR: the injector did not reach the library"
