#!/usr/bin/env bash
# The CLI on generated DUMPI traces: a folder, a .meta path, a single .bin,
# a broken trace, and the JSON report.
source "$(dirname "$0")/lib.sh"

"$GEN" --what=dumpi-trace -o "$TMP/t" || not_ok "generate a trace"
"$GEN" --what=dumpi-trace --break=dumpi.meta.numprocs -o "$TMP/np" || not_ok "generate a broken trace"
"$GEN" --what=dumpi-bin --break=dumpi.rec.contained -o "$TMP/bad.bin" || not_ok "generate a broken .bin"
meta=$(ls "$TMP"/t/*.meta)

expect_exit 0 "trace folder" "$HPCVET" "$TMP/t"
check "folder read as a DUMPI trace" grep -q "conforming (dumpi trace, v8.1.0" "$TMP/out"
expect_exit 0 ".meta path" "$HPCVET" "$meta"
check ".meta expanded to its trace" grep -q "conforming (dumpi trace, v8.1.0" "$TMP/out"
expect_exit 0 "single rank" "$HPCVET" "$TMP"/t/*-0001.bin
check "rank read as a .bin" grep -q "conforming (dumpi .bin, v8.1.0" "$TMP/out"
expect_exit 1 "numprocs mismatch through the .meta path" "$HPCVET" "$TMP"/np/*.meta
check "numprocs rule named" grep -q "error\[dumpi.meta.numprocs\]" "$TMP/out"
expect_exit 1 "undecodable record" "$HPCVET" --format=json "$TMP/bad.bin"
check "JSON names the rule" grep -q '"dumpi.rec.contained"' "$TMP/out"
check "JSON names the function" grep -q 'MPI_Waitall record at 0x' "$TMP/out"
# A wide trace (past the 63 ranks the generator holds in memory, written as
# it is made): valid, and one report whatever the number of jobs, also when
# rank 150's file is rank 151's, so that its neighbours' messages go
# unmatched across batches.
"$GEN" --what=dumpi-trace --pattern=stencil3d --profiles=300 -o "$TMP/wide" || not_ok "generate 300 ranks"
check "300 rank files and a .meta" test "$(ls "$TMP/wide" | wc -l)" -eq 301
expect_exit 0 "300-rank stencil trace" "$HPCVET" "$TMP/wide"
check "wide trace conforming" grep -q "conforming (dumpi trace" "$TMP/out"
r151=$(ls "$TMP"/wide/*-0151.bin)
cp "$r151" "${r151%-0151.bin}-0150.bin"
"$HPCVET" --format=json -j1 "$TMP/wide" >"$TMP/wide1.json"
"$HPCVET" --format=json -j2 "$TMP/wide" >"$TMP/wide2.json"
check "rank 150 replaced: unmatched messages" grep -q '"dumpi.mpi.recv-unmatched"' "$TMP/wide1.json"
check "the same report at -j1 and -j2" cmp -s "$TMP/wide1.json" "$TMP/wide2.json"
# The LAMMPS-shaped program (bench's DUMPI input shaped like a real run):
# valid under --strict, about the records asked for, the ghost-atom swaps
# with counts that change from step to step, and the same bytes every time.
"$GEN" --what=dumpi-trace --pattern=lammps --contexts=2000 --profiles=8 -o "$TMP/lmp" || not_ok "generate lammps"
expect_exit 0 "LAMMPS-shaped trace: strict" "$HPCVET" --strict "$TMP/lmp"
"$HPCVET" dump --format=json --select=rank=3 --max-items=100000 "$TMP/lmp" | grep '"kind":"record"' >"$TMP/lmp.rec"
check "about 2000 records a rank" test "$(wc -l <"$TMP/lmp.rec")" -ge 1900 -a "$(wc -l <"$TMP/lmp.rec")" -le 2100
check "MPI_Irecv, MPI_Send and MPI_Wait alike" test "$(grep -c '"MPI_Irecv"' "$TMP/lmp.rec")" -eq "$(grep -c '"MPI_Wait"' "$TMP/lmp.rec")" \
	-a "$(grep -c '"MPI_Send"' "$TMP/lmp.rec")" -eq "$(grep -c '"MPI_Wait"' "$TMP/lmp.rec")"
check "MPI_Allreduce" grep -q '"MPI_Allreduce"' "$TMP/lmp.rec"
check "MPI_Bcast" grep -q '"MPI_Bcast"' "$TMP/lmp.rec"
check "send counts vary by step" test "$(grep '"MPI_Send"' "$TMP/lmp.rec" | grep -o '"count":[0-9]*' | sort -u | wc -l)" -gt 100
"$GEN" --what=dumpi-trace --pattern=lammps --contexts=2000 --profiles=8 -o "$TMP/lmp2" || not_ok "generate lammps again"
check "deterministic" diff -r "$TMP/lmp" "$TMP/lmp2"
rm "$meta"
expect_exit 0 "ranks without .meta: a warning" "$HPCVET" "$TMP/t"
check "meta-missing warning" grep -q "warning\[dumpi.trace.meta-missing\]" "$TMP/out"
expect_exit 1 "... which --strict turns into a failure" "$HPCVET" --strict "$TMP/t"
done_testing
