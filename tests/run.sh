#!/usr/bin/env bash
# Runs every test program and shell test against each build directory given
# (build, build-san), and prints one closing line: "N passed, N failed", with
# ", N skipped" and the list of what was skipped and why when a test could
# not run a part (real samples absent: HV_SHARED names the shared folder).
# Tests run TEST_JOBS at a time (default: one more than the number of
# cores, at most 4: the mpirun tests wait a good part of their time, and a
# test beside them takes the core they leave);
# each writes its own log and the results are printed in a fixed order, so
# the output is the same whatever the parallelism. HPCVET_TEST_TIMES=1: also
# the 15 tests that took the most CPU time (.ci/run asks for them).
set -u
cd "$(dirname "$0")/.."
# One test more than cores: on 2 cores, 2 at a time, the suite left cores
# idle while mpi.test.sh and changed.test.sh waited on mpirun's start-up and
# its ranks' hand-offs. (The browser tests wait less than their CPU figure
# suggests: Chromium's processes are not reaped through the test's process
# tree, so the CPU that `time` reports for them misses about 60% of theirs,
# measured with a cgroup around tests/web.test.sh.)
jobs=${TEST_JOBS:-$(($(nproc 2>/dev/null || echo 2) + 1))}
[ "$jobs" -gt 4 ] && jobs=4
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# run_index I: runs test I of the list into $logs/I.{log,rc,secs}.
run_index() {
	local i=$1 name cmd
	IFS=$'\t' read -r _ name cmd _ < <(awk -F'\t' -v i="$i" '$1 == i' "$logs/list")
	local t0=$SECONDS TIMEFORMAT='%U %S'
	# Wall seconds and CPU seconds (user + system, children included): on a
	# loaded machine the CPU figure is the one that says what a test costs.
	# shellcheck disable=SC2086
	{ time $cmd >"$logs/$i.log" 2>&1; } 2>"$logs/$i.cpu"
	echo $? >"$logs/$i.rc"
	local cpu
	cpu=$(tail -n 1 "$logs/$i.cpu" | awk '{printf "%.1f", $1 + $2}')
	echo "$((SECONDS - t0))s, cpu $(printf '%.0f' "$cpu")s" >"$logs/$i.secs"
	echo "$cpu $((SECONDS - t0))" >"$logs/$i.cost"
}
export -f run_index
export logs

i=0
: >"$logs/list"
b=0
for build in "$@"; do
	b=$((b + 1))
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] || continue
		i=$((i + 1))
		printf '%s\t%s\t%s\t%s\n' "$i" "$build/$(basename "$t")" "$t" "$b" >>"$logs/list"
	done
	for s in tests/*.test.sh; do
		[ -f "$s" ] || continue
		i=$((i + 1))
		printf '%s\t%s\t%s\t%s\n' "$i" "$build/$(basename "$s")" "bash $s $build" "$b" >>"$logs/list"
	done
done
ntests=$i
start=$SECONDS
# Longest first, so that the run does not end on one long test while the
# other cores idle: the tests that take the longest (wall seconds of one
# test in CI, HPCVET_TEST_TIMES=1: the browser tests, the dumps, then
# mpirun's, which wait half their time), then the other shell tests, the
# last build's (the sanitizer build, the slow one) first, then the test
# programs, which take a second or two each (test_hostile, named here,
# nearly a minute under ASan).
slow_first="html_report web dump mpi fuzz_regress test_hostile changed python dumpi_mpi reader_matrix golden_reader mpi_share jobs"
rank_of() { # name (BUILD/NAME): its place in slow_first, else 99
	local k=0 t
	for t in $slow_first; do
		case ${1##*/} in "$t.test.sh" | "$t") echo "$k" && return ;; esac
		k=$((k + 1))
	done
	echo 99
}
while IFS=$'\t' read -r i name _ b; do
	case $name in *.test.sh) kind=0 ;; *) kind=1 ;; esac
	printf '%s\t%s\t%s\t%s\n' "$(rank_of "$name")" "$kind" "$b" "$i"
done <"$logs/list" | sort -t "$(printf '\t')" -k1,1n -k2,2n -k3,3nr -k4,4n | cut -f4 |
	xargs -P "$jobs" -I{} bash -c 'run_index {}'

total_pass=0
total_fail=0
total_skip=0
: >"$logs/skips"
while IFS=$'\t' read -r i name _ _; do
	rc=$(cat "$logs/$i.rc" 2>/dev/null || echo 127)
	secs=$(cat "$logs/$i.secs" 2>/dev/null)
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$i.log" | tail -n 1)
	p=0 f=0
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	fi
	# A crash or a non-zero exit without a counted failure is a failure too.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$f" -ne 0 ]; then
		echo "--- $name: $p passed, $f failed (exit $rc, $secs)"
		grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$i.log" | head -n 60
	else
		echo "ok  $name: $p passed${line#*failed} ($secs)"
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	# skipped parts: counted from the closing line, named by the test's "skipping: WHY" lines
	sk=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
	if [ -n "$sk" ] && [ "$sk" -gt 0 ]; then
		total_skip=$((total_skip + sk))
		grep -E '^skipping: ' "$logs/$i.log" | sed "s|^skipping: |  $name: |" >>"$logs/skips"
	fi
done <"$logs/list"
echo "# $ntests tests, $jobs at a time, $((SECONDS - start))s wall"
if [ "${HPCVET_TEST_TIMES:-0}" = 1 ]; then
	echo "# the 15 tests that took the most CPU time (cpu s, wall s):"
	while IFS=$'\t' read -r i name _ _; do
		read -r cpu wall <"$logs/$i.cost" 2>/dev/null && printf '%s\t%s\t%s\n' "$cpu" "$wall" "$name"
	done <"$logs/list" | sort -t "$(printf '\t')" -k1,1gr -k2,2nr | head -n 15 |
		awk -F'\t' '{ printf "#   %7.1f %5d  %s\n", $1, $2, $3 }'
fi
if [ "$total_skip" -gt 0 ]; then
	echo "# skipped ($total_skip):"
	cat "$logs/skips"
	echo "$total_pass passed, $total_fail failed, $total_skip skipped"
else
	echo "$total_pass passed, $total_fail failed"
fi
[ "$total_fail" -eq 0 ]
