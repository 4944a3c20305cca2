#!/usr/bin/env python3
"""The reader conformance matrix: every installed reader on every case of its
family (the conformance corpus and the real samples), with hpcvet beside them,
written as docs/READERS.md and its picture (report.py).

  matrix.py [--readers=DIR] [--build=DIR] [--cases=DIR] [--real=DIR] [--only=REGEX]
            [--timeout=SEC] [--results=FILE] [--from-results=FILE] [--out=MD] [--svg=SVG]

--readers: where ../shared/tools/readers/setup.sh put the readers (default
$READERS, else ${TMPDIR:-/tmp}/readers, setup.sh's default); a reader that is not
there is skipped and the page says so. --results writes the raw outcomes as JSON;
--from-results writes the page from such a file without running anything.
--stub=PLAN runs the stub readers of the tests (stub.py) instead of the real ones."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cases as cases_mod  # noqa: E402
import content  # noqa: E402
import readers as readers_mod  # noqa: E402
import report  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--readers", default=os.environ.get("READERS") or os.path.join(os.environ.get("TMPDIR", "/tmp"), "readers"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cases", default=os.path.join(ROOT, "golden", "cases"))
    shared = os.environ.get("HV_SHARED") or os.path.join(ROOT, "..", "shared")
    ap.add_argument("--real", default=os.path.join(shared, "real-samples"))
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--results")
    ap.add_argument("--from-results")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "READERS.md"))
    ap.add_argument("--svg", default=os.path.join(ROOT, "docs", "readers-matrix.svg"))
    ap.add_argument("--stub")
    ap.add_argument("--readers-only", help="run only these readers (comma-separated names) beside hpcvet")
    ap.add_argument("--merge", nargs="+", metavar="RESULTS",
                    help="write the page from several results files (runs of parts of the matrix)")
    a = ap.parse_args(argv)

    if a.merge:
        data = merge(a.merge, a.cases, a.build)
        if a.results:
            with open(a.results, "w") as f:
                json.dump(data, f, indent=1, sort_keys=True)
                f.write("\n")
    elif a.from_results:
        with open(a.from_results) as f:
            data = json.load(f)
    else:
        data = run(a)
        if a.results:
            with open(a.results, "w") as f:
                json.dump(data, f, indent=1, sort_keys=True)
                f.write("\n")
    report.write(data, a.out, a.svg)
    return 0


def run(a):
    hpcvet = os.path.join(a.build, "hpcvet")
    gen = os.path.join(a.build, "hpcvet-gen")
    only = re.compile(a.only)
    cases = cases_mod.corpus_cases(a.cases)
    if os.path.isdir(a.real):
        cases += cases_mod.real_cases(a.real, hpcvet)
    cases = [c for c in cases if only.search(c.id)]
    cases.sort(key=lambda c: (cases_mod.FAMILIES.index(c.family), c.source != "corpus", c.id))
    scratch = tempfile.mkdtemp(prefix="reader-matrix.")
    try:
        cases_mod.prepare_inputs(cases, gen, scratch)
        cases_mod.judge_inputs(cases, hpcvet)
        if a.stub:
            import stub
            readers = stub.readers(a.stub, a.build)
        else:
            readers = readers_mod.all_readers(a.readers, a.build)
        if a.readers_only:
            keep = a.readers_only.split(",")
            readers = [r for r in readers if r.name in keep]
        columns = [readers_mod.Hpcvet(hpcvet, "all")] + readers
        json_cache = {}

        def load_json(p):
            if p not in json_cache:
                with open(p) as f:
                    json_cache[p] = json.load(f)
            return json_cache[p]

        dumps = {}

        def dump(c):
            """hpcvet's dump of the whole a lone file was read in (the other files'
            content, for the adapters that key values through them)."""
            if c.input not in dumps:
                p = subprocess.run([hpcvet, "dump", "--format=json", c.input], capture_output=True)
                try:
                    dumps[c.input] = json.loads(p.stdout)
                except ValueError:
                    dumps[c.input] = None
            return dumps[c.input]

        results = {}
        out_readers = []
        for r in columns:
            mine = [c for c in cases if r.family in ("all", c.family)]
            entry = {"name": r.name, "family": r.family, "how": r.how, "adapter": r.adapter,
                     "version": r.version, "missing": r.missing}
            if r.missing:
                print("reader-matrix: %s not installed (%s): skipped" % (r.name, r.missing), file=sys.stderr)
                out_readers.append(entry)
                continue
            print("reader-matrix: %s on %d cases" % (r.name, len(mine)), file=sys.stderr)
            want = (lambda c: c.kind == "y" and c.content is not None) if r.adapter else (lambda c: False)
            got = r.run(mine, a.timeout, want)
            entry["version"] = r.version
            for c in mine:
                res = got[c.id]
                if res["outcome"] == "accepted" and want(c):
                    m = content.misread(c, res.get("content"), load_json, dump)
                    if m:
                        res = {"outcome": "misread", "message": m}
                res.pop("content", None)
                res["message"] = _clean(res.get("message", ""), c, scratch)
                results.setdefault(r.name, {})[c.id] = res
            out_readers.append(entry)
        return {"readers": out_readers,
                "cases": [{"id": c.id, "family": c.family, "kind": c.kind, "source": c.source,
                           "reproducer": c.reproducer, "rules": c.rules, "clauses": c.clauses,
                           "input_verdict": c.input_verdict} for c in cases],
                "results": results}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def merge(paths, cases_dir=os.path.join(ROOT, "golden", "cases"), build=None):
    """One matrix from runs of parts of it (say, one family at a time): every case,
    every reader with the version a run found it at, every result. A corpus case's
    rules and clauses are the manifest's."""
    corpus = cases_mod.corpus_cases(cases_dir)
    manifest = {c.id: c for c in corpus}
    if build:  # the made-up wholes, judged again (older results files lack it)
        scratch = tempfile.mkdtemp(prefix="reader-matrix.")
        try:
            cases_mod.prepare_inputs(corpus, os.path.join(build, "hpcvet-gen"), scratch)
            cases_mod.judge_inputs(corpus, os.path.join(build, "hpcvet"))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    data = {"readers": [], "cases": [], "results": {}}
    seen = set()
    by_name = {}
    for p in paths:
        with open(p) as f:
            d = json.load(f)
        for r in d["readers"]:
            old = by_name.get(r["name"])
            if old is None:
                by_name[r["name"]] = r
                data["readers"].append(r)
            elif r.get("version") and not r.get("missing"):  # a later run of it wins
                old.update(r)
        for c in d["cases"]:
            if c["id"] in manifest:
                m = manifest[c["id"]]
                c["clauses"], c["rules"] = m.clauses, m.rules
                c["reproducer"] = m.reproducer
                if build:
                    c["input_verdict"] = m.input_verdict
            if c["id"] not in seen:
                seen.add(c["id"])
                data["cases"].append(c)
        for r, v in d["results"].items():
            for x in v.values():
                x["message"] = _stable(x.get("message", ""))
            data["results"].setdefault(r, {}).update(v)
    order = {f: i for i, f in enumerate(cases_mod.FAMILIES)}
    data["cases"].sort(key=lambda c: (order[c["family"]], c["source"] != "corpus", c["id"]))
    return data


def _clean(msg, case, scratch):
    """Messages name paths of this run (scratch copies, the checkout): keep them out,
    so the page is the same on every machine."""
    msg = msg.replace(case.input, "CASE").replace(case.path, "CASE")
    msg = re.sub(re.escape(scratch) + r"[^\s:'\"]*", "SCRATCH", msg)
    msg = re.sub(r"/tmp/[^\s:'\"]+", "SCRATCH", msg)
    msg = msg.replace(ROOT + "/", "")
    return _stable(msg)


def _stable(msg):
    """Object addresses differ from run to run, and so does which limit a hang hits."""
    msg = re.sub(r"^(no answer within \d+ s)( \(wall\)| of CPU)$", r"\1 of CPU time", msg)
    msg = re.sub(r"^over (\d+) s of CPU$", r"no answer within \1 s of CPU time", msg)
    msg = re.sub(r"\b0x[0-9a-f]{8,}\b", "0x...", msg)
    return re.sub(r"@[0-9a-f]{6,}\b", "@...", msg)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
