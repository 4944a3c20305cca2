#!/usr/bin/env bash
# A rank's MPI_Finalize ends its MPI checks (validator/dumpi/mpi/rank.c,
# path_finalize): a record after it is walked and counted but not checked,
# and what the end of the rank names (a request still active) is the
# MPI_Finalize record, not the stream's last one. The record walk hands
# records to the layer without a per-record count (mpi_rank_walked at the
# end), so this holds for the records the steps take and for the others.
# Rank 0 of a LAMMPS-shaped trace, bent with the offsets `hpcvet dump` gives.
source "$(dirname "$0")/lib.sh"

"$GEN" --what=dumpi-trace --pattern=lammps --profiles=2 --contexts=200 -o "$TMP/t" >/dev/null
rank0=$(ls "$TMP"/t/*-0000.bin)
"$HPCVET" dump "$rank0" >"$TMP/dump.txt"
# field of record line $1: its offset, or its index
off() { awk '{print $1}' <<<"$1"; }
idx() { sed 's/.*index=\([0-9]*\).*/\1/' <<<"$1"; }
# put hex bytes $2 (\xNN...) at offset $3 of file $1
put() { printf "$2" | dd of="$1" bs=1 seek=$(($3)) conv=notrunc status=none; }

wait0=$(grep -m1 'function="MPI_Wait"' "$TMP/dump.txt")
wtime=$(grep -m1 'function="MPI_Wtime"' "$TMP/dump.txt")
iw=$(idx "$wtime")
send=$(awk -v iw="$iw" '/function="MPI_Send"/ { match($0, /index=[0-9]+/); if (substr($0, RSTART + 6, RLENGTH - 6) + 0 > iw) { print; exit } }' "$TMP/dump.txt")
is=$(idx "$send")
check "the trace has an MPI_Wait, then an MPI_Wtime, then an MPI_Send" test -n "$wait0" -a -n "$wtime" -a -n "$send"
check "its records carry a thread id (27 + 2 bytes before the arguments)" grep -q 'function="MPI_Send".* mask=79 ' <<<"$send"

# The MPI_Send after the MPI_Wtime given tag -16 (count, datatype, dest before it): reported.
cp "$rank0" "$TMP/tag.bin"
put "$TMP/tag.bin" '\xff\xff\xff\xf0' $(($(off "$send") + 29 + 10))
"$HPCVET" --strict "$TMP/tag.bin" >"$TMP/out" 2>&1
check "a send tag of -16 is reported" grep -q "warning\[dumpi.mpi.tag-range\]: rank 0 record $is (MPI_Send): tag -16" "$TMP/out"

# The MPI_Wtime made an MPI_Finalize (both have no arguments): the tag after it is not checked.
cp "$TMP/tag.bin" "$TMP/fin.bin"
put "$TMP/fin.bin" '\x00\x7d' $(off "$wtime")
"$HPCVET" --strict "$TMP/fin.bin" >"$TMP/out" 2>&1
check "the footer counts the bent record (the walk went on)" grep -q "MPI_Finalize: 2 record(s) in the stream" "$TMP/out"
check "after MPI_Finalize, the send's tag is not checked" bash -c "! grep -q 'dumpi.mpi.tag-range' '$TMP/out'"
check "and no MPI_Finalize is missing" bash -c "! grep -q 'dumpi.mpi.finalize-missing' '$TMP/out'"

# The first MPI_Wait given request 99: its Irecv's request is still active at that MPI_Finalize.
put "$TMP/fin.bin" '\x00\x00\x00\x63' $(($(off "$wait0") + 29))
"$HPCVET" --strict "$TMP/fin.bin" >"$TMP/out" 2>&1
check "a request active at MPI_Finalize names its record ($iw)" grep -q "dumpi.mpi.request-leaked\]: rank 0 record [0-9]* (MPI_Irecv): request [0-9]* is still active at MPI_Finalize (record $iw)" "$TMP/out"

done_testing
