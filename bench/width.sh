#!/usr/bin/env bash
# DUMPI traces as wide as HPC writes them (`make bench-width`): one trace per
# width in WIDTHS ranks (default "64 1024 16384 65536"), each rank running the
# same 3-D stencil program (hpcvet-gen --pattern=stencil3d: halo exchange
# with six neighbours, all-to-all on row communicators, allreduce, ring) with
# RECORDS records (default 30: one iteration), so the records per rank, and
# with them the work per record, are the same at every width. For each
# width: `cat` of the files, `hpcvet -q -j1` and `-j2`, and, where
# build/hpcvet-mpi was built and mpirun runs, `mpirun -np 2` and `-np 4
# --oversubscribe` of hpcvet-mpi -j1. A row gives the CPU time (user+sys of
# the whole process tree, median of RUNS, default 3), the CPU per record,
# its ratio to `cat`'s CPU, the peak RSS (the largest process: under mpirun
# one rank's) and the exit code.
#
# The traces are kept in BENCH_DIR (default: a temporary folder) and reused
# when their parameters match: 65,536 ranks of 30 records are ~270 MB.
#
# Then the ovni rows (bench/width-ovni.sh: OVNI_WIDTHS, EVENTS) and the
# HPCToolkit rows (bench/width-hpctk.sh: HPCTK_WIDTHS profiles). FAMILIES
# (default "dumpi ovni hpctoolkit") picks the families; one left out is skipped.
#
# usage: bench/width.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
hv=$build/hpcvet
gen=$build/hpcvet-gen
mpi=$build/hpcvet-mpi
runs=${RUNS:-3}
widths=${WIDTHS:-64 1024 16384 65536}
records=${RECORDS:-30}
families=" ${FAMILIES:-dumpi ovni hpctoolkit} "
source bench/lib.sh
dir=${BENCH_DIR:-$(mktemp -d)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"

have_mpi=0
if [ -x "$mpi" ] && command -v mpirun >/dev/null; then
	"${mpirun[@]}" -np 2 true >/dev/null 2>&1 && have_mpi=1
fi

# The records per rank the generator writes for RECORDS (8 + 22 per
# iteration, at least one iteration; golden/dumpi/program.c).
per_rank=$(awk -v r="$records" 'BEGIN { print ((r >= 30) ? 8 + 22 * int((r - 8) / 22) : 30) }')

# trace W: the trace of W ranks (generated unless kept), printed.
trace() {
	local w=$1 out=$dir/width-$1
	if [ -e "$out" ] && [ "$(cat "$out.param" 2>/dev/null)" = "$records" ]; then
		echo "$out"
		return
	fi
	rm -rf "$out"
	"$gen" --what=dumpi-trace --pattern=stencil3d --profiles="$w" --contexts="$records" -o "$out" >&2
	echo "$records" >"$out.param"
	sync
	echo "$out"
}

if [[ $families == *" dumpi "* ]]; then
	printf '# %s records per rank; CPU: median of %s runs; load %s\n' "$per_rank" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-7s %9s %9s %-16s %8s %10s %7s %9s %4s\n' ranks MiB records command "CPU s" "ns/record" "x cat" "RSS MiB" exit
	for w in $widths; do
		in=$(trace "$w")
		bytes=$(bytes_of "$in")
		nrec=$((w * per_rank))
		measure_cat "$dir/log" "$in"
		row() {
			printf '%-7s %9s %9s %-16s %8.3f %10.0f %7s %9s %4s\n' "$w" "$(mib "$bytes")" "$nrec" "$1" "$CPU" \
				"$(ns_per "$CPU" "$nrec")" \
				"$(x_cat "$CPU")" "$RSS" "$EXIT"
		}
		row cat
		measure_runs "$dir/log" "$hv" -q -j1 "$in"
		row "hpcvet -j1"
		measure_runs "$dir/log" "$hv" -q -j2 "$in"
		row "hpcvet -j2"
		if [ "$have_mpi" = 1 ]; then
			measure_runs "$dir/log" "${mpirun[@]}" -np 2 "$mpi" -q -j1 "$in"
			row "mpirun -np 2"
			measure_runs "$dir/log" "${mpirun[@]}" -np 4 "$mpi" -q -j1 "$in"
			row "mpirun -np 4"
		fi
	done
	[ "$have_mpi" = 1 ] || echo "(hpcvet-mpi not built or mpirun does not run: no mpirun rows)"
fi
if [[ $families == *" ovni "* ]]; then
	[[ $families == *" dumpi "* ]] && echo
	BENCH_DIR=${BENCH_DIR:-$dir} bash bench/width-ovni.sh "$build"
fi
if [[ $families == *" hpctoolkit "* ]]; then
	[[ $families == *" dumpi "* || $families == *" ovni "* ]] && echo
	widths=${HPCTK_WIDTHS:-64 1024 16384 65536}
	source bench/width-hpctk.sh
fi
