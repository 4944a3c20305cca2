# Helpers of bench/run.sh (sourced). Expects $hv, $gen, $runs.

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
mbps() { awk -v b="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", b / 1e6 / t; else print "inf" }'; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# column_median LOG N: the median of column N of LOG (a timed log: 1 wall, 2 CPU).
column_median() { awk -v n="$2" '{ print $n }' "$1" | median; }

# bench_workdir: sets dir to BENCH_DIR (kept and reused) or to a fresh
# temporary folder removed at exit.
bench_workdir() {
	dir=${BENCH_DIR:-}
	if [ -z "$dir" ]; then
		dir=$(mktemp -d "${TMPDIR:-/tmp}/hpcvet-bench.XXXXXX")
		trap 'rm -rf "$dir"' EXIT
	fi
	mkdir -p "$dir"
}

# The generator parameter that makes about $2 MiB of format $1. Inputs scale
# in the parameter alone, so 4x the parameter is 4x the work.
bench_param() {
	case $1 in
	hpctoolkit|hpctk-rand|hpctk-levels) awk -v m="$2" 'BEGIN { p = int(m / 23.5 + 0.5); print p < 1 ? 1 : p }' ;;  # profiles, ~23.5 MiB each (profile.db + cct.db + trace.db; 48 profiles: 1135 MiB)
	ovni) awk -v m="$2" 'BEGIN { print int(m * 1048576 / 42) }' ;;                         # generator steps, ~42 bytes each (2.7 events)
	ovni-trace) awk -v m="$2" 'BEGIN { p = int(m * 1048576 / 168); print p < 1 ? 1 : p }' ;; # trace steps, ~168 bytes each (8 streams)
	dumpi) awk -v m="$2" 'BEGIN { print int(m * 1048576 / (4 * 46)) }' ;;                 # records per rank (4 ranks)
	dumpi-stencil) awk -v m="$2" 'BEGIN { print int(m * 1048576 / (4 * 52.5)) }' ;;       # records per rank, ~52.5 bytes each
	dumpi-lammps) awk -v m="$2" 'BEGIN { print int(m * 1048576 / (4 * 41.5)) }' ;;        # records per rank, ~41.5 bytes each
	ovni-mix) awk -v m="$2" 'BEGIN { p = int(m * 1048576 / (8 * 14.5)); print p < 1 ? 1 : p }' ;; # events per stream, ~14.5 bytes each (8 streams)
	ovni-runtime) awk -v m="$2" 'BEGIN { p = int(m * 1048576 / (8 * 14.2)); print p < 1 ? 1 : p }' ;; # events per worker stream, ~14.2 bytes each (8 workers)
	ovni-node) awk -v m="$2" 'BEGIN { p = int(m * 1048576 / 245.5); print p < 1000 ? 1000 : p }' ;; # events per busy worker; 245.5 bytes per unit (16 busy workers, the idle ones' wake-ups)
	esac
}

# The ctxId order of an HPCToolkit input. `hpctoolkit`: depth-first
# post-order, as hpcprof numbers contexts (children before their parent:
# 94-98% of the contexts of the shared real databases with over 100
# contexts; every subtree a range of ids, its root last: 69-96% of their
# subtrees, leaves included; bench/hpctk-ctxid-order.py, bench/RESULTS.md
# "How hpcprof numbers contexts"). `hpctk-levels`:
# level by level from the deepest (children before parents, but a whole
# level between a context and its children: the value checks' records
# stream from memory). `hpctk-rand`: at random over the tree, the value
# checks' worst case (each run a cache miss).
bench_ctx_ids() {
	case $1 in hpctoolkit) echo postorder ;; hpctk-levels) echo levels ;; *) echo spread ;; esac
}

# bench_generate FORMAT PARAM OUT: generate (unless OUT exists with the same
# parameter) and print OUT. OUT.events holds the number of events/records.
bench_generate() {
	local fmt=$1 p=$2 out=$3
	# the ctxId order is part of an HPCToolkit input's identity
	local key=$p
	case $fmt in hpctoolkit | hpctk-*) key="$p $(bench_ctx_ids "$fmt")" ;; esac
	if [ -e "$out" ] && [ "$(cat "$out.param" 2>/dev/null)" = "$key" ]; then
		echo "$out"
		return
	fi
	rm -rf "$out"
	case $fmt in
	hpctoolkit|hpctk-rand|hpctk-levels)
		# PARAM is a number of profiles, or PROFILESxK for the scaling series:
		# K times the contexts and the trace length with the profiles fixed,
		# so every file (meta.db included) grows K times with the same shape
		# of blocks and runs; more profiles alone would lengthen cct.db's runs
		# and make larger inputs cheaper per MiB.
		local prof=${p%x*} k=1
		[ "$prof" = "$p" ] || k=${p#*x}
		local ids
		ids=$(bench_ctx_ids "$fmt")
		"$gen" --what=hpctoolkit-db --contexts=$((40000 * k)) --profiles="$prof" --metrics=12 \
			--trace-len=$((100000 * k)) --ctx-ids=$ids -o "$out" >&2
		echo - >"$out.events" ;;
	ovni)
		"$gen" --what=ovni-stream --trace-len="$p" -o "$out" >&2
		# Events, not the parameter: a generator step writes several events
		# (~2.7 on average). The certificate evaluates clock-monotonic once per event.
		"$hv" --certify --format=json "$out" |
			awk '/"ovni\.obs\.clock-monotonic"/ { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }' >"$out.events" ;;
	ovni-trace)
		# A whole trace (2 looms x 2 processes x 2 threads): the event model
		# replays each loom's streams merged in clock order, on top of the
		# stream checks that the one-stream `ovni` input measures alone.
		"$gen" --what=ovni-trace --trace-len="$p" -o "$out" >&2
		"$hv" --certify --format=json "$out" |
			awk '/"ovni\.obs\.clock-monotonic"/ { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }' >"$out.events" ;;
	ovni-mix)
		# The shape measured on the real traces (bench/RESULTS.md, "What real
		# ovni traces look like"): one thread per loom, four runtimes' loops
		# in equal shares.
		"$gen" --what=ovni-trace-mix --trace-len="$p" -o "$out" >&2
		"$hv" --certify --format=json "$out" |
			awk '/"ovni\.obs\.clock-monotonic"/ { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }' >"$out.events" ;;
	ovni-runtime)
		# One loom shaped like a task runtime's trace (libovni-runtime-mix:
		# nOS-V and Nanos6 processes, 4 workers each, tasks, pauses, CPU
		# hand-offs, kernel events; bench/ovni-runtime-stats.py).
		"$gen" --what=ovni-trace-runtime --trace-len="$p" -o "$out" >&2
		"$hv" --certify --format=json "$out" |
			awk '/"ovni\.obs\.clock-monotonic"/ { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }' >"$out.events" ;;
	ovni-node)
		# The 388-stream loom of a 2-socket node (4 processes x (1 + 96
		# threads)) as a runtime with more cores than work writes it, as
		# the real libovni loom of that width is: 4 busy workers a process,
		# the 92 others nearly idle (a scheduler poll and a pause every
		# 1000 busy events).
		"$gen" --what=ovni-trace-runtime --profiles=388 --busy-workers=4 --trace-len="$p" -o "$out" >&2
		"$hv" --certify --format=json "$out" |
			awk '/"ovni\.obs\.clock-monotonic"/ { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }' >"$out.events" ;;
	dumpi | dumpi-stencil | dumpi-lammps)
		# dumpi: the generator's mix of phases; dumpi-stencil: a 3-D stencil
		# code; dumpi-lammps: shaped like a LAMMPS run (the real trace's
		# Irecv/Send/Wait swaps, timers and Allreduce; bench/RESULTS.md).
		# Records, not the parameter: dumpi.rec.mask-reserved is evaluated
		# once per record.
		local pat=mix
		case $fmt in dumpi-stencil) pat=stencil3d ;; dumpi-lammps) pat=lammps ;; esac
		"$gen" --what=dumpi-trace --pattern="$pat" --contexts="$p" --profiles=4 -o "$out" >&2
		"$hv" --certify --format=json "$out" | dumpi_records >"$out.events" ;;
	esac
	echo "$key" >"$out.param"
	sync "$out" 2>/dev/null || sync  # written back now, not while hpcvet is timed
	echo "$out"
}

# The records a certificate (JSON on stdin) says the DUMPI input holds.
dumpi_records() {
	awk '/"dumpi\.rec\.mask-reserved"/ { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }'
}

bytes_of() { find "$@" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

# timed LOG CMD...: run CMD (stdout discarded) and append "WALL CPU RSS_KIB
# EXIT" to LOG. CPU time (user+sys) from `perf stat -e task-clock` when perf
# works (sub-millisecond), else from GNU time (hundredths); peak RSS from
# GNU time (which adds its own ~1.5 MiB floor).
timed() {
	local log=$1 t0 t1 rc cpu
	shift
	t0=$(now)
	if [ "$have_perf" = 1 ]; then
		perf stat -x, -e task-clock -o "$log.perf" -- /usr/bin/time -f '%M %U %S' -o "$log.time" "$@" >/dev/null
	else
		/usr/bin/time -f '%M %U %S' -o "$log.time" "$@" >/dev/null
	fi
	rc=$?
	t1=$(now)
	if [ "$have_perf" = 1 ]; then
		cpu=$(awk -F, '$3 == "task-clock" { printf "%.6f", $1 / 1000 }' "$log.perf")
	else
		cpu=$(tail -1 "$log.time" | awk '{ print $2 + $3 }')
	fi
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') $cpu $(tail -1 "$log.time" | awk '{ print $1 }') $rc" >>"$log"
	rm -f "$log.perf" "$log.time"
}
have_perf=0
[ -n "${BENCH_NO_PERF:-}" ] || { perf stat -x, -e task-clock -o /dev/null -- true >/dev/null 2>&1 && have_perf=1; }

# thread_cpu CMD...: one run of CMD under `perf record` (a task-clock sample
# every 0.1 ms of CPU, each with its thread), printing "LONGEST ALL": the
# CPU seconds of its busiest thread and of all its threads. Under load a
# process's threads share its cores' time with everyone else's, so wall
# time follows the CPU of all threads; on a machine with a free core per
# thread it follows the busiest thread's. Fails where perf cannot record.
thread_cpu() {
	local data rc
	data=$(mktemp)
	perf record -q -e task-clock -c 100000 -o "$data" -- "$@" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 0 ] && perf script -i "$data" -F tid 2>/dev/null | sort | uniq -c |
		awk '{ if ($1 > m) m = $1; t += $1 } END { if (t > 0) printf "%.4f %.4f\n", m / 10000, t / 10000; else exit 1 }'
	rc=$?
	rm -f "$data" "$data.old"
	return $rc
}
have_perf_record=0
[ -n "${BENCH_NO_PERF:-}" ] || { perf record -q -e task-clock -c 100000 -o /dev/null -- true >/dev/null 2>&1 && have_perf_record=1; }

# mpirun for hpcvet-mpi here: oversubscribed (more processes than cores),
# as root when root.
mpirun=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && mpirun+=(--allow-run-as-root)

# measure_runs LOG CMD...: RUNS timed runs of CMD into LOG; sets WALL and CPU
# (median s), RSS (MiB, the largest) and EXIT (the largest).
measure_runs() {
	local log=$1 i
	shift
	rm -f "$log"
	for ((i = 0; i < runs; i++)); do
		set +e
		timed "$log" "$@"
		set -e
	done
	WALL=$(column_median "$log" 1)
	CPU=$(column_median "$log" 2)
	RSS=$(awk '{ print $3 }' "$log" | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }')
	EXIT=$(awk '{ print $4 }' "$log" | sort -n | tail -1)
	rm -f "$log"
}

# measure_jobs LOG INPUT: `hpcvet -q -j1` and `-j2` on INPUT in turn (-j1
# -j2 -j1 -j2 ..., RUNS pairs), so that a drift in the machine's speed
# under other users' load hits both alike. Sets WALL1, WALL2, CPU1, CPU2
# (medians, s), SPEEDUP (the median of the pairs' -j1/-j2 wall ratios), RSS
# (MiB, the largest) and EXIT (the largest).
measure_jobs() {
	local log=$1 in=$2 i
	rm -f "$log.1" "$log.2"
	for ((i = 0; i < runs; i++)); do
		set +e
		timed "$log.1" "$hv" -q -j1 "$in"
		timed "$log.2" "$hv" -q -j2 "$in"
		set -e
	done
	WALL1=$(column_median "$log.1" 1)
	WALL2=$(column_median "$log.2" 1)
	CPU1=$(column_median "$log.1" 2)
	CPU2=$(column_median "$log.2" 2)
	SPEEDUP=$(paste "$log.1" "$log.2" | awk '{ print ($5 > 0) ? $1 / $5 : 0 }' | median)
	RSS=$(cat "$log.1" "$log.2" | awk '{ print $3 }' | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }')
	EXIT=$(cat "$log.1" "$log.2" | awk '{ print $4 }' | sort -n | tail -1)
	rm -f "$log.1" "$log.2"
}

# thread_path INPUT: where `hpcvet -q -j2 INPUT`'s CPU goes by thread
# (`perf record` samples, one run): MAIN_PCT, the first thread's share (the
# tree walk, metadata and report before and after a loom's replay), and
# BUSY_PCT, the busiest other thread's (the split replay's merger, which
# never waits: it makes the chunks it needs itself). With a core per
# thread the run's wall time is about their sum, so PATH_SPEEDUP = -j1's
# CPU (CPU1 of the last measure_jobs) over that sum of -j2's CPU (CPU2):
# the -j2 speedup a quiet machine gives, from a loaded one. "-" without perf.
thread_path() {
	MAIN_PCT=- BUSY_PCT=- PATH_SPEEDUP=-
	[ "$have_perf" = 1 ] || return 0
	local data
	data=$(mktemp)
	perf record -q -F 2000 -o "$data" -- "$hv" -q -j2 "$1" >/dev/null 2>&1 || { rm -f "$data"; return 0; }
	read -r MAIN_PCT BUSY_PCT < <(perf script -i "$data" -F tid 2>/dev/null | sort -n | uniq -c | sort -k2n |
		awk 'NR == 1 { m = $1 } NR > 1 { if ($1 > b) b = $1 } { t += $1 } END { if (t) printf "%.1f %.1f\n", 100 * m / t, 100 * b / t }')
	rm -f "$data"
	[ -n "${BUSY_PCT:-}" ] || { MAIN_PCT=- BUSY_PCT=-; return 0; }
	PATH_SPEEDUP=$(awk -v a="${CPU1:-0}" -v b="${CPU2:-0}" -v p="$MAIN_PCT" -v q="$BUSY_PCT" \
		'BEGIN { d = b * (p + q) / 100; if (a > 0 && d > 0) printf "%.2f", a / d; else print "-" }')
}

# measure_cat LOG DIR: `cat` of every file of DIR (page cache warmed first)
# as measure_runs measures it; CAT_CPU: its CPU (median s).
measure_cat() {
	find "$2" -type f -exec cat {} + >/dev/null
	measure_runs "$1" find "$2" -type f -exec cat {} +
	CAT_CPU=$CPU
}
# ns_per CPU N: nanoseconds of CPU a unit; x_cat CPU: CPU in multiples of
# the last measure_cat ("-" without one).
ns_per() { awk -v c="$1" -v n="$2" 'BEGIN { print c * 1e9 / n }'; }
x_cat() { awk -v c="$1" -v k="${CAT_CPU:-0}" 'BEGIN { if (k > 0) printf "%.1f", c / k; else print "-" }'; }

# bench_measure LABEL JFLAG INPUT...: hpcvet -q and cat over the same files
# (page cache warmed first), RUNS times each. Sets M_TIME and M_CAT (median
# wall s), M_CPU and M_CAT_CPU (median user+sys s), M_BYTES, M_RSS (MiB, max
# over the runs), M_EXIT. On a loaded machine the CPU times are the stable
# measure: wall time includes waiting for a core.
bench_measure() {
	local label=$1 j=$2
	shift 2
	local files i log
	log=$(mktemp)
	M_BYTES=$(bytes_of "$@")
	mapfile -t files < <(find "$@" -type f | sort)
	cat "${files[@]}" >/dev/null
	for ((i = 0; i < runs; i++)); do
		timed "$log.cat" cat "${files[@]}"
		set +e
		# BENCH_NOJ=1: for a build before -j existed (comparisons with older versions)
		if [ -n "${BENCH_NOJ:-}" ]; then timed "$log.hv" "$hv" -q "$@"; else timed "$log.hv" "$hv" -q "$j" "$@"; fi
		set -e
	done
	M_CAT=$(column_median "$log.cat" 1)
	M_CAT_CPU=$(column_median "$log.cat" 2)
	M_TIME=$(column_median "$log.hv" 1)
	M_CPU=$(column_median "$log.hv" 2)
	M_RSS=$(awk '{ print $3 }' "$log.hv" | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }')
	M_EXIT=$(awk '{ print $4 }' "$log.hv" | sort -n | tail -1)
	rm -f "$log" "$log.cat" "$log.hv"
	: "$label"
}

# One row of the throughput table from the last bench_measure.
bench_row() {
	local fmt=$1 ev evs
	ev=$(cat "$dir/big-$fmt.events")
	if [ "$ev" = - ]; then evs=-; else evs=$(awk -v e="$ev" -v t="$M_CPU" 'BEGIN { printf "%.1fM", e / t / 1e6 }'); fi
	printf '%-11s %8.1f %7.3f %7.2f %8s %8s %10s %9s %8.2f %8s %8s %5s\n' "$fmt" "$(mib "$M_BYTES")" "$M_TIME" "$M_CPU" \
		"$(mbps "$M_BYTES" "$M_TIME")" "$(mbps "$M_BYTES" "$M_CPU")" "$(mbps "$M_BYTES" "$M_CAT")" "$evs" \
		"$(awk -v a="$M_TIME" -v b="$M_CAT" 'BEGIN { print a / b }')" \
		"$(awk -v a="$M_CPU" -v b="$M_CAT_CPU" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" "$M_RSS" "$M_EXIT"
}

# bench_damage FORMAT zero|random VALID OUT: a damaged copy of the valid
# input VALID, the same size, in OUT (echoed). ovni: the stream's first 1/64
# (cut at an event: a stream of that length from the generator) and the rest
# zero or random bytes, as a stream extended after a crash. HPCToolkit: the
# middle 3/4 of profile.db and cct.db overwritten (headers, sections'
# tables and footers kept: every value block is read). DUMPI: the middle 3/4
# of every rank file overwritten (header and index kept).
bench_damage() {
	local fmt=$1 fill=$2 valid=$3 out=$4 src f size
	src=/dev/zero
	[ "$fill" = random ] && src=/dev/urandom
	rm -rf "$out"
	case $fmt in
	ovni)
		size=$(stat -c %s "$valid")
		"$gen" --what=ovni-stream --trace-len="$(awk -v s="$size" 'BEGIN { print int(s / 64 / 42) + 1 }')" -o "$out" >&2
		head -c "$((size - $(stat -c %s "$out")))" "$src" >>"$out" ;;
	hpctoolkit)
		cp -r "$valid" "$out"
		for f in "$out"/profile.db "$out"/cct.db; do
			size=$(stat -c %s "$f")
			dd if="$src" of="$f" bs=65536 seek="$((size / 8 / 65536))" count="$((size * 3 / 4 / 65536))" conv=notrunc status=none
		done ;;
	dumpi)
		cp -r "$valid" "$out"
		for f in "$out"/*.bin; do
			size=$(stat -c %s "$f")
			dd if="$src" of="$f" bs=65536 seek="$((size / 8 / 65536))" count="$((size * 3 / 4 / 65536))" conv=notrunc status=none
		done ;;
	esac
	echo "$out"
}
