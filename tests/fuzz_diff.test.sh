#!/usr/bin/env bash
# The differential fuzz targets (fuzz/fuzz_diff_*.c) find what they are
# for: each replay driver built with a planted defect (HV_FUZZ_PLANT_*, the
# Makefile's planted_* drivers: one library source rebuilt with the switch)
# aborts on a seed that exercises the defect, naming the field that
# differs, while the real driver passes the same seed and shows that it
# compared something (FUZZ_DIFF_STATS: units loaded from bytes, chunks,
# the event model's batches).
source "$(dirname "$0")/lib.sh"

# a seed: a path under the repository, or an absolute one
seed_path() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }

# planted DRIVER WHAT CONTROL SEED: the planted driver aborts on CONTROL+SEED
planted() {
	local drv=$1 what=$2 ctl=$3 seed=$4
	{ printf "$ctl"; cat "$(seed_path "$seed")"; } >"$TMP/in"
	if [ ! -x "$BUILD/fuzz/$drv" ]; then
		not_ok "$drv was not built"
		return
	fi
	"$BUILD/fuzz/$drv" "$TMP/in" >/dev/null 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -ne 0 ] && grep -q "^fuzz diff: .* give different reports: " "$TMP/err"; then
		ok
	else
		not_ok "$drv ($what) on $seed: exit $rc, no difference reported"
		head -3 "$TMP/err"
	fi
}

# real TARGET CONTROL SEED PATTERN: the real driver passes CONTROL+SEED and
# its statistics match PATTERN (the comparison was not vacuous)
real() {
	local t=$1 ctl=$2 seed=$3 pat=$4
	{ printf "$ctl"; cat "$(seed_path "$seed")"; } >"$TMP/in"
	local out
	out=$(FUZZ_DIFF_STATS=1 "$BUILD/fuzz/regress_$t" "$TMP/in" 2>&1)
	check "$t passes $seed and compares ($pat)" grep -qE "$pat" <<<"$out"
	check "$t: $seed replays" grep -q '^1 passed, 0 failed' <<<"$out"
}

# A unit that arrives as bytes loses a diagnostic in the merge: a DUMPI trace
# (rank summaries), an HPCToolkit database (unit summaries).
# (the DUMPI trace of a newer minor: every rank file carries its note)
for s in corpus/dumpi_trace/y_dumpi-trace_draft_minor1 corpus/hpctk_db/n_hpctkdb.cct.ctx-covered_hpctoolkit-db; do
	planted planted_merge "merge drops a diagnostic of a unit loaded from bytes" '\x00\x00\x00' "$s"
	planted planted_merge "merge drops a diagnostic of a unit loaded from bytes" '\x13\x01\x55' "$s"
	real diff_units '\x00\x00\x00' "$s" 'units loaded from bytes' 
	real diff_units '\x13\x01\x55' "$s" '[1-9][0-9]* units loaded from bytes'
done
# ... and the real target compares an ovni trace tree the same way.
real diff_units '\x05\x00\x00' corpus/ovni_trace/n_ovni.tree.mark-mismatch_ovni-trace '[1-9][0-9]* units loaded from bytes'

# The chunk merge of one ovni stream drops a diagnostic: chunks of 64
# bytes, of 1 byte, in memory and sent as bytes.
for ctl in '\x08\x00' '\x00\x01' '\x88\x00'; do
	planted planted_split "the chunk merge drops a diagnostic" "$ctl" corpus/ovni_obs/n_ovni.obs.mark-value_ovni-stream
done
real diff_ovni_split '\x00\x01' corpus/ovni_obs/n_ovni.obs.mark-value_ovni-stream '^diff_ovni_split: [0-9]{2,} chunks of 1 bytes'
real diff_ovni_split '\x80\x00' corpus/ovni_obs/y_ovni-stream_draft '[1-9][0-9]* chunks loaded from bytes'

# The split replay's chunks miscount a check (each chunk after a stream's
# first): chunks of one byte (the runner running the tasks one after the
# other on one thread, and on four threads), of 100 bytes. A trace whose
# model finds an error makes the split give up and replay the one-thread
# way, which the real target shows.
"$GEN" --what=ovni-trace --trace-len=200 -o "$TMP/t200" >/dev/null 2>&1
"$GEN" --what=ovni-trace --break=ovni.model.state-pop -o "$TMP/pop" >/dev/null 2>&1
"$BUILD/fuzz/hpcvet-pack" "$TMP/t200" "$TMP/t200.pack" >/dev/null
"$BUILD/fuzz/hpcvet-pack" "$TMP/pop" "$TMP/pop.pack" >/dev/null
for ctl in '\x00\x00' '\x18\x01' '\x0a\x02'; do
	planted planted_replay "the split replay miscounts" "$ctl" "$TMP/t200.pack"
done
real diff_ovni_replay '\x00\x00' "$TMP/t200.pack" '^diff_ovni_replay: 2 split replays \(0 gave up\), [0-9]{4,} chunks of 1 bytes, on 1 threads'
real diff_ovni_replay '\x18\x01' "$TMP/t200.pack" '^diff_ovni_replay: 2 split replays \(0 gave up\), [0-9]{4,} chunks of 1 bytes, on 4 threads'
real diff_ovni_replay '\x0e\x07' "$TMP/t200.pack" '^diff_ovni_replay: 2 split replays \(0 gave up\), [0-9]+ chunks of the default bytes'
real diff_ovni_replay '\x0a\x00' "$TMP/pop.pack" '^diff_ovni_replay: 2 split replays \(1 gave up\)'

# The AVX-512 value kernel miscounts: only where the processor has AVX-512;
# elsewhere the target must say that it compares nothing.
if grep -qw avx512f /proc/cpuinfo && grep -qw avx512dq /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo &&
	grep -qw avx512vl /proc/cpuinfo; then
	planted planted_wide "the wide value kernel counts one value too many" '' corpus/set/y_hpctoolkit-db_release
	real diff_simd '' corpus/set/y_hpctoolkit-db_release 'compared AVX-512 with the narrow path'
else
	skip "no AVX-512 (F, DQ, BW, VL) on this processor: the wide kernel's planted defect cannot run"
	out=$("$BUILD/fuzz/regress_diff_simd" "$ROOT/corpus/set/y_hpctoolkit-db_release" 2>&1)
	check "diff_simd says it compares nothing without AVX-512" grep -q 'nothing is compared' <<<"$out"
fi
# Found by diff_dump: the dump of a conforming draft-edition database
# stopped at profile.db's ProfileInfos (the dumper wanted the release
# edition's {PI} size, 0x2c bytes at least; the draft's is 0x28).
"$GEN" --what=hpctoolkit-db --edition=draft -o "$TMP/draft" >/dev/null 2>&1
expect_exit 0 "dump of a draft-edition database" "$HPCVET" dump --format=json "$TMP/draft"
check "the dump of a conforming draft-edition database has no stop item" \
	grep -q '"kind":"profile","path":"profile.db/profile\[0\]"' "$TMP/out"
check "... and does not stop" bash -c "! grep -q '\"kind\":\"stop\"' '$TMP/out'"
check "the draft reproducer replays through diff_dump" "$BUILD/fuzz/regress_diff_dump" \
	"$ROOT/corpus/diff_dump/crash_f0c364c6_draft-profile-info-dump-stop" >/dev/null
done_testing
