#!/usr/bin/env python3
"""Check every performance-data input under a folder tree with hpcvet's
Python API: HPCToolkit databases (folders holding meta.db), ovni traces
(folders holding loom.* folders) and DUMPI traces (.meta files). A progress
bar is drawn when tqdm is installed (Debian: python3-tqdm).

    python3 examples/check_tree.py [-j N] [--strict] ROOT...

Prints one line per input that is not conforming, then a summary; exits
like hpcvet (0 all conforming, 1 some nonconforming, 3 some unreadable,
4 internal error; the highest wins).
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator, List

import hpcvet


def inputs_under(root: str) -> Iterator[str]:
    """Each input below `root`, once; the files inside an input are not
    inputs of their own."""
    if os.path.isfile(root):
        yield root
        return
    for here, dirs, files in os.walk(root):
        dirs.sort()
        if "meta.db" in files or any(d.startswith("loom.") for d in dirs):
            yield here
            dirs[:] = []  # its files are part of it
            continue
        for f in sorted(files):
            if f.endswith(".meta"):
                yield os.path.join(here, f)


def progress(items, total: int):
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, total=total, unit="input", file=sys.stderr)


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="+")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args(argv)
    found = [p for r in args.roots for p in inputs_under(r)]
    worst = hpcvet.Verdict.CONFORMING
    counts = {v: 0 for v in hpcvet.Verdict}

    def check(path: str) -> hpcvet.InputResult:
        with hpcvet.validate(path, strict=args.strict) as r:
            return r.inputs[0]

    # one input per thread: the library runs without the GIL
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for res in progress(pool.map(check, found), len(found)):
            counts[res.verdict] += 1
            worst = max(worst, res.verdict)
            if not res.ok:
                first = res.diagnostics[0] if res.diagnostics else None
                why = res.problem or (f"{first.rule}: {first.message}" if first else "")
                print(f"{res.path}: {res.verdict} ({res.errors} errors, {res.warnings} warnings) {why}")
    print(f"{len(found)} inputs: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n))
    return int(worst)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
