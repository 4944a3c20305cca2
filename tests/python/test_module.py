"""python3 -m hpcvet: the program's exit codes and reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, cli


def pymod(*args, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    return subprocess.run([sys.executable, "-m", "hpcvet", *map(str, args)], capture_output=True, env=env, cwd=cwd)


def test_exit_codes(inputs, good_db, bad_db, tmp_path):
    assert pymod(good_db).returncode == 0
    assert pymod(bad_db).returncode == 1
    assert pymod(good_db, bad_db).returncode == 1
    assert pymod(tmp_path / "missing").returncode == 3
    assert pymod(good_db, tmp_path / "missing").returncode == 3
    assert pymod("--strict", inputs["hpctoolkit-db"][0]).returncode == 0
    for usage in (["--bogus", good_db], [], ["--format=sarif", good_db], ["-j", "0", good_db],
                  ["--edition=new", good_db], ["explain"], ["explain", "no.such.rule"], ["rules", "--x"],
                  ["dump", "--select=rank=x", good_db], ["dump"]):
        p = pymod(*usage)
        assert p.returncode == 2, usage
        assert p.stderr, usage


@pytest.mark.parametrize("args", [[], ["-q"], ["--format=json"], ["--strict", "--format=json"], ["-j2"]])
def test_reports_equal_the_program(inputs, bad_db, args):
    paths = [inputs["metadb"][0], bad_db, inputs["ovni"][0], inputs["dumpi"][0]]
    got = pymod(*args, *paths)
    want = cli("--color=never", "--no-context", *args, *paths)
    assert got.returncode == want.returncode
    assert got.stdout == want.stdout


def test_subcommands(bad_db, good_db, tmp_path):
    p = pymod("explain", "metadb.hdr.footer")
    want = cli("explain", "metadb.hdr.footer").stdout
    assert p.returncode == 0 and want.startswith(p.stdout)
    rules = json.loads(pymod("rules", "--format=json").stdout)["rules"]
    assert [r["id"] for r in rules] == [r["id"] for r in json.loads(cli("rules", "--format=json").stdout)["rules"]]
    assert "metadb.hdr.footer" in pymod("rules").stdout.decode()
    for fmt in ("--format=json", "--format=text"):
        got, want = pymod("dump", fmt, bad_db), cli("dump", fmt, bad_db)
        assert (got.returncode, got.stdout) == (want.returncode, want.stdout), fmt
    cert = pymod("certify", good_db)
    assert cert.returncode == 0 and cert.stdout == cli("certify", "--format=json", good_db).stdout
    (tmp_path / "c.json").write_bytes(cert.stdout)
    assert pymod("certify", "--verify", tmp_path / "c.json").returncode == 0
    assert pymod("certify", "--verify", tmp_path / "c.json", bad_db).returncode == 1
    assert pymod("--version").stdout.startswith(b"hpcvet ")
    assert b"exit: 0 conforming" in pymod("--help").stdout
