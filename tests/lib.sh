# Shared helpers for the shell tests (*.test.sh). Each test ends with
# `done_testing`, which prints the "N passed, N failed" line.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-build}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
HPCVET="$BUILD/hpcvet"
GEN="$BUILD/hpcvet-gen"
SHARED=${HV_SHARED:-$ROOT/../shared}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
skipped=0

ok() { passed=$((passed + 1)); }
not_ok() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { # description, command...
	local desc=$1
	shift
	if "$@"; then ok; else not_ok "$desc"; fi
}
# expect_exit CODE DESCRIPTION COMMAND... : the command exits with CODE
expect_exit() {
	local want=$1 desc=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else not_ok "$desc: exit $rc, want $want"; head -5 "$TMP/out" "$TMP/err"; fi
}
# Real samples live in ../shared, which a user's clone does not have: a test
# that needs DIR skips cleanly without it (a skip is neither pass nor fail).
need_samples() { # dir
	if [ ! -d "$1" ]; then
		echo "skipping: $1 not present (set HV_SHARED to the shared folder)"
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	fi
}
# hpcvet-mpi under mpirun, oversubscribed (more processes than cores), as
# root when root. have_mpi: it was built (not in the sanitizer build, nor
# without mpicc) and mpirun is found; need_mpi: the whole test skips without.
MPI="$BUILD/hpcvet-mpi"
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
# A private Open MPI temporary folder per test: each job's session folder
# lies under orte_tmpdir_base (Open MPI 4.1; prte_tmpdir_base in 5), else
# TMPDIR, else /tmp, and two jobs on one machine sharing it can collide
# ("File exists"). Inside $TMP, so it goes with the test.
mkdir -p "$TMP/ompi"
export OMPI_MCA_orte_tmpdir_base="$TMP/ompi" PRTE_MCA_prte_tmpdir_base="$TMP/ompi"
# A rank that waits for another yields its core, and no rank is bound to one.
# Open MPI yields only when a job has more ranks than cores, so -np 2 on two
# cores spun in every wait, pinned beside whatever else the machine runs: a
# corpus split over 2 ranks (one exchange an input) cost ~5 CPU-s, ~1.5 so.
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_hwloc_base_binding_policy=none
# A job whose rank 0 exits non-zero (hpcvet-mpi's exit 1 for a nonconforming
# input, 3 for an unreadable one) is aborted by mpirun, which then waits
# odls_base_sigkill_timeout seconds (default 1, once per signal) before it
# kills ranks that have already returned: 1-2 s of idle wall per such job,
# and most jobs of mpi.test.sh and changed.test.sh exit 1 or 3. The exit
# code mpirun returns is the same.
export OMPI_MCA_odls_base_sigkill_timeout=0
# hpcvet_once ARGS...: `hpcvet ARGS` into $TMP/ref, its exit code in $ref_rc,
# run once per argument list: the MPI tests compare the -j1 report of one
# input with hpcvet-mpi's at several rank counts.
hpcvet_once() {
	local key
	key=$(printf '%q ' "$@" | md5sum | cut -c1-32)
	mkdir -p "$TMP/once"
	if [ ! -f "$TMP/once/$key.rc" ]; then
		"$HPCVET" "$@" >"$TMP/once/$key.out" 2>/dev/null
		echo $? >"$TMP/once/$key.rc"
	fi
	cp "$TMP/once/$key.out" "$TMP/ref"
	ref_rc=$(cat "$TMP/once/$key.rc")
}
have_mpi() { [ -x "$MPI" ] && command -v mpirun >/dev/null 2>&1; }
need_mpi() {
	if ! have_mpi; then
		echo "skipping: $MPI not built or no mpirun"
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	fi
}
# skip REASON: a part of the test that cannot run here; tests/run.sh counts it
# and lists the reason under the closing line.
skip() {
	skipped=$((skipped + 1))
	echo "skipping: $*"
}
done_testing() {
	if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
	[ "$failed" -eq 0 ]
}
# need_browser WHAT: the tests in a real browser (the web page's) need
# Chromium, its driver and Python's Selenium; sets PY to a python3 that has
# Selenium, or skips WHAT, naming the missing Debian packages, and exits.
need_browser() {
	PY=
	for p in python3 /usr/bin/python3; do
		if command -v "$p" >/dev/null && "$p" -c 'import selenium' 2>/dev/null; then PY=$p && break; fi
	done
	local missing=""
	command -v chromium >/dev/null || missing="$missing chromium"
	[ -x /usr/bin/chromedriver ] || missing="$missing chromium-driver"
	[ -n "$PY" ] || missing="$missing python3-selenium"
	if [ -n "$missing" ]; then
		skip "$1: no$missing (Debian packages)"
		done_testing
		exit
	fi
}
# The sanitizer build (build-san) runs every shell test again at 5-10x the
# cost; a test looping over many inputs runs a sample of them there (the plain
# build keeps the whole set). is_san_build: true for an ASan build.
is_san_build() {
	nm "$BUILD/libhpcvet.so" 2>/dev/null | grep -q __asan
}
# san_sample N: in a sanitizer build, keep every Nth line of stdin (always the
# first); in a plain build, every line.
san_sample() { # n
	if is_san_build; then awk -v n="$1" '(NR - 1) % n == 0'; else cat; fi
}
