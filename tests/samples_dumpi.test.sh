#!/usr/bin/env bash
# Real DUMPI traces (../shared/real-samples/dumpi) must be accepted: every
# .bin alone, every .meta (expanded to its trace), every trace folder.
# Skips cleanly when ../shared is absent.
source "$(dirname "$0")/lib.sh"

dir="$SHARED/real-samples/dumpi"
need_samples "$dir"
nbin=0
nmeta=0
for f in "$dir"/*/*.bin; do
	[ -f "$f" ] || continue
	nbin=$((nbin + 1))
	expect_exit 0 "$f is conforming" "$HPCVET" "$f"
	check "$f: read as a DUMPI .bin" grep -q "conforming (dumpi .bin, v" "$TMP/out"
done
for f in "$dir"/*/*.meta; do
	[ -f "$f" ] || continue
	nmeta=$((nmeta + 1))
	expect_exit 0 "$f (whole trace) is conforming" "$HPCVET" "$f"
	check "$f: read as a DUMPI trace" grep -q "conforming (dumpi trace, v" "$TMP/out"
	d=$(dirname "$f")
	expect_exit 0 "$d is conforming" "$HPCVET" --strict "$d"
	check "$d: no error or warning" grep -q "conforming (dumpi trace" "$TMP/out"
done
# at least the six traces of real-samples/README.md (4 ranks each)
check "24 real .bin files found" test "$nbin" -ge 24
check "6 real .meta files found" test "$nmeta" -ge 6
# The macOS test trace used gettimeofday: the epoch-clock note says so.
expect_exit 0 "testtrace-0000.bin" "$HPCVET" "$dir/sst-dumpi-testtrace/testtrace-0000.bin"
check "epoch clock noted" grep -q "dumpi.time.clock-epoch" "$TMP/out"
# The Linux trace used CLOCK_MONOTONIC: no clock note.
expect_exit 0 "tauferlab rank 0" "$HPCVET" "$dir"/tauferlab-alltoall-run0/*-0000.bin
check "monotonic clock: no note" bash -c "! grep -q dumpi.time.clock-epoch '$TMP/out'"

# A copy of the trace with one rank missing breaks only numprocs.
cp -r "$dir/tauferlab-alltoall-run0" "$TMP/t"
chmod -R u+w "$TMP/t"
rm "$TMP"/t/*-0003.bin
expect_exit 1 "a missing rank is an error" "$HPCVET" "$TMP/t"
check "numprocs rule fired" grep -q "dumpi.meta.numprocs" "$TMP/out"
expect_exit 1 "also through the .meta path" "$HPCVET" "$TMP"/t/*.meta
# A folder holding two traces: a verdict line per trace, then the folder's.
mkdir -p "$TMP/two"
cp "$dir"/libdumpi-ring-np4/* "$dir"/tauferlab-alltoall-run0/* "$TMP/two/"
chmod -R u+w "$TMP/two"
rm "$TMP"/two/ring-np4-*-0001.bin
expect_exit 1 "two traces, one missing a rank" "$HPCVET" "$TMP/two"
check "the complete trace has its own conforming line" \
	grep -q "^$TMP/two/dumpi-2019.05.22.11.54.43.meta: conforming (dumpi trace, v8.1.0, 0 errors, 0 warnings, 0 notes)$" "$TMP/out"
check "the trace missing a rank has its own nonconforming line" \
	grep -q "^$TMP/two/ring-np4-.*\.meta: nonconforming (dumpi trace, v13.0.0, 1 error, 0 warnings, 0 notes)$" "$TMP/out"
check "the folder's line counts both" grep -q "^$TMP/two: nonconforming (1 error, 0 warnings)$" "$TMP/out"
# Bytes appended after the index make libundumpi refuse the file.
cp "$dir/sst-dumpi-testtrace/testtrace-0001.bin" "$TMP/pad.bin"
chmod u+w "$TMP/pad.bin"
printf 'padding!' >>"$TMP/pad.bin"
expect_exit 1 "trailing bytes" "$HPCVET" "$TMP/pad.bin"
check "index magic rule fired" grep -q "dumpi.index.magic" "$TMP/out"
done_testing
