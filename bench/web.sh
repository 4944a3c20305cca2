#!/usr/bin/env bash
# `make bench-web` (not part of `make test`): the web page (make web) beside
# the hpcvet program on the same generated inputs, a database and an ovni
# trace of WEB_SIZE MiB each (bench/lib.sh's generators, as `make bench`).
#
#   hpcvet -q -j1 INPUT: wall and CPU time (median of RUNS) and peak RSS.
#   The page in headless Chromium (bench/web_page.py), a fresh browser per
#   run: wall time from picking the folder to the report and the CPU time
#   of all of Chromium's processes in it (medians of RUNS), the module's
#   linear memory at the end (its peak: it only grows), the largest peak
#   RSS of Chromium's renderer processes (the page's and its worker's,
#   Chromium's own included), and the worker's FileReaderSync reads with
#   the wall seconds spent in them.
#
# usage: bench/web.sh [BUILD_DIR]
# environment: WEB_SIZE (MiB per input, default 256), RUNS (default 3), FORMATS
# (default "hpctoolkit ovni-trace", bench/lib.sh's generators),
# BENCH_DIR (kept and reused when given), PYTHON (a python3 with selenium).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
size=${WEB_SIZE:-256}
runs=${RUNS:-3}
py=${PYTHON:-/usr/bin/python3}
hv=$build/hpcvet
gen=$build/hpcvet-gen
[ -x "$hv" ] && [ -x "$gen" ] || { echo "build $build first (make)" >&2; exit 2; }
[ -f "$build/web/hpcvet.wasm" ] || { echo "build the page first (make web)" >&2; exit 2; }
"$py" -c 'import selenium' 2>/dev/null || { echo "$py has no selenium (Debian: python3-selenium)" >&2; exit 2; }
source bench/lib.sh
bench_workdir

echo "# the web page vs hpcvet -q -j1; $runs runs each (median wall); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| input | MiB | hpcvet -j1 wall s | CPU s | peak RSS MiB | page wall s | CPU s | page / CLI wall | CPU | wasm memory MiB | renderer peak RSS MiB | file reads (wall s) | exit (CLI, page) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for fmt in ${FORMATS:-hpctoolkit ovni-trace}; do
	in=$(bench_generate "$fmt" "$(bench_param "$fmt" "$size")" "$dir/$fmt")
	mb=$(mib "$(bytes_of "$in")")
	measure_runs "$dir/cli.log" "$hv" -q -j1 "$in"
	cli_wall=$WALL CLI_CPU=$CPU cli_rss=$RSS cli_exit=$EXIT
	: >"$dir/page.log"
	for ((i = 0; i < runs; i++)); do "$py" bench/web_page.py "$build/web" "$in" >>"$dir/page.log"; done
	page_wall=$(awk '{ print $1 }' "$dir/page.log" | median)
	page_cpu=$(awk '{ print $7 }' "$dir/page.log" | median)
	page_reads=$(awk '{ print $5 }' "$dir/page.log" | median)
	page_read_s=$(awk '{ print $6 }' "$dir/page.log" | median)
	page_exit=$(awk '{ print $2 }' "$dir/page.log" | sort -u | tr '\n' ' ')
	wasm=$(awk '{ print $3 }' "$dir/page.log" | sort -g | tail -n 1)
	rend=$(awk '{ print $4 }' "$dir/page.log" | sort -g | tail -n 1)
	ratio=$(awk -v a="$page_wall" -v b="$cli_wall" 'BEGIN { printf "%.1f", a / b }')
	cratio=$(awk -v a="$page_cpu" -v b="$CLI_CPU" 'BEGIN { printf "%.1f", a / b }')
	echo "| $fmt | $mb | $(printf %.2f "$cli_wall") | $(printf %.2f "$CLI_CPU") | $cli_rss | $page_wall | $page_cpu | ${ratio}x |" \
		"${cratio}x | $wasm | $rend | $page_reads ($page_read_s) | $cli_exit, ${page_exit% } |"
done
