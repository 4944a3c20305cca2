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
brk handle-freed "(MPI_Comm_size): comm [0-9]* was freed by record [0-9]* and is used here, and record [0-9]* (MPI_Comm_dup) creates comm [0-9]* again with no free of it between"
brk request-unknown "(MPI_Start): request [0-9]* is already active: MPI_Start needs an inactive persistent request"
brk request-leaked "(MPI_Irecv): request [0-9]* is still active at MPI_Finalize (record [0-9]*)"
# More leaks than a rank lists (25 receives never waited for): the 20 its
# calls created first, in record order whatever the request map's order,
# then a count of the rest.
"$GEN" --what=dumpi-bin --break=dumpi.mpi.request-leaked~many -o "$TMP/leaks.bin" >/dev/null
expect_exit 0 "25 leaks stay conforming (warnings)" "$HPCVET" --max-per-rule=0 "$TMP/leaks.bin"
grep -o "request-leaked\]: rank 0 record [0-9]* (MPI_Irecv)" "$TMP/out" | cut -d" " -f5 > "$TMP/leaks-listed"
"$HPCVET" dump --format=json "$TMP/leaks.bin" |
	jq '.files[0].items[] | select(.function == "MPI_Irecv" and .args.source == -1 and .args.tag == 5) | .index' |
	head -n 20 > "$TMP/leaks-first"
check "the 20 leaks created first are listed, by creating record" cmp -s "$TMP/leaks-listed" "$TMP/leaks-first"
check "the 20 listed are 20 records" test "$(wc -l < "$TMP/leaks-first")" -eq 20
check "the rest are counted" grep -q "warning\[dumpi.mpi.request-leaked\]: rank 0 record [0-9]* (MPI_Finalize): 5 more requests are still active at the end of rank 0 (only the 20 created first are listed)" "$TMP/out"

# What the trace cannot say is a note (--strict passes), said once.
note_brk() { # rule pattern
	"$GEN" --what=dumpi-bin --break="dumpi.mpi.$1" -o "$TMP/n-$1.bin" >/dev/null
	expect_exit 0 "note $1 passes --strict" "$HPCVET" --strict "$TMP/n-$1.bin"
	check "note $1 fires once" test "$(grep -c "note\[dumpi.mpi.$1\]" "$TMP/out")" -eq 1
	check "note $1 message: $2" grep -q -- "$2" "$TMP/out"
}
note_brk request-unrecorded "(MPI_Wait): request 999 and 1 reference(s) in all name requests no recorded call created: libdumpi records no MPI-3/4 request call"
note_brk calls-ignored "rank 0: the footer counts calls made while tracing was off (ignored of called: MPI_Finalize 1 of 2).*a missing MPI_Finalize cannot be checked"
note_brk partial-trace "1 of 2 ranks' files (rank 0 recorded MPI_Comm_size(MPI_COMM_WORLD) = 2)"
brk finalize-missing "without an MPI_Finalize record (last record [0-9]* is MPI_Comm_rank)"
# A rank that never recorded its number (no MPI_Comm_rank on MPI_COMM_WORLD,
# no -NNNN in its name) is named by its file, not as "rank -1": the same
# break with its MPI_Comm_rank calls moved to MPI_COMM_SELF (comm 3; the
# argument is the record's 2-byte big-endian comm, 6 bytes from its end).
cp "$TMP/b-finalize-missing.bin" "$TMP/norank.bin"
for at in $("$HPCVET" dump --format=json "$TMP/norank.bin" |
	jq '.files[0].items[] | select(.function == "MPI_Comm_rank" and .args.comm == 2) | .offset + .length - 5'); do
	printf '\003' | dd of="$TMP/norank.bin" bs=1 seek="$at" conv=notrunc 2>/dev/null
done
expect_exit 0 "a rank without its number: still only the warning" "$HPCVET" "$TMP/norank.bin"
check "a rank without its number is named by its file" grep -q "warning\[dumpi.mpi.finalize-missing\]: rank of file norank.bin: the stream ends" "$TMP/out"
check "a rank without its number is never 'rank -1'" bash -c "! grep -q 'rank -1' '$TMP/out'"
brk comm-predefined-freed "(MPI_Comm_free): comm 2 is MPI_COMM_WORLD, a predefined communicator"
brk type-predefined-freed "(MPI_Type_free): datatype 9 is a predefined datatype"

# Cross-rank breaks (4 ranks): both ends named.
brk_trace() { # rule severity pattern
	"$GEN" --what=dumpi-trace --break="dumpi.mpi.$1" -o "$TMP/x-$1" >/dev/null
	expect_exit 0 "break $1 stays conforming" "$HPCVET" "$TMP/x-$1"
	check "break $1 fires" grep -q "$2\[dumpi.mpi.$1\]" "$TMP/out"
	check "break $1 message: $3" grep -q -- "$3" "$TMP/out"
	check "break $1: no other dumpi.mpi rule" bash -c "! grep 'dumpi.mpi' '$TMP/out' | grep -v -q 'dumpi.mpi.$1\]'"
}
brk_trace send-unmatched warning "rank 0 record [0-9]* (MPI_Send, dest 1, tag 7777, comm 2 = world) has no matching receive: rank 0 sent 1 message(s) with tag 7777 to rank 1, rank 1 received 0"
brk_trace recv-unmatched warning "rank 1 record [0-9]* (MPI_Recv, source 0, tag 7777, comm 2 = world) has no matching send: rank 0 sent 0 message(s)"
brk_trace truncation warning "rank 1 receives message #1 from rank 0 (tag 7778, comm 2 = world) into 4 elements.*rank 0 sent 8 elements"
brk_trace coll-sequence warning "rank 0 made [0-9]* collective calls on comm 2 = world, 3 of the 4 members made [0-9]* (e.g. rank 1); its first call the others lack is at this record"
brk_trace coll-root warning "rank 0 record [0-9]* (MPI_Bcast root 1 count 8) is collective #[0-9]* on comm 2 = world; 3 of the 4 members have MPI_Bcast root 0 count 8 at the same position (e.g. rank 1 record [0-9]*)"
brk_trace coll-count warning "rank 0 record [0-9]* (MPI_Allreduce count 4) is collective #[0-9]* on comm 2 = world: its count is 4 elements of datatype 9, but 3 of the 4 members state 8 (e.g. rank 1 record [0-9]*, count 8)"
brk_trace comm-unreconstructed note "(MPI_Comm_create): comm [0-9]* (made by MPI_Comm_create, record [0-9]*) cannot be reconstructed"
brk_trace wildcard-unresolved note "rank 1 record [0-9]* (MPI_Recv): receives on comm 2 = world with MPI_ANY_SOURCE"
check "wildcard: the send it took is not reported" bash -c "! grep -q send-unmatched '$TMP/out'"

# The minority is blamed: one wrong rank of seven (rank 0, the old reference) gets the only warning.
for r in coll-sequence coll-root coll-count; do
	"$GEN" --what=dumpi-trace --profiles=7 --break="dumpi.mpi.$r" -o "$TMP/seven-$r" >/dev/null
	expect_exit 0 "7 ranks, $r on rank 0: conforming" "$HPCVET" "$TMP/seven-$r"
	check "7 ranks, $r: exactly one dumpi.mpi diagnostic" test "$(grep -c 'dumpi.mpi' "$TMP/out")" -eq 1
	check "7 ranks, $r: it is on rank 0" grep -q "\[dumpi.mpi.$r\]: rank 0 " "$TMP/out"
	check "7 ranks, $r: it names what 6 of the 7 members did" grep -q "6 of the 7 members" "$TMP/out"
done

# Past the first 32 collectives of a communicator: the same, through the digests.
for r in coll-sequence coll-count; do
	"$GEN" --what=dumpi-trace --profiles=5 --contexts=3000 --break="dumpi.mpi.$r" -o "$TMP/long-$r" >/dev/null
	expect_exit 0 "long program, $r on rank 0: conforming" "$HPCVET" "$TMP/long-$r"
	check "long program, $r: exactly one dumpi.mpi diagnostic" test "$(grep -c 'dumpi.mpi' "$TMP/out")" -eq 1
	check "long program, $r: on rank 0, naming 4 of the 5 members" grep -q "\[dumpi.mpi.$r\]: rank 0 .* 4 of the 5 members" "$TMP/out"
done
check "long program, coll-count: the calls it is among" grep -q "in a collective from #33 to #[0-9]*, its last, at this record" "$TMP/out"

# Counts of every counted collective: one count bent on rank 0, one warning there naming both ends.
variant() { # variant pattern
	"$GEN" --what=dumpi-trace --break="dumpi.mpi.coll-count~$1" -o "$TMP/v-$1" >/dev/null
	expect_exit 0 "coll-count~$1 stays conforming" "$HPCVET" "$TMP/v-$1"
	check "coll-count~$1: exactly one dumpi.mpi diagnostic" test "$(grep -c 'dumpi.mpi' "$TMP/out")" -eq 1
	check "coll-count~$1 message: $2" grep -q -- "warning\[dumpi.mpi.coll-count\]: rank 0 record [0-9]* $2" "$TMP/out"
}
variant alltoall "(MPI_Alltoall count 8) is collective #[0-9]* on comm 2 = world: its sendcount is 4 elements of datatype 9, but 4 of the 4 members state 8 (e.g. rank 1 record [0-9]*, recvcount 8)"
variant gatherv "(MPI_Gatherv root 1) is collective #[0-9]* on comm 2 = world: it sends sendcount 3 elements of datatype 9, but the root, rank 1, expects recvcounts\[0\] = 2"
variant scatterv "(MPI_Scatterv root 1) is collective #[0-9]* on comm 2 = world: it receives recvcount 7 elements of datatype 9, but the root, rank 1, sends sendcounts\[0\] = 2"
variant allgatherv "(MPI_Allgatherv) is collective #[0-9]* on comm 2 = world: it sends sendcount 5 elements of datatype 9, but every member's recvcounts\[0\] is 2 (e.g. rank 1)"
variant alltoallv "(MPI_Alltoallv) is collective #[0-9]* on comm 2 = world: its sendcounts\[1\] (to comm rank 1) is 3 element(s) of datatype 9 more than rank 1's recvcounts\[0\] (from comm rank 0)"
variant alltoallv-twice "(MPI_Alltoallv) is collective #[0-9]* on comm 2 = world: the members' counts for MPI_Alltoallv do not pair up: the sending ends state 6 element(s) of datatype 9 more than the receiving ends post (several blocks disagree)"
variant alltoallw "(MPI_Alltoallw) is collective #[0-9]* on comm 2 = world: its sendcounts\[2\] (to comm rank 2) is 1 element(s) of datatype 9 fewer than rank 2's recvcounts\[0\] (from comm rank 0)"
variant exscan "(MPI_Exscan count 6) is collective #[0-9]* on comm 2 = world: its count is 6 elements of datatype 9, but 3 of the 4 members state 5"
variant reduce-scatter "(MPI_Reduce_scatter) is collective #[0-9]* on comm 2 = world: its recvcounts (4 entries, sum 15) differ from those 3 of the 4 members pass (e.g. rank 1 record [0-9]*, sum 14)"
# The near miss: the same collectives, consistent, rank 0's send sides MPI_IN_PLACE-like (count 0, MPI_DATATYPE_NULL).
"$GEN" --what=dumpi-trace --break="dumpi.mpi.coll-count~in-place" -o "$TMP/v-in-place" >/dev/null
expect_exit 0 "coll-count~in-place: clean under --strict" "$HPCVET" --strict "$TMP/v-in-place"
check "coll-count~in-place: no dumpi.mpi diagnostic" bash -c "! grep -q 'dumpi.mpi' '$TMP/out'"
for n in 2 3 7; do
	"$GEN" --what=dumpi-trace --profiles=$n --break="dumpi.mpi.coll-count~in-place" -o "$TMP/v-in-place$n" >/dev/null
	expect_exit 0 "coll-count~in-place on $n ranks: clean under --strict" "$HPCVET" --strict "$TMP/v-in-place$n"
done

# Longer programs (MPI_Comm_split halves, duplicates, persistent requests) on 5 ranks.
for seed in 4 5; do
	"$GEN" --what=dumpi-trace --profiles=5 --seed=$seed --contexts=300 -o "$TMP/split$seed" >/dev/null
	expect_exit 0 "5 ranks, seed $seed, 300 records: clean under --strict" "$HPCVET" --strict "$TMP/split$seed"
done

expect_exit 0 "hpcvet explain dumpi.mpi" "$HPCVET" explain dumpi.mpi
check "explain: what cannot be paired" grep -q "MPI_ANY_SOURCE/MPI_ANY_TAG whose status was not recorded" "$TMP/out"
check "explain: the cross-rank stage's memory per rank" grep -q "about 6 KB a rank in all" "$TMP/out"
check "explain: hpcvet-mpi keeps skeletons of other processes' ranks" grep -q "of the others a skeleton" "$TMP/out"
check "explain: lists every dumpi.mpi rule" test "$(grep -c '^  dumpi.mpi\.' "$TMP/out")" -eq "$("$HPCVET" rules | grep -c 'dumpi\.mpi\.')"

dir="$SHARED/real-samples/dumpi"
if [ -d "$dir" ]; then
	for t in "$dir"/*/; do
		expect_exit 0 "$t conforming under --strict" "$HPCVET" --strict "$t"
		check "$t: no dumpi.mpi warning" bash -c "! grep -q 'warning\[dumpi\.mpi\.' '$TMP/out'"
		# the traces of Open MPI and of programs making only recorded calls: not even a note
		case $t in *mpich-unrec*|*mpich-nbc*|*mpich-mprobe*) ;; *)
			check "$t: no dumpi.mpi diagnostic" bash -c "! grep -q 'dumpi\.mpi\.' '$TMP/out'" ;;
		esac
		# a rank's file alone: judged only for what that rank can say
		for f in "$t"*.bin; do
			expect_exit 0 "$f alone conforming under --strict" "$HPCVET" --strict "$f"
			check "$f alone: no dumpi.mpi warning" bash -c "! grep -q 'warning\[dumpi\.mpi\.' '$TMP/out'"
		done
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
	check "wait on request 3, which no recorded call made, is a hole" grep -q "request-unrecorded\]: rank 0 record 6 (MPI_Wait): request 3 and 1 reference(s) in all" "$TMP/out"
	check "request 2 leaked" grep -q "request-leaked\]: rank 0 record 4 (MPI_Isend): request 2 is still active at MPI_Finalize" "$TMP/out"
	# mpi4py rank 2: MPI_Alltoall sendcount 1 at byte 3987 (record 96), MPI_Gatherv
	# sendcount 3 to root 0 at byte 4182 (record 101). Bent to 2 and 5.
	mkdir -p "$TMP/real4py"
	cp "$dir/libdumpi-mpi4py-np4/"* "$TMP/real4py/"
	chmod u+w "$TMP/real4py/"*
	f=$(ls "$TMP/real4py/"*-0002.bin)
	have=$(od -An -v -tx1 -j 3987 -N 4 "$f" | tr -d ' \n')$(od -An -v -tx1 -j 4182 -N 4 "$f" | tr -d ' \n')
	check "mpi4py rank 2 holds sendcounts 1 and 3 at 3987 and 4182" test "$have" = 0000000100000003
	printf '\x00\x00\x00\x02' | dd of="$f" bs=1 seek=3987 conv=notrunc status=none
	printf '\x00\x00\x00\x05' | dd of="$f" bs=1 seek=4182 conv=notrunc status=none
	expect_exit 0 "bent mpi4py trace stays conforming" "$HPCVET" "$TMP/real4py"
	check "bent mpi4py: two coll-count warnings" test "$(grep -c 'coll-count' "$TMP/out")" -eq 2
	check "Alltoall sendcount caught on rank 2" grep -q "coll-count\]: rank 2 record 96 (MPI_Alltoall count 1) is collective #[0-9]* on comm 2 = world: its sendcount is 2 elements of datatype 9, but 4 of the 4 members state 1" "$TMP/out"
	check "Gatherv sendcount caught on rank 2" grep -q "coll-count\]: rank 2 record 101 (MPI_Gatherv root 0) is collective #[0-9]* on comm 2 = world: it sends sendcount 5 elements of datatype 9, but the root, rank 0, expects recvcounts\[2\] = 3" "$TMP/out"
	# every real rank file alone: no dumpi.mpi warning beyond the known request ones
	for f in "$dir"/*/*.bin; do
		expect_exit 0 "$(basename "$f") alone" "$HPCVET" "$f"
		check "$(basename "$f") alone: no predefined-handle or collective warning" bash -c "! grep -q 'predefined-freed\|coll-' '$TMP/out'"
	done
	# MPICH's habits and calls libdumpi does not record, in the real traces:
	# the library is inferred, the holes are notes, and --mpi-replay makes
	# them warnings that name the class of unrecorded calls.
	m="$dir/libdumpi-mpich"
	expect_exit 0 "MPICH stencil: conforming" "$HPCVET" --strict "$m-stencil-np4"
	check "MPICH inferred from a send to -1" grep -q "note\[dumpi.trace.mpi-library\]: the MPI library is MPICH: rank [0-9] record [0-9]* sends to -1" "$TMP/out"
	expect_exit 0 "MPICH stencil read as Open MPI's: still conforming" "$HPCVET" --mpi=openmpi "$m-stencil-np4"
	check "--mpi=openmpi: a send to -1 is no rank" grep -q "warning\[dumpi.mpi.rank-range\]: rank [0-9] record [0-9]* (MPI_Isend): dest -1 is no rank: under Open MPI (--mpi) MPI_PROC_NULL is -2" "$TMP/out"
	check "--mpi=openmpi: the note says the records disagree" grep -q "the MPI library is Open MPI, as --mpi names it; but the records show the other" "$TMP/out"
	expect_exit 0 "matched probes: conforming" "$HPCVET" --strict "$m-mprobe-np4"
	check "matched probes: the unmatched sends are notes naming the class" grep -q "note\[dumpi.mpi.send-unmatched\]: .*rank [0-9] shows unrecorded matched probes, which may explain it" "$TMP/out"
	expect_exit 1 "matched probes under --mpi-replay fail --strict" "$HPCVET" --strict --mpi-replay "$m-mprobe-np4"
	check "--mpi-replay: send-unmatched warnings naming matched probes" test "$(grep -c "warning\[dumpi.mpi.send-unmatched\]: .*rank [0-9] shows unrecorded matched probes: a replay sees it unmatched" "$TMP/out")" -eq 4
	expect_exit 0 "matched probes under --mpi-replay, without --strict" "$HPCVET" --mpi-replay "$m-mprobe-np4"
	check "--mpi-replay: the summary says so" grep -q "conforming (dumpi trace (--mpi-replay), v13.0.0, .*4 warnings" "$TMP/out"
	expect_exit 1 "nonblocking collectives under --mpi-replay fail --strict" "$HPCVET" --strict --mpi-replay "$m-nbc-np4"
	check "--mpi-replay: request-unrecorded warnings naming nonblocking collectives" test "$(grep -c "warning\[dumpi.mpi.request-unrecorded\]: .*after its id's request ended.*nonblocking and persistent collectives" "$TMP/out")" -eq 4
	expect_exit 1 "unrecorded constructors under --mpi-replay fail --strict" "$HPCVET" --strict --mpi-replay "$m-unrec-np4"
	check "--mpi-replay: handle-freed warnings naming the constructors" test "$(grep -c "warning\[dumpi.mpi.handle-freed\]: .*is used again with no recorded constructor.*MPI_Comm_split_type.*a replay cannot create it" "$TMP/out")" -eq 4
	check "--mpi-replay: MPI_Comm_idup's request" grep -q "warning\[dumpi.mpi.request-unrecorded\]" "$TMP/out"
	expect_exit 0 "recorded calls only under --mpi-replay: still clean" "$HPCVET" --strict --mpi-replay "$m-stencil-np4"
	# One-defect mutants of the MPICH traces stay warnings.
	mkdir -p "$TMP/st" "$TMP/nbc"
	cp "$m-stencil-np4/"* "$TMP/st/"
	cp "$m-nbc-np4/"* "$TMP/nbc/"
	chmod u+w "$TMP/st/"* "$TMP/nbc/"*
	# stencil rank 0 record 14: MPI_Isend(dest 2, tag 0) at 693 (49 bytes; its tag 10 bytes from the end)
	f=$(ls "$TMP/st/"*-0000.bin)
	check "stencil rank 0 holds tag 0 at 732" test "$(od -An -v -tx1 -j 732 -N 4 "$f" | tr -d ' \n')" = 00000000
	printf '\x00\x00\x00\x09' | dd of="$f" bs=1 seek=732 conv=notrunc status=none
	# stencil rank 1 record 18: MPI_Allreduce count 1 at 1054 (38 bytes; count 9 from the end)
	f=$(ls "$TMP/st/"*-0001.bin)
	check "stencil rank 1 holds count 1 at 1054" test "$(od -An -v -tx1 -j 1054 -N 4 "$f" | tr -d ' \n')" = 00000001
	printf '\x00\x00\x00\x02' | dd of="$f" bs=1 seek=1054 conv=notrunc status=none
	expect_exit 0 "bent MPICH stencil stays conforming" "$HPCVET" "$TMP/st"
	check "bent tag: the send is unmatched (a warning)" grep -q "warning\[dumpi.mpi.send-unmatched\]: rank 0 record 14 (MPI_Isend, dest 2, tag 9" "$TMP/out"
	check "bent tag: the receive is unmatched (a warning)" grep -q "warning\[dumpi.mpi.recv-unmatched\]: rank 2 record [0-9]* (.*source 0, tag 0" "$TMP/out"
	check "bent count: coll-count on rank 1" grep -q "warning\[dumpi.mpi.coll-count\]: rank 1 record 18 (MPI_Allreduce count 2)" "$TMP/out"
	# nbc rank 0 record 5: MPI_Waitall [2,3] at 287 bent to [2,2]: request 3 leaks
	f=$(ls "$TMP/nbc/"*-0000.bin)
	check "nbc rank 0 holds request 3 at 287" test "$(od -An -v -tx1 -j 287 -N 4 "$f" | tr -d ' \n')" = 00000003
	printf '\x00\x00\x00\x02' | dd of="$f" bs=1 seek=287 conv=notrunc status=none
	expect_exit 0 "bent nbc stays conforming" "$HPCVET" "$TMP/nbc"
	check "bent Waitall: the send's request leaks (a warning, beside the holes)" grep -q "warning\[dumpi.mpi.request-leaked\]: rank 0 record 4 (MPI_Isend): request 3 is still active" "$TMP/out"
else
	skip "real samples: $dir not present (set HV_SHARED)"
fi
# The request calls the generator's phases never make (--request-calls):
# MPI_Testany that finds nothing, Waitany, Testsome and Waitsome completing
# by index, a receive cancelled and completed with a cancelled status, a
# channel whose sizes change. Any of them handled wrongly leaves a request
# leaked or a receive unmatched, which --strict refuses.
"$GEN" --what=dumpi-trace --request-calls=3 -o "$TMP/rq" >/dev/null
expect_exit 0 "a trace with Wait/Testany, Wait/Testsome and a cancelled receive passes --strict" "$HPCVET" --strict "$TMP/rq"
"$HPCVET" dump "$TMP/rq"/*-0001.bin >"$TMP/rq.dump" 2>&1
for fn in MPI_Testany MPI_Waitany MPI_Testsome MPI_Waitsome MPI_Cancel; do
	check "the trace has $fn records" grep -q "function=\"$fn\"" "$TMP/rq.dump"
done
check "a cancelled status" grep -q "cancelled=1" "$TMP/rq.dump"

# The writers' habits as the generator writes them: MPICH's MPI_PROC_NULL
# (-1) with its empty statuses and shared requests, Open MPI's (-2), and
# programs making calls libdumpi does not record (a nonblocking collective on
# a recycled request, matched probes, MPI-3 constructors on freed handles), at
# 2, 3 and 4 ranks: no dumpi.mpi warning, on the trace and on each rank file
# alone; --mpi-replay turns each class back into a warning.
for lib in mpich openmpi; do
	for u in "" --unrecorded; do
		for n in 2 3 4; do
			o="$TMP/h-$lib$u-$n"
			"$GEN" --what=dumpi-trace --profiles=$n --contexts=200 --mpi=$lib $u -o "$o" >/dev/null
			expect_exit 0 "$lib$u, $n ranks: --strict" "$HPCVET" --strict "$o"
			check "$lib$u, $n ranks: no dumpi.mpi warning" bash -c "! grep -q 'warning\[dumpi.mpi' '$TMP/out'"
			check "$lib$u, $n ranks: the library inferred" grep -q "the MPI library is $([ $lib = mpich ] && echo MPICH || echo Open MPI)" "$TMP/out"
			for f in "$o"/*.bin; do
				expect_exit 0 "$lib$u, $n ranks: $(basename "$f") alone --strict" "$HPCVET" --strict "$f"
			done
			[ -n "$u" ] || continue
			expect_exit 1 "$lib$u, $n ranks: --mpi-replay fails --strict" "$HPCVET" --strict --mpi-replay "$o"
			for r in request-unrecorded handle-freed send-unmatched; do
				check "$lib$u, $n ranks: --mpi-replay: $r is a warning" grep -q "warning\[dumpi.mpi.$r\]" "$TMP/out"
			done
		done
	done
done
# The note of the library break, alone.
"$GEN" --what=dumpi-bin --break=dumpi.trace.mpi-library -o "$TMP/lib.bin" >/dev/null
expect_exit 0 "library break: --strict passes" "$HPCVET" --strict "$TMP/lib.bin"
check "library break: one note, MPICH" test "$(grep -c 'note\[dumpi.trace.mpi-library\]: the MPI library is MPICH' "$TMP/out")" -eq 1

# Requests past the request table (65,536 slots, by id modulo; validator/
# dumpi/mpi/requests.c keeps a request whose slot is taken in its map):
# 40,000 Isend/Irecv pairs in flight a rank number requests up to ~80,000. The trace is consistent; one
# MPI_Wait bent to an id no call created leaves the request it waited for
# (an id of the map) leaked, named by the record that created it.
"$GEN" --what=dumpi-trace --profiles=2 --contexts=2 --in-flight=40000 -o "$TMP/high" >/dev/null
expect_exit 0 "requests with ids past the table: conforming" "$HPCVET" --strict "$TMP/high"
high_bin=$(ls "$TMP"/high/*-0000.bin)
"$HPCVET" dump --format=json --select=rank=0 "$TMP/high" |
	jq -r '[.files[0].items[] | select(.function == "MPI_Wait" and .args.request >= 70000)][0] | "\(.offset) \(.length) \(.args.request)"' > "$TMP/high-wait"
read -r w_off w_len w_req < "$TMP/high-wait"
creator=$("$HPCVET" dump --format=json --select=rank=0 "$TMP/high" |
	jq -r --argjson q "$w_req" '[.files[0].items[] | select(.function == "MPI_Irecv" or .function == "MPI_Isend") | select(.args.request == $q)][0].index')
check "a wait on an id past the table was found" test "${w_req:-0}" -ge 65536
python3 - "$high_bin" "$w_off" "$w_len" "$w_req" <<'PY'
import struct, sys
path, off, length, req = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(path, 'rb').read())
rec = b[off:off + length]
i = rec.find(struct.pack('>i', req))
assert i >= 0 and rec.find(struct.pack('>i', req), i + 1) < 0
b[off + i:off + i + 4] = struct.pack('>i', 99999)
open(path, 'wb').write(b)
PY
expect_exit 0 "a wait bent past the table stays conforming (a warning)" "$HPCVET" --max-per-rule=0 "$TMP/high"
check "the request it waited for is leaked, named by its creating record" \
	grep -q "warning\[dumpi.mpi.request-leaked\]: rank 0 record $creator (MPI_I[a-z]*): request $w_req is still active at MPI_Finalize" "$TMP/out"
check "the bent wait names a request no call created" grep -q "note\[dumpi.mpi.request-unrecorded\]: rank 0 record [0-9]* (MPI_Wait): request 99999" "$TMP/out"


# An id of another request's slot (the table keeps requests at slot id
# modulo its size, 64 entries first, 65,536 at most): a wait bent to the
# id 64 or 65,536 past a live request's names no request, and leaves the
# live one leaked.
"$GEN" --what=dumpi-trace --profiles=2 --contexts=40 -o "$TMP/slot" >/dev/null
slot_bin=$(ls "$TMP"/slot/*-0000.bin)
cp "$slot_bin" "$TMP/slot.orig"
read -r s_off s_len s_req < <("$HPCVET" dump --format=json --select=rank=0 "$TMP/slot" |
	jq -r '[.files[0].items[] | select(.function == "MPI_Wait")][0] | "\(.offset) \(.length) \(.args.request)"')
s_creator=$("$HPCVET" dump --format=json --select=rank=0 "$TMP/slot" |
	jq -r --argjson q "$s_req" '[.files[0].items[] | select(.function == "MPI_Irecv" or .function == "MPI_Isend") | select(.args.request == $q)][0].index')
for past in 64 65536; do
	cp "$TMP/slot.orig" "$slot_bin"
	python3 - "$slot_bin" "$s_off" "$s_len" "$s_req" "$((s_req + past))" <<'PY'
import struct, sys
path, off, length, req, new = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
b = bytearray(open(path, 'rb').read())
i = b[off:off + length].find(struct.pack('>i', req))
assert i >= 0
b[off + i:off + i + 4] = struct.pack('>i', new)
open(path, 'wb').write(b)
PY
	expect_exit 0 "a wait bent $past ids past a live request: conforming (a warning)" "$HPCVET" --max-per-rule=0 "$TMP/slot"
	check "bent $past past: the live request is leaked, named by its creating record" \
		grep -q "warning\[dumpi.mpi.request-leaked\]: rank 0 record $s_creator (MPI_I[a-z]*): request $s_req is still active" "$TMP/out"
	check "bent $past past: the wait names a request no call created" \
		grep -q "note\[dumpi.mpi.request-unrecorded\]: rank 0 record [0-9]* (MPI_Wait): request $((s_req + past))" "$TMP/out"
done

done_testing
