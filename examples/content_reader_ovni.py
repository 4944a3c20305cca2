#!/usr/bin/env python3
"""An example reader adapter for golden/run-reader.sh --content: a small
ovni stream.obs reader, written from the format description alone (not
from hpcvet), printing the events it decodes in the shape of
docs/dump.schema.json (the keys it decodes: kind, offset, mcv, clock).

  golden/run-reader.sh --content --only='ovni/y_' python3 examples/content_reader_ovni.py

Exits 0 when it read the input, 1 when it refused it. A real adapter wraps
a third-party reader the same way: run it, print what it decoded."""
import json
import os
import struct
import sys


def streams(path):
    """The stream.obs files of an input (a stream, or a trace tree); other
    files (stream.json) are not this reader's business."""
    def has_header(p):
        with open(p, "rb") as f:
            return f.read(4) == b"ovni"
    if os.path.isfile(path):
        if has_header(path):
            yield path
        return
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            # headerless v1 thread streams are left out (hpcvet dump does not decode them either)
            if f.endswith(".obs") and not f.startswith(".") and has_header(p):
                yield p


def read_obs(path):
    data = open(path, "rb").read()
    if len(data) < 8 or data[:4] != b"ovni" or struct.unpack_from("<I", data, 4)[0] != 1:
        return None
    items, off = [], 8
    while off < len(data):
        if len(data) - off < 12:
            return None
        flags = data[off]
        if flags & 0x10:  # jumbo: u32 payload size after the 12-byte header
            if len(data) - off < 16:
                return None
            size = 16 + struct.unpack_from("<I", data, off + 12)[0]
        else:
            n = flags & 0x0F
            size = 12 + (n + 1 if n else 0)
        if off + size > len(data):
            return None
        items.append({"kind": "event", "offset": off, "mcv": data[off + 1:off + 4].decode("latin-1"),
                      "clock": struct.unpack_from("<Q", data, off + 4)[0]})
        off += size
    return items


def main(path):
    files = []
    for s in streams(path):
        items = read_obs(s)
        if items is None:
            return 1
        files.append({"name": s, "items": items})
    json.dump({"files": files}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
