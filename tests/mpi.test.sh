#!/usr/bin/env bash
# hpcvet-mpi writes the report of `hpcvet -j1`, byte for byte, with the same
# exit code, under mpirun -np 1, 2, 3 and 4: with the inputs spread over the
# ranks whole, the whole golden corpus (golden/cases, every input) in one job
# per rank count; with every input split into units over all ranks
# (HPCVET_MPI_SPLIT=1: one input after the other, each through the path
# `hpcvet-mpi DB/` takes), the whole corpus at -np 1 and 2 and a sample of it
# at -np 3 and 4, in text and in JSON with --max-diagnostics=2. Also:
# unreadable inputs (exit 3), usage errors, and that the units of one input
# really are spread over the ranks. Skipped (not failed) when hpcvet-mpi was
# not built (no mpicc, or the sanitizer build) or mpirun is missing.
#
# Why a sample: a split run makes a few collectives per input, and ranks
# oversubscribed on a loaded machine hand each one over through the
# scheduler (~0.1 s an input on a 2-core CI machine): the whole corpus split
# at -np 2 to 4 cost most of this test's wall. Every input goes through the
# split path across ranks once (-np 2, and its certificate); the other split
# jobs prove what a rank count or an option changes (how units fall on 3 and
# 4 ranks, tiny units, JSON, the default options), which any input with
# several units shows, so they take every 6th input of each stratum (family,
# kind y_/n_/i_, and form: a directory or the file's suffix), the first
# always: every family, every kind, every form of input.
source "$(dirname "$0")/lib.sh"
need_mpi

mapfile -t inputs < <(ls -d "$ROOT"/golden/cases/*/* | grep -v -e '\.expect\.json$' -e '/MANIFEST\.json$')
check "golden corpus present (${#inputs[@]} inputs)" test "${#inputs[@]}" -gt 100
# sample: every 6th input of each stratum (see the top), the first always
mapfile -t sample < <(printf '%s\n' "${inputs[@]}" | awk -F/ '{
	base = $NF; form = base; sub(/.*\./, "", form)
	if (form == base || form ~ /_[0-9]+$/) form = "-"
	key = $(NF - 1) "/" substr(base, 1, 2) "/" form
	if (seen[key]++ % 6 == 0) print }')
check "sample of the corpus (${#sample[@]} inputs)" test "${#sample[@]}" -gt 100 -a "${#sample[@]}" -lt "${#inputs[@]}"

# same_as_j1 DESCRIPTION NP [ENV=VALUE] -- hpcvet ARGS...: hpcvet-mpi's
# exit code is left in mpi_rc (an exit code checked by itself reuses a job).
same_as_j1() {
	local desc=$1 np=$2 env=$3
	shift 4
	hpcvet_once "$@" -j1
	local rc1=$ref_rc
	env $env "${MPIRUN[@]}" -np "$np" "$MPI" "$@" >"$TMP/mpi" 2>"$TMP/mpi.err"
	local rc2=$?
	mpi_rc=$rc2
	if [ "$rc1" -eq "$rc2" ] && cmp -s "$TMP/ref" "$TMP/mpi"; then ok; else
		not_ok "$desc: -np $np differs from -j1 (exit $rc1 vs $rc2)"
		diff "$TMP/ref" "$TMP/mpi" | head -5
		head -5 "$TMP/mpi.err"
	fi
}

text=(--color=never --no-context)
for np in 1 2 3 4; do
	same_as_j1 "corpus, inputs whole" $np HPCVET_MPI_SPLIT=0 -- "${text[@]}" "${inputs[@]}"
	[ "$np" = 2 ] && corpus_rc=$mpi_rc
	if [ "$np" -le 2 ]; then
		same_as_j1 "corpus, inputs split into units" $np HPCVET_MPI_SPLIT=1 -- "${text[@]}" "${inputs[@]}"
	else
		same_as_j1 "sample, inputs split into units" $np HPCVET_MPI_SPLIT=1 -- "${text[@]}" "${sample[@]}"
	fi
done
# Default options: colour and hex view follow the terminal in hpcvet; under
# mpirun stdout always looks like one, so hpcvet-mpi defaults them off.
same_as_j1 "sample, default options" 2 HPCVET_MPI_SPLIT=1 -- "${sample[@]}"
for np in 2 3; do
	same_as_j1 "sample, JSON, 2 diagnostics, split" $np HPCVET_MPI_SPLIT=1 -- --format=json --max-diagnostics=2 "${sample[@]}"
	same_as_j1 "corpus, SARIF, strict, whole" $np HPCVET_MPI_SPLIT=0 -- --format=sarif --strict "${inputs[@]}"
done

# Certificates: the files' SHA-256 (computed by rank 0) and every rule's result.
# (Every directory of the corpus at -np 2, the sample's at -np 3.)
mapfile -t dirs < <(printf '%s\n' "${inputs[@]}" | grep '\.d$')
mapfile -t sample_dirs < <(printf '%s\n' "${sample[@]}" | grep '\.d$')
same_as_j1 "certificate, JSON, sample" 3 HPCVET_MPI_SPLIT=0 -- certify --format=json "${sample_dirs[@]}"
same_as_j1 "certificate, text" 2 HPCVET_MPI_SPLIT=0 -- certify "${dirs[@]}"

# Exit codes: 1 for the corpus (it holds nonconforming cases), 3 for
# unreadable inputs (a missing path; a directory holding a FIFO), 2 for a
# usage error, 0 for a conforming input. (The corpus's and a missing
# path's: those of their jobs above and below, -np 2, inputs whole.)
check "corpus exit code: 1 (got $corpus_rc)" test "$corpus_rc" -eq 1
mkdir -p "$TMP/fifo"
mkfifo "$TMP/fifo/stream.obs"
same_as_j1 "missing path" 2 HPCVET_MPI_SPLIT=0 -- "${text[@]}" "$TMP/missing"
check "unreadable: exit 3 (got $mpi_rc)" test "$mpi_rc" -eq 3
same_as_j1 "directory with a FIFO" 3 HPCVET_MPI_SPLIT=0 -- "${text[@]}" "$TMP/fifo"
same_as_j1 "unreadable among others" 3 HPCVET_MPI_SPLIT=0 -- "${text[@]}" "$TMP/missing" "${inputs[0]}" "$TMP/fifo"
expect_exit 2 "usage error: exit 2" "${MPIRUN[@]}" -np 2 "$MPI" --no-such-option
"$GEN" --what=dumpi-trace --profiles=16 -o "$TMP/dumpi" >/dev/null 2>&1
expect_exit 0 "conforming trace: exit 0" "${MPIRUN[@]}" -np 2 "$MPI" "$TMP/dumpi"

# A DUMPI trace's rank files are units too: each is checked by one rank and
# its MPI summary (dumpi/mpi/wire.c) travels to the cross-rank stage; a
# trace with a cross-rank break reports as -j1 does.
HPCVET_MPI_STATS=1 "${MPIRUN[@]}" -np 3 "$MPI" "$TMP/dumpi" >/dev/null 2>"$TMP/stats"
check "DUMPI rank files spread over 3 ranks" grep -qE 'hpcvet-mpi: 16 units: rank 0 [1-9][0-9]* .* rank 1 [1-9][0-9]* .* rank 2 [1-9]' "$TMP/stats"
"$GEN" --what=dumpi-trace --profiles=5 --break=dumpi.mpi.send-unmatched -o "$TMP/dumpi-brk" >/dev/null 2>&1
same_as_j1 "DUMPI trace, unmatched send" 3 HPCVET_MPI_SPLIT=0 -- "${text[@]}" "$TMP/dumpi-brk"
check "  (and it fires)" grep -q dumpi.mpi.send-unmatched "$TMP/mpi"
# MPICH's habits and calls libdumpi does not record: the evidence of
# unrecorded calls and the MPI library travel in the rank summaries, so the
# notes, the library note and --mpi-replay's warnings are those of -j1.
"$GEN" --what=dumpi-trace --profiles=4 --mpi=mpich --unrecorded --contexts=120 -o "$TMP/dumpi-unrec" >/dev/null 2>&1
same_as_j1 "DUMPI trace, MPICH, unrecorded calls" 3 HPCVET_MPI_SPLIT=0 -- "${text[@]}" "$TMP/dumpi-unrec"
check "  (the library is inferred)" grep -q "dumpi.trace.mpi-library\]: the MPI library is MPICH" "$TMP/mpi"
same_as_j1 "DUMPI trace, MPICH, unrecorded calls, --mpi-replay" 3 HPCVET_MPI_SPLIT=0 -- "${text[@]}" --mpi-replay "$TMP/dumpi-unrec"
check "  (and the unmatched sends are warnings)" grep -q "warning\[dumpi.mpi.send-unmatched\]" "$TMP/mpi"

# Any rank's read error is reported, never a hang (HPCVET_MPI_FAULT=R:TEXT:
# on rank R, reads of paths containing TEXT fail). A rank file only its
# owner reads: the unit's read error travels, exit 3 with the file named.
# The .meta every rank reads: rank 1 takes another path, and says why.
for np in 2 3; do
	HPCVET_MPI_FAULT="1:-0001.bin" timeout 120 "${MPIRUN[@]}" -np $np "$MPI" "$TMP/dumpi" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "read error of a unit on rank 1 of $np: exit 3 (got $rc)" test "$rc" -eq 3
	check "  and the report names the file" grep -q -- '-0001.bin: read error' "$TMP/out"
done
HPCVET_MPI_FAULT="1:.meta" timeout 120 "${MPIRUN[@]}" -np 3 "$MPI" "$TMP/dumpi" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "read error of a file all ranks read, on rank 1 of 3: exit 3 (got $rc)" test "$rc" -eq 3
check "  and rank 1 names the file" grep -q 'rank 1: [0-9]* read error(s) (first: .*\.meta)' "$TMP/err"

# Other inputs' units are spread too, here an ovni tree's streams.
"$GEN" --what=ovni-trace -o "$TMP/ovni" >/dev/null 2>&1
HPCVET_MPI_STATS=1 "${MPIRUN[@]}" -np 2 "$MPI" "$TMP/ovni" >/dev/null 2>"$TMP/stats"
check "ovni streams spread over 2 ranks" grep -qE 'hpcvet-mpi: [0-9]+ units: rank 0 [1-9][0-9]* .* rank 1 [1-9]' "$TMP/stats"
# Tiny units (HPCVET_UNIT_BYTES=1): a database's trace lines are units of
# their own, spread too, and the report stays that of -j1.
"$GEN" --what=hpctoolkit-db --profiles=6 -o "$TMP/db" >/dev/null 2>&1
HPCVET_UNIT_BYTES=1 HPCVET_MPI_STATS=1 "${MPIRUN[@]}" -np 2 "$MPI" "$TMP/db" >/dev/null 2>"$TMP/stats"
check "trace.db lines are units (more than 3 units)" grep -qE 'hpcvet-mpi: ([4-9]|[1-9][0-9]+) units' "$TMP/stats"
same_as_j1 "tiny units, sample split" 3 "HPCVET_UNIT_BYTES=1 HPCVET_MPI_SPLIT=1" -- --format=json "${sample[@]}"
# One ovni stream is cut into chunks (ovni/stream/split.c), spread over the
# ranks too (the corpus's lone streams above were split into tiny ones).
"$GEN" --what=ovni-stream --trace-len=20000 --break=ovni.obs.clock-monotonic -o "$TMP/one.obs" >/dev/null 2>&1
HPCVET_UNIT_BYTES=50000 HPCVET_MPI_STATS=1 "${MPIRUN[@]}" -np 2 "$MPI" "$TMP/one.obs" >/dev/null 2>"$TMP/stats"
check "one ovni stream's chunks spread over 2 ranks" grep -qE 'hpcvet-mpi: [0-9]+ units: rank 0 [1-9][0-9]* .* rank 1 [1-9]' "$TMP/stats"
same_as_j1 "one ovni stream in chunks" 3 "HPCVET_UNIT_BYTES=50000" -- "${text[@]}" "$TMP/one.obs"
check "  (and the break is reported)" grep -q ovni.obs.clock-monotonic "$TMP/mpi"
done_testing
