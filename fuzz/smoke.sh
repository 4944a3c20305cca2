#!/usr/bin/env bash
# CI fuzz smoke: every libFuzzer target, two at a time (the CI machine has 2
# cores), from the committed corpus (a subset of it: below). corpus/ is only
# read: new inputs go to build-fuzz/smoke/TARGET/queue. Any crash, leak,
# timeout or OOM fails the smoke; the reproducer is in build-fuzz/smoke/TARGET/.
# With `execs` each target runs its executions from fuzz/smoke-execs.tsv
# (-runs): the same work, and the same verdict, whether the machine is quiet
# or its cores are taken (CI runs the smoke beside the suite at idle
# priority). -max_total_time is then only a wall guard (SMOKE_GUARD_S, 600 s):
# a target stopped by it passes, and its line says how many of its runs it
# did. libFuzzer's -timeout per unit is wall-clock too (fuzz/options: 2 s),
# so a starved unit would be reported as a hang: the smoke raises it to
# SMOKE_HANG_S (120 s), which still ends a unit that never returns. Slow
# inputs are the campaigns' business (fuzz/campaign.sh confirms them in CPU
# time), and tests/fuzz_regress.test.sh replays every seed under a hang guard.
# With SECONDS each target runs that long under fuzz/options' timeout.
# Campaigns use the same runner with FUZZ_WORK=fuzz/out (the queue is kept
# between runs there) and longer times.
#   usage: [FUZZ_WORK=DIR] fuzz/smoke.sh execs|SECONDS TARGET...
set -u
cd "$(dirname "$0")/.."
secs=$1
shift
runs_of() { # target: its libFuzzer executions in fuzz/smoke-execs.tsv (1000 if absent)
	awk -F'\t' -v t="$1" '$1 == t { n = $2 } END { print n ? n : 1000 }' fuzz/smoke-execs.tsv
}
export -f runs_of
work=${FUZZ_WORK:-build-fuzz/smoke}
# ASan's default 256 MB quarantine plus a big queue held in memory pushes the
# libFuzzer process past rss_limit_mb=512 with no help from the target (a
# 35 MB `set` queue did); a smaller quarantine keeps the limit meaningful.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32}
# The CI smoke starts each target from at most SMOKE_SEEDS (64) of its seeds,
# every k-th file of corpus/TARGET in name order, as fuzz/afl-smoke.sh does
# (the same files): every seed of every target replays under ASan+UBSan in
# the regression test (tests/fuzz_regress.test.sh), and diff_units' 638
# seeds alone took 20 CPU-s here before fuzzing began (2 from 64).
# Campaigns (another FUZZ_WORK) read the whole corpus.
seeds=corpus
if [ "$work" = build-fuzz/smoke ]; then
	seeds=build-fuzz/smoke-seeds
	bash fuzz/seed-subset.sh "${SMOKE_SEEDS:-64}" "$seeds" "$@"
fi
export secs work seeds
one() {
	t=$1
	d=$work/$t
	[ "$work" = build-fuzz/smoke ] && rm -rf "$d"
	mkdir -p "$d/queue"
	opts=$(grep -v '^\[' "fuzz/options/$t.options" 2>/dev/null | sed 's/ *= */=/; s/^/-/' | tr '\n' ' ')
	runs=0 limit="-max_total_time=$secs" done=0 starved=0 guard=${SMOKE_GUARD_S:-600} hang=${SMOKE_HANG_S:-60}
	[ "$secs" = execs ] && runs=$(runs_of "$t")
	lim=$(sed -n 's/^timeout *= *//p' "fuzz/options/$t.options")
	s0=$(date +%s)
	while :; do
		w=$(($(date +%s) - s0))
		[ "$runs" -gt 0 ] && limit="-runs=$((runs - done)) -max_total_time=$((guard > w ? guard - w : 1)) -timeout=$hang"
		# shellcheck disable=SC2086
		build-fuzz/lf/fuzz_$t $opts $limit -dict="fuzz/dict/$t.dict" -print_final_stats=1 \
			-artifact_prefix="$d/" "$d/queue" "$seeds/$t" >"$d/log" 2>&1
		rc=$?
		n=$(grep -m1 number_of_executed_units "$d/log" | awk '{print $2}')
		done=$((done + ${n:-0}))
		[ $rc -eq 0 ] && break
		# A unit over the hang guard whose replay is not slow in CPU time was
		# starved: its run goes on (the queue is kept) with the runs left.
		if [ "$runs" -gt 0 ] && grep -q 'ERROR: libFuzzer: timeout' "$d/log" &&
			[ "$(bash fuzz/confirm-slow.sh "$t" "${lim:-2}" "$d"/timeout-*)" = 0 ] &&
			[ "$done" -lt "$runs" ] && [ $(($(date +%s) - s0)) -lt "$guard" ]; then
			starved=$((starved + 1))
			mv "$d/log" "$d/log.starved$starved"
			rm -f "$d"/timeout-*
			continue
		fi
		echo "FAIL $t: see $d/log"
		grep -E 'ERROR|SUMMARY|artifact_prefix|Test unit written' "$d/log" | head -5 | sed 's/^/     /'
		return 1
	done
	l=$(grep -E '^#[0-9]+' "$d/log" | tail -1)
	note=
	[ "$starved" = 0 ] || note=", starved units (over ${hang}s wall, not slow in CPU time): $starved, logs $d/log.starved*"
	[ "$runs" -gt 0 ] && [ "$done" -lt "$runs" ] && note="$note, wall guard ${guard}s reached at $done of $runs runs"
	echo "ok   $t: $done execs in $(($(date +%s) - s0))s, $(sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [0-9]+).*/\1/' <<<"$l"), peak rss $(grep -m1 peak_rss_mb "$d/log" | awk '{print $2}') MB$note"
}
export -f one
start=$(date +%s)
printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'one {}'
rc=$?
each="${secs}s each"
[ "$secs" = execs ] && each="executions from fuzz/smoke-execs.tsv"
echo "fuzz smoke: $# targets, $each, $(($(date +%s) - start))s wall"
[ $rc -eq 0 ] || { echo "fuzz smoke FAILED"; exit 1; }
