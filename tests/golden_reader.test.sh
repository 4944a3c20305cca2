#!/usr/bin/env bash
# golden/run-reader.sh: hpcvet as the reader agrees with the corpus on every
# case; readers that accept everything, crash or hang are caught.
source "$(dirname "$0")/lib.sh"
RR="$ROOT/golden/run-reader.sh"
M="$ROOT/golden/cases/MANIFEST.json"
# Under the sanitizers the reader run covers a slice of the corpus (one
# process per case is slow there); corpus.test.sh already validates every
# case in that build, in one process.
only='.'
is_san_build && only='^(any|dumpi|ovni)/'
ny=$(jq --arg f "$only" '[.cases[] | select(.kind == "y" and (.path | test($f)))] | length' "$M")
nn=$(jq --arg f "$only" '[.cases[] | select(.kind == "n" and (.path | test($f)))] | length' "$M")

expect_exit 0 "hpcvet as the reader agrees with every case" bash "$RR" --only="$only" "$HPCVET" -q
check "matrix: no SHOULD_HAVE_*, crash or hang" grep -q 'SHOULD_HAVE_PASSED 0, SHOULD_HAVE_FAILED 0, crashes 0, hangs 0 (i_ answered unlike hpcvet: 0)' "$TMP/out"
check "matrix: all y_ accepted ($ny)" grep -qE "^y_ +$ny +0 +0 +0$" "$TMP/out"
check "matrix: all n_ rejected ($nn)" grep -qE "^n_ +0 +$nn +0 +0$" "$TMP/out"

# The rest checks run-reader.sh itself and readers other than hpcvet: the
# same in every build, so the plain build runs it and the sanitizer build,
# where only hpcvet differs, skips it (CI time).
if is_san_build; then done_testing; exit; fi

# Readers that accept or reject everything run over the DUMPI and ovni slice
# (run-reader.sh's bookkeeping is the same for every family; CI time).
fake='^(any|dumpi|ovni)/'
ny_f=$(jq --arg f "$fake" '[.cases[] | select(.kind == "y" and (.path | test($f)))] | length' "$M")
nn_f=$(jq --arg f "$fake" '[.cases[] | select(.kind == "n" and (.path | test($f)))] | length' "$M")
check "the slice has cases of both kinds ($ny_f y_, $nn_f n_)" test "$ny_f" -gt 20 -a "$nn_f" -gt 50
# A reader that accepts everything: every n_ case SHOULD_HAVE_FAILED.
expect_exit 1 "an accept-all reader fails" bash "$RR" --only="$fake" true
check "accept-all: $nn_f SHOULD_HAVE_FAILED" grep -q "SHOULD_HAVE_FAILED $nn_f," "$TMP/out"
check "accept-all: lines name the cases" grep -qE '^SHOULD_HAVE_FAILED +dumpi/n_dumpi\.bin\.magic_01\.bin$' "$TMP/out"
# A reader that rejects everything: every y_ case SHOULD_HAVE_PASSED.
expect_exit 1 "a reject-all reader fails" bash "$RR" --only="$fake" false
check "reject-all: $ny_f SHOULD_HAVE_PASSED" grep -q "SHOULD_HAVE_PASSED $ny_f," "$TMP/out"
# Crashes (a signal, an unexpected code) and hangs, on a few cases.
printf '#!/bin/sh\nkill -SEGV $$\n' >"$TMP/crash.sh"
expect_exit 1 "a crashing reader fails" bash "$RR" --only='^dumpi/y_' sh "$TMP/crash.sh"
check "crashes are counted" grep -qE 'crashes [1-9]' "$TMP/out"
check "crash lines" grep -q '^CRASH (exit 139)' "$TMP/out"
printf '#!/bin/sh\nexec sleep 30\n' >"$TMP/hang.sh"
expect_exit 1 "a hanging reader fails" bash "$RR" --timeout=1 --only='^any/' sh "$TMP/hang.sh"
check "hangs are counted" grep -q 'hangs 1' "$TMP/out"
expect_exit 2 "no command is a usage error" bash "$RR"

# Content conformance: the example adapter (an independent stream.obs reader)
# reads the same events, clocks and MCVs as the content files of the ovni y_
# cases; a reader that gets one clock wrong is caught.
if command -v python3 >/dev/null; then
	AD="$ROOT/examples/content_reader_ovni.py"
	expect_exit 0 "content: the example ovni adapter reads what the content files hold" \
		bash "$RR" --content --only='^ovni/y_' python3 "$AD"
	check "content: cases were compared" grep -qE '^[1-9][0-9]* cases with content: CONTENT_DIFFERS 0, reader failed 0$' "$TMP/out"
	sed 's/"clock": struct.unpack_from("<Q", data, off + 4)\[0\]/"clock": struct.unpack_from("<Q", data, off + 4)[0] + (off == 8)/' \
		"$AD" >"$TMP/wrong_clock.py"
	check "the wrong-clock reader differs from the adapter" bash -c "! cmp -s '$AD' '$TMP/wrong_clock.py'"
	expect_exit 1 "content: a reader with one wrong clock per stream fails" \
		bash "$RR" --content --only='^ovni/y_ovni-stream' python3 "$TMP/wrong_clock.py"
	check "content: the mismatch is named" grep -qE '^ +MISMATCH .* event@8 clock: reader [0-9]+, expected [0-9]+$' "$TMP/out"
	expect_exit 1 "content: a reader that refuses fails" bash "$RR" --content --only='^ovni/y_ovni-stream' false
	check "content: READER_FAILED lines" grep -q '^READER_FAILED (exit 1)' "$TMP/out"
fi
done_testing
