#!/usr/bin/env bash
# ovni traces as wide as a node's runtime writes them (`make bench-width`,
# after the DUMPI rows; `OVNI_WIDTHS=... bash bench/width-ovni.sh` alone):
# one trace per width in OVNI_WIDTHS, each a token STREAMSxLOOMS (default
# "16x1 256x1 1024x1 16x64 16x1024 16x4096": streams per loom at one loom,
# then looms of 16 streams, up to 65,536 streams), written by hpcvet-gen
# --what=ovni-trace-runtime (each loom a node of nOS-V and Nanos6 processes,
# a main thread and workers each) with EVENTS events per worker (default
# 5000), so the events per stream, and with them the work per event, are the
# same at every width. For each width: `cat` of the files, `hpcvet -q -j1`
# and `-j2`. A row gives the CPU time (user+sys, median of RUNS, default 3),
# the CPU per event (events: every stream's, main threads included), its
# ratio to `cat`'s CPU, the peak RSS and the exit code; "net ns/event"
# leaves out the CPU of a start-up (hpcvet -q -j1 on a trace of 6 streams
# of one event each, printed first), which weighs on the narrowest rows.
# Then the 388-stream loom of a 2-socket node (4 processes x (1 + 96
# threads)) at WIDE_EVENTS events per worker (default 20000), and the same
# node with 4 busy workers a process and the others nearly idle (NODE_SIZE
# MiB, default 100): -j1 and -j2 in turn, wall and CPU (medians of RUNS
# pairs), the -j2 run's CPU by thread and the speedup a core per thread
# gives (bench/lib.sh thread_path), and whether the JSON reports are the
# same.
#
# The traces are kept in BENCH_DIR (default: a temporary folder) and reused
# when their parameters match: 65,536 streams of 5000 events are ~4.6 GB.
#
# usage: bench/width-ovni.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
hv=$build/hpcvet
gen=$build/hpcvet-gen
runs=${RUNS:-3}
widths=${OVNI_WIDTHS:-16x1 256x1 1024x1 16x64 16x1024 16x4096}
events=${EVENTS:-5000}
wide_events=${WIDE_EVENTS:-20000}
source bench/lib.sh
dir=${BENCH_DIR:-$(mktemp -d)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"

# trace STREAMS LOOMS EVENTS: the trace (generated unless kept), printed.
trace() {
	local out=$dir/ovni-$1x$2 param="$3"
	if [ -e "$out" ] && [ "$(cat "$out.param" 2>/dev/null)" = "$param" ]; then
		echo "$out"
		return
	fi
	rm -rf "$out"
	"$gen" --what=ovni-trace-runtime --profiles="$1" --looms="$2" --trace-len="$3" -o "$out" >&2
	# events: loom 0's streams counted (their headers walked), times the
	# looms (the looms differ in their random draws only: within 0.1%)
	python3 - "$out/loom.node0" "$2" >"$out.events" <<'PY'
import os, sys
n = 0
for d, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        if f != "stream.obs":
            continue
        b = open(os.path.join(d, f), "rb").read()
        p = 8
        while p + 12 <= len(b):
            fl = b[p]
            p += 16 + int.from_bytes(b[p + 12:p + 16], "little") if fl & 0x10 else 12 + ((fl & 15) + 1 if fl & 15 else 0)
            n += 1
print(n * int(sys.argv[2]))
PY
	echo "$param" >"$out.param"
	sync
	echo "$out"
}

# start-up: hpcvet on the smallest trace the generator writes
base_in=$(trace 6 1 1)
measure_runs "$dir/log" "$hv" -q -j1 "$base_in"
base=$CPU

printf '# %s events per worker; CPU: median of %s runs; start-up %.1f ms CPU; load %s\n' "$events" "$runs" \
	"$(awk -v c="$base" 'BEGIN { print c * 1000 }')" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %10s %-12s %8s %9s %9s %7s %8s %4s\n' streams MiB events command "CPU s" "ns/event" "net ns/ev" "x cat" "RSS MiB" exit
for wl in $widths; do
	s=${wl%x*} l=${wl#*x}
	in=$(trace "$s" "$l" "$events")
	bytes=$(bytes_of "$in")
	nev=$(cat "$in.events")
	measure_cat "$dir/log" "$in"
	row() {
		printf '%-10s %8s %10s %-12s %8.3f %9.1f %9s %7s %8s %4s\n' "$wl" "$(mib "$bytes")" "$nev" "$1" "$CPU" \
			"$(ns_per "$CPU" "$nev")" \
			"$(awk -v c="$CPU" -v b="$base" -v n="$nev" -v k="$1" 'BEGIN { if (k == "cat") print "-"; else printf "%.1f", (c - b) * 1e9 / n }')" \
			"$(x_cat "$CPU")" "$RSS" "$EXIT"
	}
	row cat
	measure_runs "$dir/log" "$hv" -q -j1 "$in"
	row "hpcvet -j1"
	measure_runs "$dir/log" "$hv" -q -j2 "$in"
	row "hpcvet -j2"
done

# node_rows INPUT LABEL: -j1 and -j2 on one loom, paired (measure_jobs),
# where the -j2 run's CPU goes by thread (thread_path), and whether the JSON
# reports are the same bytes.
node_rows() {
	local in=$1
	printf '\n# %s, %s MiB, %s events; load %s\n' "$2" "$(mib "$(bytes_of "$in")")" "$(cat "$in.events")" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
	find "$in" -type f -exec cat {} + >/dev/null
	measure_jobs "$dir/log" "$in"
	thread_path "$in"
	printf '%-14s %8s %8s %8s %8s %9s %9s %9s %9s %8s %4s\n' "" "-j1 wall" "-j2 wall" "-j1 CPU" "-j2 CPU" "-j2/-j1" \
		"main %" "merger %" "quiet -j2" "RSS MiB" exit
	printf '%-14s %8.3f %8.3f %8.3f %8.3f %8.2fx %9s %9s %9s %8s %4s\n' "hpcvet" "$WALL1" "$WALL2" "$CPU1" "$CPU2" \
		"$SPEEDUP" "$MAIN_PCT" "$BUSY_PCT" "${PATH_SPEEDUP}x" "$RSS" "$EXIT"
	for j in 1 2; do "$hv" -j$j --format=json --strict "$in" >"$dir/node.j$j.json" || true; done
	cmp -s "$dir/node.j1.json" "$dir/node.j2.json" && echo "reports at -j1 and -j2: the same bytes" ||
		echo "reports at -j1 and -j2 DIFFER"
}

# The 2-socket node: 4 processes x (1 + 96 threads), one loom of 388
# streams, every worker busy.
node_rows "$(trace 388 1 "$wide_events")" "one loom of 388 streams (4 processes x (1 + 96)), $wide_events events per worker"

# The same node as a runtime with more cores than work writes it, as the
# real 388-stream libovni loom is (most workers nearly idle): 4 busy workers
# a process (bench/lib.sh bench_generate ovni-node), NODE_SIZE MiB.
node=$(bench_generate ovni-node "$(bench_param ovni-node "${NODE_SIZE:-100}")" "$dir/ovni-node")
node_rows "$node" "the node with 4 busy workers a process and 92 nearly idle ($(bench_param ovni-node "${NODE_SIZE:-100}") events per busy worker)"
