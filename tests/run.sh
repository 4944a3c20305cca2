#!/usr/bin/env bash
# Runs every test program and shell test against each build directory given
# (build, build-san), and prints one closing line: "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
total_pass=0
total_fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_one() { # name, command...
	local name=$1
	shift
	local t0=$SECONDS
	"$@" >"$log" 2>&1
	local rc=$?
	local secs=$((SECONDS - t0))
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	local p=0 f=0
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	fi
	# A crash or a non-zero exit without a counted failure is a failure too.
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$f" -ne 0 ]; then
		echo "--- $name: $p passed, $f failed (exit $rc, ${secs}s)"
		grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log" | head -n 60
	else
		echo "ok  $name: $p passed${line#*failed} (${secs}s)"
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

for build in "$@"; do
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] || continue
		run_one "$build/$(basename "$t")" "$t"
	done
	for s in tests/*.test.sh; do
		[ -f "$s" ] || continue
		run_one "$build/$(basename "$s")" bash "$s" "$build"
	done
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
