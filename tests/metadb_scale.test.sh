#!/usr/bin/env bash
# meta.db at scale: a 1,000,000-deep chain of contexts and a 1,000,000-wide
# tree, both editions. A validator that walks the context tree recursively
# overflows its stack on the chain; one that is quadratic in the number of
# siblings does not finish on the wide tree. Both must be conforming.
source "$(dirname "$0")/lib.sh"

N=1000000
for ed in release draft; do
	check "generate $ed chain" "$GEN" --edition=$ed --contexts=$N --depth=$N -o "$TMP/chain-$ed.db"
	expect_exit 0 "$ed 1,000,000-deep chain is conforming" "$HPCVET" "$TMP/chain-$ed.db"
	check "$ed chain: summary says $ed edition" grep -q "conforming (hpctoolkit meta.db, $ed edition" "$TMP/out"
	rm -f "$TMP/chain-$ed.db"
done
check "generate wide tree" "$GEN" --contexts=$N --depth=2 --seed=2 -o "$TMP/wide.db"
expect_exit 0 "1,000,000-wide tree is conforming" "$HPCVET" "$TMP/wide.db"
rm -f "$TMP/wide.db"
# A newer minor at scale: only the minor-newer warning, even with junk in every gap.
check "generate newer-minor chain" "$GEN" --minor=2 --contexts=200000 --depth=200000 --seed=3 -o "$TMP/newer.db"
expect_exit 0 "newer-minor chain is conforming" "$HPCVET" "$TMP/newer.db"
check "newer-minor chain: one warning only" grep -q "conforming (.*, 1 warning)" "$TMP/out"
# The generator is deterministic: the same seed gives the same bytes.
"$GEN" --contexts=5000 --depth=700 --seed=9 -o "$TMP/a.db" && "$GEN" --contexts=5000 --depth=700 --seed=9 -o "$TMP/b.db"
check "same seed, same bytes" cmp -s "$TMP/a.db" "$TMP/b.db"
"$GEN" --contexts=5000 --depth=700 --seed=10 -o "$TMP/c.db"
check "another seed, other bytes" test -n "$(cmp "$TMP/a.db" "$TMP/c.db" 2>&1)"
done_testing
