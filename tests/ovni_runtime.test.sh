#!/usr/bin/env bash
# The generator's runtime-shaped trace (--what=ovni-trace-runtime: one loom,
# nOS-V and Nanos6 processes, tasks, pauses, CPU hand-offs, kernel events)
# passes --strict at several seeds and sizes (its nOS-V main thread's OCn
# with 8 payload bytes, as nOS-V 4.1 writes it, included), with the event model run on
# it (its task, CPU and thread rules evaluated, not skipped), keeps the
# real sample's event rates, and a break of one event is caught.
source "$(dirname "$0")/lib.sh"

for seed in 1 7; do
	for len in 1 400 5000; do
		rm -rf "$TMP/rt"
		"$GEN" --what=ovni-trace-runtime --seed=$seed --trace-len=$len -o "$TMP/rt" >/dev/null 2>&1
		expect_exit 0 "runtime trace seed $seed length $len passes --strict" "$HPCVET" --strict -q "$TMP/rt"
	done
done
# the nOS-V main thread counts the CPUs as nOS-V 4.1 does: OCn with 8 payload
# bytes, where the 1.14 table declares OCn(i32 cpu); ovniemu 1.14 ignores the
# event, and the trace above passed --strict with it
check "the nOS-V main thread writes OCn with 8 payload bytes" python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read(); o = 8; n = 0
while o + 12 <= len(b):
    f = b[o]
    if b[o+1:o+4] == b'OCn' and not f & 0x10 and (f & 15) + 1 == 8: n += 1
    o += 16 + struct.unpack_from('<I', b, o + 12)[0] if f & 0x10 else 12 + ((f & 15) + 1 if f & 15 else 0)
sys.exit(0 if n == 1 else 1)
" "$TMP/rt/loom.node0/proc.18821/thread.18821/stream.obs"
"$HPCVET" --certify --format=json "$TMP/rt" >"$TMP/cert.json" 2>/dev/null
for rule in ovni.model.task-unknown ovni.model.cpu-shared ovni.model.thread-state ovni.model.remote-thread ovni.model.remote-same-cpu ovni.model.out-of-cpu; do
	n=$(awk -v r="\"$rule\"" '$0 ~ r { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }' "$TMP/cert.json")
	check "$rule evaluated on the runtime trace (${n:-0} times)" test "${n:-0}" -gt 10
done
# The shape: the generated trace's rates per 1000 events of the runtime's
# habits (pauses, hand-offs, kernel switches, tasks, flushes) within a factor
# 2 of the real sample's (bench/ovni-runtime-stats.py on both).
sample="$SHARED/real-samples/ovni/libovni-runtime-mix"
if [ -d "$sample" ]; then
	rm -rf "$TMP/shape"
	"$GEN" --what=ovni-trace-runtime --trace-len=10000 -o "$TMP/shape" >/dev/null 2>&1
	python3 "$ROOT/bench/ovni-runtime-stats.py" "$sample" >"$TMP/want" 2>&1
	python3 "$ROOT/bench/ovni-runtime-stats.py" "$TMP/shape" >"$TMP/got" 2>&1
	for k in OHp OHc OAs OAr KCO VTc 6Tc VTp 6Tp OM[ OF[ OU[; do
		w=$(grep '^per 1000 events:' "$TMP/want" | tr ' ' '\n' | awk -F: -v k="$k" '$1 == k { print $2 }')
		g=$(grep '^per 1000 events:' "$TMP/got" | tr ' ' '\n' | awk -F: -v k="$k" '$1 == k { print $2 }')
		check "$k per 1000 events: generated ${g:-none} vs sample ${w:-none}, within a factor 2" \
			awk -v w="${w:-0}" -v g="${g:-0}" 'BEGIN { exit !(w > 0 && g >= w / 2 && g <= w * 2) }'
	done
	# how many events in a row one stream leads the loom's clock-ordered merge
	w=$(python3 "$ROOT/bench/ovni-mix.py" "$sample" | awk '/^ALL:/ { print $8 }')
	g=$(python3 "$ROOT/bench/ovni-mix.py" "$TMP/shape" | awk '/^ALL:/ { print $8 }')
	check "events per merge run: generated ${g:-none} vs sample ${w:-none}, within a factor 2" \
		awk -v w="${w:-0}" -v g="${g:-0}" 'BEGIN { exit !(w > 0 && g >= w / 2 && g <= w * 2) }'
else
	skip "shape: $sample not present (set HV_SHARED)"
fi
# Memory per task (validator/ovni/model/model.h): the model keeps a 4-byte slot
# per task ever created and a record only while a task runs or is paused,
# so peak RSS grows by a few bytes a task, not by a record (about 70 bytes
# a task when every task kept one). ~190 k tasks against ~2 k: under 24
# bytes a task of RSS growth, with room for the allocator and the noise.
if [ -x /usr/bin/time ]; then
	rm -rf "$TMP/mem" "$TMP/mem0"
	"$GEN" --what=ovni-trace-runtime --trace-len=400000 -o "$TMP/mem" >/dev/null 2>&1
	"$GEN" --what=ovni-trace-runtime --trace-len=4000 -o "$TMP/mem0" >/dev/null 2>&1
	tasks=$("$HPCVET" --certify --format=json "$TMP/mem" 2>/dev/null |
		awk '/"ovni\.model\.task-duplicate"/ { f = 1 } f && /"evaluated"/ { gsub(/[^0-9]/, ""); print; exit }')
	/usr/bin/time -f %M -o "$TMP/rss" "$HPCVET" -q -j1 "$TMP/mem" >/dev/null 2>&1
	big=$(tail -1 "$TMP/rss")
	/usr/bin/time -f %M -o "$TMP/rss" "$HPCVET" -q -j1 "$TMP/mem0" >/dev/null 2>&1
	small=$(tail -1 "$TMP/rss")
	check "peak RSS grows under 24 bytes a task (${tasks:-?} tasks: $small -> $big KiB)" \
		awk -v b="${big:-0}" -v s="${small:-0}" -v n="${tasks:-0}" 'BEGIN { exit !(n > 100000 && b > 0 && (b - s) * 1024 / n < 24) }'
	rm -rf "$TMP/mem" "$TMP/mem0"
else
	skip "peak RSS per task: /usr/bin/time (GNU time) not found"
fi
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
