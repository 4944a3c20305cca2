#!/usr/bin/env bash
# DUMPI cross-rank findings under hpcvet-mpi: the report of `hpcvet -j1`,
# byte for byte, at -np 1, 2, 3 and 4 (and of `hpcvet -j2`), on traces whose
# cross-rank errors fall on many pairs of ranks, so that the two ends of a
# finding (a send and its missing receive, a collective and the members it
# disagrees with) were checked by different processes. The traces are two
# programs spliced: every STEP-th rank file of one generated trace replaced
# by the same rank's file of a trace of another seed, which leaves unmatched
# sends and receives, truncated messages and mismatched collectives between
# the replaced ranks and their peers all over the world. A wide one passes
# the layer's cap of 50 listed findings per rule (the "more ... not listed"
# line) and, with --max-diagnostics, the report's. Also: each trace under
# `ulimit -n 64` in every process. Skipped when hpcvet-mpi was not built.
source "$(dirname "$0")/lib.sh"
need_mpi
text=(--color=never --no-context)

# splice OUT RANKS STEP [RECORDS]: a trace of RANKS ranks (seed 1) whose rank
# files 3, 3 + STEP, ... are those of seed 2.
splice() {
	local out=$1 n=$2 step=$3 c=${4:-200} k f
	"$GEN" --what=dumpi-trace --profiles="$n" --contexts="$c" --seed=1 -o "$out" >/dev/null 2>&1 || return 1
	"$GEN" --what=dumpi-trace --profiles="$n" --contexts="$c" --seed=2 -o "$out.other" >/dev/null 2>&1 || return 1
	for ((k = 3; k < n; k += step)); do
		f=$(printf '%s-%04d.bin' "$(basename "$(ls "$out"/*.meta)" .meta)" "$k")
		cp "$out.other/$f" "$out/$f" || return 1
	done
	rm -rf "$out.other"
}
check "spliced trace of 48 ranks" splice "$TMP/t48" 48 7
check "spliced trace of 300 ranks" splice "$TMP/t300" 300 2
check "spliced trace of 6 ranks" splice "$TMP/t6" 6 2
# more ranks than one round of routed send channels (dumpi/mpi/part.c, ROUTE_RANKS)
check "spliced trace of 4,200 ranks" splice "$TMP/t4200" 4200 97 60

# same DESC NP ARGS...: hpcvet-mpi at -np NP writes hpcvet -j1's report and exit code.
same() {
	local desc=$1 np=$2
	shift 2
	hpcvet_once -j1 "$@"
	local rc1=$ref_rc
	"${MPIRUN[@]}" -np "$np" "$MPI" "$@" >"$TMP/mpi" 2>"$TMP/mpi.err"
	local rc2=$?
	if [ "$rc1" -eq "$rc2" ] && cmp -s "$TMP/ref" "$TMP/mpi"; then ok; else
		not_ok "$desc: -np $np differs from -j1 (exit $rc1 vs $rc2)"
		diff "$TMP/ref" "$TMP/mpi" | head -5
		head -5 "$TMP/mpi.err"
	fi
}

"$HPCVET" -j1 "${text[@]}" "$TMP/t48" >"$TMP/t48.ref"
for rule in send-unmatched recv-unmatched truncation coll-sequence; do
	check "48 ranks: dumpi.mpi.$rule fires" grep -q "dumpi\.mpi\.$rule\]" "$TMP/t48.ref"
done
"$HPCVET" -j1 "${text[@]}" --max-per-rule=100 --max-diagnostics=10000 "$TMP/t300" >"$TMP/t300.ref"
check "300 ranks: more findings than the layer lists" grep -q 'more dumpi.mpi.[a-z-]* diagnostic(s) across ranks are not listed' "$TMP/t300.ref"

"$HPCVET" -j2 "${text[@]}" "$TMP/t48" >"$TMP/j2"
check "48 ranks: -j2 as -j1" cmp -s "$TMP/t48.ref" "$TMP/j2"
for np in 1 2 3 4; do
	same "48 ranks, text" $np "${text[@]}" "$TMP/t48"
	same "48 ranks, JSON, 3 diagnostics" $np --format=json --max-diagnostics=3 "$TMP/t48"
done
for np in 2 4; do
	same "300 ranks, text, 100 per rule" $np "${text[@]}" --max-per-rule=100 --max-diagnostics=10000 "$TMP/t300"
	same "300 ranks, JSON" $np --format=json "$TMP/t300"
done
same "300 ranks, SARIF, 40 diagnostics" 3 --format=sarif --max-diagnostics=40 "$TMP/t300"
# more processes than ranks: some own none
same "6 ranks, text" 8 "${text[@]}" "$TMP/t6"
for np in 2 3; do
	same "4,200 ranks, text, 100 per rule" $np "${text[@]}" --max-per-rule=100 --max-diagnostics=10000 "$TMP/t4200"
done

# The two ends of some finding were checked by different processes: unit i
# is rank file i (a trace of fewer than 1024 ranks is one exchange), and
# HPCVET_MPI_STATS=2 lists each unit's process. A send-unmatched finding
# names its sender, then "to rank" its receiver.
for np in 2 3 4; do
	HPCVET_MPI_STATS=2 "${MPIRUN[@]}" -np $np "$MPI" "${text[@]}" "$TMP/t48" >"$TMP/out" 2>"$TMP/stats"
	split=$(awk '/hpcvet-mpi: unit [0-9]+ rank [0-9]+$/ { own[$3] = $5; next }
		/dumpi\.mpi\.send-unmatched\]/ {
			if (match($0, /\]: rank [0-9]+ /)) s = substr($0, RSTART + 8, RLENGTH - 9) + 0
			if (match($0, / to rank [0-9]+,/)) d = substr($0, RSTART + 9, RLENGTH - 10) + 0
			if ((s in own) && (d in own) && own[s] != own[d]) n++
		}
		END { print n + 0 }' "$TMP/stats" "$TMP/out")
	check "-np $np: unmatched sends between ranks checked by different processes ($split)" test "$split" -gt 0
done

# Descriptors: a rank file is read through one descriptor per thread
# (fileio.c), whatever the number of rank files.
(ulimit -n 64 && "$HPCVET" -j2 "${text[@]}" --max-per-rule=100 --max-diagnostics=10000 "$TMP/t300" >"$TMP/lim")
check "300 ranks under ulimit -n 64, -j2: the report of -j1" cmp -s "$TMP/t300.ref" "$TMP/lim"
"${MPIRUN[@]}" -np 3 bash -c 'ulimit -n 64 && exec "$@"' - "$MPI" "${text[@]}" --max-per-rule=100 --max-diagnostics=10000 "$TMP/t300" >"$TMP/lim"
check "300 ranks under ulimit -n 64, -np 3: the report of -j1" cmp -s "$TMP/t300.ref" "$TMP/lim"

done_testing
