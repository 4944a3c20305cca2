"""Batch driver for hatchet's HPCToolkit v4 reader (GraphFrame.from_hpctoolkit), the
reader matrix's protocol (batch.py). Run with the Python and PYTHONPATH the reader
was installed with; argv[1] is the reader's source folder (what counts as its code).

With content asked for, it prints what hatchet decoded in hatchet's own terms
(content.py's hatchet_values maps it onto the case's content): its graph, each node
named by the path of child positions from its root (hatchet keeps no context id in
the frame, and a node's position among its siblings is the order of meta.db's
children arrays), and every row of its dataframe: the node, the row's identifier
columns and its metric columns."""
import math
import os
import sys
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch  # noqa: E402
from hatchet import GraphFrame  # noqa: E402


def _plain(v):
    """A cell as JSON: numbers as numbers (NaN as None), anything else as text."""
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if hasattr(v, "item"):  # numpy scalars
        v = v.item()
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if isinstance(v, int):
        return v
    return str(v)


def decoded(gf):
    paths = {}
    nodes = []
    stack = [(r, [i]) for i, r in reversed(list(enumerate(gf.graph.roots)))]
    while stack:  # hatchet's graph is acyclic; an explicit stack, no recursion
        node, path = stack.pop()
        if id(node) in paths:
            continue
        paths[id(node)] = len(nodes)
        nodes.append({"path": path, "name": _plain(node.frame.get("name")), "type": _plain(node.frame.get("type"))})
        stack.extend((c, path + [i]) for i, c in reversed(list(enumerate(node.children))))
    metrics = list(gf.exc_metrics) + list(gf.inc_metrics)
    df = gf.dataframe.reset_index()
    rows = []
    for rec in df.to_dict("records"):
        n = rec.pop("node")
        vals = {m: _plain(rec.pop(m)) for m in metrics if m in rec}
        attrs = {k: _plain(v) for k, v in rec.items()}
        rows.append({"node": paths.get(id(n), -1), "attrs": attrs, "values": vals})
    return {"hatchet": {"exc_metrics": list(gf.exc_metrics), "inc_metrics": list(gf.inc_metrics),
                        "nodes": nodes, "rows": rows}}


def load(path, want_content):
    gf = GraphFrame.from_hpctoolkit(path)
    return decoded(gf) if want_content else None


if __name__ == "__main__":
    from hatchet.version import __version__
    batch.serve(load, [sys.argv[1]], "hatchet " + __version__)
