#!/usr/bin/env bash
# Prints how many FILEs take at least SECONDS of CPU time in TARGET's
# sanitized regression driver (build-san/fuzz/regress_TARGET; the plain
# build's if that is absent). Both fuzzing engines time inputs by the wall
# clock, so an input they report as slow or hung on a busy machine (a
# campaign at nice 19, a CI smoke at idle priority) counts only if this
# replay confirms it. A replay is stopped a few CPU-seconds over SECONDS
# (ulimit -t): an input that never returns is confirmed, not waited for.
#   usage: fuzz/confirm-slow.sh TARGET SECONDS FILE...
set -u
cd "$(dirname "$0")/.."
t=$1 lim=$2 drv=build-san/fuzz/regress_$1 n=0
shift 2
[ -x "$drv" ] || drv=build/fuzz/regress_$t
cap=$(awk -v l="$lim" 'BEGIN { printf "%d", l + 2 }')
# time's own report goes to a file: the driver's stderr is discarded, and
# time writes to the same stderr.
tf=$(mktemp)
trap 'rm -f "$tf"' EXIT
for f in "$@"; do
	[ -f "$f" ] || continue
	/usr/bin/time -o "$tf" -f '%U %S' bash -c 'ulimit -t "$1"; exec "$2" "$3"' _ "$cap" "$drv" "$f" >/dev/null 2>&1
	cpu=$(tail -1 "$tf" | awk '{ print $1 + $2 }')
	awk -v c="${cpu:-0}" -v l="$lim" 'BEGIN { exit !(c >= l) }' && n=$((n + 1))
done
echo $n
