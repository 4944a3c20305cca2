"""Misreads: what a reader decoded from a y_ case, against the case's content file
(hpcvet dump --format=json, golden/README.md "Content conformance"), compared by
golden/content_diff.py's rules (items without offsets matched in order).

A reader's adapter (readers.py) prints what it decoded in the dump's shape
({"files": [{"name", "items"}]}), names relative to the input it was given. For a
single-file case read inside a made-up database or trace, only the case's own file
is compared, under the case's name."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import content_diff  # noqa: E402
from hpctk_adapters import hatchet_values, hpctk_members, pipit_lines  # noqa: E402,F401


def _rename(doc, case):
    """The reader's file names, made relative to its input, then placed under the
    case's path (the expected content's names are below it)."""
    files = []
    for f in doc.get("files", []):
        name = f["name"]
        if name.startswith(case.input.rstrip("/") + "/") or name == case.input:
            name = os.path.relpath(name, case.input) if name != case.input else ""
        if case.embedded is not None:
            if name != case.embedded:
                continue
            name = ""
        files.append({"name": os.path.join(case.id, name) if name else case.id, "items": f.get("items", [])})
    return {"files": files, "adapter_kinds": doc.get("adapter_kinds", [])}


def viewer_roots(case, decoded, want):
    """hpcviewer's root values against the summary profile (profIndex 0) of
    profile.db's content at the root context (ctxId 0): hpcdata numbers each metric
    by the meta.db statistic it shows, and the root of its tree holds that
    statistic's value. Compared: the inclusive (I) and point (X) metrics. Left out:
    the exclusive ones (at its aggregate root hpcdata shows some of them as their
    inclusive partner's value, a display convention) and the taxonomy's formulas
    (HierarchicalMetricDerivedFormula: their index is no statistic of meta.db)."""
    files = [f for f in want["files"] if f["name"].endswith("profile.db")]
    if case.embedded is not None and case.embedded != "profile.db":
        return None
    if not files:
        return None
    p0 = [it for it in files[0]["items"] if it["kind"] == "profile" and it.get("profIndex") == 0]
    if not p0:
        return None
    vals = {v["metricId"]: v["value"] for c in p0[0].get("contexts", []) if c["ctxId"] == 0 for v in c["values"]}
    lines = []
    for m in decoded.get("metrics", []):
        if m.get("root") is None:
            continue
        got = float(m["root"])
        if m["type"] not in ("INCLUSIVE", "XCLUSIVE") or m.get("class") == "HierarchicalMetricDerivedFormula":
            continue
        exp = vals.get(m["index"], 0.0)
        if got != exp:
            lines.append("MISMATCH root value of %s (statistic %d): reader %r, expected %r"
                         % (m["name"], m["index"], got, exp))
    return lines


def ovniemu_counts(want, got):
    """ovniemu's event count and its Paraver trace's span against the content's
    events (every stream's, whatever the model makes of them)."""
    clocks = [it["clock"] for f in want["files"] for it in f["items"] if it["kind"] == "event"]
    lines = []
    if got.get("events") != len(clocks):
        lines.append("MISMATCH input events: reader %r, expected %d" % (got.get("events"), len(clocks)))
    span = max(clocks) - min(clocks) if clocks else 0
    if got.get("span") != span:
        lines.append("MISMATCH Paraver span (ns): reader %r, expected %d (last clock less first)"
                     % (got.get("span"), span))
    return lines


def misread(case, decoded, load_json, dump=None):
    """The first differences (a message) when the reader's decoded content differs
    from the case's content file; None when they agree or nothing was compared.
    dump(case) gives hpcvet's dump of the whole the reader read (for a lone file
    read inside a made-up database, the other files' content)."""
    if case.content is None or decoded is None:
        return None
    want = load_json(case.content)
    if "hatchet" in decoded or "pipit" in decoded:
        files = hpctk_members(case, want, dump)
        lines = (hatchet_values(case, decoded["hatchet"], files) if "hatchet" in decoded
                 else pipit_lines(case, decoded["pipit"], files))
        if not lines:
            return None
        return lines[0] + (" (and %d more)" % (len(lines) - 1) if len(lines) > 1 else "")
    if "ovniemu" in decoded:
        # A lone stream.json or stream.obs is read in a made-up trace: count that.
        whole = dump(case) if case.embedded is not None and dump is not None else want
        lines = ovniemu_counts(whole or want, decoded["ovniemu"])
        return lines[0] if lines else None
    if "metrics" in decoded:  # hpcviewer's metric list and root values
        lines = viewer_roots(case, decoded, want)
        if not lines:
            return None
        return lines[0] + (" (and %d more)" % (len(lines) - 1) if len(lines) > 1 else "")
    got = _rename(decoded, case)
    try:
        lines, compared = content_diff.compare(want, got, case.id, case.id)
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return "unusable decoded content: %s" % e
    # A file that holds items of the kinds the adapter decodes, of which the reader
    # decoded nothing, is misread too: compare() looks only at the reader's files.
    kinds = set(got["adapter_kinds"])
    seen = {content_diff.rel(f["name"], case.id) for f in got["files"] if f["items"]}
    for f in want["files"]:
        n = sum(1 for it in f["items"] if it["kind"] in kinds)
        name = content_diff.rel(f["name"], case.id)
        if n and name not in seen:
            lines.append("MISSING-FILE %s: the reader decoded none of its %d %s items"
                         % (name, n, "/".join(sorted(kinds))))
    if not lines:
        return None
    more = " (and %d more)" % (len(lines) - 1) if len(lines) > 1 else ""
    return lines[0] + more

