#!/usr/bin/env bash
# What a DUMPI record costs, this build against an older one (`make
# bench-dumpi-records BENCH_OLD=path/to/hpcvet`): instructions a record
# from callgrind (repeatable under any load) on ~80,000-record inputs, and
# CPU time paired with the older build (A B A B ..., RUNS pairs, the median
# of the per-pair ratios) on inputs of BENCH_SIZE MiB, every layer on (-j1).
# Inputs: hpcvet-gen's three DUMPI patterns (4 ranks) and the shared real
# LAMMPS traces (DUMPI_REAL, each given DUMPI_REAL_REPEAT times on one
# command line, default 40, so that start-up is paid once). `cat` of the
# mix is paired too (x cat, CPU). Without BENCH_OLD only this build's rows.
#
# usage: bench/dumpi-records.sh [BUILD_DIR]
# environment: BENCH_OLD, BENCH_SIZE (default 128), RUNS (default 7),
#   DUMPI_REAL, DUMPI_REAL_REPEAT, BENCH_DIR (kept when given), CALLGRIND=0 (skip it)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
hv=$build/hpcvet
gen=$build/hpcvet-gen
old=${BENCH_OLD:-}
size=${BENCH_SIZE:-128}
runs=${RUNS:-7}
source bench/lib.sh
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir"
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

records() { "$hv" --certify --format=json "$@" | dumpi_records; }

# cpu CMD...: CPU seconds (user + sys) of one run
cpu() {
	local log
	log=$(mktemp)
	timed "$log" "$@"
	awk '{ print $2 }' "$log"
	rm -f "$log"
}

# paired LABEL RECORDS CMD_A -- CMD_B: RUNS pairs; prints medians and the median ratio
paired() {
	local label=$1 n=$2 a=() b=() i ta tb
	shift 2
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	: >"$dir/pairs"
	"${a[@]}" >/dev/null 2>&1 || true
	"${b[@]}" >/dev/null 2>&1 || true
	for ((i = 0; i < runs; i++)); do
		ta=$(cpu "${a[@]}")
		tb=$(cpu "${b[@]}")
		echo "$ta $tb" >>"$dir/pairs"
	done
	local ma mb r
	ma=$(column_median "$dir/pairs" 1)
	mb=$(column_median "$dir/pairs" 2)
	r=$(awk '$2 > 0 { print $1 / $2 }' "$dir/pairs" | median)
	printf '%-46s %10d %9.3f %9.1f %9.3f %9.1f %8.2f\n' "$label" "$n" "$ma" "$(ns_per "$ma" "$n")" "$mb" \
		"$(ns_per "$mb" "$n")" "$r"
}

# ir CMD...: the instructions CMD runs (callgrind)
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | awk '/Collected :/ { print $NF }'; }

declare -A pattern=([dumpi]=mix [dumpi-stencil]=stencil3d [dumpi-lammps]=lammps)
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	echo
	echo "instructions a record (callgrind, -j1, start-up included), ~80,000 records"
	printf '%-34s %9s %12s %12s\n' input records today before
	for fmt in dumpi dumpi-lammps dumpi-stencil; do
		in=$dir/small-$fmt
		[ -e "$in" ] || "$gen" --what=dumpi-trace --pattern="${pattern[$fmt]}" --contexts=20000 --profiles=4 -o "$in" >/dev/null
		set -- "$in"
		n=$(records "$@")
		now_ir=$(ir "$hv" -q -j1 "$@")
		old_ir=-
		[ -z "$old" ] || old_ir=$(ir "$old" -q -j1 "$@")
		printf '%-34s %9d %12s %12s\n' "$fmt" "$n" "$(awk -v a="$now_ir" -v n="$n" 'BEGIN { printf "%.0f", a / n }')" \
			"$(awk -v a="$old_ir" -v n="$n" 'BEGIN { if (a == "-") print "-"; else printf "%.0f", a / n }')"
	done
	for real in ${DUMPI_REAL:-../shared/real-samples/dumpi/libdumpi-lammps-*}; do
		[ -d "$real" ] || continue
		n=$(records "$real")
		now_ir=$(ir "$hv" -q -j1 "$real")
		old_ir=-
		[ -z "$old" ] || old_ir=$(ir "$old" -q -j1 "$real")
		printf '%-34s %9d %12s %12s\n' "$(basename "$real")" "$n" "$(awk -v a="$now_ir" -v n="$n" 'BEGIN { printf "%.0f", a / n }')" \
			"$(awk -v a="$old_ir" -v n="$n" 'BEGIN { if (a == "-") print "-"; else printf "%.0f", a / n }')"
	done
fi

echo
echo "CPU a record, -j1, $runs pairs (A B A B ...), medians; ratio: median of the per-pair A/B"
printf '%-46s %10s %9s %9s %9s %9s %8s\n' input records 'A cpu s' 'A ns/rec' 'B cpu s' 'B ns/rec' 'A/B'
for fmt in dumpi dumpi-lammps dumpi-stencil; do
	in=$(bench_generate "$fmt" "$(bench_param "$fmt" "$size")" "$dir/big-$fmt")
	n=$(cat "$in.events")
	if [ -n "$old" ]; then
		paired "$fmt $(mib "$(bytes_of "$in")") MiB (A today, B old)" "$n" "$hv" -q -j1 "$in" -- "$old" -q -j1 "$in"
	fi
	if [ "$fmt" = dumpi ]; then
		mapfile -t files < <(find "$in" -type f | sort)
		paired "dumpi (A today, B cat)" "$n" "$hv" -q -j1 "$in" -- cat "${files[@]}"
	fi
done
rep=${DUMPI_REAL_REPEAT:-40}
for real in ${DUMPI_REAL:-../shared/real-samples/dumpi/libdumpi-lammps-*}; do
	[ -d "$real" ] && [ -n "$old" ] || continue
	n=$(records "$real")
	set -- $(for ((i = 0; i < rep; i++)); do echo "$real"; done)
	paired "$(basename "$real") x$rep (A today, B old)" "$((n * rep))" "$hv" -q -j1 "$@" -- "$old" -q -j1 "$@"
done
