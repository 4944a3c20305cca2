#!/usr/bin/env bash
# The generator's runtime-shaped trace (--what=ovni-trace-runtime: one loom,
# nOS-V and Nanos6 processes, tasks, pauses, CPU hand-offs, kernel events)
# passes --strict at several seeds and sizes, with the event model run on
# it (its task, CPU and thread rules evaluated, not skipped), and a break of
# one event is caught.
source "$(dirname "$0")/lib.sh"

for seed in 1 7; do
	for len in 1 400 5000; do
		rm -rf "$TMP/rt"
		"$GEN" --what=ovni-trace-runtime --seed=$seed --trace-len=$len -o "$TMP/rt" >/dev/null 2>&1
		expect_exit 0 "runtime trace seed $seed length $len passes --strict" "$HPCVET" --strict -q "$TMP/rt"
	done
done
"$HPCVET" --certify --format=json "$TMP/rt" >"$TMP/cert.json" 2>/dev/null
for rule in ovni.model.task-unknown ovni.model.cpu-shared ovni.model.thread-state ovni.model.remote-thread ovni.model.out-of-cpu; do
	n=$(awk -v r="\"$rule\"" '$0 ~ r { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }' "$TMP/cert.json")
	check "$rule evaluated on the runtime trace (${n:-0} times)" test "${n:-0}" -gt 10
done
# A worker that forgets it was paused: the model must see it.
obs=$(find "$TMP/rt" -path '*thread.18823/stream.obs')
off=$(python3 -c "
import sys, struct
b = open(sys.argv[1], 'rb').read(); o = 8
while o + 12 <= len(b):
    f = b[o]
    if b[o+1:o+4] == b'OHr': print(o); break
    o += 16 + struct.unpack_from('<I', b, o + 12)[0] if f & 0x10 else 12 + ((f & 15) + 1 if f & 15 else 0)
" "$obs")
printf 'OHp' | dd of="$obs" bs=1 seek=$((off + 1)) conv=notrunc status=none
expect_exit 1 "an OHr rewritten as OHp is an error" "$HPCVET" --strict -q "$TMP/rt"
done_testing
