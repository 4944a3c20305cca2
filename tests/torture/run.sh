#!/usr/bin/env bash
# Torture: hpcvet under one fault at a time (`make torture`; a shortened
# form runs in make test as tests/torture.test.sh). For each input, hpcvet
# first runs without a fault, with tests/torture/faultinject.so counting its
# calls of one kind; then once per fault point k (every k, or every
# stride-th when there are more than the cap), with the k-th call failing:
#   alloc   the k-th malloc/calloc/realloc/posix_memalign/aligned_alloc of
#           the process, libraries' (cJSON, libyaml, libcrypto, libc) included
#   eio / short / eintr
#           the k-th read or pread fails with EIO, returns half the bytes
#           asked, or fails with EINTR
#   thread  the k-th pthread_create fails with EAGAIN (runs at -j2)
#   hook    the k-th allocation through core/alloc.h fails, by its test
#           hook (HPCVET_TEST_FAIL_ALLOC: sanitizer builds only, where
#           LD_PRELOAD cannot replace the sanitizer's allocator, and where a
#           leak on the fault path ends the run with LeakSanitizer's exit
#           code: a CRASH here)
# Every run is classified against the unfaulted one:
#   identical  the same exit code and byte-identical JSON report
#   honest     exit 3 (unreadable) or 4 (internal error)
#   DIFFERENT  exit 0/1 with another report or exit code: a verdict from a
#              check that was not complete
#   CRASH      a signal, a hang (timeout) or an exit code outside 0/1/3/4
# Pass: 0 different and 0 crashes. The table goes to stdout, one row per
# input and fault kind.
#
# usage: run.sh BUILD [full|short]
#   full   every listed input, at most TORTURE_CAP (default 100) fault
#          points per input and kind
#   short  a few inputs of each family, at most TORTURE_CAP (default 24)
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${1:-build}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
MODE=${2:-full}
HPCVET="$BUILD/hpcvet"
INJECT="$BUILD/torture/faultinject.so"
SHARED=${HV_SHARED:-$ROOT/../shared}
SAMPLES="$SHARED/real-samples"
G="$ROOT/golden/cases"
if [ "$MODE" = short ]; then CAP=${TORTURE_CAP:-24}; else CAP=${TORTURE_CAP:-100}; fi
KINDS=${TORTURE_KINDS:-alloc eio short eintr thread}
# TORTURE_ARGS: more options for every run, e.g. --certify (the certificate,
# whose SHA-256 libcrypto computes, must be the unfaulted one or absent).
read -r -a ARGS <<<"${TORTURE_ARGS:-}"
[ -x "$HPCVET" ] && { [ "$KINDS" = hook ] || [ -f "$INJECT" ]; } || { echo "torture: build $HPCVET and $INJECT first (make torture)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Inputs: a valid and an invalid case of each family and edition.
inputs=()
if [ "$MODE" = short ]; then
	inputs+=("$G/hpctoolkit/y_hpctoolkit-db.release.4.0_s1.d" "$G/hpctoolkit/n_hpctkdb.values.execution_01.d"
		"$G/hpctoolkit/y_hpctkdb.taxonomy.hatchet_01.d"
		"$G/ovni/y_ovni-trace.v3_s1.d" "$G/ovni/n_ovni.model.body-nest_01.d"
		"$G/dumpi/i_dumpi.mpi.send-unmatched_01.d" "$G/dumpi/y_dumpi-trace.8.1.0_s1.d")
else
	inputs+=("$G/hpctoolkit/y_hpctoolkit-db.draft.4.0_s1.d" "$G/hpctoolkit/y_hpctoolkit-db.draft.4.2.d"
		"$G/hpctoolkit/y_hpctoolkit-db.release.4.0_s1.d" "$G/hpctoolkit/y_hpctoolkit-db.release.4.2.d"
		"$G/hpctoolkit/n_hpctkdb.values.execution_01.d" "$G/hpctoolkit/n_hpctkdb.cct.ctx-covered_01.d"
		"$G/hpctoolkit/y_metadb.release.4.0_s1.db" "$G/hpctoolkit/y_metadb.draft.4.1.db"
		"$G/hpctoolkit/y_hpctkdb.taxonomy.hatchet_01.d" "$G/hpctoolkit/n_hpctkdb.taxonomy.alias_01.d"
		"$G/ovni/y_ovni-trace.v3_s1.d" "$G/ovni/y_ovni-trace.v2_s1.d" "$G/ovni/y_ovni-trace.v1.header.d"
		"$G/ovni/n_ovni.model.body-nest_01.d" "$G/ovni/n_ovni.json.root-object_01.d"
		"$G/dumpi/y_dumpi-trace.8.1.0_s1.d" "$G/dumpi/y_dumpi-trace.mpich.d"
		"$G/dumpi/i_dumpi.mpi.send-unmatched_01.d" "$G/dumpi/n_dumpi.bin.truncated_01.bin")
	for s in hpctoolkit/small.d ovni/nanos6-nested-tasks dumpi/libdumpi-lammps-lj-np4; do
		if [ -e "$SAMPLES/$s" ]; then inputs+=("$SAMPLES/$s"); else echo "skipping: real sample $SAMPLES/$s not present"; fi
	done
fi

# run_once KIND AT JOBS INPUT OUT: hpcvet under the injector; prints the exit code.
run_once() {
	local kind=$1 at=$2 jobs=$3 input=$4 out=$5 mode=eio
	if [ "$kind" = hook ]; then
		HPCVET_TEST_FAIL_ALLOC=$at HPCVET_TEST_ALLOC_COUNT="$TMP/count" \
			timeout 120 "$HPCVET" -j"$jobs" "${ARGS[@]}" --format=json "$input" >"$out" 2>"$out.err"
		echo $?
		return
	fi
	case "$kind" in eio | short | eintr) mode=$kind kind=read ;; esac
	# env, not the shell, loads the injector: timeout itself runs without it
	HV_FAULT_KIND=$kind HV_FAULT_AT=$at HV_FAULT_READ=$mode HV_FAULT_COUNT="$TMP/count" \
		timeout 60 env LD_PRELOAD="$INJECT" "$HPCVET" -j"$jobs" "${ARGS[@]}" --format=json "$input" >"$out" 2>"$out.err"
	echo $?
}

printf '%-46s %-9s %7s %6s %6s %6s %9s %7s\n' input fault calls tried same honest DIFFERENT CRASH
tot_tried=0 tot_diff=0 tot_crash=0
for input in "${inputs[@]}"; do
	[ -e "$input" ] || { echo "torture: missing input $input" >&2; tot_crash=$((tot_crash + 1)); continue; }
	name=$(basename "$input")
	for kind in $KINDS; do
		jobs=1
		[ "$kind" = thread ] && jobs=2
		rm -f "$TMP/count"
		base_rc=$(run_once "$kind" 0 "$jobs" "$input" "$TMP/base")
		calls=$(cat "$TMP/count" 2>/dev/null || echo 0)
		stride=$(((calls + CAP - 1) / CAP))
		[ "$stride" -lt 1 ] && stride=1
		tried=0 same=0 honest=0 diff=0 crash=0
		for ((k = 1; k <= calls; k += stride)); do
			rc=$(run_once "$kind" "$k" "$jobs" "$input" "$TMP/out")
			tried=$((tried + 1))
			if grep -qE 'ERROR: (Leak|Address)Sanitizer|runtime error:' "$TMP/out.err"; then
				crash=$((crash + 1)) # a leak on the fault path, or worse
				echo "CRASH: $name $kind k=$k: the sanitizer reports" >&2
				grep -m1 -A12 'Sanitizer\|runtime error' "$TMP/out.err" >&2
			elif [ "$rc" -eq "$base_rc" ] && cmp -s "$TMP/base" "$TMP/out"; then
				same=$((same + 1))
			elif [ "$rc" -eq 3 ] || [ "$rc" -eq 4 ]; then
				honest=$((honest + 1))
			elif [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; then
				diff=$((diff + 1))
				echo "DIFFERENT: $name $kind k=$k: exit $rc (unfaulted $base_rc)" >&2
				diff <(tr ',' '\n' <"$TMP/base") <(tr ',' '\n' <"$TMP/out") | head -6 >&2
			else
				crash=$((crash + 1))
				echo "CRASH: $name $kind k=$k: exit $rc" >&2
				tail -3 "$TMP/out.err" >&2
			fi
		done
		label=$kind
		[ "$stride" -gt 1 ] && label="$kind/$stride"
		printf '%-46s %-9s %7s %6s %6s %6s %9s %7s\n' "${name:0:46}" "$label" "$calls" "$tried" "$same" "$honest" \
			"$diff" "$crash"
		tot_tried=$((tot_tried + tried)) tot_diff=$((tot_diff + diff)) tot_crash=$((tot_crash + crash))
	done
done
echo "torture: $tot_tried faults tried, $tot_diff different, $tot_crash crashes"
[ "$tot_diff" -eq 0 ] && [ "$tot_crash" -eq 0 ]
