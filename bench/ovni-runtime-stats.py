#!/usr/bin/env python3
"""The event statistics of a one-loom runtime ovni trace, the targets of
`hpcvet-gen --what=ovni-trace-runtime` (golden/ovni/runtime.c) and the
check that a generated trace keeps them: events per model and per MCV, per
stream; tasks created per type; bodies (executions) per task; task nesting
depth (tasks running in a stack on one thread); pauses per task; tasks run
on another thread than the one that created them; CPU hand-offs (OHc/OHw,
OAr remote affinity, OAs); kernel context switches (KCO/KCI); jumbo events
and their sizes; flushes (OF[ OF]); OU[ OU] regions. Reads the .obs files
directly (no model). usage: bench/ovni-runtime-stats.py TRACE_DIR"""
import os, sys, struct, json, collections

def events(path):
    b = open(path, 'rb').read()
    off = 8
    while off + 12 <= len(b):
        f = b[off]
        mcv = b[off + 1:off + 4].decode('latin1')
        if f & 0x10:
            n = struct.unpack_from('<I', b, off + 12)[0]
            pl, ln, jumbo = b[off + 16:off + 16 + n], 16 + n, True
        else:
            nib = f & 15
            n = nib + 1 if nib else 0
            pl, ln, jumbo = b[off + 12:off + 12 + n], 12 + n, False
        yield mcv, pl, jumbo
        off += ln

def main(root):
    streams = []
    for d, _, fs in sorted(os.walk(root)):
        if 'stream.json' in fs and 'stream.obs' in fs:
            m = json.load(open(os.path.join(d, 'stream.json')))['ovni']
            streams.append((m['loom'], m['pid'], m['tid'], os.path.join(d, 'stream.obs')))
    total = 0
    models, mcvs = collections.Counter(), collections.Counter()
    created_type = collections.Counter()      # (model, type) -> tasks
    creator = {}                              # (pid, model, task) -> tid
    bodies = collections.Counter()            # (pid, model, task) -> executions (x)
    pauses = collections.Counter()            # (pid, model, task) -> pauses (p)
    runner_other = 0
    depth_hist = collections.Counter()        # depth at each task start
    jumbo_sizes = collections.Counter()
    per_stream = []
    ou_open, in_ou = 0, collections.Counter()
    for loom, pid, tid, path in streams:
        n = 0
        stack = []
        inside_ou = False
        for mcv, pl, jumbo in events(path):
            n += 1
            models[mcv[0]] += 1
            mcvs[mcv] += 1
            if jumbo: jumbo_sizes[len(pl)] += 1
            if mcv == 'OU[': inside_ou = True; ou_open += 1
            elif mcv == 'OU]': inside_ou = False
            elif inside_ou: in_ou[mcv] += 1
            if mcv[0] in 'V6' and mcv[1] == 'T' and len(pl) >= 4:
                task = struct.unpack_from('<I', pl)[0]
                key = (pid, mcv[0], task)
                if mcv[2] in 'cC':
                    creator[key] = tid
                    created_type[(mcv[0], struct.unpack_from('<I', pl, 4)[0])] += 1
                elif mcv[2] == 'x':
                    bodies[key] += 1
                    stack.append(key)
                    depth_hist[len(stack)] += 1
                    if creator.get(key, tid) != tid: runner_other += 1
                elif mcv[2] in 'eE':
                    if key in stack: stack.remove(key)
                elif mcv[2] == 'p':
                    pauses[key] += 1
        per_stream.append((tid, pid, n))
        total += n
    ntasks = len(creator)
    print(f"streams {len(streams)} looms {len(set(s[0] for s in streams))} processes {len(set(s[1] for s in streams))} events {total}")
    print("events per stream:", " ".join(f"{t}:{n}" for t, p, n in per_stream))
    print("models:", " ".join(f"{k}:{100 * v / total:.1f}%" for k, v in models.most_common()))
    print("events per task created: %.1f" % (total / max(1, ntasks)))
    print("tasks created:", ntasks, "types:", " ".join(f"{m}{t}:{c}" for (m, t), c in sorted(created_type.items())))
    bh = collections.Counter(bodies[k] for k in creator)
    print("bodies per task:", " ".join(f"{b}:{c}" for b, c in sorted(bh.items())))
    ph = collections.Counter(pauses[k] for k in creator)
    print("pauses per task:", " ".join(f"{b}:{c}" for b, c in sorted(ph.items())))
    print("task depth at start:", " ".join(f"{d}:{c}" for d, c in sorted(depth_hist.items())))
    print("bodies run on another thread than the creator:", runner_other)
    print("hand-offs: OHc %d OHw %d OHp %d OHr %d OAr %d OAs %d  kernel: KCO %d KCI %d" % tuple(
        mcvs[k] for k in ('OHc', 'OHw', 'OHp', 'OHr', 'OAr', 'OAs', 'KCO', 'KCI')))
    print("OU[ regions %d, events inside: %s" % (ou_open, " ".join(f"{k}:{v}" for k, v in in_ou.most_common()) or "none"))
    print("flushes OF[ %d; jumbo events %d, sizes: %s" % (mcvs['OF['], sum(jumbo_sizes.values()),
          " ".join(f"{s}B:{c}" for s, c in sorted(jumbo_sizes.items()))))
    print("per 1000 events:", " ".join(f"{k}:{1000 * v / total:.1f}" for k, v in sorted(mcvs.items())))

main(sys.argv[1])
