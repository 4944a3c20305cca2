#!/usr/bin/env bash
# `make bench-python` (not part of `make test`): what validating through the
# Python package (python/hpcvet, ctypes over libhpcvet.so.0) costs beside
# the hpcvet program, on the same input in the same run.
#
#   1. Python's fixed cost: CPU time of `python3 -c 'import hpcvet'`, beside
#      the interpreter's own (`python3 -c pass`).
#   2. Per input: CPU time (user + sys, whole process, start-up included) of
#      `hpcvet -q -j1 INPUT` and of `python3 -c 'hpcvet.validate(INPUT)'`
#      (jobs=1), run in turn A B A B ... RUNS times (paired: the ratio is the
#      median of the per-pair ratios, which holds while the shared machine's
#      speed drifts). The validation's own CPU time inside Python
#      (time.process_time around validate()) is printed beside it.
#   3. 10,000 validations of a small meta.db in one process: RSS after 1,000
#      and after 10,000.
#
# usage: bench/python.sh [BUILD_DIR]
# environment: BENCH_SIZE (MiB per input, default 1024), FORMATS (default
# "dumpi ovni-mix hpctoolkit"), RUNS (default 5), BENCH_DIR (kept and reused
# when given), PYTHON (default /usr/bin/python3, Debian's).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
size=${BENCH_SIZE:-1024}
runs=${RUNS:-5}
formats=${FORMATS:-dumpi ovni-mix hpctoolkit}
py=${PYTHON:-/usr/bin/python3}
hv=$build/hpcvet
gen=$build/hpcvet-gen
[ -x "$hv" ] && [ -x "$gen" ] && [ -e "$build/libhpcvet.so.0" ] || { echo "build $build first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is needed" >&2; exit 2; }
export HPCVET_LIBRARY=$PWD/$build/libhpcvet.so.0 PYTHONPATH=$PWD/python PYTHONDONTWRITEBYTECODE=1
source bench/lib.sh
bench_workdir
[ "$have_perf" = 1 ] && cpu_src="perf stat task-clock" || cpu_src="GNU time (1/100 s)"

# The Python side: validate once (jobs=1), print the validation's own CPU
# seconds on stderr, exit with the verdict as the program does.
read -r -d '' PY_RUN <<'PYEOF' || true
import sys, time
import hpcvet
t = time.process_time()
r = hpcvet.validate(sys.argv[1])
print(f"{time.process_time() - t:.6f}", file=sys.stderr)
sys.exit(int(r.verdict))
PYEOF

cpu_of() { tail -1 "$1" | awk '{ print $2 }'; }

echo "# hpcvet through Python vs the hpcvet program; CPU: $cpu_src; $runs paired runs; load $(cut -d' ' -f1-3 /proc/loadavg)"
bare=$(mktemp) log=$(mktemp)
for _ in $(seq "$runs"); do
	timed "$bare" "$py" -c pass
	timed "$log" "$py" -c 'import hpcvet'
done
ms() { column_median "$1" 2 | awk '{ printf "%.1f", $1 * 1000 }'; }
echo "start-up, CPU ms (median): python3 -c pass $(ms "$bare"), python3 -c 'import hpcvet' $(ms "$log")"
rm -f "$bare" "$log"
echo
echo "| input | MiB | hpcvet CPU s | Python CPU s | Python/hpcvet (paired median) | validate() in Python, CPU s |"
echo "|---|---:|---:|---:|---:|---:|"
for fmt in $formats; do
	in=$(bench_generate "$fmt" "$(bench_param "$fmt" "$size")" "$dir/$fmt")
	cat $(find "$in" -type f) >/dev/null # page cache
	a=$(mktemp) b=$(mktemp) inner=$(mktemp)
	for _ in $(seq "$runs"); do
		timed "$a" "$hv" -q -j1 "$in"
		timed "$b" "$py" -c "$PY_RUN" "$in" 2>>"$inner"
	done
	ra=$(column_median "$a" 2)
	rb=$(column_median "$b" 2)
	ratio=$(paste "$a" "$b" | awk '{ print $6 / $2 }' | median)
	ein=$(awk '{ print $4 }' "$a" | sort -u | tr '\n' ' ') eb=$(awk '{ print $4 }' "$b" | sort -u | tr '\n' ' ')
	[ "$ein" = "$eb" ] || echo "exit codes differ: hpcvet $ein, Python $eb" >&2
	printf '| %s | %s | %.3f | %.3f | %.3f | %.3f |\n' "$fmt" "$(mib "$(bytes_of "$in")")" "$ra" "$rb" "$ratio" \
		"$(median <"$inner")"
	rm -f "$a" "$b" "$inner"
done
echo
"$gen" --what=metadb --break=metadb.hdr.footer -o "$dir/small.db" >/dev/null
"$py" - "$dir/small.db" <<'PYEOF'
import sys, hpcvet
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
data = open(sys.argv[1], "rb").read()
marks = {}
for i in range(1, 10_001):
    with hpcvet.validate_bytes(data, "meta.db") as r:
        assert r.errors == 1
    if i in (1, 1_000, 10_000):
        marks[i] = rss()
print(f"10,000 validations of a {len(data)}-byte meta.db in one process: RSS {marks[1] / 1024:.1f} MiB after 1, "
      f"{marks[1_000] / 1024:.1f} MiB after 1,000, {marks[10_000] / 1024:.1f} MiB after 10,000")
PYEOF
