#!/usr/bin/env bash
# `make bench`, split series: one input split into units of work
# (core/units.h) on threads and on MPI ranks. For an HPCToolkit database, an
# ovni stream and a DUMPI trace: wall time (median of RUNS) at -j1 and -j2,
# and under `mpirun -np 1` and `-np 2` (when hpcvet-mpi was built), the
# speedups, and the per-unit imbalance of the 2-rank plan (the busiest
# rank's planned bytes over the mean, from HPCVET_MPI_STATS; 1.00 = even).
#
# usage: bench/split.sh [BUILD_DIR]
# environment:
#   SPLIT_SIZE   MiB per input (default 1024 in `make bench`, BENCH_SIZE)
#   SPLIT_UNIT   HPCVET_UNIT_BYTES for the runs (default: hpcvet's, 64 MiB)
#   RUNS         timed runs per measurement, median reported (default 3)
#   SPLIT_INPUTS which inputs (default: hpctoolkit ovni dumpi)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
size=${SPLIT_SIZE:-${BENCH_SIZE:-1024}}
runs=${RUNS:-3}
hv=$build/hpcvet
gen=$build/hpcvet-gen
mpi=$build/hpcvet-mpi
[ -x "$hv" ] && [ -x "$gen" ] || { echo "build $hv and $gen first (make)" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/hpcvet-split.XXXXXX")
trap 'rm -rf "$dir"' EXIT
source bench/lib.sh
[ -n "${SPLIT_UNIT:-}" ] && export HPCVET_UNIT_BYTES=$SPLIT_UNIT
have_mpi=0
[ -x "$mpi" ] && command -v mpirun >/dev/null && have_mpi=1

wall() { # command... : median wall seconds of RUNS runs
	local k t0
	for ((k = 0; k < runs; k++)); do
		t0=$(now)
		"$@" >/dev/null 2>&1 || true
		awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }'
	done | median
}

echo "split series: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $size MiB per input," \
	"units of ${HPCVET_UNIT_BYTES:-67108864 (one ovni stream: 16777216)} bytes, $runs runs (median wall s)"
printf '%-11s %8s %6s %8s %8s %7s %8s %8s %7s %9s\n' input MiB units '-j1 s' '-j2 s' 'x j2' 'np1 s' 'np2 s' 'x np2' imbalance
for fmt in ${SPLIT_INPUTS:-hpctoolkit ovni dumpi}; do
	case $fmt in
	dumpi) # 16 ranks, so the trace has units to spread
		input=$dir/dumpi
		"$gen" --what=dumpi-trace --contexts="$(awk -v m="$size" 'BEGIN { print int(m * 1048576 / (16 * 46)) }')" \
			--profiles=16 -o "$input" >/dev/null ;;
	*) input=$(bench_generate "$fmt" "$(bench_param "$fmt" "$size")" "$dir/$fmt" 2>/dev/null) ;;
	esac
	bytes=$(bytes_of "$input")
	cat $(find "$input" -type f) >/dev/null # in the page cache
	j1=$(wall "$hv" -j1 -q "$input")
	j2=$(wall "$hv" -j2 -q "$input")
	np1=- np2=- xnp=- imb=- units=-
	if [ "$have_mpi" = 1 ]; then
		np1=$(wall "${mpirun[@]}" -np 1 "$mpi" -j1 -q "$input")
		np2=$(wall "${mpirun[@]}" -np 2 "$mpi" -j1 -q "$input")
		xnp=$(awk -v a="$np1" -v b="$np2" 'BEGIN { printf "%.2f", a / b }')
		# planned bytes per rank, summed over the input's exchanges
		HPCVET_MPI_STATS=1 "${mpirun[@]}" -np 2 "$mpi" -j1 -q "$input" 2>"$dir/stats" >/dev/null || true
		read -r units imb < <(awk '/hpcvet-mpi: [0-9]+ units:/ {
				u += $2
				for (i = 1; i <= NF; i++) if ($i == "rank") { b[$(i + 1)] += substr($(i + 3), 2) }
			} END {
				m = 0; s = 0; n = 0
				for (r in b) { s += b[r]; n++; if (b[r] > m) m = b[r] }
				printf "%d %s\n", u, (n && s) ? sprintf("%.2f", m / (s / n)) : "-"
			}' "$dir/stats")
	fi
	f3() { awk -v v="$1" 'BEGIN { if (v == "-") print v; else printf "%.3f", v }'; }
	printf '%-11s %8.1f %6s %8.3f %8.3f %7.2f %8s %8s %7s %9s\n' "$fmt" "$(mib "$bytes")" "$units" "$j1" "$j2" \
		"$(awk -v a="$j1" -v b="$j2" 'BEGIN { print a / b }')" "$(f3 "$np1")" "$(f3 "$np2")" "$xnp" "$imb"
	rm -rf "$input" "$input".*
done
[ "$have_mpi" = 1 ] || echo "(hpcvet-mpi not built: no mpirun columns)"
