"""rules(), explain(), dump(), iter_dump(), certify(), verify_certificate()."""

from __future__ import annotations

import json

import pytest

import hpcvet
from conftest import FAMILIES, cli


def test_rules_are_the_programs():
    want = json.loads(cli("rules", "--format=json").stdout)["rules"]
    got = hpcvet.rules()
    assert [(r.id, str(r.severity), r.format, r.clause, r.summary, r.detail) for r in got] == \
        [(w["id"], w["severity"], w["format"], w["clause"], w["summary"], w["detail"]) for w in want]
    assert hpcvet.rule("metadb.hdr.footer").severity is hpcvet.Severity.ERROR


def test_explain():
    text = hpcvet.explain("metadb.hdr.footer")
    assert cli("explain", "metadb.hdr.footer").stdout.decode().startswith(text)
    assert text.startswith("metadb.hdr.footer\n  severity: error\n")
    with pytest.raises(KeyError):
        hpcvet.explain("no.such.rule")
    with pytest.raises(KeyError):
        hpcvet.rule("a\0b")
    with pytest.raises(TypeError):
        hpcvet.explain(None)


@pytest.mark.parametrize("fam", [f[0] for f in FAMILIES])
def test_dump_is_the_programs(inputs, fam):
    for path in inputs[fam]:
        if path is None:
            continue
        want = json.loads(cli("dump", "--format=json", path).stdout)
        assert hpcvet.dump(path) == want
        streamed = list(hpcvet.iter_dump(path))
        items = [(f["name"], it) for f in want["files"] for it in f["items"]]
        assert streamed == items
        text, verdict = hpcvet.dump_text(path)
        p = cli("dump", path)
        assert (text.encode(), int(verdict)) == (p.stdout, p.returncode)


def test_dump_select_and_limits(inputs, bad_db):
    d = hpcvet.dump(inputs["dumpi"][0], select="rank=1,records=0-2")
    assert d == json.loads(cli("dump", "--format=json", "--select=rank=1,records=0-2", inputs["dumpi"][0]).stdout)
    assert hpcvet.dump(inputs["dumpi"][0], select={"rank": 1, "records": "0-2"}) == d
    small = hpcvet.dump(bad_db, max_items=3)
    assert sum(len(f["items"]) for f in small["files"]) == 4  # three, then the "stop" item
    with pytest.raises(ValueError):
        hpcvet.dump(bad_db, select="rank=x")
    with pytest.raises(ValueError):
        next(hpcvet.iter_dump(bad_db, select="nonsense"))
    with pytest.raises(TypeError):
        hpcvet.dump(bad_db, select=3)
    missing = hpcvet.dump("/nonexistent/hpcvet")
    assert missing["report"]["verdict"] == "unreadable"


def test_iter_dump_stops_early(inputs):
    db = inputs["hpctoolkit-db"][0]
    it = hpcvet.iter_dump(db)
    first = [next(it) for _ in range(5)]
    it.close()
    assert len(first) == 5 and all(isinstance(i, dict) and "kind" in i for _, i in first)
    for n, _ in enumerate(hpcvet.iter_dump(db)):
        if n == 10:
            break


def test_certificates(inputs, good_db, bad_db, tmp_path):
    cert = hpcvet.certify([good_db, bad_db])
    assert cert.verdict is hpcvet.Verdict.NONCONFORMING
    assert cert.text.encode() == cli("certify", "--format=json", good_db, bad_db).stdout
    assert [i["verdict"] for i in cert.data["certificate"]["inputs"]] == ["conforming", "nonconforming"]
    one = hpcvet.certify(good_db)
    one.save(tmp_path / "good.json")
    v = hpcvet.verify_certificate(tmp_path / "good.json")
    assert v.holds and v.document["verification"]["holds"] and v.problem == ""
    assert cli("certify", "--verify", tmp_path / "good.json").returncode == 0
    v = hpcvet.verify_certificate(tmp_path / "good.json", bad_db)
    assert not v.holds and v.status == 1 and v.document["verification"]["inputs"][0]["reasons"]
    cert.save(tmp_path / "two.json")
    v = hpcvet.verify_certificate(tmp_path / "two.json", good_db)
    assert v.status == 2 and "certifies 2 inputs" in v.problem
    v = hpcvet.verify_certificate(good_db)
    assert v.status == 3 and v.document is None and "not an hpcvet JSON certificate" in v.problem
    db = hpcvet.certify(inputs["ovni"][0], jobs=2)
    assert db.verdict is hpcvet.Verdict.CONFORMING and len(db.data["certificate"]["inputs"][0]["files"]) > 1
