#!/usr/bin/env bash
# `make bench` (not part of `make test`): generate inputs with hpcvet-gen,
# validate them with hpcvet and print, per format, throughput (MB/s and
# events or records/s), peak RSS and the ratio to `cat FILES > /dev/null` on
# the same files in the same run (median of RUNS runs each, input in the page
# cache), then the scaling series (1x, 4x, 16x of a small base) and the -j
# speedup on a multi-input run.
#
# usage: bench/run.sh [BUILD_DIR]
# environment:
#   BENCH_SIZE   MiB per format for the throughput table (default 1024)
#   BENCH_BASE   MiB of the 1x scaling input (default 48; 16x = 768 MiB)
#   RUNS         timed runs per measurement, median reported (default 3)
#   BENCH_DIR    where inputs go (default a fresh mktemp dir, removed at exit;
#                a given BENCH_DIR is kept and reused)
#   FORMATS      subset of "hpctoolkit hpctk-levels hpctk-rand ovni dumpi dumpi-stencil dumpi-lammps ovni-trace ovni-mix
#                ovni-runtime" (default all; dumpi-stencil and dumpi-lammps are DUMPI traces of a 3-D stencil
#                code and of a program shaped like a LAMMPS run, hpcvet-gen --pattern; ovni-trace
#                is a multi-stream trace, so the ovni event model runs on it; ovni-mix is
#                a trace shaped like the real ones, one thread per loom; hpctk-levels and hpctk-rand
#                are the HPCToolkit database with ctxIds level by level and at random over the tree,
#                not in hpcprof's depth-first post-order: bench/lib.sh bench_ctx_ids)
#   TABLE=0      skip the throughput table (and so the series that reuse its
#                inputs: damaged, parallel, certify); for the scaling series alone
#   SCALING=0    skip the scaling series; PARALLEL=0 skip the -j series
#   DAMAGED=0    skip the damaged-input rows (bench/lib.sh bench_damage: the
#                valid input of a format with most of its bytes zeroed or
#                randomised, same size; time and report size vs the valid row)
#   CERTIFY=0    skip the certify (SHA-256 digests) vs plain validation series
#   IN_FLIGHT    DUMPI in-flight series: Isend/Irecv pairs each rank posts
#                before any wait (default "0 12500 25000 50000"; 0 alone: skip)
#   BENCH_NOJ=1  do not pass -j (to measure a build from before -j existed)
#   BENCH_NO_PERF=1  CPU times from GNU time even when perf works
#   TAXONOMY=0   skip the metric taxonomy bounds (bench/taxonomy.sh)
#   RUNTIME=0    skip the ovni-runtime row (one loom of a task runtime: events/s per
#                core, x cat, -jN/-j1, peak RSS on one input; on when ovni-runtime is
#                in FORMATS)
#   RUNTIME_SIZE MiB of that input (default BENCH_SIZE): the row needs that much disk
#   BENCH_OLD    another hpcvet binary (an older build) timed on the same input in the
#                same run, a row of its own before the current one
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
size=${BENCH_SIZE:-1024}
base=${BENCH_BASE:-48}
runs=${RUNS:-3}
formats=${FORMATS:-hpctoolkit hpctk-levels hpctk-rand ovni dumpi dumpi-stencil dumpi-lammps ovni-trace ovni-mix ovni-runtime}
hv=$build/hpcvet
gen=$build/hpcvet-gen
[ -x "$hv" ] && [ -x "$gen" ] || { echo "build $hv and $gen first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is needed" >&2; exit 2; }

source bench/lib.sh
bench_workdir
declare -A valid_cpu valid_wall
[ "$have_perf" = 1 ] && cpu_src="perf stat task-clock" || cpu_src="GNU time (1/100 s)"

echo "hpcvet bench: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "size $size MiB per format, $runs runs per measurement (median), inputs in $dir"
echo "CPU times from $cpu_src"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (wall times include waiting for a core; CPU times do not)"
echo

if [ "${TABLE:-1}" != 0 ]; then
	echo "wall s / cpu s: hpcvet wall and user+sys time (medians); MB/s from wall, cpu MB/s from CPU time;"
	echo "events/s (records/s for DUMPI) from CPU time; x cat: hpcvet time / cat time on the same files, wall and CPU"
	printf '%-11s %8s %7s %7s %8s %8s %10s %9s %8s %8s %8s %5s\n' format MiB 'wall s' 'cpu s' 'MB/s' 'cpu MB/s' 'cat MB/s' 'events/s' 'x cat' 'x catcpu' 'RSS MiB' exit
	for fmt in $formats; do
		input=$(bench_generate "$fmt" "$(bench_param "$fmt" "$size")" "$dir/big-$fmt")
		bench_measure "$fmt" -j1 "$input"
		bench_row "$fmt"
		valid_cpu[$fmt]=$M_CPU
		valid_wall[$fmt]=$M_TIME
	done
fi

if [ "${DAMAGED:-1}" != 0 ] && [ "${TABLE:-1}" != 0 ]; then
	echo
	echo "damaged (-j1): the valid input above with most of its bytes zeroed or random, same size;"
	echo "x valid: hpcvet CPU (wall) time / the valid row's; report: bytes and lines of the text report"
	printf '%-16s %8s %7s %7s %8s %8s %9s %7s %5s\n' input MiB 'wall s' 'cpu s' 'x valid' 'x wall' 'report B' lines exit
	for fmt in $formats; do
		case $fmt in hpctoolkit | ovni | dumpi) ;; *) continue ;; esac
		for fill in zero random; do
			input=$(bench_damage "$fmt" "$fill" "$dir/big-$fmt" "$dir/damaged-$fmt-$fill")
			bench_measure "$fmt" -j1 "$input"
			set +e
			"$hv" -j1 "$input" >"$dir/damaged.report" 2>&1
			set -e
			printf '%-16s %8.1f %7.3f %7.2f %8.2f %8.2f %9d %7d %5s\n' "$fmt+$fill" "$(mib "$M_BYTES")" "$M_TIME" "$M_CPU" \
				"$(awk -v a="$M_CPU" -v b="${valid_cpu[$fmt]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print 0 }')" \
				"$(awk -v a="$M_TIME" -v b="${valid_wall[$fmt]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print 0 }')" \
				"$(wc -c <"$dir/damaged.report")" "$(wc -l <"$dir/damaged.report")" "$M_EXIT"
			[ -n "${BENCH_DIR:-}" ] || rm -rf "$input"
		done
	done
fi

if [ "${SCALING:-1}" != 0 ]; then
	echo
	echo "scaling (-j1): CPU time per MiB relative to the 1x input (1.00 = linear; target: within 10%)"
	printf '%-11s %6s %9s %8s %8s %9s %8s\n' format scale MiB 'wall s' 'cpu s' 'cpu MB/s' 'vs 1x'
	for fmt in $formats; do
		t1=""
		p1=$(bench_param "$fmt" "$base")
		for k in 1 4 16; do
			case $fmt in hpctoolkit | hpctk-*) param="${p1}x$k" ;; *) param=$((p1 * k)) ;; esac
			input=$(bench_generate "$fmt" "$param" "$dir/scale-$fmt-$k")
			bench_measure "$fmt" -j1 "$input"
			per=$(awk -v t="$M_CPU" -v b="$M_BYTES" 'BEGIN { printf "%.9f", t * 1048576 / b }')  # s per MiB
			[ -n "$t1" ] || t1=$per
			printf '%-11s %5dx %9.1f %8.3f %8.3f %9.0f %8.2f %8s\n' "$fmt" "$k" "$(mib "$M_BYTES")" "$M_TIME" "$M_CPU" \
				"$(mbps "$M_BYTES" "$M_CPU")" "$(awk -v a="$per" -v b="$t1" 'BEGIN { print a / b }')" "$M_RSS"
			[ -n "${BENCH_DIR:-}" ] || rm -rf "$input" "$input".*
		done
	done
fi

if [ "${PARALLEL:-1}" != 0 ]; then
	echo
	echo "parallel: -j1 vs -j$(nproc) (wall time; the files of one input and several inputs); load now: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-28s %9s %9s %9s %8s %9s\n' input MiB '-j1 s' "-j$(nproc) s" speedup "cpu -jN s"
	for fmt in $formats; do
		input=$dir/big-$fmt
		[ -e "$input" ] || continue
		bench_measure "$fmt" -j1 "$input"
		t1=$M_TIME
		bench_measure "$fmt" -j"$(nproc)" "$input"
		printf '%-28s %9.1f %9.3f %9.3f %8.2f %9.3f\n' "$fmt (one input)" "$(mib "$M_BYTES")" "$t1" "$M_TIME" \
			"$(awk -v a="$t1" -v b="$M_TIME" 'BEGIN { print a / b }')" "$M_CPU"
	done
	# several inputs at once: every big input of the table in one call
	set -- $(for fmt in $formats; do [ -e "$dir/big-$fmt" ] && echo "$dir/big-$fmt"; done)
	if [ $# -gt 1 ]; then
		bench_measure all -j1 "$@"
		t1=$M_TIME
		bench_measure all -j"$(nproc)" "$@"
		printf '%-28s %9.1f %9.3f %9.3f %8.2f %9.3f\n' "all $# inputs in one call" "$(mib "$M_BYTES")" "$t1" "$M_TIME" \
			"$(awk -v a="$t1" -v b="$M_TIME" 'BEGIN { print a / b }')" "$M_CPU"
	fi
fi

# The ovni-runtime row: the users' usual trace (one loom, many threads, long,
# tasks by the million at 1 GB) in one line, with BENCH_OLD's row on the same
# input first when given: CPU time, events/s per core (events from the
# certificate), hpcvet vs cat (wall and CPU), -j1 and -jN wall times (the
# split replay spreads a loom's per-stream checks over the threads and
# merges the shared events on one) and the peak RSS, which grows with the
# tasks the trace creates (model.h states the bound).
if [ "${RUNTIME:-1}" != 0 ] && [[ " $formats " == *" ovni-runtime "* ]]; then
	rsize=${RUNTIME_SIZE:-$size}
	input=$(bench_generate ovni-runtime "$(bench_param ovni-runtime "$rsize")" "$dir/big-ovni-runtime")
	ev=$(cat "$input.events")
	echo
	echo "ovni-runtime: one loom, $(mib "$(bytes_of "$input")") MiB, $ev events; -j$(nproc)/-j1 from wall times; load now: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-24s %7s %9s %7s %8s %8s %8s %8s %8s\n' binary 'cpu s' 'events/s' 'x cat' 'x catcpu' '-j1 s' "-j$(nproc) s" speedup 'RSS MiB'
	hv_cur=$hv
	for bin in ${BENCH_OLD:-} "$hv_cur"; do
		hv=$bin
		bench_measure ovni-runtime -j"$(nproc)" "$input"
		tn=$M_TIME
		rss=$M_RSS
		bench_measure ovni-runtime -j1 "$input"
		[ "${rss%.*}" -gt "${M_RSS%.*}" ] && M_RSS=$rss
		label=$bin
		[ ${#label} -le 24 ] || label=...${label: -21}
		printf '%-24s %7.3f %9s %7.2f %8.2f %8.3f %8.3f %8.2f %8s\n' "$label" "$M_CPU" \
			"$(awk -v e="$ev" -v t="$M_CPU" 'BEGIN { printf "%.1fM", e / t / 1e6 }')" \
			"$(awk -v a="$M_TIME" -v b="$M_CAT" 'BEGIN { print a / b }')" \
			"$(awk -v a="$M_CPU" -v b="$M_CAT_CPU" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" \
			"$M_TIME" "$tn" "$(awk -v a="$M_TIME" -v b="$tn" 'BEGIN { print (b > 0) ? a / b : 0 }')" "$M_RSS"
	done
	hv=$hv_cur
	[ -n "${BENCH_DIR:-}" ] || [ "$rsize" = "$size" ] || rm -rf "$input" "$input".*
fi

# DUMPI per record (-j1, CPU): the table's DUMPI inputs and the shared real
# LAMMPS traces (DUMPI_REAL, default ../shared/real-samples/dumpi/libdumpi-lammps-*).
# A real trace is small (~14,000 records), so it is given DUMPI_REAL_REPEAT
# times (default 40) on one command line: the process start-up, which
# would otherwise be most of its time, is paid once. x cat: CPU over cat's
# CPU on the same files (cat reads each file once per appearance too).
if [ "${TABLE:-1}" != 0 ] && [[ " $formats " == *" dumpi"* ]]; then
	echo
	echo "DUMPI per record: -j1, CPU time (median of $runs) per record, every layer on (the MPI layer included)"
	printf '%-30s %9s %10s %8s %10s %8s\n' input MiB records 'cpu s' ns/record 'x catcpu'
	for fmt in $formats; do
		case $fmt in dumpi | dumpi-*) ;; *) continue ;; esac
		input=$dir/big-$fmt
		[ -e "$input" ] || continue
		ev=$(cat "$input.events")
		bench_measure "$fmt" -j1 "$input"
		printf '%-30s %9.1f %10d %8.3f %10.1f %8.2f\n' "$fmt" "$(mib "$M_BYTES")" "$ev" "$M_CPU" "$(ns_per "$M_CPU" "$ev")" \
			"$(awk -v a="$M_CPU" -v b="$M_CAT_CPU" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done
	rep=${DUMPI_REAL_REPEAT:-40}
	for real in ${DUMPI_REAL:-../shared/real-samples/dumpi/libdumpi-lammps-*}; do
		[ -d "$real" ] || continue
		ev=$("$hv" --certify --format=json "$real" | dumpi_records)
		set -- $(for ((i = 0; i < rep; i++)); do echo "$real"; done)
		bench_measure real -j1 "$@"
		printf '%-30s %9.1f %10d %8.3f %10.1f %8.2f\n' "$(basename "$real") x$rep" "$(mib "$M_BYTES")" "$((ev * rep))" "$M_CPU" \
			"$(ns_per "$M_CPU" "$((ev * rep))")" "$(awk -v a="$M_CPU" -v b="$M_CAT_CPU" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done
fi

# Certificates bind the verdict to the bytes: `certify` also hashes every
# file (SHA-256, on a small pool of threads beside the checks). Its cost against plain
# validation and against SHA-256 alone (`openssl dgst -sha256` of the same
# files, libcrypto's own tool) on the same inputs (the table's big inputs),
# the three in turn RUNS times, medians: wall time (what the user waits; the
# target is 1.3x the larger of validation and SHA-256: one large file is one
# SHA-256 chain, which no pool shortens) and CPU time (which necessarily adds
# the hash: SHA-256 costs about as much as the checks).
if [ "${CERTIFY:-1}" != 0 ]; then
	echo
	echo "certify (validation + SHA-256 of every file) vs validation alone and SHA-256 alone, -j1, wall and CPU time; load now: $(cut -d' ' -f1-3 /proc/loadavg)"
	[ "$have_perf_record" = 1 ] &&
		echo "busiest thr: certify's busiest thread's CPU (a further run under perf record); x thr: it over the larger of plain and sha256 CPU, what a machine with a free core per thread waits"
	printf '%-11s %9s %10s %10s %10s %8s %8s %10s %10s %10s %8s %11s %6s\n' format MiB 'plain s' 'sha256 s' 'certify s' 'x plain' 'x larger' \
		'plain cpu' 'sha cpu' 'cert cpu' 'cpu ratio' 'busiest thr' 'x thr'
	for fmt in $formats; do
		input=$dir/big-$fmt
		[ -e "$input" ] || continue
		log=$(mktemp)
		mapfile -t files < <(find "$input" -type f | sort)
		cat "${files[@]}" >/dev/null
		for ((i = 0; i < runs; i++)); do
			set +e
			timed "$log.plain" "$hv" -q -j1 "$input"
			timed "$log.sha" openssl dgst -sha256 "${files[@]}"
			timed "$log.cert" "$hv" certify --format=json -j1 "$input"
			if [ "$have_perf_record" = 1 ]; then thread_cpu "$hv" certify --format=json -j1 "$input" >>"$log.thr" || echo "0 0" >>"$log.thr"; fi
			set -e
		done
		tp=$(column_median "$log.plain" 2)
		ts=$(column_median "$log.sha" 2)
		tc=$(column_median "$log.cert" 2)
		wp=$(column_median "$log.plain" 1)
		ws=$(column_median "$log.sha" 1)
		wc=$(column_median "$log.cert" 1)
		# the run's ratios to the larger of plain and SHA-256, median over the runs
		xl=$(paste "$log.plain" "$log.sha" "$log.cert" | awk '{ m = ($1 > $5) ? $1 : $5; print (m > 0) ? $9 / m : 0 }' | median)
		bt=- xt=-
		if [ -s "$log.thr" ]; then
			bt=$(column_median "$log.thr" 1)
			xt=$(paste "$log.plain" "$log.sha" "$log.thr" | awk '{ m = ($2 > $6) ? $2 : $6; print (m > 0) ? $9 / m : 0 }' | median)
		fi
		printf '%-11s %9.1f %10.3f %10.3f %10.3f %8.2f %8.2f %10.3f %10.3f %10.3f %8.2f %11s %6s\n' "$fmt" "$(mib "$(bytes_of "$input")")" "$wp" "$ws" \
			"$wc" "$(awk -v a="$wc" -v b="$wp" 'BEGIN { print (b > 0) ? a / b : 0 }')" "$xl" "$tp" "$ts" "$tc" \
			"$(awk -v a="$tc" -v b="$tp" 'BEGIN { print (b > 0) ? a / b : 0 }')" "$bt" "$xt"
		rm -f "$log" "$log.plain" "$log.sha" "$log.cert" "$log.thr"
	done
fi

# DUMPI's MPI layer keeps what is outstanding (live requests, unmatched
# messages), never the trace: peak RSS against the pairs each of 2 ranks keeps
# in flight (hpcvet-gen --in-flight=N posts N Isend/Irecv pairs before any
# wait). Linear: the bytes per pair stay about the same from row to row.
inflight=${IN_FLIGHT:-0 12500 25000 50000}
if [ "$inflight" != 0 ] && [[ " $formats " == *" dumpi "* ]]; then
	echo
	echo "DUMPI in flight (-j1, 2 ranks): peak RSS vs Isend/Irecv pairs posted before any wait"
	printf '%-11s %9s %8s %8s %9s %14s\n' pairs MiB 'cpu s' 'RSS MiB' '+RSS MiB' 'B/pair (+RSS)'
	rss0=""
	for n in $inflight; do
		out=$dir/inflight-$n
		[ -e "$out" ] || "$gen" --what=dumpi-trace --profiles=2 --contexts=100 --in-flight="$n" -o "$out" >&2
		bench_measure dumpi -j1 "$out"
		[ -n "$rss0" ] || rss0=$M_RSS
		printf '%-11s %9.1f %8.3f %8s %9.1f %14s\n' "$n" "$(mib "$M_BYTES")" "$M_CPU" "$M_RSS" \
			"$(awk -v a="$M_RSS" -v b="$rss0" 'BEGIN { print a - b }')" \
			"$(awk -v a="$M_RSS" -v b="$rss0" -v n="$n" 'BEGIN { if (n > 0) printf "%.0f", (a - b) * 1048576 / n; else print "-" }')"
		[ -n "${BENCH_DIR:-}" ] || rm -rf "$out"
	done
fi

# The metric taxonomy's bounds: an alias bomb and 100 MB of YAML (TAXONOMY=0 skips).
if [ "${TAXONOMY:-1}" != 0 ]; then
	echo
	echo "## metric taxonomy (metrics/default.yaml)"
	bash bench/taxonomy.sh "$build"
fi
