#!/usr/bin/env bash
# `make demo`: write HPCToolkit files with our golden generator, validate
# them, then validate deliberately broken ones, showing every report.
set -u
BUILD=${1:-build}
GEN="$BUILD/hpcvet-gen"
VET="$BUILD/hpcvet"
OUT=demo-out
rm -rf "$OUT" && mkdir -p "$OUT"

step() { printf '\n=== %s ===\n' "$*"; }
run() { # show the command, run it, show its exit code
	echo "\$ $*"
	"$@"
	echo "(exit $?)"
}

step "1. A valid meta.db (release edition, the layout hpcprof writes)"
run "$GEN" --what=metadb --contexts=40 --depth=6 --seed=1 -o "$OUT/meta.db"
run "$VET" "$OUT/meta.db"

step "2. The same model in the draft edition (detected from the structure alone)"
run "$GEN" --what=metadb --edition=draft --contexts=40 --depth=6 --seed=1 -o "$OUT/draft-meta.db"
run "$VET" "$OUT/draft-meta.db"

step "3. A newer minor version (4.3): larger strides, junk in gaps and reserved fields"
run "$GEN" --what=metadb --minor=3 --seed=2 -o "$OUT/newer-meta.db"
run "$VET" "$OUT/newer-meta.db"
echo "# with --strict the warning fails the run:"
run "$VET" -q --strict "$OUT/newer-meta.db"

step "4. Broken files: each breaks exactly one rule"
run "$GEN" --what=metadb --break=metadb.ctx.children-overlap -o "$OUT/shared-children-meta.db"
run "$VET" "$OUT/shared-children-meta.db"
run "$GEN" --what=metadb --edition=draft --break=metadb.metrics.stat-id-unique -o "$OUT/dup-meta.db"
run "$VET" "$OUT/dup-meta.db"
run "$GEN" --what=metadb --break=metadb.hdr.footer -o "$OUT/no-footer-meta.db"
run "$VET" "$OUT/no-footer-meta.db"
echo "# why that rule exists:"
run "$VET" explain metadb.ctx.children-overlap

step "5. The same report as JSON (for CI)"
run "$VET" --format=json "$OUT/shared-children-meta.db"

step "6. Scale: a context tree 1,000,000 levels deep (the walk is iterative)"
run "$GEN" --what=metadb --contexts=1000000 --depth=1000000 -o "$OUT/chain-meta.db"
ls -l "$OUT/chain-meta.db" | awk '{print "# " $5 " bytes"}'
run "$VET" "$OUT/chain-meta.db"
rm -f "$OUT/chain-meta.db"

# A whole database, when this build has a writer for it.
if "$GEN" --list | grep -qx hpctoolkit-db; then
	step "7. A whole HPCToolkit database (meta.db, profile.db, cct.db, trace.db from one model)"
	run "$GEN" --what=hpctoolkit-db --seed=3 -o "$OUT/database"
	ls "$OUT/database"
	run "$VET" "$OUT/database"
	# ...and one whose cct.db is not the transpose of its profile.db.
	if "$GEN" --what=hpctoolkit-db --seed=3 --break=hpctkdb.cct.transpose -o "$OUT/broken-database" 2>/dev/null; then
		echo "\$ $GEN --what=hpctoolkit-db --seed=3 --break=hpctkdb.cct.transpose -o $OUT/broken-database"
		run "$VET" "$OUT/broken-database"
	fi
fi

step "8. An ovni trace tree (v3: stream.json + stream.obs per thread)"
run "$GEN" --what=ovni-trace --seed=1 -o "$OUT/ovni-trace"
find "$OUT/ovni-trace" -type f | sort | head -n 6
run "$VET" "$OUT/ovni-trace"
echo "# a stream whose clock goes backwards:"
run "$GEN" --what=ovni-stream --break=ovni.obs.clock-monotonic -o "$OUT/backwards.obs"
run "$VET" "$OUT/backwards.obs"

step "9. An SST DUMPI trace (.meta + one .bin per rank, big-endian, every record decoded)"
run "$GEN" --what=dumpi-trace --seed=1 -o "$OUT/dumpi-trace"
ls "$OUT/dumpi-trace"
run "$VET" "$OUT/dumpi-trace"
echo "# a footer whose call counts disagree with the records in the stream:"
run "$GEN" --what=dumpi-bin --break=dumpi.footer.records-match -o "$OUT/dumpi-broken.bin"
run "$VET" "$OUT/dumpi-broken.bin"
exit 0
