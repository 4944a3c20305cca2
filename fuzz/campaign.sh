#!/usr/bin/env bash
# Long fuzz campaigns with both engines, recorded. Each job is
# ENGINE:TARGET:SECONDS (ENGINE = lf for libFuzzer, afl for AFL++); jobs run
# two at a time (the machines have 2 cores) at the lowest priority, so a
# campaign can soak up the idle CPU while other work goes on. Queues are kept
# between runs (fuzz/out/TARGET/queue, fuzz/afl-out/TARGET) and each finished
# job appends one line to fuzz/campaigns.tsv: the CPU time the job really
# got (user+sys of the engine and every process below it, counted by
# build-fuzz/cpu-account, which also reaps the target processes afl-fuzz's
# fork server orphans), its executions, coverage and findings. fuzz/README.md's table is summed from
# that file (fuzz/campaign-table.sh).
#   usage: fuzz/campaign.sh [-P N] ENGINE:TARGET:SECONDS...
#   e.g.   fuzz/campaign.sh lf:hpctk_db:1800 afl:hpctk_db:1800
# Build first: make fuzz-build afl-build. CAMPAIGN_OUT=DIR puts queues and
# the record under DIR instead (fuzz/afl-smoke.sh does, for CI), and
# CAMPAIGN_SEEDS=DIR makes afl-fuzz start from DIR/TARGET, not corpus/TARGET
# (the smoke's subset).
set -u
cd "$(dirname "$0")/.."
par=2
if [ "${1:-}" = -P ]; then par=$2; shift 2; fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32}
out=${CAMPAIGN_OUT:-fuzz}
lfout=$out/out afout=$out/afl-out log=$out/campaigns.tsv
mkdir -p "$out"
# Slow inputs are findings too: libFuzzer writes each input that runs longer
# than the target's report_slow_units (fuzz/options, 1 s) as slow-unit-*, and
# AFL++ saves as a hang any input that runs past AFL_TIMEOUT_MS (900 ms: an
# input of at most 1 MiB that takes longer in the sanitizer build is far off
# the validator's linear cost; "+": a seed over it is skipped, not fatal).
# Both engines time the wall clock, and a campaign at nice 19 on a busy
# machine waits for a core for seconds, so each reported input is replayed
# by the sanitized regression driver and counts as slow only if it takes as
# much CPU time (`confirmed`). libFuzzer's own timeout is raised to a hang
# guard (LF_HANG_S, 30 s) so a starved run is not ended as a hang.
afl_timeout_ms=${AFL_TIMEOUT_MS:-900}
lf_hang_s=${LF_HANG_S:-30}
export lfout afout afl_timeout_ms lf_hang_s

# confirm_slow TARGET SECONDS FILE...: how many FILEs take at least SECONDS of
# CPU time in the sanitized regression driver (fuzz/confirm-slow.sh).
confirm_slow() { bash fuzz/confirm-slow.sh "$@"; }
export -f confirm_slow
[ -f "$log" ] || printf 'date\tengine\ttarget\twall_s\tcpu_s\texecs\texec_per_s\tedges\tfeatures\tqueue\tpeak_rss_mb\tcrashes\thangs\tnote\n' >"$log"
export log

run_lf() { # target seconds
	t=$1 s=$2 d=$lfout/$1
	mkdir -p "$d/queue"
	opts=$(grep -v '^\[' "fuzz/options/$t.options" 2>/dev/null | sed 's/ *= */=/; s/^/-/' | tr '\n' ' ')
	touch "$d/log.start"
	slow_s=$(sed -n 's/^report_slow_units *= *//p' "fuzz/options/$t.options")
	before=$(find "$d" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' -o -maxdepth 1 -name 'oom-*' -o -maxdepth 1 -name 'timeout-*' | wc -l)
	# shellcheck disable=SC2086
	build-fuzz/cpu-account "$d/time" nice -n 19 build-fuzz/lf/fuzz_$t $opts -timeout="$lf_hang_s" -dict="fuzz/dict/$t.dict" \
		-max_total_time="$s" -print_final_stats=1 -artifact_prefix="$d/" "$d/queue" "corpus/$t" >"$d/log" 2>&1
	rc=$?
	read -r wall u sy < <(tail -1 "$d/time")
	l=$(grep -E '^#[0-9]+' "$d/log" | tail -1)
	execs=$(grep -m1 number_of_executed_units "$d/log" | awk '{print $2}')
	rss=$(grep -m1 peak_rss_mb "$d/log" | awk '{print $2}')
	cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$l")
	ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$l")
	corp=$(sed -nE 's/.*corp: ([0-9]+).*/\1/p' <<<"$l")
	after=$(find "$d" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' -o -maxdepth 1 -name 'oom-*' -o -maxdepth 1 -name 'timeout-*' | wc -l)
	mapfile -t slows < <(find "$d" -maxdepth 1 \( -name 'slow-unit-*' -o -name 'timeout-*' \) -newer "$d/log.start")
	note=ok
	[ ${#slows[@]} -eq 0 ] ||
		note="ok; ${#slows[@]} slow units reported (over ${slow_s:-?} s wall), $(confirm_slow "$t" "${slow_s:-1}" "${slows[@]}") confirmed in CPU time"
	[ $rc -eq 0 ] || note="exit $rc: $(grep -m1 -E 'ERROR|SUMMARY' "$d/log" | tr '\t' ' ' | cut -c1-120)"
	cpu=$(awk -v a="$u" -v b="$sy" 'BEGIN{printf "%.0f", a + b}')
	eps=$(awk -v e="${execs:-0}" -v c="$cpu" 'BEGIN{printf "%.0f", (c > 0 ? e / c : 0)}')
	printf '%s\tlibfuzzer\t%s\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$wall" "$cpu" \
		"${execs:-0}" "$eps" "${cov:-0}" "${ft:-0}" "${corp:-0}" "${rss:-0}" $((after - before)) 0 "$note" >>"$log"
	echo "done lf:$t:$s cpu ${cpu}s execs ${execs:-0} cov ${cov:-?} ($note)"
}

run_afl() { # target seconds [execs]
	t=$1 s=$2 o=$afout/$1 limit=(-V "$2")
	[ -z "${3:-}" ] || limit=(-V "$2" -E "$3")
	mkdir -p "$afout"
	st=$o/default/fuzzer_stats
	c0=0 e0=0
	mkdir -p "$o"
	touch "$o/run.start"
	if [ -f "$st" ]; then
		c0=$(awk -F' *: *' '$1=="saved_crashes"{print $2}' "$st")
		e0=$(awk -F' *: *' '$1=="execs_done"{print $2}' "$st")
	fi
	# the cmplog build guides comparisons; SMOKE_CMPLOG=0 (CI's smoke) runs without it
	cmplog=(-c "build-fuzz/cmplog/afl_$t")
	[ "${SMOKE_CMPLOG:-1}" != 0 ] || cmplog=()
	# AFL_AUTORESUME continues an existing output directory and AFL++ carries
	# its counters over, so this run's executions and findings are the
	# differences of the cumulative fuzzer_stats fields.
	build-fuzz/cpu-account "$afout/$t.time" env AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 \
		AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 AFL_AUTORESUME=1 \
		AFL_CUSTOM_MUTATOR_LIBRARY="$PWD/build-fuzz/hv_mutator.so" \
		ASAN_OPTIONS="abort_on_error=1:symbolize=0:detect_leaks=1:$ASAN_OPTIONS" \
		nice -n 19 afl-fuzz -i "${CAMPAIGN_SEEDS:-corpus}/$t" -o "$o" -x "fuzz/dict/$t.dict" "${limit[@]}" -t "$afl_timeout_ms+" -m none \
		"${cmplog[@]}" -- "build-fuzz/afl/afl_$t" >"$afout/$t.log" 2>&1
	rc=$?
	read -r wall u sy < <(tail -1 "$afout/$t.time")
	cpu=$(awk -v a="$u" -v b="$sy" 'BEGIN{printf "%.0f", a + b}')
	f() { awk -F' *: *' -v k="$1" '$1==k{print $2}' "$st" 2>/dev/null; }
	execs=$(f execs_done) edges=$(f edges_found) tot=$(f total_edges) q=$(f corpus_count) c1=$(f saved_crashes)
	rss=$(f peak_rss_mb)
	stab=$(f stability)
	note="ok; edges of ${tot:-?} instrumented; stability ${stab:-?}"
	# The hangs column counts the hangs whose replay takes the CPU time;
	# the note keeps how many afl-fuzz saved by the wall clock.
	mapfile -t slows < <(find "$o"/default/hangs -name 'id:*' -newer "$o/run.start" 2>/dev/null)
	hconf=0
	if [ ${#slows[@]} -gt 0 ]; then
		hconf=$(confirm_slow "$t" "$(awk -v m="$afl_timeout_ms" 'BEGIN { print m / 1000 }')" "${slows[@]}")
		note="$note; ${#slows[@]} hangs over ${afl_timeout_ms} ms wall, $hconf confirmed in CPU time"
	fi
	[ $rc -eq 0 ] || note="exit $rc: $(tail -3 "$afout/$t.log" | tr '\t\n' '  ' | cut -c1-120)"
	execs=$((${execs:-0} - e0))
	eps=$(awk -v e="$execs" -v c="$cpu" 'BEGIN{printf "%.0f", (c > 0 ? e / c : 0)}')
	printf '%s\tafl++\t%s\t%.0f\t%s\t%s\t%s\t%s\t-\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$wall" "$cpu" \
		"${execs:-0}" "$eps" "${edges:-0}" "${q:-0}" "${rss:--}" $((${c1:-0} - c0)) "$hconf" "$note" >>"$log"
	echo "done afl:$t:$s cpu ${cpu}s execs ${execs:-0} edges ${edges:-?} ($note)"
}

job() {
	IFS=: read -r eng t s e <<<"$1"
	case $eng in
	lf) run_lf "$t" "$s" ;;
	afl) run_afl "$t" "$s" "$e" ;;
	*) echo "unknown engine in $1" >&2; return 2 ;;
	esac
}
export -f run_lf run_afl job
# Linux autogroups: a process that starts a session of its own (setsid, as
# afl-fuzz's fork server and `setsid campaign.sh` do) is scheduled as a group
# whose share ignores nice, so the campaign would take half of every core
# from the work it should yield to. Every few seconds each fuzzing process's
# group is set to nice 19 too (where the kernel lets us).
(
	while sleep 5; do
		for g in /proc/[0-9]*/autogroup; do
			grep -qa 'build-fuzz/' "${g%autogroup}cmdline" 2>/dev/null && echo 19 >"$g" 2>/dev/null
		done
	done
) &
renicer=$!
trap 'kill $renicer 2>/dev/null' EXIT
printf '%s\n' "$@" | xargs -P "$par" -I{} bash -c 'job {}'
