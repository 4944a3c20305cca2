#!/usr/bin/env python3
"""Checks for `hpcvet dump` (driven by tests/dump.test.sh).

  dump_check.py schema SCHEMA DUMP.json...        every dump validates against the schema
  dump_check.py same-diags DUMP.json REPORT.json  the dump carries the validation's diagnostics
  dump_check.py same-diags-list FILE              the same for each "DUMP REPORT" line of FILE
  dump_check.py dumpi-ref DUMP.json REFERENCE.txt the records carry dumpi2ascii's values
  dump_check.py ovni-args DUMP.json EVENTS.md      ovni events' named args decode their payload as
                                                  the 1.14 event list's signatures say

Prints one line per failure and exits 1 when there was any."""
import json
import re
import sys


def fail(msg):
    print("FAIL:", msg)
    return 1


# The schema is about the shape of items; python's jsonschema takes ~0.3 ms
# per item and the corpus dumps hold ~200,000 of them, nearly all repeats of
# a few shapes. Each file's items are checked up to SHAPE_KEEP per shape
# (kind plus key set): every shape the dumper wrote is checked, the repeats
# are not (their values come from the same code as the ones kept).
SHAPE_KEEP = 4


def shape_sample(doc):
    for f in doc.get("files", []) if isinstance(doc, dict) else []:
        items = f.get("items") if isinstance(f, dict) else None
        if not isinstance(items, list):
            continue
        seen = {}
        kept = []
        for it in items:
            key = (it.get("kind"), tuple(sorted(it))) if isinstance(it, dict) else ("?", ())
            seen[key] = seen.get(key, 0) + 1
            if seen[key] <= SHAPE_KEEP:
                kept.append(it)
        f["items"] = kept
    return doc


# Keywords that judge an array as a whole rather than each element.
WHOLE_ARRAY = {"minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
               "prefixItems", "unevaluatedItems"}
FILE_KEYWORDS = {"type", "required", "additionalProperties", "properties", "allOf", "description"}


def items_judged_alone(schema):
    """True when the schema judges a file's items one by one, each by itself
    and its file's format alone: no keyword anywhere looks at an array as a
    whole, and the file definition's conditions read only "format". Then
    an items list is valid exactly when each distinct (format, item) pair is,
    and a pair seen before need not be validated again."""
    def walk(x):
        if isinstance(x, dict):
            return not (WHOLE_ARRAY & x.keys()) and all(walk(v) for v in x.values())
        if isinstance(x, list):
            return all(walk(v) for v in x)
        return True
    f = schema.get("$defs", {}).get("file", {})
    return (walk(schema) and set(f) <= FILE_KEYWORDS
            and all(set(c.get("if", {}).get("properties", {})) <= {"format"} and set(c) <= {"if", "then"}
                    for c in f.get("allOf", [])))


def drop_seen(doc, seen):
    """Removes from each file the items whose (format, item) pair was
    validated already (in this dump or an earlier one); returns how many
    items there were and how many are left."""
    total = left = 0
    for f in doc.get("files", []) if isinstance(doc, dict) else []:
        items = f.get("items") if isinstance(f, dict) else None
        if not isinstance(items, list):
            continue
        kept = []
        for it in items:
            key = (json.dumps(f.get("format"), sort_keys=True), json.dumps(it, sort_keys=True))
            if key not in seen:
                seen.add(key)
                kept.append(it)
        total += len(items)
        left += len(kept)
        f["items"] = kept
    return total, left


def if_cannot_hold(sub, instance):
    """True when SUB is {"if": {"properties": {KEY: {"const" or "enum": ...}}},
    "then": ...} (no "else") and INSTANCE holds KEY as a string that is none
    of the strings listed: its "if" is then false, so SUB holds whatever its
    "then" says, and the validator need not evaluate it. (An instance
    without KEY, or a value or a list that is not all strings, is left to
    the validator.)"""
    if not isinstance(instance, dict) or not isinstance(sub, dict) or set(sub) != {"if", "then"}:
        return False
    cond = sub["if"]
    if not isinstance(cond, dict) or set(cond) != {"properties"} or len(cond["properties"]) != 1:
        return False
    (key, test), = cond["properties"].items()
    if not isinstance(test, dict) or len(test) != 1:
        return False
    if "const" in test:
        allowed = [test["const"]]
    elif "enum" in test and isinstance(test["enum"], list):
        allowed = test["enum"]
    else:
        return False
    value = instance.get(key)
    return isinstance(value, str) and all(isinstance(a, str) for a in allowed) and value not in allowed


def allof_by_kind(validator, all_of, instance, schema):
    """allOf as the specification says, skipping the members whose "if"
    cannot hold (if_cannot_hold): an item is judged by its own kind's
    conditions, not tried against the item schema's 20 (and a file by its
    format's, of 5). The same verdict and errors; the schema checks of
    tests/dump.test.sh 15% less CPU (the rest is mostly json.load)."""
    for index, sub in enumerate(all_of):
        if if_cannot_hold(sub, instance):
            continue
        yield from validator.descend(instance, sub, schema_path=index)


def cmd_schema(schema_path, dumps):
    import jsonschema
    schema = json.load(open(schema_path))
    jsonschema.Draft202012Validator.check_schema(schema)
    fast = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"allOf": allof_by_kind})
    v = fast(schema)
    # Dumps repeat items (a y_ case's sections, an ovni stream's header...):
    # each distinct one is validated once, a third of the work on the corpus,
    # while the schema allows it (else every item is validated).
    dedup = items_judged_alone(schema)
    seen = set()
    bad = total = left = 0
    for p in dumps:
        try:
            doc = json.load(open(p))
        except ValueError as e:
            bad |= fail(f"{p}: not JSON: {e}")
            continue
        doc = shape_sample(doc)
        if dedup:
            t, k = drop_seen(doc, seen)
            total += t
            left += k
        errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
        if errs:
            e = errs[0]
            bad |= fail(f"{p}: {len(errs)} schema error(s), first at {list(e.path)}: {e.message[:200]}")
    how = f"{left} distinct items of {total} sampled" if dedup else "every sampled item: the schema judges arrays whole"
    print(f"{len(dumps)} dumps checked against the schema ({how})")
    return bad


def cmd_same_diags(dump_path, report_path):
    dump = json.load(open(dump_path))
    rep = json.load(open(report_path))["inputs"][0]
    want = rep.get("diagnostics", [])
    got = dump["report"]["diagnostics"]
    if got != want:
        return fail(f"{dump_path}: diagnostics differ from the report's: {got[:1]} vs {want[:1]}")
    if dump["report"]["verdict"] != rep["verdict"]:
        return fail(f"{dump_path}: verdict {dump['report']['verdict']} vs {rep['verdict']}")
    return 0


def cmd_same_diags_list(list_path):
    bad = 0
    n = 0
    for line in open(list_path):
        dump, report = line.split()
        n += 1
        bad |= cmd_same_diags(dump, report)
    print(f"{n} dumps compared with their validation reports")
    return bad


def parse_ref_value(v):
    """A value as dumpi2ascii prints it: 9, 9 (MPI_INT), [2], [{bytes=...}], ["./mpi"], <IGNORED>."""
    v = v.strip()
    if v == "<IGNORED>":
        return None
    m = re.match(r"^(-?[0-9]+)( \(.*\))?$", v)
    if m:
        return int(m.group(1))
    if v.startswith("[") and v.endswith("]"):
        inner = v[1:-1].strip()
        if not inner:
            return []
        if inner.startswith("{"):
            out = []
            for obj in re.findall(r"\{([^}]*)\}", inner):
                out.append({k.strip(): int(x) for k, x in (kv.split("=") for kv in obj.split(","))})
            return out
        if inner.startswith('"'):
            return json.loads(v)
        return [int(x) for x in inner.split(",")]
    return v


def same(ref, got):
    if ref is None:
        return got is None or got == []
    if isinstance(ref, list) and isinstance(got, int):
        return ref == [got]  # dumpi2ascii prints a request as [N]
    if isinstance(ref, list) and ref and isinstance(ref[0], dict):
        return isinstance(got, list) and len(got) == len(ref) and all(
            all(g.get(k) == x for k, x in r.items()) for r, g in zip(ref, got))
    return ref == got


def cmd_dumpi_ref(dump_path, ref_path):
    dump = json.load(open(dump_path))
    records = [it for f in dump["files"] for it in f["items"] if it["kind"] == "record"]
    calls = []
    cur = None
    enter = re.compile(r"^(\S+) entering at walltime ([0-9.]+), cputime ([0-9.]+) seconds in thread ([0-9]+)\.$")
    leave = re.compile(r"^(\S+) returning at walltime ([0-9.]+), cputime ([0-9.]+) seconds in thread ([0-9]+)\.$")
    arg = re.compile(r"^[A-Za-z_]+(?: [A-Za-z_*]+)? (\w+)(?:\[[0-9]+\])?=(.*)$")
    for line in open(ref_path):
        line = line.rstrip("\n")
        m = enter.match(line)
        if m:
            cur = {"name": m.group(1), "wall": [m.group(2)], "cpu": [m.group(3)], "thread": int(m.group(4)), "args": {}}
            continue
        m = leave.match(line)
        if m and cur:
            cur["wall"].append(m.group(2))
            cur["cpu"].append(m.group(3))
            calls.append(cur)
            cur = None
            continue
        m = arg.match(line)
        if m and cur:
            cur["args"][m.group(1)] = parse_ref_value(m.group(2))
    bad = 0
    if len(calls) != len(records) or not calls:
        bad |= fail(f"{len(records)} records dumped, the reference has {len(calls)}")
    values = 0
    for i, (c, r) in enumerate(zip(calls, records)):
        where = f"record {i} ({c['name']})"
        if r["function"] != c["name"]:
            bad |= fail(f"{where}: function {r['function']}")
        if r.get("thread") != c["thread"]:
            bad |= fail(f"{where}: thread {r.get('thread')} vs {c['thread']}")
        if [r["wall"]["start"], r["wall"]["stop"]] != c["wall"]:
            bad |= fail(f"{where}: wall {r['wall']} vs {c['wall']}")
        if [r["cpu"]["start"], r["cpu"]["stop"]] != c["cpu"]:
            bad |= fail(f"{where}: cpu {r['cpu']} vs {c['cpu']}")
        if set(r["args"]) != set(c["args"]):
            bad |= fail(f"{where}: argument names {sorted(r['args'])} vs {sorted(c['args'])}")
        for k, v in c["args"].items():
            values += 1
            if not same(v, r["args"].get(k, "<absent>")):
                bad |= fail(f"{where}: {k}={r['args'].get(k, '<absent>')!r}, dumpi2ascii says {v!r}")
    print(f"{len(records)} records, {values} argument values compared with dumpi2ascii")
    return bad


def signatures(spec_path):
    """MCV -> [(type, name)] from the event list's <pre> signatures."""
    import html
    sigs = {}
    for m in re.finditer(r"<pre>([^<]*)</pre>", open(spec_path).read()):
        t = html.unescape(m.group(1))
        if "(" in t:
            sigs[t[:3]] = [tuple(a.split()) for a in t[t.index("(") + 1:t.rindex(")")].split(",")]
    return sigs


def cmd_ovni_args(dump_path, spec_path):
    import struct
    sigs = signatures(spec_path)
    fmt = {"u32": "<I", "i32": "<i", "u64": "<Q", "i64": "<q"}
    bad, n = 0, 0
    for f in json.load(open(dump_path))["files"]:
        for ev in f["items"]:
            if ev["kind"] != "event" or ev["mcv"] not in sigs:
                continue
            where = f"{f['name']}: event {ev['index']} {ev['mcv']}"
            data, want = bytes(ev["payload"]), {}
            for typ, name in sigs[ev["mcv"]]:
                if typ == "str":
                    end = data.index(0)
                    want[name], data = data[:end].decode(), data[end + 1:]
                else:
                    k = struct.calcsize(fmt[typ])
                    want[name], data = struct.unpack(fmt[typ], data[:k])[0], data[k:]
            n += 1
            if list(ev.get("args", {}).items()) != list(want.items()):
                bad |= fail(f"{where}: args {ev.get('args')}, the signature decodes {want}")
    print(f"{n} events' arguments compared with the 1.14 signatures")
    return bad | (n == 0 and fail("no event with arguments"))


def main(argv):
    if len(argv) == 4 and argv[1] == "ovni-args":
        return cmd_ovni_args(argv[2], argv[3])
    if len(argv) >= 3 and argv[1] == "schema":
        return cmd_schema(argv[2], argv[3:])
    if len(argv) == 4 and argv[1] == "same-diags":
        return cmd_same_diags(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "same-diags-list":
        return cmd_same_diags_list(argv[2])
    if len(argv) == 4 and argv[1] == "dumpi-ref":
        return cmd_dumpi_ref(argv[2], argv[3])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
