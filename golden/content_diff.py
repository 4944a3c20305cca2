#!/usr/bin/env python3
"""Content conformance: compare what a reader decoded with a case's content
file (hpcvet dump --format=json, see docs/dump.schema.json).

  content_diff.py EXPECTED.json CASE-PATH READER-OUTPUT.json READER-CASE-PATH

The reader prints {"files": [{"name": ..., "items": [...]}]} in the dump's
shape, with as few or as many item kinds and keys as it decodes. Files are
matched by name below the case path. For each file and each item kind the
reader printed at all, every expected item of that kind must be there (same
kind and offset) with equal values for every key the reader gave; items the
expected content lacks are extra. A reader that cannot say where an item lies
leaves "offset" out of all items of that kind: they are then matched in order,
the reader's n-th item of the kind with the n-th expected one. Prints one line
per difference and, last, "items N compared, M differ"; exits 1 when any
differ, 2 on unusable output."""
import json
import sys


def rel(name, case):
    case = case.rstrip("/")
    if name == case:
        return name.rsplit("/", 1)[-1]
    if name.startswith(case + "/"):
        return name[len(case) + 1:]
    return name.rsplit("/", 1)[-1]


def compare(want, got, case, reader_case):
    """The differences between an expected content document and a reader's, as
    lines, and the number of items compared. Raises ValueError, KeyError or
    TypeError when the reader's document is not in the dump's shape."""
    gfiles = {rel(f["name"], reader_case): f for f in got["files"]}
    wfiles = {rel(f["name"], case): f for f in want["files"]}
    lines = []
    compared = 0
    for name, gf in sorted(gfiles.items()):
        wf = wfiles.get(name)
        if wf is None:
            lines.append(f"EXTRA-FILE {name}")
            continue
        gitems = gf.get("items", [])
        for kind in sorted({it.get("kind") for it in gitems}):
            gk = [it for it in gitems if it.get("kind") == kind]
            wk = [it for it in wf["items"] if it["kind"] == kind]
            if all("offset" not in it for it in gk):  # matched in order
                wby = {i: it for i, it in enumerate(wk)}
                gby = {i: it for i, it in enumerate(gk)}
                where = lambda k: f"{kind}#{k}"  # noqa: E731
            else:
                wby = {it["offset"]: it for it in wk}
                gby = {it.get("offset"): it for it in gk}
                where = lambda k: f"{kind}@{k}"  # noqa: E731
            for key in sorted(wby):
                wit = wby[key]
                compared += 1
                git = gby.get(key)
                if git is None:
                    lines.append(f"MISSING {name} {where(key)} ({wit.get('path', '')})")
                    continue
                bad = [k for k in git if k != "kind" and (k not in wit or git[k] != wit[k])]
                if bad:
                    k = bad[0]
                    lines.append(f"MISMATCH {name} {where(key)} {k}: reader {git[k]!r}, "
                                 f"expected {wit.get(k, '<no such key>')!r}")
            for key in sorted(k for k in gby if k not in wby):
                lines.append(f"EXTRA {name} {where(key)}")
    return lines, compared


def main(argv):
    if len(argv) != 5:
        print(__doc__)
        return 2
    want = json.load(open(argv[1]))
    try:
        got = json.load(open(argv[3]))
        lines, compared = compare(want, got, argv[2], argv[4])
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        print(f"UNUSABLE reader output: {e}")
        return 2
    for line in lines:
        print(line)
    print(f"items {compared} compared, {len(lines)} differ")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
