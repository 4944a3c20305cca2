#!/usr/bin/env python3
"""How an HPCToolkit database numbers its contexts (bench/RESULTS.md,
"How hpcprof numbers contexts"): the facts behind the value checks' "eager" design and the bench
input's --ctx-ids=postorder.

usage: bench/hpctk-ctxid-order.py [--hpcvet build/hpcvet] DATABASE...

Per database, from `hpcvet dump` of its meta.db (contexts elided from meta.db
are not counted: ranges are over the ctxIds meta.db lists):
  children-first  contexts whose children all have lower ctxIds (the value
                  checker evaluates such a context as soon as its own run ends)
  range+root-last subtrees whose ctxIds are a range of meta.db's ids with the
                  root's id last (depth-first post-order), leaves included
  inner           the same among the contexts that have children
"""
import bisect
import json
import subprocess
import sys


def contexts(hpcvet, db):
    out = subprocess.run([hpcvet, "dump", "--format=json", "--max-items=0", "--select=file=meta.db", db],
                         capture_output=True, check=False).stdout
    parent = {}
    for item in json.loads(out)["files"][0]["items"]:
        if "ctxId" not in item:
            continue
        if item["kind"] == "context":
            parent[item["ctxId"]] = item.get("parent")
        elif item["kind"] == "entry-point":
            parent[item["ctxId"]] = 0
    parent.pop(0, None)
    return parent


def measure(parent):
    kids = {}
    for c, p in parent.items():
        kids.setdefault(p, []).append(c)
    order, stack = [], [0]
    while stack:  # no recursion: trees can be deep
        n = stack.pop()
        order.append(n)
        stack.extend(kids.get(n, []))
    size, lo, hi = {}, {}, {}
    for n in reversed(order):
        s, a, b = 1, n, n
        for k in kids.get(n, []):
            s, a, b = s + size[k], min(a, lo[k]), max(b, hi[k])
        size[n], lo[n], hi[n] = s, a, b
    ids = sorted(parent)

    def postorder(n):
        listed = bisect.bisect_right(ids, hi[n]) - bisect.bisect_left(ids, lo[n])
        return listed == size[n] and hi[n] == n

    inner = [n for n in parent if kids.get(n)]
    first = sum(1 for n in parent if all(k < n for k in kids.get(n, [])))
    return (len(parent), 100.0 * first / max(1, len(parent)),
            100.0 * sum(map(postorder, parent)) / max(1, len(parent)),
            100.0 * sum(map(postorder, inner)) / max(1, len(inner)))


def main(argv):
    hpcvet = "build/hpcvet"
    if len(argv) > 1 and argv[0] == "--hpcvet":
        hpcvet, argv = argv[1], argv[2:]
    print(f"{'database':40s} {'contexts':>8s} {'children-first':>14s} {'range+root-last':>15s} {'inner':>6s}")
    for db in argv:
        n, first, post, inner = measure(contexts(hpcvet, db))
        name = db.rstrip("/").split("/")[-1]
        print(f"{name:40s} {n:8d} {first:13.1f}% {post:14.1f}% {inner:5.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
