#!/usr/bin/env bash
# Every fuzz target's regression driver replays the committed corpus
# (generator seeds and every crash ever found, corpus/<target>/); in
# build-san this runs under ASan+UBSan, so any memory error or UB aborts and
# fails the test, and an internal error (HV_INVARIANT) aborts in every build.
source "$(dirname "$0")/lib.sh"
# No corpus input may make one allocation of a gigabyte: under ASan such an
# allocation aborts here instead of being zeroed for seconds (a loom_cpus
# index of 1e9 once sized the model's CPU tables; the fuzz smoke saw it only
# as a timeout). Outside ASan the option is ignored.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=1024"
targets=$(cd "$ROOT/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
head -c 0 /dev/null >"$TMP/empty"
printf 'HPCTOOLKITmeta\x04\x00' >"$TMP/hdr-only"
head -c 4096 /dev/urandom >"$TMP/random"
for t in $targets; do
	drv="$BUILD/fuzz/regress_$t"
	if [ ! -x "$drv" ]; then
		not_ok "regress_$t was not built"
		continue
	fi
	check "corpus/$t exists and holds seeds" test -n "$(ls "$ROOT/corpus/$t" 2>/dev/null)"
	out=$("$drv" "$ROOT/corpus/$t")
	check "corpus/$t replays through $t ($out)" grep -q ' 0 failed' <<<"$out"
	# Hostile inputs made here: empty, a bare header, random bytes.
	check "$t survives hostile inputs" "$drv" "$TMP/empty" "$TMP/hdr-only" "$TMP/random" >/dev/null
done
# Slow inputs (slow_*: a shape whose cost once grew faster than its bytes)
# replay under a hang guard: 200 KB of YAML nested 100,000 deep took libyaml
# 16 s before the taxonomy's nesting bound, a report in milliseconds now.
for f in "$ROOT"/corpus/*/slow_*; do
	t=$(basename "$(dirname "$f")")
	check "slow input $t/$(basename "$f") replays within the 10 s hang guard" \
		timeout 10 "$BUILD/fuzz/regress_$t" "$f" >/dev/null
done
# A crash reproducer must stay in the corpus of the target that found it.
check "the cct.db crash found in the first campaign is a regression input" \
	test -f "$ROOT/corpus/hpctk_db/crash_4f537bf5_cctdb"
check "the profile value verdicts' order finding of diff_units is a regression input" \
	test -f "$ROOT/corpus/diff_units/crash_c098c805_value-diag-order"
# Truncations of a valid generated file at every 7th byte.
"$GEN" --what=metadb --contexts=30 --depth=6 -o "$TMP/valid.db" && mkdir -p "$TMP/cuts"
size=$(stat -c %s "$TMP/valid.db")
for ((i = 0; i < size; i += 7)); do head -c "$i" "$TMP/valid.db" >"$TMP/cuts/$i"; done
check "every truncation of a valid meta.db" "$BUILD/fuzz/regress_metadb" "$TMP/cuts" >/dev/null
# The structure-aware mutator (the same code the fuzzers use): 24 chained
# mutants per seed, each validated; it must change inputs and keep magics.
check "structure-aware mutator over every seed" "$BUILD/fuzz/mutator_test" -n 24 "$ROOT"/corpus/*/[yn]_* >/dev/null
done_testing
