#!/usr/bin/env bash
# `make bench-web` (not part of `make test`): the web page (make web) beside
# the hpcvet program on the same generated inputs, a database and an ovni
# trace of WEB_SIZE MiB each (bench/lib.sh's generators, as `make bench`).
#
#   hpcvet -q -j1 INPUT: wall and CPU time (median of RUNS) and peak RSS.
#   The page in headless Chromium (bench/web_page.py), a fresh browser per
#   run, served by web/serve.py cross-origin isolated, in each of WEB_MODES
#   (default "read-ahead"): "read-ahead", the page's default there (a
#   second worker reads the files ahead into shared memory, the module
#   waiting by Atomics.wait), "JSPI" (index.html?read=jspi, the page's
#   default served plainly: the second worker hands the blocks over, the
#   module suspended while it waits), "FileReaderSync" (served plainly,
#   ?read=sync). The command line and the
#   page run in turn (CLI, each mode, CLI, ...), and the page / CLI ratio
#   is the median of the rounds' ratios, with their range: a drift in the
#   machine's speed (this shared machine's moves by a third within an
#   hour) hits both alike. Wall time from
#   picking the folder to the report and the CPU time of all of Chromium's
#   processes in it (medians of RUNS); the page's peak memory: the largest
#   peak RSS (VmHWM) of Chromium's renderer processes (the page's and its
#   workers', Chromium's own included); the module's linear memory at the
#   end (its peak: it only grows) and the read-ahead buffer; the reads the
#   validating worker waited for, with the wall seconds it waited, and the
#   bytes it asked the browser for (blocks read ahead and never used, or
#   read again, included), and in how many browser reads. The page's JSON
#   report of the last run must equal `hpcvet --format=json` (a warning
#   otherwise).
#
# usage: bench/web.sh [BUILD_DIR]
# environment: WEB_SIZE (MiB per input, default 256; 1024 for the 1 GiB row),
# RUNS (default 3), FORMATS (default "hpctoolkit ovni-trace", bench/lib.sh's
# generators), WEB_MODES (default "read-ahead"), BENCH_DIR (kept and reused
# when given), PYTHON (a python3 with selenium), WEB_THREADS=1 (also print,
# for the last run of each, the CPU seconds by thread: where the time goes),
# WEB_CPU_BY_PROCESS=1 (after the table, for the last run of each, the CPU
# seconds of each of Chromium's processes and of its busiest threads, from
# /proc/PID/stat and /proc/PID/task/*/stat before and after the validation,
# the bytes the browser process read, the page's streams and chunks),
# WEB_CHROMIUM_FLAGS (Chromium's flags, default "--headless=new --no-sandbox
# --disable-gpu --disable-dev-shm-usage").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
size=${WEB_SIZE:-256}
runs=${RUNS:-3}
py=${PYTHON:-/usr/bin/python3}
hv=$build/hpcvet
gen=$build/hpcvet-gen
[ -x "$hv" ] && [ -x "$gen" ] || { echo "build $build first (make)" >&2; exit 2; }
hv_abs=$(realpath "$hv")
[ -f "$build/web/hpcvet.wasm" ] || { echo "build the page first (make web)" >&2; exit 2; }
"$py" -c 'import selenium' 2>/dev/null || { echo "$py has no selenium (Debian: python3-selenium)" >&2; exit 2; }
source bench/lib.sh
bench_workdir
: >"$dir/by-process.txt"

echo "# the web page vs hpcvet -q -j1; $runs rounds (CLI, then the page in each mode; medians); load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "| input | MiB | hpcvet -j1 wall s | CPU s | peak RSS MiB | page reads by | page wall s | CPU s | page / CLI wall (rounds' range) | CPU | page peak memory MiB | wasm memory MiB | read-ahead buffer MiB | waits for reads (s) | MiB read | runs (browser reads) | exit (CLI, page) |"
echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for fmt in ${FORMATS:-hpctoolkit ovni-trace}; do
	in=$(bench_generate "$fmt" "$(bench_param "$fmt" "$size")" "$dir/$fmt")
	mb=$(mib "$(bytes_of "$in")")
	# the command line and the page in turn (CLI, each mode, CLI, ...), so
	# that a drift in the machine's speed hits both alike: the ratio is
	# the median of each round's page / CLI
	modes=(${WEB_MODES:-read-ahead})
	rm -f "$dir/cli.log"
	for mode in "${modes[@]}"; do : >"$dir/page.$mode.log"; done
	for ((i = 0; i < runs; i++)); do
		set +e
		timed "$dir/cli.log" "$hv" -q -j1 "$in"
		set -e
		for mode in "${modes[@]}"; do
			case $mode in
			JSPI) flags=(--read=jspi) ;; # blocks handed over by the reader worker, the module suspended while it waits
			FileReaderSync) flags=(--plain --read=sync) ;;
			*) flags=(--read=ahead) ;; # read ahead into shared memory, the worker waiting by Atomics.wait
			esac
			[ "${WEB_THREADS:-0}" = 1 ] && [ "$i" = $((runs - 1)) ] && flags+=(--threads)
			if [ "${WEB_CPU_BY_PROCESS:-0}" = 1 ] && [ "$i" = $((runs - 1)) ]; then
				echo "## $fmt, $mode, the last run" >>"$dir/by-process.txt"
				"$py" bench/web_page.py "$build/web" "$in" "${flags[@]}" --by-process --json="$dir/page.json" \
					>>"$dir/page.$mode.log" 2>>"$dir/by-process.txt"
			else
				"$py" bench/web_page.py "$build/web" "$in" "${flags[@]}" --json="$dir/page.json" >>"$dir/page.$mode.log"
			fi
		done
	done
	cli_wall=$(column_median "$dir/cli.log" 1)
	CLI_CPU=$(column_median "$dir/cli.log" 2)
	cli_rss=$(awk '{ print $3 }' "$dir/cli.log" | sort -n | tail -1 | awk '{ printf "%.1f", $1 / 1024 }')
	cli_exit=$(awk '{ print $4 }' "$dir/cli.log" | sort -n | tail -1)
	# the page's report must be the command line's (run, as the page
	# names the input, from its folder)
	(cd "$(dirname "$in")" && "$hv_abs" --format=json -j1 "$(basename "$in")" >"$dir/cli.json") || true
	"$py" -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
		"$dir/page.json" "$dir/cli.json" || echo "warning: the page's JSON report of $fmt differs from the command line's" >&2
	for mode in "${modes[@]}"; do
		log=$dir/page.$mode.log
		got=$(awk '{ print $8 }' "$log" | sort -u | tr '\n' ' ')
		[ "${got% }" = "$mode" ] || echo "warning: the page read by ${got% }, $mode expected" >&2
		page_wall=$(column_median "$log" 1)
		page_cpu=$(column_median "$log" 7)
		page_reads=$(column_median "$log" 5)
		page_read_s=$(column_median "$log" 6)
		page_exit=$(awk '{ print $2 }' "$log" | sort -u | tr '\n' ' ')
		wasm=$(awk '{ print $3 }' "$log" | sort -g | tail -n 1)
		rend=$(awk '{ print $4 }' "$log" | sort -g | tail -n 1)
		shared=$(awk '{ print $9 }' "$log" | sort -g | tail -n 1)
		readmib=$(column_median "$log" 10)
		asks=$(column_median "$log" 11)
		opens=$(column_median "$log" 12)
		# each round's page / CLI, wall and CPU; their medians and range
		paste -d' ' "$log" "$dir/cli.log" | awk '{ print $1 / $13, $7 / $14 }' >"$dir/ratio.log"
		ratio=$(column_median "$dir/ratio.log" 1)
		cratio=$(column_median "$dir/ratio.log" 2)
		range=$(sort -g "$dir/ratio.log" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f-%.1f", lo, hi }')
		echo "| $fmt | $mb | $(printf %.2f "$cli_wall") | $(printf %.2f "$CLI_CPU") | $cli_rss | ${got% } | $page_wall | $page_cpu |" \
			"$(printf %.1f "$ratio")x ($range) | $(printf %.1f "$cratio")x | $rend | $wasm | $shared | $page_reads ($page_read_s) | $readmib | $asks ($opens) | $cli_exit, ${page_exit% } |"
	done
done
if [ -s "$dir/by-process.txt" ]; then
	echo
	echo "# CPU seconds by process and thread, from the pick to the report"
	cat "$dir/by-process.txt"
fi
