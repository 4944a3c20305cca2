#!/usr/bin/env bash
# `make demo`: generate a database with our golden generator, validate it,
# then validate a deliberately broken copy, showing both reports.
set -u
BUILD=${1:-build}
OUT=demo-out
rm -rf "$OUT" && mkdir -p "$OUT"
run() { echo "\$ $*"; "$@"; echo "(exit $?)"; echo; }
run "$BUILD/hpcvet-gen" --what=metadb --contexts=40 --depth=6 -o "$OUT/meta.db"
run "$BUILD/hpcvet" "$OUT/meta.db"
run "$BUILD/hpcvet-gen" --what=metadb --edition=draft -o "$OUT/draft-meta.db"
run "$BUILD/hpcvet" "$OUT/draft-meta.db"
run "$BUILD/hpcvet-gen" --what=metadb --break=metadb.sec.overlap -o "$OUT/broken-meta.db"
run "$BUILD/hpcvet" "$OUT/broken-meta.db"
run "$BUILD/hpcvet" --format=json "$OUT/broken-meta.db"
exit 0
