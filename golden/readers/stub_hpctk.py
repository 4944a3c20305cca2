"""What hatchet's and pipit's batch drivers would print for a database read right,
made from a y_ case's content file, and the same with one value wrong: the stubs
that show the adapters (hpctk_adapters.py) detect a misread without the readers
(tests/reader_matrix.test.sh).

  stub_hpctk.py hatchet|pipit|ovniemu CASE_ID [right|wrong|collide|collide+wrong]

prints the misread message the matrix would give (or "None"). collide is hatchet
1.4.0's way: a metric's column holding the last statistic of that metric it read
(here the one after the exclusive scope) in place of the exclusive one."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import content  # noqa: E402
import hpctk_adapters as H  # noqa: E402

CASES = os.path.join(os.path.dirname(HERE), "cases")


class Case:
    def __init__(self, cid):
        self.id, self.embedded = cid, None
        self.input = os.path.join(CASES, cid)
        self.content = self.input[:-2] + ".content.json"


def hatchet(case, files, how):
    entries, children, _ = H.context_tree(files)
    cols = H._hatchet_columns(files)
    names = H._kind_names(files)
    values = {(it["ctxId"], m["metricId"], v["profIndex"]): v["value"]
              for it in H._items(files, "cct.db", "cct") for m in it.get("metrics", []) for v in m["values"]}
    nodes, rows = [], []
    stack = [(e, [i]) for i, e in reversed(list(enumerate(entries)))]
    while stack:
        c, path = stack.pop()
        nodes.append({"path": path, "name": str(c), "type": "function"})
        for prof, tup in sorted(H.id_tuples(case, files).items()):
            attrs = {}
            for kind, flags, logical, physical in tup:
                n = names[kind]
                attrs["node_pid" if n == "NODE" else n.lower()] = physical if flags & 1 else logical
            vals = {col: values.get((c, mid, prof), 0.0) for col, mid in cols.items()}
            if "collide" in how:  # the statistic after the exclusive one, when it has a value
                for col, mid in cols.items():
                    if not col.endswith(" (inc)") and (c, mid + 1, prof) in values:
                        vals[col] = values[(c, mid + 1, prof)]
            rows.append({"node": len(nodes) - 1, "attrs": attrs, "values": vals})
        stack.extend((k, path + [i]) for i, k in reversed(list(enumerate(children.get(c, [])))))
    if "wrong" in how:  # a value no statistic has
        r = next(r for r in rows if any(r["values"].values()))
        col = sorted(k for k, v in r["values"].items() if v)[-1]
        r["values"][col] += 0.5
    exc = [c for c in cols if not c.endswith(" (inc)")]
    return {"hatchet": {"exc_metrics": exc, "inc_metrics": [c for c in cols if c.endswith(" (inc)")],
                        "nodes": nodes, "rows": rows}}


def pipit(case, files, how):
    """Enter/Leave events from each trace's changes, as a timeline would draw them."""
    entries, _, ctxs = H.context_tree(files)
    parent = {c: ctxs[c]["parent"] for c in ctxs}
    events = []
    for key, traces in H.expected_lines(case, files).items():
        for _, seq in traces:
            open_ = []
            for t, c in seq:
                path = []
                while c and c not in entries and c in parent:
                    path.append(c)
                    c = parent[c]
                path = ([c] if c else []) + path[::-1]
                n = 0
                while n < len(open_) and n < len(path) and open_[n] == path[n]:
                    n += 1
                for x in reversed(open_[n:]):
                    events.append([t, "Leave", x, list(key)])
                for x in path[n:]:
                    events.append([t, "Enter", x, list(key)])
                open_ = path
    if how == "wrong":
        e = next(e for e in events if e[1] == "Enter")
        e[0] += 1
    return {"pipit": {"events": events}}


def main(reader, cid, how="right"):
    case = Case(cid)
    with open(case.content) as f:
        want = json.load(f)
    if reader == "ovniemu":
        clocks = [it["clock"] for f in want["files"] for it in f["items"] if it["kind"] == "event"]
        got = {"ovniemu": {"events": len(clocks) - (how == "wrong"), "span": max(clocks) - min(clocks)}}
    else:
        files = H.hpctk_members(case, want, None)
        got = (hatchet if reader == "hatchet" else pipit)(case, files, how)
    print(content.misread(case, got, lambda p: json.load(open(p))))


if __name__ == "__main__":
    main(*sys.argv[1:])
