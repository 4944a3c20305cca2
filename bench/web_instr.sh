#!/usr/bin/env bash
# The web page's module beside the CLI in instructions (callgrind), on one
# generated input: repeatable on a loaded machine, where wall times are not.
# The module runs in Node (bench/web_cpu.js, the same V8 as Chromium, with
# --no-liftoff so that every function is compiled by TurboFan, as a long
# validation in the page ends up); its count is that of 3 validations less
# that of 1, halved, so that Node's start-up and the compilation are left
# out. The CLI is counted once, -q -j1. bench/RESULTS.md, "Web page": "The
# module on a database".
#
# usage: bash bench/web_instr.sh [BUILD] [INPUT]
#   BUILD: the build folder (default build; make and make web first)
#   INPUT: a database or trace; default a generated 33 MiB database (2
#          profiles, 10,000 contexts, 12 metrics, trace length 20,000,
#          postorder ctxIds) in $BENCH_DIR or a temporary folder
# Needs valgrind and Node (Debian: valgrind nodejs). About 10 minutes on
# the default input.
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
hv=$build/hpcvet
wasm=$build/web/hpcvet.wasm
[ -x "$hv" ] && [ -f "$wasm" ] || { echo "build $build first (make && make web)" >&2; exit 2; }
command -v valgrind >/dev/null && command -v node >/dev/null || { echo "needs valgrind and node" >&2; exit 2; }
bench_workdir
input=${2:-}
if [ -z "$input" ]; then
	input=$dir/db33
	[ -d "$input" ] || "$build/hpcvet-gen" --what=hpctoolkit-db --profiles=2 --contexts=10000 --metrics=12 \
		--trace-len=20000 --ctx-ids=postorder -o "$input" >/dev/null
fi
# collected INSTRUCTIONS of a callgrind log
collected() { grep -o 'Collected : [0-9]*' "$1" | awk '{ print $3 }'; }
for n in 1 3; do
	REPEAT=$n valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=/dev/null \
		node --no-liftoff --single-threaded "$here/web_cpu.js" "$wasm" "$input" >"$dir/module$n.log" 2>&1
done
valgrind --tool=callgrind --callgrind-out-file=/dev/null "$hv" -q -j1 "$input" >"$dir/cli.log" 2>&1 || true
one=$(collected "$dir/module1.log")
three=$(collected "$dir/module3.log")
cli=$(collected "$dir/cli.log")
awk -v a="$one" -v b="$three" -v c="$cli" -v inp="$input" 'BEGIN {
	m = (b - a) / 2
	printf "%s: module %.1f M instructions a validation, CLI %.1f M: %.2fx\n", inp, m / 1e6, c / 1e6, m / c
}'
