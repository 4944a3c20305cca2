#!/usr/bin/env bash
# CI fuzz smoke: every libFuzzer target for SECONDS, two at a time (the CI
# machine has 2 cores), from the committed corpus (a subset of it: below).
# corpus/ is only read:
# new inputs go to build-fuzz/smoke/TARGET/queue. Any crash, leak, timeout
# or OOM fails the smoke; the reproducer is in build-fuzz/smoke/TARGET/.
# Campaigns use the same runner with FUZZ_WORK=fuzz/out (the queue is kept
# between runs there) and longer times.
#   usage: [FUZZ_WORK=DIR] fuzz/smoke.sh SECONDS TARGET...
set -u
cd "$(dirname "$0")/.."
secs=$1
shift
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
	# shellcheck disable=SC2086
	if build-fuzz/lf/fuzz_$t $opts -dict="fuzz/dict/$t.dict" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$d/" "$d/queue" "$seeds/$t" >"$d/log" 2>&1; then
		l=$(grep -E '^#[0-9]+' "$d/log" | tail -1)
		n=$(grep -m1 number_of_executed_units "$d/log" | awk '{print $2}')
		echo "ok   $t: $n execs ($((n / secs))/s), $(sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [0-9]+).*/\1/' <<<"$l"), peak rss $(grep -m1 peak_rss_mb "$d/log" | awk '{print $2}') MB"
	else
		echo "FAIL $t: see $d/log"
		grep -E 'ERROR|SUMMARY|artifact_prefix|Test unit written' "$d/log" | head -5 | sed 's/^/     /'
		return 1
	fi
}
export -f one
start=$(date +%s)
printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'one {}'
rc=$?
echo "fuzz smoke: $# targets, ${secs}s each, $(($(date +%s) - start))s wall"
[ $rc -eq 0 ] || { echo "fuzz smoke FAILED"; exit 1; }
