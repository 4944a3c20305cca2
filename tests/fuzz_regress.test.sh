#!/usr/bin/env bash
# Every fuzz target's regression driver replays the committed corpus
# (generator seeds and every crash ever found); in build-san this runs under
# ASan+UBSan, so any memory error or UB aborts and fails the test.
source "$(dirname "$0")/lib.sh"
for drv in "$BUILD"/fuzz/regress_*; do
	[ -x "$drv" ] || continue
	t=${drv##*/regress_}
	if [ -d "$ROOT/corpus/$t" ]; then
		check "corpus/$t replays through $t" "$drv" "$ROOT/corpus/$t" >/dev/null
	fi
	# Hostile inputs made here: empty, tiny, random, and every prefix of a valid file.
	head -c 0 /dev/null >"$TMP/empty"
	printf 'HPCTOOLKITmeta\x04\x00' >"$TMP/hdr-only"
	head -c 4096 /dev/urandom >"$TMP/random"
	check "$t survives hostile inputs" "$drv" "$TMP/empty" "$TMP/hdr-only" "$TMP/random" >/dev/null
done
# Truncations of a valid generated file at every 7th byte.
"$GEN" --what=metadb --contexts=30 --depth=6 -o "$TMP/valid.db" && mkdir -p "$TMP/cuts"
size=$(stat -c %s "$TMP/valid.db")
for ((i = 0; i < size; i += 7)); do head -c "$i" "$TMP/valid.db" >"$TMP/cuts/$i"; done
check "every truncation of a valid meta.db" "$BUILD/fuzz/regress_single" "$TMP/cuts" >/dev/null
done_testing
