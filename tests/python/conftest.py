"""Fixtures of the Python API's tests (run by tests/python.test.sh, or
`python3 -m pytest tests/python` from the repository after `make`).

Inputs are made by the build's hpcvet-gen, one good and one broken input of
each family; the CLI (build/hpcvet) is the reference the API is compared
with. HPCVET_BUILD_DIR names the build (default: build/); the package finds
that build's library through HPCVET_LIBRARY, set here before it is imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("HPCVET_BUILD_DIR", ROOT / "build")).resolve()
SHARED = Path(os.environ.get("HV_SHARED", ROOT.parent / "shared")).resolve()
SAMPLES = SHARED / "real-samples"

os.environ.setdefault("HPCVET_LIBRARY", str(BUILD / "libhpcvet.so.0"))
sys.path.insert(0, str(ROOT / "python"))

HPCVET = BUILD / "hpcvet"
GEN = BUILD / "hpcvet-gen"

# (family, generator kind, rule the broken input breaks)
FAMILIES = [
    ("metadb", "metadb", "metadb.hdr.footer"),
    ("hpctoolkit-db", "hpctoolkit-db", None),
    ("ovni", "ovni-trace", "ovni.tree.duplicate-tid"),
    ("dumpi", "dumpi-trace", None),
    ("dumpi-bin", "dumpi-bin", "dumpi.bin.magic"),
]


SANITIZED = os.environ.get("HPCVET_TEST_SANITIZED") == "1"
# The programs of a sanitizer build carry their own ASan runtime: the one
# preloaded into python3 (tests/python.test.sh) must not reach them.
PROGRAM_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def gen(out: Path, what: str, *extra: str) -> Path:
    subprocess.run([str(GEN), f"--what={what}", *extra, "-o", str(out)], check=True,
                   stdout=subprocess.DEVNULL, env=PROGRAM_ENV)
    return out


def cli(*args, cwd=None) -> subprocess.CompletedProcess:
    """The hpcvet program, the reference the API is compared with."""
    return subprocess.run([str(HPCVET), *map(str, args)], capture_output=True, cwd=cwd, env=PROGRAM_ENV)


def cli_json(*paths, cwd=None, extra=()) -> dict:
    p = cli("--format=json", *extra, *paths, cwd=cwd)
    assert p.returncode in (0, 1, 3), p.stderr
    return json.loads(p.stdout)


@pytest.fixture(scope="session")
def inputs(tmp_path_factory) -> dict:
    """{family: (good path, broken path or None)}."""
    d = tmp_path_factory.mktemp("inputs")
    out = {}
    for fam, what, rule in FAMILIES:
        good = gen(d / f"{fam}.good", what)
        bad = gen(d / f"{fam}.bad", what, f"--break={rule}") if rule else None
        out[fam] = (good, bad)
    return out


@pytest.fixture(scope="session")
def good_db(inputs) -> Path:
    return inputs["metadb"][0]


@pytest.fixture(scope="session")
def bad_db(inputs) -> Path:
    return inputs["metadb"][1]


def real_samples() -> list:
    """Every real sample: the entries of real-samples/{hpctoolkit,ovni,dumpi}."""
    out = []
    for fam in ("hpctoolkit", "ovni", "dumpi"):
        d = SAMPLES / fam
        if d.is_dir():
            out += sorted(p for p in d.iterdir() if not p.name.startswith("."))
    return out


unsanitized = pytest.mark.skipif(SANITIZED, reason="RSS under ASan is its quarantine's, not the library's")
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason=f"{SAMPLES} not present (set HV_SHARED)")
