#!/usr/bin/env bash
# The semantic mutators (fuzz/mutate_sem_*.c) over the golden valid cases:
# DUMPI traces and rank files, ovni traces and streams, HPCToolkit databases,
# profile.db and cct.db files. Each mutant is made from a valid input and
# validated; per family a floor of mutants must keep the structure (no error
# outside dumpi.mpi.*, ovni.model.*, hpctkdb.*), and 20% must keep it and
# change what the semantic rules say (see fuzz/mutator_test.c). Measured on
# 2026-11-26 (48 mutants per input): DUMPI 100% keep the structure, 61% keep
# it and change a semantic verdict; ovni 100% and 43%; HPCToolkit 91% and 45%
# (one key change in eight breaks the sort order on purpose). Byte-level
# mutation of the same inputs (mutator_test -b): 19% and 4%, 13% and 2%, 37%
# and 17%. The floors, 80% and 20%, fail when a mutator starts breaking the
# layout it claims to keep, or stops changing what the layers above it see.
# The sanitizer build runs 8 mutants per input instead of 48.
source "$(dirname "$0")/lib.sh"
G="$ROOT/golden/cases"
mkdir -p "$TMP/in"
# Directories become containers; the container holds at most 16 files.
for d in "$G"/dumpi/y_*.d "$G"/ovni/y_ovni-trace*.d "$G"/hpctoolkit/y_hpctoolkit-db*.d "$G"/hpctoolkit/y_hpctkdb.*.d; do
	[ -d "$d" ] || continue
	[ "$(find "$d" -type f | wc -l)" -le 16 ] || continue
	"$BUILD/fuzz/hpcvet-pack" "$d" "$TMP/in/$(basename "$d")" || not_ok "pack $d"
done
for f in "$G"/dumpi/y_*.bin "$G"/ovni/y_ovni-stream*.obs "$G"/hpctoolkit/y_profiledb.*.db "$G"/hpctoolkit/y_cctdb.*.db; do
	[ -f "$f" ] && cp "$f" "$TMP/in/"
done
check "golden valid cases to mutate" test "$(ls "$TMP/in" | wc -l)" -ge 40
n=48
is_san_build && n=8
out=$("$BUILD/fuzz/mutator_test" -s 80 -n $n "$TMP/in" 2>&1)
rc=$?
echo "$out"
check "semantic mutants keep the structure and change the meaning" test $rc -eq 0
for fam in dumpi ovni hpctoolkit; do
	check "$fam inputs were mutated" grep -q "^$fam: [1-9][0-9]* semantic mutants" <<<"$out"
done
done_testing
