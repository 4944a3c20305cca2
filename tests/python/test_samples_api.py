"""The rest of the API on the real samples (validate is compared on every
one in test_cli_equal.py): the dump, certificates and python3 -m hpcvet
give what the program gives."""

from __future__ import annotations

import json

import hpcvet
from conftest import ROOT, SANITIZED, cli, needs_samples, real_samples
from test_module import pymod

EVERY = 12 if SANITIZED else 4  # the dump's JSON of a sample is up to a few MB


@needs_samples
def test_dump_of_real_samples():
    samples = real_samples()[::EVERY]
    assert len(samples) >= 8
    for p in samples:
        want = json.loads(cli("dump", "--format=json", "--max-items=20000", p).stdout)
        assert hpcvet.dump(p, max_items=20000) == want, p
        first = [it for _, it in zip(range(50), hpcvet.iter_dump(p))]
        assert [i for _, i in first] == [it for f in want["files"] for it in f["items"]][:50], p


@needs_samples
def test_certificates_of_real_samples(tmp_path):
    samples = [str(p) for p in real_samples()[::EVERY]]
    cert = hpcvet.certify(samples, jobs=2)
    want = cli("certify", "--format=json", "-j2", *samples)
    assert cert.text.encode() == want.stdout and int(cert.verdict) == want.returncode
    cert.save(tmp_path / "c.json")
    v = hpcvet.verify_certificate(tmp_path / "c.json")
    assert v.holds, v.problem


@needs_samples
def test_module_on_real_samples():
    samples = real_samples()
    got = pymod("--format=json", "-j2", *samples, cwd=ROOT)
    want = cli("--format=json", "-j2", *samples, cwd=ROOT)
    assert got.returncode == want.returncode == 1  # some samples break rules on purpose
    assert got.stdout == want.stdout
