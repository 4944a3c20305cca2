"""validate() and the Report on every family's generated inputs."""

from __future__ import annotations

import html as htmlmod
import json
import os
from pathlib import Path

import pytest

import hpcvet
from conftest import FAMILIES, cli


@pytest.mark.parametrize("fam", [f[0] for f in FAMILIES])
def test_good_input_is_conforming(inputs, fam):
    good, _ = inputs[fam]
    with hpcvet.validate(good) as r:
        assert r.ok and r.verdict is hpcvet.Verdict.CONFORMING
        assert r.errors == 0
        assert r.inputs[0].format != "unknown"
        assert r.inputs[0].rules_checked > 0
        assert r.paths == [str(good)]
        assert r.raise_for_errors() is r


@pytest.mark.parametrize("fam,rule", [(f[0], f[2]) for f in FAMILIES if f[2]])
def test_broken_input_names_its_rule(inputs, fam, rule):
    _, bad = inputs[fam]
    r = hpcvet.validate(bad)
    assert not r.ok and r.verdict is hpcvet.Verdict.NONCONFORMING
    assert r.errors >= 1
    diags = list(r)
    assert rule in {d.rule for d in diags}
    d = next(d for d in diags if d.rule == rule)
    assert d.severity is hpcvet.Severity.ERROR and d.message and d.input == str(bad)
    with pytest.raises(hpcvet.ValidationError) as exc:
        r.raise_for_errors()
    assert exc.value.report is r and str(bad) in str(exc.value)


def test_several_inputs_worst_verdict_wins(inputs):
    good, bad = inputs["metadb"]
    r = hpcvet.validate([good, bad, Path("/nonexistent/hpcvet")])
    assert [i.verdict for i in r.inputs] == [hpcvet.Verdict.CONFORMING, hpcvet.Verdict.NONCONFORMING,
                                             hpcvet.Verdict.UNREADABLE]
    assert r.verdict is hpcvet.Verdict.UNREADABLE
    assert r.inputs[2].problem and "No such file" in r.inputs[2].problem


def test_jobs_give_the_same_report(inputs):
    paths = [inputs[f][0] for f in inputs] + [inputs[f][1] for f in inputs if inputs[f][1]]
    one = hpcvet.validate(paths, jobs=1).to_json()
    assert hpcvet.validate(paths, jobs=3).to_json() == one
    db = inputs["ovni"][0]
    assert hpcvet.validate(db, jobs=4).to_json() == hpcvet.validate(db).to_json()


def test_options_reach_the_library(inputs, bad_db):
    r = hpcvet.validate(bad_db, max_diagnostics=0)
    assert r.errors == 1 and not r.diagnostics and r.suppressed == 1
    draft = hpcvet.validate(inputs["metadb"][0], edition="draft")
    assert not draft.ok
    assert hpcvet.validate(inputs["metadb"][0], edition=hpcvet.Edition.RELEASE).ok
    for kw in ({"strict": True}, {"ovni_all_models": True}, {"mpi": "mpich"}, {"mpi_replay": True}):
        for fam in ("ovni", "dumpi"):
            got = hpcvet.validate(inputs[fam][0], **kw).to_json()
            flags = {"strict": "--strict", "ovni_all_models": "--ovni-all-models", "mpi": "--mpi=mpich",
                     "mpi_replay": "--mpi-replay"}
            want = cli("--format=json", "-j1", flags[next(iter(kw))], inputs[fam][0]).stdout.decode()
            assert got == want, (kw, fam)


def test_validate_bytes_single(good_db, bad_db):
    data = bad_db.read_bytes()
    for buf in (data, bytearray(data), memoryview(data), memoryview(bytearray(data))):
        r = hpcvet.validate_bytes(buf, "meta.db")
        assert r.verdict is hpcvet.Verdict.NONCONFORMING
        assert [d.rule for d in r] == ["metadb.hdr.footer"]
        assert r.paths == ["meta.db"]
    assert hpcvet.validate_bytes(good_db.read_bytes(), "meta.db").ok
    empty = hpcvet.validate_bytes(b"", "empty")
    assert not empty.ok


def test_validate_bytes_mapping_equals_the_folder(inputs):
    for fam in ("hpctoolkit-db", "ovni", "dumpi"):
        root = inputs[fam][0]
        files = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
        mem = hpcvet.validate_bytes(files, str(root))
        disk = hpcvet.validate(root)
        assert mem.verdict == disk.verdict, fam
        assert mem.inputs[0].format == disk.inputs[0].format
        assert [(d.rule, d.offset) for d in mem] == [(d.rule, d.offset) for d in disk]
        assert hpcvet.validate_bytes(files, str(root), jobs=3).to_json() == mem.to_json()


def test_report_renderings(inputs, bad_db):
    r = hpcvet.validate([inputs["metadb"][0], bad_db])
    doc = r.to_dict()
    assert doc == json.loads(r.to_json())
    assert doc["inputs"][1]["diagnostics"][0]["rule"] == "metadb.hdr.footer"
    assert "error[metadb.hdr.footer]" in r.to_text()
    assert "error[metadb.hdr.footer]" not in r.to_text(quiet=True)
    page = r.to_html()
    assert page.startswith("<!DOCTYPE html>") and "metadb.hdr.footer" in page and "nonconforming" in page
    # the notebook view is that page, in a frame of its own
    html = r._repr_html_()
    assert html.startswith("<iframe") and ' srcdoc="' in html
    assert htmlmod.unescape(html.split(' srcdoc="', 1)[1].rsplit('"', 1)[0]) == page
    assert "nonconforming" in repr(r)
    assert str(next(iter(r))).startswith(f"{bad_db}:0x")


def test_dataframe(inputs, bad_db):
    pd = pytest.importorskip("pandas", reason="pandas not installed (Debian: python3-pandas)")
    r = hpcvet.validate([inputs["hpctoolkit-db"][0], bad_db])
    df = r.to_dataframe()
    assert len(df) == len(r.diagnostics) > 1
    assert list(df.columns) == ["input", "rule", "severity", "file", "offset", "length", "path", "message"]
    row = df[df.rule == "metadb.hdr.footer"].iloc[0]
    assert row.severity == "error" and row.input == str(bad_db)
    assert isinstance(df, pd.DataFrame) and str(df.offset.dtype) == "uint64"


def test_closed_report_raises(bad_db):
    r = hpcvet.validate(bad_db)
    with r:
        assert r.errors == 1
    assert r.closed
    for use in (lambda: r.verdict, lambda: r.to_json(), lambda: list(r), lambda: r.errors, lambda: r.inputs):
        with pytest.raises(hpcvet.ReportClosedError):
            use()
    r.close()  # twice is fine
    assert "closed" in repr(r) and "closed" in r._repr_html_()


def test_misuse_is_an_exception(bad_db):
    with pytest.raises(TypeError):
        hpcvet.validate(42)
    with pytest.raises(TypeError):
        hpcvet.validate([bad_db, None])
    with pytest.raises(ValueError):
        hpcvet.validate([])
    with pytest.raises(ValueError):
        hpcvet.validate("a\0b")
    with pytest.raises(ValueError):
        hpcvet.validate("")
    with pytest.raises(TypeError):
        hpcvet.validate(bad_db, strict="yes")
    with pytest.raises(ValueError):
        hpcvet.validate(bad_db, jobs=0)
    with pytest.raises(TypeError):
        hpcvet.validate(bad_db, jobs=2.5)
    with pytest.raises(ValueError):
        hpcvet.validate(bad_db, edition="newest")
    with pytest.raises(TypeError):
        hpcvet.validate(bad_db, edition=3)
    with pytest.raises(ValueError):
        hpcvet.validate(bad_db, mpi="lam")
    with pytest.raises(ValueError):
        hpcvet.validate(bad_db, max_diagnostics=-1)
    with pytest.raises(TypeError):
        hpcvet.validate_bytes("text, not bytes")
    with pytest.raises(TypeError):
        hpcvet.validate_bytes(b"x", name=5)
    with pytest.raises(TypeError):
        hpcvet.validate_bytes({1: b"x"})
    with pytest.raises(TypeError):
        hpcvet.validate_bytes({"meta.db": 3})


def test_hostile_inputs_give_reports(tmp_path, bad_db):
    """Garbage, truncations and odd files: reports, never a crash."""
    data = bad_db.read_bytes()
    for cut in (0, 1, 7, 16, 100, len(data) // 2, len(data) - 1):
        assert hpcvet.validate_bytes(data[:cut], "meta.db").verdict is hpcvet.Verdict.NONCONFORMING
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "stream.obs").write_bytes(os.urandom(4096))
    (odd / "x.bin").write_bytes(b"\xff" * 10)
    assert hpcvet.validate(odd).verdict is hpcvet.Verdict.NONCONFORMING
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert hpcvet.validate(fifo).verdict in (hpcvet.Verdict.UNREADABLE, hpcvet.Verdict.NONCONFORMING)
    names = {"meta.db": b"\x00" * 64, "profile.db": b"HPCTOOLKITprof", "bad\xffname": b"\x01"}
    assert not hpcvet.validate_bytes(names, "set").ok
