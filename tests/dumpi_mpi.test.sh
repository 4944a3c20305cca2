#!/usr/bin/env bash
# The DUMPI MPI consistency layer (validator/dumpi/mpi_*.c): generated
# multi-rank traces are consistent, every --break of a dumpi.mpi.* rule
# fires that rule with both ends named, real traces raise nothing, and a
# real trace bent by one request index is caught.
source "$(dirname "$0")/lib.sh"

# Consistent programs, 1 to 7 ranks, several seeds: no dumpi.mpi.* diagnostic.
for n in 1 2 3 4 7; do
	for seed in 1 2 3; do
		"$GEN" --what=dumpi-trace --profiles=$n --seed=$seed --contexts=120 -o "$TMP/t$n-$seed" >/dev/null
		expect_exit 0 "$n ranks, seed $seed: conforming" "$HPCVET" --strict "$TMP/t$n-$seed"
		check "$n ranks, seed $seed: no dumpi.mpi diagnostic" bash -c "! grep -q 'dumpi.mpi' '$TMP/out'"
	done
done
"$GEN" --what=dumpi-trace --functions=1 -o "$TMP/all" >/dev/null
expect_exit 0 "every function id, neutral arguments" "$HPCVET" --strict "$TMP/all"

# Each break: the rule, the rank and record, and what the other end is.
brk() { # rule pattern
	"$GEN" --what=dumpi-bin --break="dumpi.mpi.$1" -o "$TMP/b-$1.bin" >/dev/null
	expect_exit 0 "break $1 stays conforming (a warning)" "$HPCVET" "$TMP/b-$1.bin"
	check "break $1 fires" grep -q "warning\[dumpi.mpi.$1\]" "$TMP/out"
	check "break $1 message: $2" grep -q -- "$2" "$TMP/out"
	expect_exit 1 "break $1 fails --strict" "$HPCVET" --strict "$TMP/b-$1.bin"
}
brk count-negative "MPI_Type_contiguous): count is -5"
brk rank-range "(MPI_Send): dest 1 is outside communicator 2 (world).*1 rank(s) (MPI_Comm_size record 2)"
brk tag-range "tag -3 is negative"
brk handle-freed "(MPI_Comm_size): comm [0-9]* was freed by record [0-9]*"
brk request-unknown "(MPI_Wait): request 999 is not live"
brk request-leaked "(MPI_Irecv): request [0-9]* is still active at MPI_Finalize (record [0-9]*)"
brk finalize-missing "without an MPI_Finalize record (last record [0-9]* is MPI_Comm_rank)"

dir="$SHARED/real-samples/dumpi"
if [ -d "$dir" ]; then
	for t in "$dir"/*/; do
		expect_exit 0 "$t conforming under --strict" "$HPCVET" --strict "$t"
		check "$t: no dumpi.mpi diagnostic" bash -c "! grep -q 'dumpi.mpi' '$TMP/out'"
	done
	# testtrace rank 0: MPI_Isend -> request 2, MPI_Wait(request 2) at record 6
	# (request field at byte 286). Waiting on 3 instead leaves 2 active.
	mkdir -p "$TMP/real"
	cp "$dir/sst-dumpi-testtrace/"testtrace* "$TMP/real/"
	chmod u+w "$TMP/real/"*
	have=$(od -An -v -tx1 -j 286 -N 4 "$TMP/real/testtrace-0000.bin" | tr -d ' \n')
	check "testtrace-0000.bin holds request 2 at 286" test "$have" = 00000002
	printf '\x00\x00\x00\x03' | dd of="$TMP/real/testtrace-0000.bin" bs=1 seek=286 conv=notrunc status=none
	expect_exit 0 "bent real trace stays conforming" "$HPCVET" "$TMP/real"
	check "wait on request 3 is unknown" grep -q "request-unknown\]: rank 0 record 6 (MPI_Wait): request 3 is not live" "$TMP/out"
	check "request 2 leaked" grep -q "request-leaked\]: rank 0 record 4 (MPI_Isend): request 2 is still active at MPI_Finalize" "$TMP/out"
else
	echo "skipping real samples: $dir not present"
fi
done_testing
