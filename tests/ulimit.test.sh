#!/usr/bin/env bash
# Memory limits never change a verdict: a large generated input of each
# family is validated under `ulimit -v` from 4 MiB upward, and
# every run gives the report of the run without a limit, or exit 4 whose
# problem names what could not be checked and how much memory it wanted --
# never a verdict from fewer rules. (`ulimit -v` caps the address space; the
# sanitizer build reserves terabytes of it, so it runs without this test.)
source "$(dirname "$0")/lib.sh"

if is_san_build; then
	skip "the sanitizer build's shadow memory does not fit under ulimit -v"
	done_testing
	exit
fi

"$GEN" --what=hpctoolkit-db --contexts=8000 --profiles=16 -o "$TMP/db" >/dev/null
"$GEN" --what=ovni-trace-runtime --profiles=12 --trace-len=40000 -o "$TMP/ovni" >/dev/null
"$GEN" --what=dumpi-trace --contexts=100000 --profiles=8 -o "$TMP/dumpi" >/dev/null
for input in db ovni dumpi; do
	"$HPCVET" -j1 --format=json "$TMP/$input" >"$TMP/$input.full" 2>/dev/null
	full_rc=$?
	check "$input: unlimited run gives a verdict (exit $full_rc)" test "$full_rc" -le 1
	bytes=$(du -sb "$TMP/$input" | cut -f1)
	last=""
	for mib in 4 6 8 12 16 32 64 128 256 512; do
		(ulimit -v $((mib * 1024)) && exec "$HPCVET" -j1 --format=json "$TMP/$input") >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ "$rc" -eq "$full_rc" ] && cmp -s "$TMP/out" "$TMP/$input.full"; then
			ok
			last="$last, full report from $mib MiB"
			break
		elif [ "$rc" -eq 4 ] && { grep -q '"problem":.*out of memory.*bytes' "$TMP/out" ||
			grep -q 'out of memory' "$TMP/err"; }; then
			ok
			last="$last, exit 4 at $mib MiB ($(grep -ho 'out of memory[^"]*' "$TMP/out" "$TMP/err" | head -1 | cut -c1-90))"
		elif [ "$rc" -eq 3 ] && grep -q 'out of memory' "$TMP/out" "$TMP/err"; then
			ok
			last="$last, exit 3 (out of memory opening) at $mib MiB"
		elif [ "$rc" -eq 127 ] && grep -q 'error while loading shared libraries' "$TMP/err"; then
			ok # the loader could not map hpcvet's libraries: nothing ran
			last="$last, could not start at $mib MiB"
		else
			not_ok "$input ($bytes bytes) under ulimit -v $mib MiB: exit $rc (unlimited: $full_rc), a different report"
			diff <(tr ',' '\n' <"$TMP/$input.full") <(tr ',' '\n' <"$TMP/out") | head -6
			head -3 "$TMP/err"
		fi
	done
	echo "$input ($bytes bytes)${last}"
done
done_testing
