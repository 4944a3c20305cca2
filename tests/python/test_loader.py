"""Finding the library: HPCVET_LIBRARY, the loader's path, and a clear
error naming what is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from conftest import BUILD, ROOT

PROBE = "import hpcvet; print(hpcvet.library_path); print(hpcvet.library_version)"


def run(env_extra: dict, cwd, pythonpath) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("HPCVET_LIBRARY", "LD_LIBRARY_PATH")}
    env.update(env_extra, PYTHONPATH=str(pythonpath))
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, cwd=cwd)


def test_env_names_the_file_or_its_folder(tmp_path):
    for value in (str(BUILD / "libhpcvet.so.0"), str(BUILD)):
        p = run({"HPCVET_LIBRARY": value}, tmp_path, ROOT / "python")
        assert p.returncode == 0, p.stderr
        assert p.stdout.splitlines()[0] == str(BUILD / "libhpcvet.so.0")


def test_a_wrong_env_value_is_an_error_not_a_fallback(tmp_path):
    p = run({"HPCVET_LIBRARY": str(tmp_path / "nothing.so")}, tmp_path, ROOT / "python")
    assert p.returncode != 0
    assert "LibraryNotFoundError" in p.stderr and str(tmp_path / "nothing.so") in p.stderr
    assert "HPCVET_LIBRARY" in p.stderr
    libc = "/lib/x86_64-linux-gnu/libc.so.6"
    if os.path.exists(libc):
        p = run({"HPCVET_LIBRARY": libc}, tmp_path, ROOT / "python")
        assert p.returncode != 0 and "not libhpcvet" in p.stderr


def test_outside_the_checkout(tmp_path):
    """A copy of the package away from the repository: found through the
    loader's path, else an error listing every place tried."""
    shutil.copytree(ROOT / "python" / "hpcvet", tmp_path / "pkg" / "hpcvet",
                    ignore=shutil.ignore_patterns("__pycache__", "_install.py"))
    p = run({"LD_LIBRARY_PATH": str(BUILD)}, tmp_path, tmp_path / "pkg")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "libhpcvet.so.0"
    p = run({}, tmp_path, tmp_path / "pkg")
    if p.returncode == 0:  # an installed copy is on this machine's loader path
        assert p.stdout.splitlines()[0] != str(BUILD / "libhpcvet.so.0")
    else:
        assert "was not found" in p.stderr and "dynamic loader" in p.stderr and "make install" in p.stderr
    (tmp_path / "pkg" / "hpcvet" / "_install.py").write_text(f'LIBDIR = "{BUILD}"\n')
    p = run({}, tmp_path, tmp_path / "pkg")
    assert p.returncode == 0 and p.stdout.splitlines()[0] == str(BUILD / "libhpcvet.so.0")


class _Fn:
    def __init__(self, value):
        self.value = value

    def __call__(self):
        return self.value


class _FakeLib:
    """A loaded library as _lib sees it: hpcvet_version and some functions."""

    def __init__(self, version: bytes, names):
        for n in names:
            setattr(self, n, _Fn(None))
        self.hpcvet_version = _Fn(version)


def test_version_and_functions_are_checked():
    from hpcvet import _lib

    every = list(_lib._SIGNATURES)
    assert _lib._refusal(_FakeLib(b"0.1.0", every)) is None
    assert _lib._refusal(_FakeLib(b"0.7.3", every)) is None  # newer minor: functions are only added
    assert "major version 0" in _lib._refusal(_FakeLib(b"1.0.0", every))
    assert "older than 0.1.0" in _lib._refusal(_FakeLib(b"0.0.9", every))
    assert "not a MAJOR.MINOR.PATCH" in _lib._refusal(_FakeLib(b"zero", every))
    without = [n for n in every if n != "hpcvet_dump_path"]
    assert "lacks hpcvet_dump_path" in _lib._refusal(_FakeLib(b"0.1.0", without))
    assert "not libhpcvet" in _lib._refusal(object())
