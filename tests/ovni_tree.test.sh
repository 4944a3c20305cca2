#!/usr/bin/env bash
# ovni trace trees through the CLI: the recursive directory walk, ovniemu's
# own outputs skipped, single streams and stream directories, v1 files with
# and without header, FIFOs and symlink loops reported instead of blocking or
# looping, and HPCToolkit databases still recognised by their own family.
source "$(dirname "$0")/lib.sh"

"$GEN" --what=ovni-trace --seed=2 -o "$TMP/t3" || not_ok "generate v3 trace"
expect_exit 0 "v3 trace conforms" "$HPCVET" "$TMP/t3"
check "v3 trace detected" grep -q "^$TMP/t3: conforming (ovni trace, v3," "$TMP/out"
check "the generated tree is nested" test -f "$TMP/t3/loom.node0.ovni/proc.1000/thread.1000/stream.obs"
check "clock offsets written for even seeds" test -f "$TMP/t3/clock-offsets.txt"

# ovniemu writes its outputs into the trace directory: they are not streams.
mkdir -p "$TMP/t3/cfg/cpu/ovni"
head -c 1000 /dev/urandom >"$TMP/t3/cpu.prv"
head -c 1000 /dev/urandom >"$TMP/t3/thread.pcf"
echo "junk" >"$TMP/t3/cpu.row"
echo '{ not json' >"$TMP/t3/cfg/cpu/ovni/stream.json"
expect_exit 0 "ovniemu outputs (*.prv *.pcf *.row cfg/) are skipped" "$HPCVET" "$TMP/t3"

# Clock offsets are added per hostname (loom name up to its first dot)
# before the 1-hour clock gate.
"$GEN" --what=ovni-trace --seed=1 -o "$TMP/off"
check "seed 1: two looms" test -d "$TMP/off/loom.node1.ovni"
printf 'rank hostname offset_median offset_mean offset_std\n0 node0 0 0 0\n1 node1 10800000000000 0 0\n' >"$TMP/off/clock-offsets.txt"
expect_exit 1 "a 3 h offset trips the clock gate" "$HPCVET" "$TMP/off"
check "clock gate names the delta" grep -q "error\[ovni.tree.clock-gate\]: first event is 3.00 h away" "$TMP/out"
printf 'rank hostname offset_median offset_mean offset_std\n0 node0 0 0 0\n\n1 node1 1800000000000 0.5 1\n' >"$TMP/off/clock-offsets.txt"
expect_exit 0 "a 30 min offset passes" "$HPCVET" "$TMP/off"
printf 'rank hostname offset_median offset_mean offset_std\n0 node0 0 0 0\n1 node0 0 0 0\n' >"$TMP/off/clock-offsets.txt"
expect_exit 1 "a repeated hostname" "$HPCVET" "$TMP/off"
check "repeated hostname reported" grep -q "error\[ovni.tree.clock-offsets\]: line 3: hostname 'node0' already has an entry" "$TMP/out"

# One stream directory, one stream.obs, one stream.json.
one="$TMP/t3/loom.node0.ovni/proc.1000/thread.1000"
expect_exit 0 "a single stream directory" "$HPCVET" "$one"
expect_exit 0 "a single stream.obs" "$HPCVET" "$one/stream.obs"
check "stream.obs detected" grep -q "conforming (ovni stream, v1," "$TMP/out"
expect_exit 0 "a single stream.json" "$HPCVET" "$one/stream.json"

# A broken stream deep inside the tree is found, with its relative path.
cp -r "$TMP/t3" "$TMP/bad"
printf 'x' >>"$TMP/bad/loom.node0.ovni/proc.1000/thread.1000/stream.obs"
expect_exit 1 "a truncated event deep in the tree" "$HPCVET" "$TMP/bad"
check "diagnostic names the stream file" grep -q "thread.1000/stream.obs:0x[0-9a-f]*: error\[ovni.obs.event-truncated\]: .*11 missing" "$TMP/out"

# A stream of another part is ignored by ovniemu, but not if it holds events.
cp -r "$TMP/t3" "$TMP/part"
sed -i 's/"part": "thread"/"part": "process"/' "$TMP/part/loom.node0.ovni/proc.1000/thread.1000/stream.json"
expect_exit 1 "a non-thread stream with events" "$HPCVET" "$TMP/part"
check "part-unknown is an error there" grep -q "error\[ovni.json.part-unknown\]: the stream of part \"process\" holds" "$TMP/out"
: >"$TMP/part/loom.node0.ovni/proc.1000/thread.1000/stream.obs"
printf 'ovni\001\000\000\000' >"$TMP/part/loom.node0.ovni/proc.1000/thread.1000/stream.obs"
expect_exit 0 "a non-thread stream without events is only a warning" "$HPCVET" "$TMP/part"

# JSON diagnostics give line and column.
"$GEN" --what=ovni-json --break=ovni.json.tid -o "$TMP/tid.json"
expect_exit 1 "negative tid" "$HPCVET" "$TMP/tid.json"
check "line and column in the message" grep -Eq "error\[ovni.json.tid\]: line [0-9]+, column 9: " "$TMP/out"

# v1 trees, with and without the 8-byte header in thread files.
"$GEN" --what=ovni-trace-v1 --seed=1 -o "$TMP/v1h" && "$GEN" --what=ovni-trace-v1 --seed=2 -o "$TMP/v1n"
expect_exit 0 "v1 tree (thread.TID with header)" "$HPCVET" "$TMP/v1h"
check "v1 detected" grep -q "conforming (ovni trace, v1," "$TMP/out"
check "v1 thread files without extension" test -f "$TMP/v1h/loom.node0.ovni/proc.1000/thread.1000"
first=$(find "$TMP/v1n" -name 'thread.*.obs' | sort | head -n 1)
check "v1 .obs thread files (even seeds)" test -n "$first"
check "even seeds write no header" bash -c "[ \"\$(head -c 4 '$first')\" != ovni ]"
expect_exit 0 "v1 thread files without the header" "$HPCVET" "$TMP/v1n"
h="$TMP/v1h/loom.node0.ovni/proc.1000/thread.1000"
tail -c +9 "$h" >"$TMP/noheader" && cp "$TMP/noheader" "$h"
expect_exit 0 "v1 tree mixing files with and without header" "$HPCVET" "$TMP/v1h"
"$GEN" --what=ovni-trace-v2 -o "$TMP/v2"
expect_exit 0 "v2 tree" "$HPCVET" "$TMP/v2"

# Special files are reported (exit 3), never waited on; loops never followed.
cp -r "$TMP/t3" "$TMP/fifo"
mkfifo "$TMP/fifo/loom.node0.ovni/pipe"
expect_exit 3 "a FIFO in a tree" timeout 10 "$HPCVET" "$TMP/fifo"
check "the FIFO is named" grep -q "pipe: not a regular file or directory (FIFO)" "$TMP/out"
cp -r "$TMP/t3" "$TMP/loop"
ln -s .. "$TMP/loop/loom.node0.ovni/up"
expect_exit 3 "a symlink loop in a tree" timeout 10 "$HPCVET" "$TMP/loop"
check "the loop is named" grep -q "symlink loop" "$TMP/out"
expect_exit 3 "a FIFO given directly" timeout 10 "$HPCVET" "$TMP/fifo/loom.node0.ovni/pipe"

deep="$TMP/deep"
for i in $(seq 1 70); do deep="$deep/d"; done
mkdir -p "$deep" && cp "$one/stream.obs" "$deep/"
expect_exit 3 "a tree deeper than 64 directories" "$HPCVET" "$TMP/deep"
check "the depth limit is named" grep -q "deeper than 64 directories" "$TMP/out"

# HPCToolkit database directories are not claimed by ovni.
mkdir -p "$TMP/db/src"
"$GEN" --what=metadb -o "$TMP/db/meta.db"
echo "notes" >"$TMP/db/src/README"
expect_exit 0 "HPCToolkit database with a subdirectory" "$HPCVET" "$TMP/db"
check "HPCToolkit family chosen" grep -q "conforming (hpctoolkit database" "$TMP/out"

done_testing
