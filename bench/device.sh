#!/usr/bin/env bash
# One prepared run for a lent many-core machine (16 cores): builds with
# `make`, generates every input itself (no network), and writes markdown
# tables, in well under 8 minutes:
#  1. the width series (bench/width.sh) at DEVICE_WIDTHS ranks (default
#     "1024 16384 65536"): cat, hpcvet -j1, -j2 and, where hpcvet-mpi was
#     built and mpirun runs, mpirun -np 2 and -np 4;
#  2. the -j series: `hpcvet -q -jN` for N in DEVICE_JOBS (default
#     "1 2 4 8 16") on the widest trace of the series and on the big inputs
#     bench/lib.sh generates (`bench_generate`: DEVICE_FORMATS, default
#     hpctoolkit, ovni, ovni-mix, dumpi, each DEVICE_SIZE MiB, default 512):
#     wall and CPU time (median of RUNS, default 3), the speed-up in wall
#     time over -j1, peak RSS.
#  3. hpcvet-mpi at -np N for N in DEVICE_NP (default "8 16"), -j1 in each
#     process, on the widest trace, where hpcvet-mpi was built and mpirun
#     runs: what every process holds (peak RSS is the largest process's)
#     and the CPU of all of them.
# A budget (DEVICE_BUDGET seconds, default 420) is checked before each
# measurement: past it the rest is skipped and the table says so, so the
# script ends in time whatever the machine. The tables go to $OUT/device.md
# when OUT is set (the lent machine's output folder), else to stdout; the
# raw outputs of width.sh beside it.
#
# A smoke run on a small machine: DEVICE_WIDTHS="64 256" DEVICE_SIZE=4 RUNS=1
# DEVICE_JOBS="1 2" DEVICE_NP="2 3" bash bench/device.sh
#
# usage: bench/device.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
build=${1:-build}
hv=$build/hpcvet
gen=$build/hpcvet-gen
runs=${RUNS:-3}
widths=${DEVICE_WIDTHS:-1024 16384 65536}
jobs=${DEVICE_JOBS:-1 2 4 8 16}
nps=${DEVICE_NP:-8 16}
formats=${DEVICE_FORMATS:-hpctoolkit ovni ovni-mix dumpi}
size=${DEVICE_SIZE:-512}
budget=${DEVICE_BUDGET:-420}
source bench/lib.sh
dir=${BENCH_DIR:-$(mktemp -d)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	md=$OUT/device.md
	raw=$OUT
else
	md=/dev/stdout
	raw=$dir
fi

elapsed() { echo $(($(date +%s) - start)); }
over() { [ "$(elapsed)" -ge "$budget" ]; }

ncpu=$(nproc)
make -j"$ncpu" all >"$raw/build.log" 2>&1 || {
	tail -20 "$raw/build.log" >&2
	exit 1
}
{
	echo "# hpcvet on $(nproc) cores, $(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
		"load before: $(cut -d' ' -f1-3 /proc/loadavg); built in $(elapsed) s"
} >"$md"

# 1. Width: bench/width.sh as it is, its text table turned into markdown.
{
	echo
	echo "## Width (bench/width.sh, RUNS=$runs)"
	echo
} >>"$md"
if over; then
	echo "skipped: the time budget was spent" >>"$md"
else
	RUNS=$runs FAMILIES=dumpi WIDTHS="$widths" BENCH_DIR="$dir" bash bench/width.sh "$build" >"$raw/width.txt" 2>"$raw/width.err" || true
	awk 'NR == 1 { sub(/^# /, ""); print; print ""; next }
		NR == 2 { print "| ranks | MiB | records | command | CPU s | ns/record | x cat | peak RSS MiB | exit |"; print "|---:|---:|---:|---|---:|---:|---:|---:|---:|"; next }
		/^\(/ { print ""; print; next }
		{ cmd = $4; for (i = 5; i <= NF - 5; i++) cmd = cmd " " $i
		  printf "| %s | %s | %s | `%s` | %s | %s | %s | %s | %s |\n", $1, $2, $3, cmd, $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF }' \
		"$raw/width.txt" >>"$md"
	echo >>"$md"
	echo "(width series done at $(elapsed) s)" >>"$md"
fi

# 1b. ovni at width (bench/width-ovni.sh through width.sh): streams per loom
# and looms, its own text table kept as it prints.
{
	echo
	echo "## ovni width (bench/width.sh FAMILIES=ovni, OVNI_WIDTHS=\"${DEVICE_OVNI_WIDTHS:-16x1 388x1 1024x1 16x1024}\")"
	echo
} >>"$md"
if over; then
	echo "skipped: the time budget was spent" >>"$md"
else
	RUNS=$runs FAMILIES=ovni OVNI_WIDTHS="${DEVICE_OVNI_WIDTHS:-16x1 388x1 1024x1 16x1024}" BENCH_DIR="$dir" \
		bash bench/width.sh "$build" >"$raw/width-ovni.txt" 2>"$raw/width-ovni.err" || true
	{ echo '```'; cat "$raw/width-ovni.txt"; echo '```'; echo; echo "(ovni width done at $(elapsed) s)"; } >>"$md"
fi

# 2. -j: wall time is the point here (the machine is not shared).
{
	echo
	echo "## -j (hpcvet -q -jN, median of $runs runs)"
	echo
	echo "| input | MiB | -j | wall s | CPU s | wall speed-up over -j1 | peak RSS MiB | exit |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
} >>"$md"
inputs=()
names=()
widest=$(echo "$widths" | tr ' ' '\n' | sort -n | tail -1)
if [ -e "$dir/width-$widest" ]; then
	inputs+=("$dir/width-$widest")
	names+=("dumpi, $widest ranks")
fi
for f in $formats; do
	over && break
	inputs+=("$(bench_generate "$f" "$(bench_param "$f" "$size")" "$dir/big-$f")")
	names+=("$f")
done
for k in "${!inputs[@]}"; do
	in=${inputs[$k]}
	bytes=$(bytes_of "$in")
	find "$in" -type f -exec cat {} + >/dev/null
	base=
	for j in $jobs; do
		if over; then
			echo "| ${names[$k]} | $(mib "$bytes") | $j | skipped: the time budget was spent | | | | |" >>"$md"
			continue
		fi
		log=$dir/log
		rm -f "$log"
		for ((i = 0; i < runs; i++)); do
			set +e
			timed "$log" "$hv" -q -j"$j" "$in"
			set -e
		done
		wall=$(column_median "$log" 1)
		cpu=$(column_median "$log" 2)
		rss=$(awk '{ print $3 }' "$log" | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }')
		rc=$(awk '{ print $4 }' "$log" | sort -n | tail -1)
		[ -n "$base" ] || base=$wall
		printf '| %s | %s | %s | %.3f | %.3f | %.2fx | %s | %s |\n' "${names[$k]}" "$(mib "$bytes")" "$j" "$wall" "$cpu" \
			"$(awk -v a="$base" -v b="$wall" 'BEGIN { print (b > 0) ? a / b : 0 }')" "$rss" "$rc" >>"$md"
	done
done

# 3. hpcvet-mpi, many processes on the widest trace.
mpi=$build/hpcvet-mpi
{
	echo
	echo "## hpcvet-mpi (mpirun -np N hpcvet-mpi -q -j1, median of $runs runs)"
	echo
} >>"$md"
if [ ! -x "$mpi" ] || ! command -v mpirun >/dev/null || ! "${mpirun[@]}" -np 2 true >/dev/null 2>&1; then
	echo "hpcvet-mpi not built or mpirun does not run: no rows" >>"$md"
elif [ ! -e "$dir/width-$widest" ]; then
	echo "no trace of $widest ranks (the width series was skipped)" >>"$md"
else
	echo "| input | -np | wall s | CPU s (all processes) | peak RSS MiB (largest process) | exit |" >>"$md"
	echo "|---|---:|---:|---:|---:|---:|" >>"$md"
	for np in $nps; do
		if over; then
			echo "| dumpi, $widest ranks | $np | skipped: the time budget was spent | | | |" >>"$md"
			continue
		fi
		log=$dir/log
		rm -f "$log"
		for ((i = 0; i < runs; i++)); do
			set +e
			timed "$log" "${mpirun[@]}" -np "$np" "$mpi" -q -j1 "$dir/width-$widest"
			set -e
		done
		printf '| dumpi, %s ranks | %s | %.3f | %.3f | %s | %s |\n' "$widest" "$np" \
			"$(column_median "$log" 1)" "$(column_median "$log" 2)" \
			"$(awk '{ print $3 }' "$log" | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }')" \
			"$(awk '{ print $4 }' "$log" | sort -n | tail -1)" >>"$md"
	done
fi
echo >>"$md"
echo "Total: $(elapsed) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)." >>"$md"
