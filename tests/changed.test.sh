#!/usr/bin/env bash
# A file rewritten while hpcvet reads it is never judged: a writer
# (build/tests/preload_rewrite.so, an LD_PRELOAD interposer of open) flips
# one byte in place (same size) of a database's profile.db, an ovni
# stream.obs and a DUMPI rank file at their 2nd to 6th opening (each pass,
# thread and hash re-opens a file read through windows; the points past the
# last opening are not reached and the test says how many were). Every
# point reached: exit 3 and "FILE: changed while it was read" in the report,
# for validation at -j1 and -j2, certify (and then no SHA-256 anywhere) and
# dump, in every report format, and under hpcvet-mpi (mpirun -np 2, the
# writer in rank 0 or rank 1). A copy renamed over the file (another inode)
# is found too. No false positives: the same inputs read by another reader
# meanwhile (access times move), the unchanged inputs and the real samples
# on the shared read-only folder give the report of a run without the
# interposer, byte for byte. hpcvet-mpi: a file rewritten after rank 0
# read it and before rank 1 opened it is found by comparing the ranks'
# identities; a rank killed mid-run (SIGKILL) fails the run with no report. The writer waits past the coarse clock's
# tick before it writes, as a real writer still writing is (README, "Files
# that change while they are read"). Plain build only (a sanitizer build
# interposes open itself); the MPI part skips without mpirun.
source "$(dirname "$0")/lib.sh"

PRE="$BUILD/tests/preload_rewrite.so"
if is_san_build || [ ! -f "$PRE" ]; then
	skip "no $PRE (the interposer is built in the plain build only)"
	done_testing
	exit
fi

W=$TMP/w
# inputs whose files are read through windows (larger than the 1 MiB read
# whole in a directory input), so they are opened again and again
"$GEN" --what=hpctoolkit-db --contexts=400 --profiles=24 --metrics=8 -o "$TMP/db.d" >/dev/null
"$GEN" --what=ovni-trace --trace-len=40000 -o "$TMP/ov" >/dev/null
"$GEN" --what=dumpi-trace --contexts=30000 --profiles=2 -o "$TMP/dt" >/dev/null
# input name, the file rewritten (relative to it)
cases=("db.d profile.db" "ov loom.node0.ovni/proc.1000/thread.1000/stream.obs"
	"dt dumpi-2019.05.22.11.54.43-0000.bin")
for c in "${cases[@]}"; do
	set -- $c
	check "$1/$2 is read through windows (over 1 MiB)" test "$(stat -c %s "$TMP/$1/$2")" -gt 1048576
done

# at N [ENV=VALUE...] -- COMMAND...: run COMMAND on a fresh copy $W of the
# input in $in with the writer at the Nth opening of $W/$file ($W when $file
# is empty: a one-file input); $TMP/out,
# $TMP/err, $rc; $TMP/mark says whether the writer acted.
at() {
	local n=$1
	shift
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	rm -rf "$W" "$TMP/mark"
	cp -r "$TMP/$in" "$W"
	env HV_REWRITE_PATH="$W${file:+/$file}" HV_REWRITE_AT="$n" HV_REWRITE_MARK="$TMP/mark" LD_PRELOAD="$PRE" "${env[@]}" \
		"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# points DESC [ENV...] -- COMMAND...: the writer at the 2nd to 6th opening;
# each point reached must give exit 3 and the message naming the file (in
# the report, or for hpcvet-mpi ranks that diverged, on stderr), and no
# SHA-256 (certify); at least the 2nd opening must be reached.
points() {
	local desc=$1 reached=0 n
	shift
	for n in ${PTS:-2 3 4 5 6}; do
		at "$n" "$@"
		[ -s "$TMP/mark" ] || break
		reached=$((reached + 1))
		# (LC_ALL=C: the digest's pattern is ASCII; in a UTF-8 locale GNU
		# grep took 7 CPU-s on a dump's 109 MB of JSON, 0.2 in C.)
		if [ "$rc" -eq 3 ] && grep -qF "$W/$file: changed while it was read" "$TMP/out" "$TMP/err" &&
			! LC_ALL=C grep -qE '[0-9a-f]{64}' "$TMP/out"; then ok; else
			not_ok "$desc, rewritten at opening $n: exit $rc, want 3 with \"changed while it was read\" (and no digest)"
			head -c 600 "$TMP/out"
			head -5 "$TMP/err"
		fi
	done
	check "$desc: the writer reached the 2nd opening ($reached points)" test "$reached" -ge 1
}

for c in "${cases[@]}"; do
	set -- $c
	in=$1 file=$2
	points "$in: validation -j1" -- "$HPCVET" -j1 --format=json "$W"
	points "$in: validation -j2" -- "$HPCVET" -j2 "$W"
	points "$in: certify" -- "$HPCVET" certify --format=json "$W"
	PTS="2 4" points "$in: certify -j2, text" -- "$HPCVET" certify -j2 "$W"
	points "$in: dump" -- "$HPCVET" dump --format=json "$W"
	# every report format says it
	for fmt in text json sarif junit github; do
		at 2 -- "$HPCVET" -j1 --format=$fmt "$W"
		if [ "$rc" -eq 3 ] && [ -s "$TMP/mark" ] && grep -qF "changed while it was read" "$TMP/out"; then ok; else
			not_ok "$in: --format=$fmt, rewritten at opening 2: exit $rc, want 3 and the message in the report"
		fi
	done
	# a copy renamed over the file: same bytes, another inode
	at 2 HV_REWRITE_MODE=replace -- "$HPCVET" -j1 "$W"
	check "$in: a copy renamed over $file at opening 2: exit 3 ($rc)" test "$rc" -eq 3 -a -s "$TMP/mark"
	# another reader meanwhile is no change: the report of a run without it
	rm -rf "$W" && cp -r "$TMP/$in" "$W"
	"$HPCVET" -j1 --format=json "$W" >"$TMP/ref" 2>/dev/null
	want=$?
	at 2 HV_REWRITE_MODE=read -- "$HPCVET" -j1 --format=json "$W"
	if [ "$rc" -eq "$want" ] && cmp -s "$TMP/ref" "$TMP/out" && [ -s "$TMP/mark" ]; then ok; else
		not_ok "$in: read by another reader at opening 2: exit $rc (want $want), report differs or no read"
	fi
	check "$in unchanged: no change found (exit $want)" test "$want" -ne 3
done

# The real samples (a read-only folder): the same report with and without
# the interposer counting every opening, at -j1 and -j2, and certify.
samples=()
for d in hpctoolkit/loops-cputime-t.d ovni/libovni-runtime-mix dumpi/libdumpi-lammps-lj-np4; do
	[ -e "$SHARED/real-samples/$d" ] && samples+=("$SHARED/real-samples/$d")
done
if [ "${#samples[@]}" -eq 0 ]; then
	skip "no real samples (set HV_SHARED to the shared folder)"
else
	for s in "${samples[@]}"; do
		for args in "-j1 --format=json" "-j2 --format=json" "certify --format=json"; do
			# shellcheck disable=SC2086
			"$HPCVET" $args "$s" >"$TMP/ref" 2>/dev/null
			r1=$?
			# shellcheck disable=SC2086
			HV_REWRITE_PATH=/nothing/ HV_REWRITE_AT=1 LD_PRELOAD="$PRE" "$HPCVET" $args "$s" >"$TMP/out" 2>/dev/null
			r2=$?
			if [ "$r1" -eq "$r2" ] && [ "$r1" -ne 3 ] && cmp -s "$TMP/ref" "$TMP/out"; then ok; else
				not_ok "real sample $s ($args): exit $r1 / $r2, or reports differ"
			fi
		done
	done
fi

# After the verdict: the reports that show a finding's bytes read them
# again; from a file rewritten (or replaced) since it was checked they show
# none and say so (the verdict stands: it was made on one consistent set of
# bytes). The small files are read whole, so the report's reading is the
# 2nd opening. Read meanwhile by another reader, the bytes are shown.
cp "$ROOT/golden/cases/hpctoolkit/n_metadb.ctx.children-contained_01.db" "$TMP/one.db"
cp -r "$ROOT/golden/cases/hpctoolkit/n_hpctkdb.values.execution_01.d" "$TMP/nd.d"
"$HPCVET" --format=json "$TMP/nd.d" >"$TMP/nd.json"
nd_file=$(jq -r '.inputs[0].diagnostics[0].file | sub(".*/"; "")' "$TMP/nd.json")
for c in "one.db" "nd.d $nd_file"; do
	set -- $c
	in=$1 file=${2:-}
	hexrow='^    0x[0-9a-f]{6}  [0-9a-f]{2} '
	for mode in rewrite replace; do # (the interposer's mode "" rewrites in place)
		what="rewritten in place"
		[ "$mode" = replace ] && what="replaced by a copy"
		at 2 HV_REWRITE_MODE="${mode#rewrite}" -- "$HPCVET" --context --color=never "$W"
		if [ "$rc" -eq 1 ] && [ -s "$TMP/mark" ] && grep -qF "(the file changed after it was checked: its bytes now are not the ones judged, so none are shown)" "$TMP/out" &&
			! grep -qE "$hexrow" "$TMP/out"; then ok; else
			not_ok "$in: ${file:-the file} $what after the verdict, before the hex view: exit $rc (want 1), want no bytes and the line that says why"
			head -8 "$TMP/out"
		fi
		at 2 HV_REWRITE_MODE="${mode#rewrite}" -- "$HPCVET" --format=html "$W"
		if [ "$rc" -eq 1 ] && [ -s "$TMP/mark" ] && grep -qF '"changed"]' "$TMP/out"; then ok; else
			not_ok "$in: ${file:-the file} $what after the verdict, before the HTML report's bytes: exit $rc (want 1), want \"changed\" for its bytes"
		fi
	done
	at 2 HV_REWRITE_MODE=read -- "$HPCVET" --context --color=never "$W"
	if [ "$rc" -eq 1 ] && [ -s "$TMP/mark" ] && grep -qE "$hexrow" "$TMP/out" && ! grep -q "none are shown" "$TMP/out"; then ok; else
		not_ok "$in: read by another reader after the verdict: exit $rc (want 1), want the bytes shown"
	fi
done

if ! have_mpi; then
	skip "hpcvet-mpi not built (no mpicc, or the sanitizer build) or no mpirun"
	done_testing
	exit
fi

# hpcvet-mpi: each rank opens the files itself; the writer in one rank
# (a DUMPI rank file is read by the process of its rank). The 2nd to 6th
# opening in rank 1 for the database, the 2nd and 4th otherwise (each
# mpirun costs a second or two).
for c in "${cases[@]}"; do
	set -- $c
	in=$1 file=$2
	for rank in 1 0; do
		[ "$in" = dt ] && file=dumpi-2019.05.22.11.54.43-000$rank.bin
		PTS="2 4"
		[ "$in" = db.d ] && [ "$rank" = 1 ] && PTS="2 3 4 5 6"
		points "$in: hpcvet-mpi -np 2, the writer in rank $rank" HV_REWRITE_RANK=$rank -- \
			"${MPIRUN[@]}" -np 2 -x HV_REWRITE_PATH -x HV_REWRITE_AT -x HV_REWRITE_MARK -x HV_REWRITE_RANK \
			-x LD_PRELOAD "$MPI" --format=json "$W"
	done
	PTS="2 4"
	[ "$in" = dt ] && file=dumpi-2019.05.22.11.54.43-0001.bin
	points "$in: hpcvet-mpi -np 2 certify" HV_REWRITE_RANK=1 -- \
		"${MPIRUN[@]}" -np 2 -x HV_REWRITE_PATH -x HV_REWRITE_AT -x HV_REWRITE_MARK -x HV_REWRITE_RANK \
		-x LD_PRELOAD "$MPI" certify --format=json "$W"
	unset PTS
	# unchanged: the report of hpcvet -j1
	"$HPCVET" -j1 --format=json "$TMP/$in" >"$TMP/ref" 2>/dev/null
	want=$?
	"${MPIRUN[@]}" -np 2 "$MPI" --format=json "$TMP/$in" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq "$want" ] && cmp -s "$TMP/ref" "$TMP/out"; then ok; else
		not_ok "$in unchanged under hpcvet-mpi -np 2: exit $rc (want $want) or the report differs"
		head -3 "$TMP/err"
	fi
done

# Several inputs, each checked whole by one rank: rank 0 writes the report
# and knows the identities of what it checked only, so the bytes of the
# other rank's findings are not shown, and the report says why.
"${MPIRUN[@]}" -np 2 "$MPI" --context --color=never "$TMP/one.db" "$TMP/nd.d" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -qE "$hexrow" "$TMP/out" &&
	grep -qF "(the file was checked by another process: the bytes judged are not at hand, so none are shown)" "$TMP/out"; then ok; else
	not_ok "hpcvet-mpi -np 2 --context, two inputs: exit $rc (want 1), want the bytes of rank 0's input and none of rank 1's"
	head -12 "$TMP/out"
fi

# A late writer: rank 1 opens a file only after rank 0 has read it and
# finished (an input no family claims: no exchange holds rank 0 back), and
# after the file was rewritten. Each rank read one consistent version, not
# the same one; the identities compared across the ranks say so.
mkdir -p "$TMP/g" && head -c 3000 /dev/urandom >"$TMP/g/junk.bin"
in=g file=junk.bin
at 1 HV_REWRITE_RANK=1 HV_REWRITE_DELAY_MS=1500 -- "${MPIRUN[@]}" -np 2 -x HV_REWRITE_PATH -x HV_REWRITE_AT \
	-x HV_REWRITE_MARK -x HV_REWRITE_RANK -x HV_REWRITE_DELAY_MS -x LD_PRELOAD "$MPI" "$W"
if [ "$rc" -eq 3 ] && [ -s "$TMP/mark" ] && grep -qF "$W/$file: changed while it was read" "$TMP/out"; then ok; else
	not_ok "a file rewritten between rank 0's reading and rank 1's opening: exit $rc, want 3 and the message"
	head -3 "$TMP/out" "$TMP/err"
fi

# A rank killed mid-run (at an opening of profile.db, while the ranks
# check their units): the run fails, and no report is written.
in=db.d file=profile.db
for rank in 1 0; do
	for n in 2 5; do
		rm -rf "$W" && cp -r "$TMP/$in" "$W"
		HV_KILL_PATH="$W/$file" HV_KILL_AT=$n HV_KILL_RANK=$rank LD_PRELOAD="$PRE" \
			"${MPIRUN[@]}" -np 2 -x HV_KILL_PATH -x HV_KILL_AT -x HV_KILL_RANK -x LD_PRELOAD \
			"$MPI" --format=json "$W" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ "$rc" -ne 0 ] && ! grep -q '"verdict"' "$TMP/out"; then ok; else
			not_ok "rank $rank killed at opening $n of $file: exit $rc, want non-zero and no report"
		fi
	done
done

done_testing
