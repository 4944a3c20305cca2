#!/usr/bin/env bash
# Where a propagation failure points (hpctoolkit/values/verdict.c): at the
# failing node's value of the metric, else its point value, else the first
# value that touched the node. A context where every metric fails reports
# hundreds of failures in one run of values: the run is mapped once for
# all of them (not read again per failure), and every failure must still
# point at the first value of its own metric in that run.
source "$(dirname "$0")/lib.sh"

check "generate a database of 400 metrics" "$GEN" --what=hpctoolkit-db --metrics=400 --contexts=4 --profiles=1 \
	--trace-len=2 -o "$TMP/db" >/dev/null
"$HPCVET" dump --format=json "$TMP/db/profile.db" >"$TMP/dump.json" 2>/dev/null

# every value of the thread profile's context #4 tripled and one added: its
# parent's and its own equations fail, metric by metric
check "change every value of one context" python3 - "$TMP/dump.json" "$TMP/db/profile.db" "$TMP/run" <<'EOF'
import json, struct, sys
d = json.load(open(sys.argv[1]))
prof = [i for i in d["files"][0]["items"] if i.get("kind") == "profile"][-1]
f = prof.get("fields", prof)
ctx = f["contexts"][4]
start, n = f["pValues"] + 10 * ctx["startIndex"], len(ctx["values"])
b = bytearray(open(sys.argv[2], "rb").read())
for i in range(n):
    o = start + 10 * i + 2
    struct.pack_into("<d", b, o, struct.unpack_from("<d", b, o)[0] * 3 + 1)
open(sys.argv[2], "wb").write(b)
# every run of the profile, to tell where each failure's node keeps its values
runs = [(f["pValues"] + 10 * c["startIndex"], [v["metricId"] for v in c["values"]]) for c in f["contexts"]]
json.dump(runs, open(sys.argv[3], "w"))
EOF

"$HPCVET" -j1 --max-per-rule=0 --max-diagnostics=100000000 --format=json "$TMP/db" >"$TMP/report.json" 2>/dev/null
check "the propagation failures of one context are hundreds" \
	test "$(jq '[.inputs[0].diagnostics[] | select(.rule | test("values.(transitive|execution)")) | select(.offset > 0)] | length' "$TMP/report.json")" -gt 300

# a failure whose metric has a value in the run that holds the failure's
# offset points at the first such value; otherwise at another value of it
check "each failure points at its metric's first value in its context's run" python3 - "$TMP/report.json" "$TMP/run" <<'EOF'
import json, re, sys
rep = json.load(open(sys.argv[1]))
runs = json.load(open(sys.argv[2]))
bad = 0
for dg in rep["inputs"][0]["diagnostics"]:
    if not re.search(r"values\.(transitive|execution)$", dg["rule"]) or dg["offset"] == 0:
        continue
    pid = int(re.search(r"metric\[(\d+)\]", dg["struct_path"]).group(1))
    off = dg["offset"]
    run = [r for r in runs if r[0] <= off < r[0] + 10 * len(r[1]) and (off - r[0]) % 10 == 0]
    if not run:
        bad += 1
        continue
    start, ids = run[0]
    if pid in ids and off != start + 10 * ids.index(pid):
        bad += 1
sys.exit(1 if bad else 0)
EOF
done_testing
