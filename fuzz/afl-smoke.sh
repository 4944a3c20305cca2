#!/usr/bin/env bash
# CI AFL++ smoke: every target's AFL++ build (persistent mode under
# ASan+UBSan, its cmplog build unless SMOKE_CMPLOG=0, the custom mutator library) runs two at a
# time, from a fixed subset of the committed corpus, through the campaign
# runner with its output in build-fuzz/afl-smoke. Fails on any crash or
# confirmed hang, or when afl-fuzz itself refuses to run (a broken build or
# harness). With `execs` each target runs its executions from
# fuzz/smoke-execs.tsv (afl-fuzz -E): the same work whether the machine is
# quiet or its cores are taken (CI runs the smoke beside the suite at idle
# priority); -V is then only a wall guard (AFL_SMOKE_GUARD_S, 600 s), and a
# target stopped by it passes, its line saying how many executions it did.
# afl-fuzz's hang timeout (-t, 900 ms) is wall-clock: an input it saves as a
# hang counts only when its replay takes that much CPU time (the campaign
# runner's confirm_slow), so a starved smoke saves hangs that do not count.
# With SECONDS each target runs that long.
#   usage: fuzz/afl-smoke.sh execs|SECONDS TARGET...
set -u
cd "$(dirname "$0")/.."
secs=$1
shift
rm -rf build-fuzz/afl-smoke
# A smoke proves each target runs, not how stable it is: three calibration
# cycles a seed, not up to forty when a threaded target's edges vary, and
# cmplog only on new inputs. Every seed still runs in the dry run, so the
# edges found prove the instrumentation (AFL_NO_STARTUP_CALIBRATION would
# skip that and report 0 edges). diff_units' 638 seeds: 94 s before, 60 s.
export AFL_FAST_CAL=1 AFL_CMPLOG_ONLY_NEW=1
# afl-fuzz gives a target 10 s (wall) to start its fork server; a starved
# sanitized target may take longer just to load.
export AFL_FORKSRV_INIT_TMOUT=${AFL_FORKSRV_INIT_TMOUT:-120000}
# Each target starts from at most AFL_SMOKE_SEEDS (64) of its seeds: every
# k-th file of corpus/TARGET in name order, the same ones every run (and
# the libFuzzer smoke's, fuzz/smoke.sh; fuzz/seed-subset.sh picks them). Every seed of every target runs,
# under ASan+UBSan, in the regression test (tests/fuzz_regress.test.sh); here diff_units alone, calibrating all 638 of
# its seeds, cost 62 of the smoke's 160 CPU-s (48 measured alone, 10 from 64).
seeds=build-fuzz/afl-smoke/seeds
bash fuzz/seed-subset.sh "${AFL_SMOKE_SEEDS:-64}" "$seeds" "$@"
start=$(date +%s)
jobs=()
for t in "$@"; do
	if [ "$secs" = execs ]; then
		jobs+=("afl:$t:${AFL_SMOKE_GUARD_S:-600}:$(awk -F'\t' -v t="$t" '$1 == t { n = $3 } END { print n ? n : 2000 }' fuzz/smoke-execs.tsv)")
	else
		jobs+=("afl:$t:$secs")
	fi
done
CAMPAIGN_OUT=build-fuzz/afl-smoke CAMPAIGN_SEEDS=$seeds bash fuzz/campaign.sh "${jobs[@]}" >/dev/null
printf '%s\n' "${jobs[@]}" | tr : '\t' >build-fuzz/afl-smoke/jobs
awk -F'\t' -v want=$# '
FILENAME ~ /jobs$/ { e[$2] = $4; next }
FNR == 1 { next }
{
	n++
	if ($12 != 0 || $13 != 0 || $14 !~ /^ok/) { bad = 1; printf "FAIL afl %s: %s crashes, %s hangs; %s\n", $3, $12, $13, $14; next }
	guard = (e[$3] != "" && $6 < e[$3]) ? sprintf(", wall guard %ss reached at %s of %s execs", $4, $6, e[$3]) : ""
	if (match($14, /[0-9]+ hangs over [^,]*, 0 confirmed in CPU time/)) guard = guard ", " substr($14, RSTART, RLENGTH)
	printf "ok   afl %s: %s execs in %ss (%s/CPU-s), %s edges%s\n", $3, $6, $4, $7, $8, guard
}
END { if (n != want) { bad = 1; printf "FAIL afl smoke: %d of %d targets reported\n", n, want } exit bad }' \
	build-fuzz/afl-smoke/jobs build-fuzz/afl-smoke/campaigns.tsv
rc=$?
each="${secs}s each"
[ "$secs" = execs ] && each="executions from fuzz/smoke-execs.tsv"
echo "afl smoke: $# targets, $each, $(($(date +%s) - start))s wall"
[ $rc -eq 0 ] || { echo "afl smoke FAILED (logs in build-fuzz/afl-smoke/afl-out/)"; exit 1; }
