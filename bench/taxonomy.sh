#!/usr/bin/env bash
# Metric taxonomy bounds (not part of `make test`): a real database's files
# with metrics/default.yaml replaced by a billion-laughs alias bomb, and by
# YAML of SIZE MB (default 100; beyond the 64 MiB limit it is refused
# unparsed, so also try SIZE=60): inputs (past the node budget), one
# description scalar, comments (libyaml reads all of it). Prints wall time,
# peak RSS and the rules reported for each (GNU time -v).
# usage: bench/taxonomy.sh [BUILD_DIR]   (needs ../shared/real-samples)
set -euo pipefail
size=${SIZE:-100}
cd "$(dirname "$0")/.."
build=${1:-build}
src=../shared/real-samples/hpctoolkit/small.d
[ -d "$src" ] || { echo "no $src: skipped"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mk() { mkdir -p "$dir/$1/metrics"; cp "$src"/*.db "$dir/$1/"; }
mk bomb
{
	echo 'version: 0'
	echo 'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'
	for i in 1 2 3 4 5 6 7 8 9; do
		p=$((i - 1))
		echo "l$i: &l$i [*l$p, *l$p, *l$p, *l$p, *l$p, *l$p, *l$p, *l$p, *l$p]"
	done
} >"$dir/bomb/metrics/default.yaml"
mk inputs
{
	echo 'version: 0'
	echo 'inputs:'
	awk 'BEGIN { for (i = 0; i < '"$size"' * 11000; i++) printf "  - &in-%d\n    metric: CPUTIME (sec)\n    scope: execution\n    formula: $$\n    combine: sum\n", i }'
	echo 'roots: []'
} >"$dir/inputs/metrics/default.yaml"
mk scalar
{
	echo 'version: 0'
	printf 'description: "'
	head -c $((size * 1000000)) /dev/zero | tr '\0' 'x'
	echo '"'
} >"$dir/scalar/metrics/default.yaml"
mk comments
{
	cat "$src/metrics/default.yaml"
	echo
	awk 'BEGIN { for (i = 0; i < '"$size"' * 14000; i++) print "# a comment line of about seventy bytes, read by the parser and dropped" }'
} >"$dir/comments/metrics/default.yaml"
printf '%-9s %10s %8s %10s  %s\n' case "YAML MB" "wall s" "RSS MiB" verdict
for c in bomb inputs scalar comments; do
	f=$dir/$c/metrics/default.yaml
	/usr/bin/time -v "$build/hpcvet" -q "$dir/$c" >"$dir/out" 2>"$dir/time" || true
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$dir/time")
	rss=$(awk -F': ' '/Maximum resident/ { printf "%.1f", $2 / 1024 }' "$dir/time")
	printf '%-9s %10s %8s %10s  %s\n' "$c" "$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1e6 }')" "$wall" "$rss" \
		"$("$build/hpcvet" "$dir/$c" 2>/dev/null | grep -o 'taxonomy\.[a-z-]*' | sort -u | tr '\n' ' ')"
done
