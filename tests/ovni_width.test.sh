#!/usr/bin/env bash
# ovni traces at width: the generator's runtime-shaped traces of many
# streams in a loom (--profiles) and of many looms (--looms) are valid
# (--strict, no diagnostic at all), a loom wider than 256 streams gets the
# same report at -j1, -j2, -j4 and with the split replay off
# (HPCVET_OVNI_SPLIT=0: the one-thread replay), and so does one with a
# clock going backwards in its 300th stream, which reports that clock at
# every -j. The node with most workers nearly idle (--busy-workers) is
# valid and reports alike at every -j too. Descriptors do not grow with the
# streams: 600 streams check under `ulimit -n 32`.
source "$(dirname "$0")/lib.sh"

# clean JSON-REPORT: exit 0, conforming, no diagnostic of any severity
clean() {
	python3 - "$1" <<'PY'
import json, sys
i = json.load(open(sys.argv[1]))["inputs"][0]
ok = i["verdict"] == "conforming" and i["errors"] == i["warnings"] == i["notes"] == i["suppressed"] == 0 and not i["diagnostics"]
sys.exit(0 if ok else 1)
PY
}

# same_jobs DESCRIPTION INPUT: one report (JSON, --strict) at every -j
same_jobs() {
	local desc=$1 in=$2 j
	"$HPCVET" -j1 --format=json --strict "$in" >"$TMP/j1" 2>&1
	local rc1=$?
	for j in 2 4 2s; do
		HPCVET_OVNI_SPLIT=$([ "$j" = 2s ] && echo 0 || echo 1) "$HPCVET" -j"${j%s}" --format=json --strict "$in" >"$TMP/jn" 2>&1
		local rcn=$?
		if [ "$rc1" -eq "$rcn" ] && cmp -s "$TMP/j1" "$TMP/jn"; then ok; else
			not_ok "$desc: -j1 and -j$j differ (exit $rc1 vs $rcn)"
			diff "$TMP/j1" "$TMP/jn" | head -5
		fi
	done
}

len=300
is_san_build && len=60
"$GEN" --what=ovni-trace-runtime --profiles=300 --trace-len=$len -o "$TMP/w300"
check "300 streams in one loom written" test "$(find "$TMP/w300" -name stream.obs | wc -l)" -eq 300
"$HPCVET" -j1 --format=json --strict "$TMP/w300" >"$TMP/w300.json"
check "a loom of 300 streams (4 processes) passes --strict with no diagnostic" clean "$TMP/w300.json"
same_jobs "a loom of 300 streams" "$TMP/w300"

"$GEN" --what=ovni-trace-runtime --profiles=6 --looms=100 --trace-len=50 -o "$TMP/l100"
check "100 looms written" test "$(find "$TMP/l100" -maxdepth 1 -name 'loom.*' | wc -l)" -eq 100
"$HPCVET" -j2 --format=json --strict "$TMP/l100" >"$TMP/l100.json"
check "100 looms of 6 streams pass --strict with no diagnostic" clean "$TMP/l100.json"

# the 388-stream node, 4 processes x (1 + 96 workers), briefly
"$GEN" --what=ovni-trace-runtime --profiles=388 --trace-len=40 -o "$TMP/w388"
"$HPCVET" -j2 --format=json --strict "$TMP/w388" >"$TMP/w388.json"
check "a loom of 4 x (1 + 96) streams passes --strict with no diagnostic" clean "$TMP/w388.json"
check "its 4 processes have 97 threads each" test "$(ls -d "$TMP"/w388/loom.node0/proc.*/thread.* | wc -l)" -eq 388 -a \
	"$(ls -d "$TMP"/w388/loom.node0/proc.* | wc -l)" -eq 4

# the node as a runtime with more cores than work writes it
# (--busy-workers=4): 4 workers of each process busy, the 92 others nearly
# idle (a scheduler poll and a pause every 1000 busy events); valid, the
# same report at every -j and the one-thread way; the idle workers' streams
# a few dozen events; with every worker busy, the default shape's bytes
blen=3000
is_san_build && blen=1200
"$GEN" --what=ovni-trace-runtime --profiles=388 --busy-workers=4 --trace-len=$blen -o "$TMP/b388"
"$HPCVET" -j2 --format=json --strict "$TMP/b388" >"$TMP/b388.json"
check "4 x (1 + 96) streams, 4 busy workers a process, pass --strict with no diagnostic" clean "$TMP/b388.json"
same_jobs "4 x (1 + 96) streams, 4 busy workers a process" "$TMP/b388"
sizes=$(find "$TMP/b388" -name stream.obs -printf '%s\n' | sort -n)
check "16 busy streams, each over 5x the largest of the 368 idle ones and the 4 main threads" python3 -c '
import sys
s = [int(x) for x in sys.argv[1].split()]
busy, idle = s[-16:], s[:-16]
sys.exit(0 if len(idle) == 372 and min(busy) > 5 * max(idle) else 1)' "$sizes"
"$GEN" --what=ovni-trace-runtime --profiles=40 --busy-workers=9 --trace-len=200 -o "$TMP/b40"
check "--busy-workers at or over the workers: the default shape, byte for byte" diff -r "$TMP/b40" "$(
	"$GEN" --what=ovni-trace-runtime --profiles=40 --trace-len=200 -o "$TMP/d40" >/dev/null && echo "$TMP/d40")"

# a clock going backwards in the 300th stream (in path order): its 10th
# event's clock below its 9th's
cp -r "$TMP/w300" "$TMP/back"
obs=$(find "$TMP/back" -name stream.obs | sort | sed -n 300p)
python3 - "$obs" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
p, starts = 8, []
while p + 12 <= len(b) and len(starts) < 10:
    starts.append(p)
    f = b[p]
    p += 16 + int.from_bytes(b[p + 12:p + 16], "little") if f & 0x10 else 12 + ((f & 15) + 1 if f & 15 else 0)
prev = int.from_bytes(b[starts[8] + 4:starts[8] + 12], "little")
b[starts[9] + 4:starts[9] + 12] = (prev - 5).to_bytes(8, "little")
open(sys.argv[1], "wb").write(b)
PY
same_jobs "a loom of 300 streams with a clock going backwards" "$TMP/back"
for j in 1 2; do
	"$HPCVET" -j$j "$TMP/back" >"$TMP/back.$j" 2>&1
	check "-j$j: the backwards clock is reported in stream 300, and nothing else" \
		test "$(grep -c 'error\[ovni.obs.clock-monotonic\]' "$TMP/back.$j")" -eq 1 -a \
		"$(grep -c 'error\[' "$TMP/back.$j")" -eq 1
	check "-j$j: it names the stream" grep -q "${obs#"$TMP/back/"}" "$TMP/back.$j"
done

# descriptors: one per thread reading, whatever the streams
"$GEN" --what=ovni-trace-runtime --profiles=6 --looms=100 --trace-len=4000 -o "$TMP/fd"
expect_exit 0 "600 streams at -j2 under ulimit -n 32" bash -c "ulimit -n 32; exec '$HPCVET' -q -j2 '$TMP/fd'"
done_testing
