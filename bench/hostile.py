#!/usr/bin/env python3
"""Hostile input shapes for `make bench-hostile` (bench/hostile.sh).

usage: hostile.py SHAPE BYTES BASE OUT

Writes OUT, a copy of the small valid input BASE (a directory) with one
file replaced or grown so that OUT holds about BYTES bytes in the shape an
attacker would choose: the shapes that cost a parser or a checker most per
byte (deep or wide nesting, many tiny records, counts at their bounds, many
diagnostics, long names; a zeroed region of an HPCToolkit database, a note
on every DUMPI rank file, measured with no cap on the report). The binary shapes that hpcvet-gen can write
itself (deep context trees, many profiles, requests in flight) are made by
bench/hostile.sh with the generator's options; this script does the text
formats (the metric taxonomy's YAML, ovni's stream.json, DUMPI's .meta) and
the ovni event streams.
"""
import os
import shutil
import struct
import sys


def fill(n, unit):
    """unit repeated to about n bytes (at least once)."""
    return unit * max(1, n // len(unit))


# ---- metrics/default.yaml of an HPCToolkit database ----

YAML_HEAD = "version: 0\ninputs: []\nroots: []\n"


def yaml_shape(shape, n):
    if shape == "yaml-flow-seq-deep":  # [[[...]]]: libyaml's quadratic case
        d = n // 2
        return YAML_HEAD + "x: " + "[" * d + "]" * d + "\n"
    if shape == "yaml-flow-map-deep":  # {a: {a: ...}}
        d = n // 5
        return YAML_HEAD + "x: " + "{a: " * d + "b" + "}" * d + "\n"
    if shape == "yaml-block-deep":  # - - - - a: block sequences nested on one line
        d = n // 2
        return YAML_HEAD + "x:\n" + "- " * d + "a\n"
    if shape == "yaml-at-bound":  # nested to the depth bound (items at level 51), then many tokens
        return YAML_HEAD + "x: " + "[" * 49 + fill(n, "a, ") + "]" * 49 + "\n"
    if shape == "yaml-flat-seq":  # one flow sequence of tiny items
        return YAML_HEAD + "x: [" + fill(n, "a, ") + "]\n"
    if shape == "yaml-flat-map":  # one flow map of many distinct keys
        k = max(1, n // 12)
        return YAML_HEAD + "x: {" + ", ".join("k%07d: 1" % i for i in range(k)) + "}\n"
    if shape == "yaml-anchors":  # many distinct anchors, each aliased once
        k = max(1, n // 22)
        return YAML_HEAD + "x: [" + ", ".join("&a%07d [1], *a%07d" % (i, i) for i in range(k)) + "]\n"
    if shape == "yaml-aliases":  # one anchored map aliased many times
        return YAML_HEAD + "m: &m {a: 1}\nx: [" + fill(n, "*m, ") + "]\n"
    if shape == "yaml-long-scalar":  # one scalar of n bytes
        return YAML_HEAD + 'description: "' + "x" * n + '"\n'
    if shape == "yaml-many-errors":  # an input entry that fails, many times
        return ("version: 0\ninputs:\n" + fill(n, "  - {metric: 7, scope: [], formula: 1, combine: avg}\n") +
                "roots: []\n")
    raise SystemExit("unknown shape " + shape)


# ---- ovni: stream.json ----

def json_labels(n, doc):
    """doc with its mark table holding about n bytes of labels (the generator
    writes mark 3 with labels 1 and 2): a valid writer's shape at width."""
    k = max(3, n // 28)
    labels = ", ".join('"%d": "%s"' % (i, {1: "init", 2: "compute"}.get(i, "label %d" % i)) for i in range(1, k))
    at = doc.index('"labels"')
    return doc[:at] + '"labels": {' + labels + "}" + doc[doc.index("}", at) + 1:]


def json_shape(shape, n, doc):
    """doc: a valid stream.json's text; the hostile part goes under "ovni"."""
    if shape == "json-deep-object":
        d = n // 7
        part = '"x": ' + '{"a": ' * d + "1" + "}" * d
    elif shape == "json-deep-array":
        d = n // 2
        part = '"x": ' + "[" * d + "]" * d
    elif shape == "json-wide-object":
        k = max(1, n // 16)
        part = '"x": {' + ", ".join('"k%08d": 1' % i for i in range(k)) + "}"
    elif shape == "json-long-string":
        part = '"x": "' + "x" * n + '"'
    else:
        raise SystemExit("unknown shape " + shape)
    at = doc.index('"ovni"')
    brace = doc.index("{", at)
    return doc[:brace + 1] + part + ", " + doc[brace + 1:]


# ---- ovni: stream.obs ----

def obs_events(data):
    """(offset, length) of each event of an ovni stream."""
    off = 8
    while off + 12 <= len(data):
        flags = data[off]
        if flags & 0x10:
            ln = 16 + struct.unpack_from("<I", data, off + 12)[0]
        else:
            nib = flags & 0x0F
            ln = 12 + (nib + 1 if nib else 0)
        yield off, ln
        off += ln


def obs_shape(shape, n, data):
    if shape == "obs-unknown-events":  # every event a header of an MCV no model has
        k = max(1, n // 12)
        return data[:8] + b"".join(b"\x00XYZ" + struct.pack("<Q", 1000 + i) for i in range(k))
    if shape == "obs-clock-backwards":  # the stream's events with their clocks reversed
        out = bytearray(data)
        evs = list(obs_events(data))
        clocks = [struct.unpack_from("<Q", data, off + 4)[0] for off, _ in evs]
        for (off, _), c in zip(evs, reversed(clocks)):
            struct.pack_into("<Q", out, off + 4, c)
        return bytes(out)
    if shape == "obs-same-clock":  # every event at one clock: ties everywhere
        out = bytearray(data)
        for off, _ in obs_events(data):
            struct.pack_into("<Q", out, off + 4, 1000)
        return bytes(out)
    raise SystemExit("unknown shape " + shape)


def many_streams(out, n):
    """One thread's first events (up to the first 256 bytes of them) copied
    into as many threads of its process as n bytes hold, each with its own
    tid: the loom's merge and the model's per-thread state at width."""
    src = sorted(d for d, _, fs in os.walk(out) if "stream.obs" in fs)[0]
    with open(os.path.join(src, "stream.obs"), "rb") as f:
        data = f.read()
    end = 8
    for off, ln in obs_events(data):
        if off + ln > 256:
            break
        end = off + ln
    head = data[:end]
    with open(os.path.join(src, "stream.json")) as f:
        doc = f.read()
    tid = int(os.path.basename(src).split(".")[1])
    proc = os.path.dirname(src)
    for i in range(1, max(2, n // (len(head) + len(doc)))):
        t = 100000 + i
        d = os.path.join(proc, "thread.%d" % t)
        os.mkdir(d)
        with open(os.path.join(d, "stream.obs"), "wb") as f:
            f.write(head)
        with open(os.path.join(d, "stream.json"), "w") as f:
            f.write(doc.replace('"tid": %d' % tid, '"tid": %d' % t))


def main():
    shape, n, base, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(base, out)
    if shape.startswith("yaml-"):
        with open(os.path.join(out, "metrics", "default.yaml"), "w") as f:
            f.write(yaml_shape(shape, n))
    elif shape == "json-valid-labels":  # every stream the same large mark table: valid
        paths = sorted(os.path.join(d, "stream.json") for d, _, fs in os.walk(out) if "stream.json" in fs)
        for path in paths:
            with open(path) as f:
                doc = f.read()
            with open(path, "w") as f:
                f.write(json_labels(n // len(paths), doc))
    elif shape.startswith("json-"):
        n = min(n, 15 << 20)  # under ovni's 16 MiB bound on stream.json: parsed, not refused
        path = sorted(os.path.join(d, "stream.json") for d, _, fs in os.walk(out) if "stream.json" in fs)[0]
        with open(path) as f:
            doc = f.read()
        with open(path, "w") as f:
            f.write(json_shape(shape, n, doc))
    elif shape == "obs-many-streams":  # thousands of tiny threads in one process
        many_streams(out, n)
    elif shape.startswith("obs-"):
        paths = sorted(os.path.join(d, "stream.obs") for d, _, fs in os.walk(out) if "stream.obs" in fs)
        for p in paths if shape != "obs-unknown-events" else paths[:1]:
            with open(p, "rb") as f:
                data = f.read()
            with open(p, "wb") as f:
                f.write(obs_shape(shape, n, data))
    elif shape == "hk-zeroed":  # the middle half of profile.db and cct.db zeroed: a finding per value
        for name in ("profile.db", "cct.db"):
            path = os.path.join(out, name)
            with open(path, "rb") as f:
                data = bytearray(f.read())
            a, e = len(data) // 4, 3 * len(data) // 4
            data[a:e] = bytes(e - a)
            with open(path, "wb") as f:
                f.write(data)
    elif shape == "dumpi-rank-notes":  # every rank file's CPU bias 5 s: one note per rank file
        for name in os.listdir(out):
            if name.endswith(".bin"):
                path = os.path.join(out, name)
                with open(path, "r+b") as f:
                    f.seek(8)  # the biases after the 8-byte preamble: cpu_bias, big-endian
                    f.write(struct.pack(">I", 5))
    elif shape.startswith("meta-"):
        path = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".meta")][0]
        n = min(n, 1000000)  # libdumpi writes ~150 bytes; past 1 MiB a .meta is refused unread
        with open(path, "a") as f:
            if shape == "meta-many-keys":
                f.write(fill(n, "unknownkey=some value\n"))
            elif shape == "meta-long-line":
                f.write("hostname=" + "x" * n + "\n")
            else:
                raise SystemExit("unknown shape " + shape)
    else:
        raise SystemExit("unknown shape " + shape)


if __name__ == "__main__":
    main()
