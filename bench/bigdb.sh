#!/usr/bin/env bash
# Benchmark (not part of `make test`): generate a ~1 GiB HPCToolkit database
# with hpcvet-gen and validate it with hpcvet under /usr/bin/time -v, then
# print wall time and peak RSS next to the file sizes. Validation must stream
# through profile.db/cct.db/trace.db, so peak RSS should stay far below the
# database size.
#
# usage: bench/bigdb.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  where hpcvet and hpcvet-gen are (default build)
#   OUT_DIR    where the database goes (default a fresh mktemp dir, removed
#              afterwards; a given OUT_DIR is kept)
# Scale: CONTEXTS, PROFILES, METRICS, TRACE_LEN, SEED, EDITION (release|draft)
# in the environment; JOBS=N validates with -jN (default: hpcvet's, a thread
# per core; each thread holds its own value checker).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-}
keep=1
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/hpcvet-bigdb.XXXXXX")
	keep=0
fi
[ "$keep" = 1 ] || trap 'rm -rf "$out"' EXIT
contexts=${CONTEXTS:-40000}
profiles=${PROFILES:-128}
metrics=${METRICS:-12}
trace_len=${TRACE_LEN:-100000}
seed=${SEED:-1}
edition=${EDITION:-release}
jobs=${JOBS:-}
[ -x "$build/hpcvet" ] && [ -x "$build/hpcvet-gen" ] || { echo "build $build/hpcvet and $build/hpcvet-gen first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is needed" >&2; exit 2; }

log=$(mktemp)
trap 'rm -f "$log"; [ "$keep" = 1 ] || rm -rf "$out"' EXIT

field() { # name from /usr/bin/time -v output
	sed -n "s/^[[:space:]]*$1: //p" "$log"
}

echo "generating: contexts=$contexts profiles=$profiles metrics=$metrics trace-len=$trace_len seed=$seed edition=$edition${jobs:+, validated with -j$jobs}"
rm -rf "$out/db"
/usr/bin/time -v "$build/hpcvet-gen" --what=hpctoolkit-db --contexts="$contexts" --profiles="$profiles" \
	--metrics="$metrics" --trace-len="$trace_len" --seed="$seed" --edition="$edition" -o "$out/db" 2>"$log"
gen_wall=$(field 'Elapsed (wall clock) time (h:mm:ss or m:ss)')
gen_rss=$(field 'Maximum resident set size (kbytes)')

total=0
echo
printf '%-12s %15s\n' file bytes
for f in meta.db profile.db cct.db trace.db; do
	[ -f "$out/db/$f" ] || continue
	sz=$(stat -c %s "$out/db/$f")
	total=$((total + sz))
	printf '%-12s %15d  (%.1f MiB)\n' "$f" "$sz" "$(echo "$sz / 1048576" | bc -l)"
done
printf '%-12s %15d  (%.1f MiB)\n' total "$total" "$(echo "$total / 1048576" | bc -l)"

echo
set +e
/usr/bin/time -v "$build/hpcvet" -q ${jobs:+-j"$jobs"} "$out/db" >"$log.out" 2>"$log"
rc=$?
set -e
val_wall=$(field 'Elapsed (wall clock) time (h:mm:ss or m:ss)')
val_rss=$(field 'Maximum resident set size (kbytes)')
echo "hpcvet-gen: wall $gen_wall, peak RSS $gen_rss KiB"
echo "hpcvet:     wall $val_wall, peak RSS $val_rss KiB (exit $rc)"
awk -v rss="$val_rss" -v tot="$total" 'BEGIN { printf "validator peak RSS / database size: %.2f%%\n", 100 * rss * 1024 / tot }'
echo "--- hpcvet summary"
cat "$log.out"
rm -f "$log.out"
