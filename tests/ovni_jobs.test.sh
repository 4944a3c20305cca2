#!/usr/bin/env bash
# ovni traces under -j: a loom's event-model replay is the split replay
# (ovni/model/split.c: each stream's own checks in chunks on any thread, the
# events the threads share merged by clock on one; any failure replays the
# loom the one-thread way), and the report must not show it. Each trace tree
# is validated alone, and its JSON report (--strict, every diagnostic with
# its message) must be byte-identical at -j1, -j2, -j4 and at -j2 with
# HPCVET_OVNI_SPLIT=0 ("2s": the one-thread replay), with the same exit code, for:
#   - every ovni trace tree of the golden corpus (golden/cases/ovni/*.d);
#     single-file cases have no model and go in one call per -j;
#   - every shared real ovni trace (skipped, and counted, without ../shared);
#   - generated runtime-shaped traces (one loom, ten streams, the shape of
#     users' traces) of several lengths, and one with a stream cut short;
# and under hpcvet-mpi (mpirun -np 2, the inputs spread over the ranks) as
# at -j1, where hpcvet-mpi and mpirun exist. The sanitizer build takes every
# 4th golden tree and every 4th sample. Timing is never asserted here.
source "$(dirname "$0")/lib.sh"

# same_jobs DESCRIPTION INPUT...: -j1, -j2, -j4 give one report
same_jobs() {
	local desc=$1
	shift
	"$HPCVET" -j1 --format=json --strict "$@" >"$TMP/j1" 2>&1
	local rc1=$? j
	# -j2, -j4, and -j2 with the split replay switched off
	for j in 2 4 2s; do
		HPCVET_OVNI_SPLIT=$([ "$j" = 2s ] && echo 0 || echo 1) "$HPCVET" -j"${j%s}" --format=json --strict "$@" >"$TMP/jn" 2>&1
		local rcn=$?
		if [ "$rc1" -eq "$rcn" ] && cmp -s "$TMP/j1" "$TMP/jn"; then ok; else
			not_ok "$desc: -j1 and -j$j differ (exit $rc1 vs $rcn)"
			diff "$TMP/j1" "$TMP/jn" | head -5
		fi
	done
}

sample=1
is_san_build && sample=4
mapfile -t trees < <(ls -d "$ROOT"/golden/cases/ovni/*.d | san_sample $sample)
mapfile -t files < <(ls "$ROOT"/golden/cases/ovni/* | grep -v -e '\.expect\.json$' -e '\.d$')
check "golden ovni trace trees present (${#trees[@]})" test "${#trees[@]}" -gt 10
for d in "${trees[@]}"; do same_jobs "golden ${d##*/}" "$d"; done
same_jobs "golden ovni single files (${#files[@]})" "${files[@]}"
all=("${trees[@]}")

samples=()
if [ -d "$SHARED/real-samples/ovni" ]; then
	mapfile -t samples < <(ls -d "$SHARED"/real-samples/ovni/*/ | san_sample $sample)
	for d in "${samples[@]}"; do same_jobs "sample ${d%/}" "$d"; done
	all+=("${samples[@]}")
else
	skip "$SHARED/real-samples/ovni not present (set HV_SHARED to the shared folder)"
fi

lens=(50 2000 40000)
is_san_build && lens=(50 2000)
for len in "${lens[@]}"; do
	"$GEN" --what=ovni-trace-runtime --trace-len="$len" --seed="$len" -o "$TMP/rt$len" >/dev/null
	same_jobs "runtime-shaped trace, $len events per worker" "$TMP/rt$len"
	all+=("$TMP/rt$len")
done
# a stream cut inside an event: its checks stop its replay midway
cp -r "$TMP/rt2000" "$TMP/cut"
obs=$(ls "$TMP"/cut/loom.*/proc.*/thread.*/stream.obs | sed -n 3p)
truncate -s $(($(stat -c %s "$obs") / 2 + 5)) "$obs"
same_jobs "runtime-shaped trace with a stream cut short" "$TMP/cut"
"$HPCVET" -j2 "$TMP/cut" >/dev/null 2>&1
check "the cut trace is nonconforming" test $? -eq 1
all+=("$TMP/cut")

if have_mpi; then
	"$HPCVET" -j1 --format=json --strict "${all[@]}" >"$TMP/ref" 2>/dev/null
	rc1=$?
	"${MPIRUN[@]}" -np 2 "$MPI" --format=json --strict "${all[@]}" >"$TMP/mpi" 2>"$TMP/mpi.err"
	rc2=$?
	if [ "$rc1" -eq "$rc2" ] && cmp -s "$TMP/ref" "$TMP/mpi"; then ok; else
		not_ok "hpcvet-mpi -np 2 differs from -j1 on ${#all[@]} ovni traces (exit $rc1 vs $rc2)"
		diff "$TMP/ref" "$TMP/mpi" | head -5
		head -5 "$TMP/mpi.err"
	fi
else
	skip "hpcvet-mpi not built (no mpicc, or the sanitizer build) or no mpirun"
fi
done_testing
