"""Content adapters of the HPCToolkit readers that key their data their own way:
hatchet (a graph of nodes and a dataframe of node x rank/thread rows) and pipit (an
Enter/Leave event frame). Each maps what the reader decoded back onto the case's
content (hpcvet dump --format=json) and lists the differences (content.py's
misread()).

What ties the two sides together:
- a context: hatchet's node by its path of child positions from its root (the
  roots are meta.db's entry points in their order, a node's children its children
  array in file order, as hatchet builds them), the content's context by its
  parent and offset; pipit's events carry the context id itself;
- a profile: by its identifier tuple, which neither the dump nor the readers give
  as a profile index: it is read from profile.db's bytes at the profile's pIdTuple
  (the dump gives the pointer; the layout is the v4 spec's: u16 nIds, 6 bytes of
  padding, then per identifier u8 kind, a pad byte, u16 flags, u32 logical id,
  u64 physical id), named as each reader names it;
- a metric column: hatchet's "M" and "M (inc)" are the statistics of metric M whose
  propagation scopes metrics/default.yaml gives as the Sum (or unnamed) variant's
  exclusive and inclusive standard formula, the variant hatchet reads."""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import content_diff  # noqa: E402

MEMBERS = ("meta.db", "profile.db", "cct.db", "trace.db", "metrics/default.yaml")


def hpctk_members(case, want, dump):
    """Each file of the database the reader read, as content items: the case's own
    files from its content file, the others (a lone file read inside a made-up
    database) from hpcvet's dump of that database."""
    files = {}
    for f in want["files"]:
        member = case.embedded if case.embedded is not None else content_diff.rel(f["name"], case.id)
        files[member] = f["items"]
    if case.embedded is not None and dump is not None:
        whole = dump(case) or {"files": []}
        for f in whole["files"]:
            m = next((x for x in MEMBERS if f["name"] == x or f["name"].endswith("/" + x)), None)
            if m and m not in files:
                files[m] = f["items"]
    return files


def _items(files, member, kind):
    return [it for it in files.get(member, []) if it.get("kind") == kind]


def context_tree(files):
    """(entry-point ctxIds in order, {ctxId: children ctxIds in file order},
    {ctxId: context item})."""
    entries = [it["ctxId"] for it in sorted(_items(files, "meta.db", "entry-point"), key=lambda x: x["offset"])]
    ctxs = sorted(_items(files, "meta.db", "context"), key=lambda x: x["offset"])
    children = {}
    for c in ctxs:
        children.setdefault(c["parent"], []).append(c["ctxId"])
    return entries, children, {c["ctxId"]: c for c in ctxs}


def id_tuples(case, files):
    """{profIndex: [(kind, flags, logical, physical), ...]} for every profile with
    an identifier tuple (not the summary's), read from profile.db's bytes."""
    path = os.path.join(case.input, "profile.db")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return {}
    out = {}
    for p in _items(files, "profile.db", "profile"):
        at = p.get("pIdTuple", 0)
        if not at or at + 8 > len(data):
            continue
        n = struct.unpack_from("<H", data, at)[0]
        if at + 8 + 16 * n > len(data):
            continue
        out[p["profIndex"]] = [struct.unpack_from("<BxHIQ", data, at + 8 + 16 * i) for i in range(n)]
    return out


def _kind_names(files):
    ids = _items(files, "meta.db", "id-names")
    return {n["kind"]: n["name"] for n in (ids[0]["names"] if ids else [])}


def _int(v):
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


# ------------------------------------------------------------------- hatchet

def _hatchet_columns(files):
    """{column: {propMetricId: ...}} as metrics/default.yaml and meta.db give them:
    "M" -> the statistic of M in the exclusive standard scope, "M (inc)" -> in the
    inclusive one (hatchet 1.4.0 reads the Sum variant, else the unnamed one, and
    only when it renders a percent)."""
    y = files.get("metrics/default.yaml", [])
    inputs = {it["path"]: it for it in y if it.get("kind") == "taxonomy-input"}
    roots = {it["path"]: it["name"] for it in y if it.get("kind") == "taxonomy-metric" and it.get("depth") == 0}
    scopes = {}
    for v in (it for it in y if it.get("kind") == "taxonomy-variant"):
        root, _, name = v["path"].partition("/variants/")
        if root not in roots or "percent" not in v.get("render", []):
            continue
        m = roots[root]
        if name == "Sum" or (name == "" and m not in scopes):
            scopes[m] = {k: inputs[v[k + "_standard"]]["scope"] for k in ("inclusive", "exclusive")
                         if v.get(k + "_standard") in inputs}
    cols = {}
    for m in _items(files, "meta.db", "metric"):
        sc = scopes.get(m["name"], {})
        by_scope = {s["scope"]: s["propMetricId"] for s in m.get("scopeInsts", [])}
        if sc.get("exclusive") in by_scope:
            cols[m["name"]] = by_scope[sc["exclusive"]]
        if sc.get("inclusive") in by_scope:
            cols[m["name"] + " (inc)"] = by_scope[sc["inclusive"]]
    if "CPUTIME (sec)" in cols:  # hatchet renames HPCToolkit's CPU time
        cols["time"] = cols.pop("CPUTIME (sec)")
        if "CPUTIME (sec) (inc)" in cols:
            cols["time (inc)"] = cols.pop("CPUTIME (sec) (inc)")
    return cols


def hatchet_values(case, got, files):
    """The differences between hatchet's frame and the case's cct.db values: every
    node of the context tree, every profile with an identifier tuple and every
    metric column hatchet shows for a statistic of meta.db, valued as cct.db gives
    it (a statistic cct.db omits is 0, as hatchet fills it)."""
    if "cct.db" not in files or "meta.db" not in files:
        return None
    entries, children, _ = context_tree(files)
    path_of, placed = {}, set()
    stack = [(e, (i,)) for i, e in enumerate(entries)]
    while stack:  # a context placed twice (a cycle in a broken tree) is placed once
        c, p = stack.pop()
        if c in placed:
            continue
        placed.add(c)
        path_of[p] = c
        stack.extend((k, p + (i,)) for i, k in enumerate(children.get(c, [])))
    values = {}
    for it in _items(files, "cct.db", "cct"):
        for m in it.get("metrics", []):
            for v in m["values"]:
                values[(it["ctxId"], m["metricId"], v["profIndex"])] = v["value"]
    names = _kind_names(files)
    profiles = {}
    for prof, tup in id_tuples(case, files).items():
        ids = {}
        for kind, flags, logical, physical in tup:
            n = names.get(kind, str(kind))
            ids["node_pid" if n == "NODE" else n.lower()] = physical if flags & 1 else logical
        profiles[prof] = ids
    # A row holds every profile's identifier columns, empty (NaN) where its own
    # tuple has no such kind, and a column with an empty cell holds floats.
    cols = {c: mid for c, mid in _hatchet_columns(files).items()
            if c in got["exc_metrics"] or c in got["inc_metrics"]}
    # hatchet 1.4.0 names a column by the metric alone for every scope but the
    # default inclusive one, so a metric's other statistics land in its exclusive
    # column (docs/reader-findings/hatchet-1.4.0-exclusive-column.md): a value
    # that is one of those is told apart from any other wrong value.
    shared = {}
    for m in _items(files, "meta.db", "metric"):
        inc = cols.get(m["name"] + " (inc)")
        shared[m["name"]] = {s["propMetricId"]: s["scope"] for s in m.get("scopeInsts", [])
                             if s["propMetricId"] != inc}
    if "CPUTIME (sec)" in shared:
        shared["time"] = shared.pop("CPUTIME (sec)")
    collided = []
    lines = []
    nodes = got["nodes"]
    node_ctx = {}
    for i, n in enumerate(nodes):
        c = path_of.get(tuple(n["path"]))
        if c is None:
            lines.append("EXTRA node %s (%s): no context at that place in meta.db's tree" % (n["path"], n["name"]))
        node_ctx[i] = c
    seen = set(node_ctx.values())
    for p, c in sorted(path_of.items()):
        if c not in seen:
            lines.append("MISSING context %d (at %s): no node of hatchet's graph" % (c, list(p)))
    keys = {}
    for prof, ids in profiles.items():
        keys.setdefault(tuple(sorted(ids.items())), []).append(prof)
    id_names = {k for i in profiles.values() for k in i}
    rows = {}
    for r in got["rows"]:
        c = node_ctx.get(r["node"])
        if c is not None:
            rows[(c, tuple(sorted((k, _int(r["attrs"][k])) for k in id_names
                                  if r["attrs"].get(k) is not None)))] = r
    for key, profs in sorted(keys.items()):
        if len(profs) > 1:  # hatchet keys its rows by the tuple: such profiles are one row
            lines.append("AMBIGUOUS profiles %s: one identifier tuple %s, one row of hatchet's frame"
                         % (profs, dict(key)))
            continue
        prof = profs[0]
        for p, c in sorted(path_of.items()):
            r = rows.get((c, key))
            if r is None:
                lines.append("MISSING row of context %d, profile %d %s" % (c, prof, dict(key)))
                continue
            for col, mid in sorted(cols.items()):
                exp = values.get((c, mid, prof), 0.0)
                g = r["values"].get(col)
                g = 0.0 if g is None else g
                if not _same(float(g), float(exp)):
                    line = ("MISMATCH cct.db ctx %d, profile %d %s, %s (statistic %d): reader %r, expected %r"
                            % (c, prof, dict(key), col, mid, g, exp))
                    other = [m for m, sc in sorted(shared.get(col, {}).items())
                             if m != mid and _same(float(values.get((c, m, prof), 0.0)), float(g))]
                    if other:
                        collided.append(line + " (the value of statistic %d, scope %s, which hatchet "
                                        "writes into the same column)" % (other[0], shared[col][other[0]]))
                    else:
                        lines.append(line)
    return lines + collided  # any other difference first


# ------------------------------------------------------------------- pipit

PIPIT_LINE = ("RANK", "THREAD", "NODE", "CORE")  # its Process, Thread, Host, Core


def _node_of(ctxs, entries):
    """pipit makes no node of a line or instruction context (lexical types 2, 3):
    a sample there is in its nearest other ancestor."""
    roots = set(entries)

    def f(c):
        seen = 0
        while c not in roots and c in ctxs and ctxs[c].get("lexicalType") in (2, 3) and seen <= len(ctxs):
            c = ctxs[c]["parent"]
            seen += 1
        return c
    return f


def expected_lines(case, files):
    """{line key: [(time, ctxId or 0)]}: per trace of trace.db, the context each
    sample puts the thread in, from the trace's start (trace.db's minTimestamp), one
    entry per change, ending idle at maxTimestamp."""
    hdr = _items(files, "trace.db", "trace-header")
    if not hdr:
        return None
    t0, t1 = hdr[0]["minTimestamp"], hdr[0]["maxTimestamp"]
    entries, _, ctxs = context_tree(files)
    node = _node_of(ctxs, entries)
    names = _kind_names(files)
    tuples = id_tuples(case, files)
    out = {}
    for tr in _items(files, "trace.db", "trace"):
        ids = {names.get(k, str(k)): phys for k, _, _, phys in tuples.get(tr["profIndex"], [])}
        key = tuple(ids.get(n) for n in PIPIT_LINE)
        states = [(t - t0, 0 if c == 0 else node(c)) for t, c in tr.get("elements", [])]
        out.setdefault(key, []).append((tr["profIndex"], changes(states + [(t1 - t0, 0)])))
    return out


def changes(states):
    """[(time, state)] in order -> the state at the end of each time, from 0 (no
    context), one entry per change: a thread's contexts as a timeline shows them."""
    seq, state = [], 0
    for i, (t, s) in enumerate(states):
        if i + 1 < len(states) and states[i + 1][0] == t:
            continue
        if s != state:
            seq.append((t, s))
            state = s
    return seq


def pipit_states(got):
    """{line key: [(time, ctxId or 0)]} from pipit's events: after the events of
    one timestamp, the innermost context still entered (0: none)."""
    lines = {}
    for t, typ, ctx, line in got["events"]:
        lines.setdefault(tuple(line), []).append((t, typ, ctx))
    out = {}
    for key, evs in lines.items():
        stack, states, bad = [], [], None
        for t, typ, ctx in evs:
            if typ in ("Enter", "Loop Enter"):
                stack.append(ctx)
            elif typ in ("Leave", "Loop Leave"):
                if not stack or stack[-1] != ctx:
                    bad = bad or "a Leave of context %s at %s with %s entered" % (ctx, t, stack[-1] if stack else "none")
                else:
                    stack.pop()
            states.append((t, stack[-1] if stack else 0))
        out[key] = (changes(states), bad)
    return out


def pipit_lines(case, got, files):
    """The differences between pipit's events and the case's trace.db samples, per
    trace line: the sequence of (time, context) changes each gives."""
    want = expected_lines(case, files)
    if want is None:
        return None
    have = pipit_states(got)
    lines = []
    for key, traces in sorted(want.items(), key=lambda kv: str(kv[0])):
        label = dict(zip(("Process", "Thread", "Host", "Core"), key))
        if len(traces) > 1:  # pipit names a line by these four: such traces share its events
            lines.append("AMBIGUOUS traces of profiles %s: one line %s in pipit's frame"
                         % ([p for p, _ in traces], label))
            continue
        prof, exp = traces[0]
        seq, bad = have.pop(key, ([], None))
        if bad:
            lines.append("MISMATCH trace of profile %d %s: %s" % (prof, label, bad))
            continue
        if seq != exp:
            i = next((i for i in range(min(len(seq), len(exp))) if seq[i] != exp[i]), min(len(seq), len(exp)))
            lines.append("MISMATCH trace of profile %d %s, change %d of %d: reader %s, expected %s (time, context)"
                         % (prof, label, i, len(exp), seq[i] if i < len(seq) else "none",
                            exp[i] if i < len(exp) else "none"))
    for key in sorted(have, key=str):
        lines.append("EXTRA line %s: no trace of trace.db has these identifiers" % (key,))
    return lines
