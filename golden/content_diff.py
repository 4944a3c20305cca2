#!/usr/bin/env python3
"""Content conformance: compare what a reader decoded with a case's content
file (hpcvet dump --format=json, see docs/dump.schema.json).

  content_diff.py EXPECTED.json CASE-PATH READER-OUTPUT.json READER-CASE-PATH

The reader prints {"files": [{"name": ..., "items": [...]}]} in the dump's
shape, with as few or as many item kinds and keys as it decodes. Files are
matched by name below the case path. For each file and each item kind the
reader printed at all, every expected item of that kind must be there (same
kind and offset) with equal values for every key the reader gave; items the
expected content lacks are extra. Prints one line per difference and, last,
"items N compared, M differ"; exits 1 when any differ, 2 on unusable output."""
import json
import sys


def rel(name, case):
    case = case.rstrip("/")
    if name == case:
        return name.rsplit("/", 1)[-1]
    if name.startswith(case + "/"):
        return name[len(case) + 1:]
    return name.rsplit("/", 1)[-1]


def main(argv):
    if len(argv) != 5:
        print(__doc__)
        return 2
    want = json.load(open(argv[1]))
    try:
        got = json.load(open(argv[3]))
        gfiles = {rel(f["name"], argv[4]): f for f in got["files"]}
    except (ValueError, KeyError, TypeError) as e:
        print(f"UNUSABLE reader output: {e}")
        return 2
    wfiles = {rel(f["name"], argv[2]): f for f in want["files"]}
    compared = differ = 0
    for name, gf in sorted(gfiles.items()):
        wf = wfiles.get(name)
        if wf is None:
            print(f"EXTRA-FILE {name}")
            differ += 1
            continue
        kinds = {it.get("kind") for it in gf.get("items", [])}
        wby = {(it["kind"], it["offset"]): it for it in wf["items"] if it["kind"] in kinds}
        gby = {(it.get("kind"), it.get("offset")): it for it in gf.get("items", [])}
        for key, wit in sorted(wby.items(), key=lambda kv: kv[0][1]):
            compared += 1
            git = gby.get(key)
            if git is None:
                print(f"MISSING {name} {key[0]}@{key[1]} ({wit.get('path', '')})")
                differ += 1
                continue
            bad = [k for k in git if k not in wit or git[k] != wit[k]]
            if bad:
                k = bad[0]
                print(f"MISMATCH {name} {key[0]}@{key[1]} {k}: reader {git[k]!r}, expected {wit.get(k, '<no such key>')!r}")
                differ += 1
        for key in gby:
            if key not in wby:
                print(f"EXTRA {name} {key[0]}@{key[1]}")
                differ += 1
    print(f"items {compared} compared, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
