"""Damaged inputs through the Python API: every one gives a report, never a
crash (in the sanitizer build, ASan checks each call into the library)."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import venv

import pytest

import hpcvet
from conftest import ROOT, SANITIZED


def mutants(data: bytes, rng: random.Random, n: int):
    for _ in range(n):
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(b))
            what = rng.random()
            if what < 0.6:
                b[at] = rng.randrange(256)
            elif what < 0.8:
                del b[at: at + rng.randint(1, 64)]
            else:
                b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        yield bytes(b)


@pytest.mark.parametrize("fam,name", [("metadb", "meta.db"), ("dumpi-bin", "rank-0000.bin")])
def test_mutated_files_give_reports(inputs, fam, name):
    rng = random.Random(7)
    data = inputs[fam][0].read_bytes()
    seen = set()
    for m in mutants(data, rng, 60 if SANITIZED else 300):
        r = hpcvet.validate_bytes(m, name)
        assert r.verdict in (hpcvet.Verdict.CONFORMING, hpcvet.Verdict.NONCONFORMING)
        assert r.to_json() and r.to_text()
        seen.update(d.rule for d in r)
    assert len(seen) > 3  # the mutants reach several rules, not one early refusal


@pytest.mark.parametrize("fam", ["hpctoolkit-db", "ovni", "dumpi"])
def test_mutated_sets_give_reports(inputs, fam):
    rng = random.Random(11)
    root = inputs[fam][0]
    files = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    names = sorted(files)
    for _ in range(20 if SANITIZED else 80):
        victim = rng.choice(names)
        damaged = dict(files)
        damaged[victim] = next(mutants(files[victim], rng, 1))
        if rng.random() < 0.2:
            del damaged[rng.choice(names)]
        r = hpcvet.validate_bytes(damaged, str(root))
        assert r.verdict in (hpcvet.Verdict.CONFORMING, hpcvet.Verdict.NONCONFORMING)


@pytest.mark.skipif(SANITIZED, reason="pip install is checked in the plain build")
def test_pip_install_offline(tmp_path):
    """pip install ./python --no-build-isolation, offline, into a fresh
    environment that sees Debian's setuptools."""
    if subprocess.run([sys.executable, "-c", "import setuptools, pip"], capture_output=True).returncode != 0:
        pytest.skip("no setuptools or pip for this python3 (Debian: python3-setuptools python3-pip)")
    src = tmp_path / "src"
    shutil.copytree(ROOT / "python", src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    p = subprocess.run([str(py), "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps", "-q",
                        str(src)], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    p = subprocess.run([str(py), "-c", "import hpcvet; print(hpcvet.__file__); print(hpcvet.validate('/nonexistent/hpcvet').verdict)"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0].startswith(str(env_dir))
    assert p.stdout.splitlines()[1] == "unreadable"
