"""The Python report equals the CLI's JSON report: on every case of the
conformance corpus (golden/cases) and on every real sample. Two things are
compared: Report.to_json() with `hpcvet --format=json` (the same writer,
fed by the API's validation), and the report's Python objects, field by
field, with the CLI's JSON (the API's accessors against the CLI)."""

from __future__ import annotations

import json


import hpcvet
from conftest import ROOT, cli_json, needs_samples, real_samples

CASES = ROOT / "golden" / "cases"


def shown(s: str) -> str:
    """A Python string as the JSON report shows it: control characters
    other than newline and tab, and U+FFFE/U+FFFF, as \\xNN (the report's
    writers keep the document readable by strict parsers)."""
    out = []
    for ch in s:
        o = ord(ch)
        if (o < 0x20 and ch not in "\n\t") or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif o in (0xFFFE, 0xFFFF):
            out.append("".join(f"\\x{b:02x}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def as_cli(i: hpcvet.InputResult) -> dict:
    d = {
        "path": shown(i.path),
        "format": i.format,
        "edition": i.edition,
        "version": i.version,
        "verdict": str(i.verdict),
        "rules_checked": i.rules_checked,
        "errors": i.errors,
        "warnings": i.warnings,
        "notes": i.notes,
        "suppressed": i.suppressed,
        "diagnostics": [
            {"rule": g.rule, "severity": str(g.severity), "file": shown(g.file), "offset": g.offset,
             "length": g.length, "struct_path": shown(g.path), "message": shown(g.message)}
            for g in i.diagnostics
        ],
    }
    if i.problem is not None:
        d["problem"] = shown(i.problem)
    return d


def compare(paths, cwd, monkeypatch, jobs=1):
    monkeypatch.chdir(cwd)
    want = cli_json(f"-j{jobs}", *paths)
    with hpcvet.validate(paths, jobs=jobs) as r:
        assert json.loads(r.to_json()) == want
        assert len(r.inputs) == len(want["inputs"])
        for got, w in zip(r.inputs, want["inputs"]):
            w = {k: v for k, v in w.items() if k != "not_shown"}
            assert as_cli(got) == w, got.path


def golden_cases():
    m = json.loads((CASES / "MANIFEST.json").read_text())
    return [c["path"] for c in m["cases"]]


def test_golden_cases_equal_cli(monkeypatch):
    paths = golden_cases()
    assert len(paths) > 400
    compare(paths, CASES, monkeypatch, jobs=2)


def test_golden_expected_reports(monkeypatch):
    """The checked-in expected report of every case, by the API."""
    monkeypatch.chdir(CASES)
    m = json.loads((CASES / "MANIFEST.json").read_text())
    for c in m["cases"]:
        want = json.loads((CASES / c["expect"]).read_text())["inputs"]
        got = [as_cli(i) for i in hpcvet.validate(c["path"]).inputs]
        assert got == [{k: v for k, v in w.items() if k != "not_shown"} for w in want], c["name"]
        assert (got[0]["verdict"] == "conforming") == (c["verdict"] == "accept")


@needs_samples
def test_real_samples_equal_cli(monkeypatch):
    paths = [str(p) for p in real_samples()]
    assert len(paths) > 20
    compare(paths, ROOT, monkeypatch, jobs=2)


@needs_samples
def test_real_samples_from_memory():
    """Each real sample read into memory gives the verdict of its folder."""
    for p in real_samples()[::6]:
        files = {str(f.relative_to(p)): f.read_bytes() for f in sorted(p.rglob("*")) if f.is_file()} \
            if p.is_dir() else {p.name: p.read_bytes()}
        if sum(map(len, files.values())) > 64 << 20:
            continue
        assert hpcvet.validate_bytes(files, str(p)).verdict == hpcvet.validate(p).verdict, p
