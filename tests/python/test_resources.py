"""Memory, descriptors and threads: reports are freed, nothing grows with
the number of validations, and validations from several threads at once
give the reports one thread gives."""

from __future__ import annotations

import gc
import os
import threading

import hpcvet
from conftest import unsanitized


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def grows(run, warm: int, n: int) -> int:
    """RSS growth (KiB) over n calls of run(), after `warm` calls to settle."""
    for _ in range(warm):
        run()
    gc.collect()
    before = rss_kib()
    for _ in range(n):
        run()
    gc.collect()
    return rss_kib() - before


@unsanitized
def test_reports_are_freed(inputs, bad_db):
    # A report keeps up to 100 diagnostics of ~500 bytes in C, plus the
    # report's counters (a few hundred KiB for the rule table): leaking one
    # per call would add hundreds of MiB here.
    db = inputs["hpctoolkit-db"][0]
    assert grows(lambda: hpcvet.validate(db), 20, 1000) < 8 * 1024
    assert grows(lambda: hpcvet.validate(bad_db).to_json(), 20, 1000) < 8 * 1024


@unsanitized
def test_ten_thousand_small_validations_keep_rss_flat(bad_db):
    data = bad_db.read_bytes()

    def run():
        r = hpcvet.validate_bytes(data, "meta.db")
        assert r.errors == 1
        r.close()

    assert grows(run, 200, 10_000) < 4 * 1024


@unsanitized
def test_unclosed_reports_are_collected(bad_db):
    data = bad_db.read_bytes()
    assert grows(lambda: [hpcvet.validate_bytes(data, "meta.db") for _ in range(10)], 10, 500) < 8 * 1024


def test_no_descriptor_is_left_open(inputs):
    paths = [p for pair in inputs.values() for p in pair if p]
    hpcvet.validate(paths)
    before = fds()
    for _ in range(20):
        hpcvet.validate(paths, jobs=2)
        hpcvet.validate(inputs["ovni"][0], jobs=3)
        list(hpcvet.iter_dump(inputs["metadb"][1]))
    assert fds() == before


def test_threads_give_the_single_thread_reports(inputs):
    paths = [p for pair in inputs.values() for p in pair if p]
    want = {str(p): hpcvet.validate(p).to_json() for p in paths}
    errors = []

    def worker(k: int) -> None:
        try:
            for i in range(12):
                p = paths[(k + i) % len(paths)]
                r = hpcvet.validate(p, jobs=1 + (i % 2))
                if r.to_json() != want[str(p)]:
                    errors.append(f"thread {k}: {p} differs")
                r.close()
                b = hpcvet.validate_bytes(inputs["metadb"][1].read_bytes(), "meta.db")
                if [d.rule for d in b] != ["metadb.hdr.footer"]:
                    errors.append(f"thread {k}: buffer report differs")
        except Exception as exc:  # reported below, not lost in the thread
            errors.append(f"thread {k}: {exc!r}")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_one_report_shared_by_threads(bad_db):
    r = hpcvet.validate(bad_db)
    want = r.to_json()
    out = []
    threads = [threading.Thread(target=lambda: out.extend(r.to_json() for _ in range(50))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(out) == {want} and len(out) == 200
