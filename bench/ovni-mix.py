#!/usr/bin/env python3
"""The shape of ovni traces, for the bench's `ovni-mix` input (bench/RESULTS.md,
"What real ovni traces look like"): per trace, its looms and streams, how many events in a
row one stream leads the clock-ordered merge of a loom (the emulator's order;
clock offsets ignored, each loom is merged alone) and the share of each
model's events. usage: bench/ovni-mix.py TRACE_DIR..."""
import os, sys, struct, json, heapq, collections

def events(path):
    b = open(path, 'rb').read()
    off = 8
    out = []
    while off + 12 <= len(b):
        f = b[off]
        clock = struct.unpack_from('<Q', b, off + 4)[0]
        mcv = b[off+1:off+4].decode('latin1')
        if f & 0x10:
            n = struct.unpack_from('<I', b, off + 12)[0]; ln = 16 + n
        else:
            nib = f & 15; ln = 12 + (nib + 1 if nib else 0)
        out.append((clock, mcv))
        off += ln
    return out

def trace(root):
    looms = collections.defaultdict(list)
    for d, _, fs in os.walk(root):
        if 'stream.json' in fs and 'stream.obs' in fs:
            m = json.load(open(os.path.join(d, 'stream.json')))
            loom = m.get('ovni', {}).get('loom', '?')
            looms[loom].append(os.path.relpath(d, root))
    res = dict(events=0, runs=[], models=collections.Counter(), streams=0, looms=len(looms), multi_looms=0)
    for loom, dirs in looms.items():
        dirs.sort()
        res['streams'] += len(dirs)
        evs = [events(os.path.join(root, d, 'stream.obs')) for d in dirs]
        if len(dirs) > 1: res['multi_looms'] += 1
        merged = heapq.merge(*[[(c, i, k, m) for k, (c, m) in enumerate(e)] for i, e in enumerate(evs)])
        prev, run = None, 0
        for c, i, k, m in merged:
            res['events'] += 1
            res['models'][m[0]] += 1
            if len(dirs) > 1:
                if i == prev: run += 1
                else:
                    if prev is not None: res['runs'].append(run)
                    prev, run = i, 1
        if len(dirs) > 1 and prev is not None: res['runs'].append(run)
    return res

def main():
    roots = sys.argv[1:]
    tot_models = collections.Counter(); all_runs = []; tot = 0
    for r in roots:
        res = trace(r)
        runs = res['runs']
        mean = (sum(runs) / len(runs)) if runs else float('nan')
        ev_in_multi = sum(runs)
        print(f"{os.path.basename(r.rstrip('/').replace('/ovni',''))[:30]:30s} ev={res['events']:7d} looms={res['looms']:2d} streams={res['streams']:3d} "
              f"multi-stream looms={res['multi_looms']:2d} runs={len(runs):6d} mean run={mean:7.1f} (events/run, weighted {sum(x*x for x in runs)/max(1,ev_in_multi):.1f})  "
              + " ".join(f"{k}:{100*v/res['events']:.0f}%" for k, v in res['models'].most_common()))
        tot_models += res['models']; all_runs += runs; tot += res['events']
    print("ALL: events", tot, "runs", len(all_runs), "mean run %.2f" % (sum(all_runs)/max(1,len(all_runs))),
          "event-weighted mean run %.1f" % (sum(x*x for x in all_runs)/max(1,sum(all_runs))))
    srt = sorted(all_runs)
    if srt: print("run length quantiles (by run): p10 %d p50 %d p90 %d max %d" % (srt[len(srt)//10], srt[len(srt)//2], srt[9*len(srt)//10], srt[-1]))
    print("models:", " ".join(f"{k}:{100*v/tot:.1f}%" for k, v in tot_models.most_common()))
main()
