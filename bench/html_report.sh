#!/usr/bin/env bash
# `make bench-html` (not part of `make test`): the HTML report of a wide DUMPI
# trace with findings on every rank. hpcvet-gen writes a stencil3d trace of
# RANKS ranks over 400,000 s, so every rank's u16 seconds wrap: ~8.4
# dumpi.time.* findings a rank (12,000 ranks: ~100,000 diagnostics), all
# kept (--max-per-rule=0). Measures the JSON and HTML reports' sizes and
# the wall time and peak RSS of each run (/usr/bin/time), then opens the
# page in headless Chromium (tests/html_report.py, "big": the page opens,
# its rows are the JSON report's, a rule filter shows that rule's rows) and
# prints the time to open and to filter.
#
# usage: bench/html_report.sh [BUILD_DIR]
# environment: RANKS (default 12000), BENCH_DIR (kept and reused when given).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
ranks=${RANKS:-12000}
hv=$build/hpcvet
dir=${BENCH_DIR:-$(mktemp -d)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"
[ -d "$dir/wide-$ranks" ] || "$build/hpcvet-gen" --what=dumpi-trace --pattern=stencil3d --profiles="$ranks" \
	--trace-len=400000 -o "$dir/wide-$ranks"
opts=(-j2 --max-per-rule=0 --max-diagnostics=10000000)
for f in json html; do
	/usr/bin/time -f "%e %M" -o "$dir/$f.time" "$hv" "${opts[@]}" --format=$f "$dir/wide-$ranks" >"$dir/wide.$f" || true
done
n=$(jq '[.inputs[].diagnostics[]] | length' "$dir/wide.json")
echo "| ranks | diagnostics | JSON MB | HTML MB | HTML bytes a diagnostic | hpcvet --format=html s, peak MiB | load |"
echo "|---:|---:|---:|---:|---:|---:|---|"
read -r hs hk < <(tail -n 1 "$dir/html.time")
awk -v r="$ranks" -v n="$n" -v j="$(stat -c %s "$dir/wide.json")" -v h="$(stat -c %s "$dir/wide.html")" \
	-v s="$hs" -v k="$hk" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
	'BEGIN { printf "| %s | %s | %.1f | %.1f | %.0f | %s s, %.0f MiB | %s |\n", r, n, j / 1e6, h / 1e6, h / n, s, k / 1024, l }'
printf '%s\t%s\tbig\n' "$dir/wide.html" "$dir/wide.json" >"$dir/list.tsv"
/usr/bin/python3 tests/html_report.py "$dir/list.tsv"
