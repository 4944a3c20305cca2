#!/usr/bin/env bash
# CI AFL++ smoke: every target's AFL++ build (persistent mode under
# ASan+UBSan, its cmplog build, the custom mutator library) runs SECONDS,
# two at a time, from a fixed subset of the committed corpus, through the
# campaign runner with its output in build-fuzz/afl-smoke. Fails on any
# crash or hang, or when afl-fuzz itself refuses to run (a broken build or
# harness).
#   usage: fuzz/afl-smoke.sh SECONDS TARGET...
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
# Each target starts from at most AFL_SMOKE_SEEDS (64) of its seeds: every
# k-th file of corpus/TARGET in name order, the same ones every run (and
# the libFuzzer smoke's, fuzz/smoke.sh; fuzz/seed-subset.sh picks them). Every seed of every target runs,
# under ASan+UBSan, in the regression test (tests/fuzz_regress.test.sh); here diff_units alone, calibrating all 638 of
# its seeds, cost 62 of the smoke's 160 CPU-s (48 measured alone, 10 from 64).
seeds=build-fuzz/afl-smoke/seeds
bash fuzz/seed-subset.sh "${AFL_SMOKE_SEEDS:-64}" "$seeds" "$@"
start=$(date +%s)
jobs=()
for t in "$@"; do jobs+=("afl:$t:$secs"); done
CAMPAIGN_OUT=build-fuzz/afl-smoke CAMPAIGN_SEEDS=$seeds bash fuzz/campaign.sh "${jobs[@]}" >/dev/null
awk -F'\t' -v want=$# '
NR == 1 { next }
{
	n++
	if ($12 != 0 || $13 != 0 || $14 !~ /^ok/) { bad = 1; printf "FAIL afl %s: %s crashes, %s hangs; %s\n", $3, $12, $13, $14 }
	else printf "ok   afl %s: %s execs (%s/s), %s edges\n", $3, $6, $7, $8
}
END { if (n != want) { bad = 1; printf "FAIL afl smoke: %d of %d targets reported\n", n, want } exit bad }' \
	build-fuzz/afl-smoke/campaigns.tsv
rc=$?
echo "afl smoke: $# targets, ${secs}s each, $(($(date +%s) - start))s wall"
[ $rc -eq 0 ] || { echo "afl smoke FAILED (logs in build-fuzz/afl-smoke/afl-out/)"; exit 1; }
