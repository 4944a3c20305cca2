#!/usr/bin/env bash
# A file that changes while the web page (make web) validates it is never
# judged, in headless Chromium (tests/web_changed.py): a DUMPI rank file
# and an ovni stream modified in place, truncated, replaced by a rename and
# deleted while the core reads them, and the rank file modified or deleted
# after the checks, before the page reads it again for a certificate's
# SHA-256. The change lands inside the run, not by a race: the test serves
# the page's worker with a pause of its own before it
# (tests/web_changed_hook.js, never part of the built page), which holds
# the worker at a chosen read until the file is changed. Each: exit 3, the
# input unreadable, "FILE: changed while it was read" as on the command
# line (tests/changed.test.sh), no SHA-256; and the same pause with no
# change gives the CLI's report and certificate. The three ways the page reads:
# read ahead (cross-origin isolated), FileReaderSync and JSPI (served plainly).
# Skipped, visibly, as tests/web.test.sh is: without Chromium, its driver,
# Python's Selenium or the built page, and in the sanitizer build. ~15
# CPU-s, Chromium's included (a cgroup's cpuacct around it).
source "$(dirname "$0")/lib.sh"

if is_san_build; then
	skip "web page, changed files: tested once, with the plain build"
	done_testing
	exit
fi
need_browser "web page, changed files"
# the page as make test-build makes it (tests/web.test.sh says why it
# could not be made; no second make here, beside that test's)
if [ ! -f "$BUILD/web/hpcvet.wasm" ] || [ ! -f "$BUILD/web/worker.js" ]; then
	skip "web page, changed files: $BUILD/web not built (make web)"
	done_testing
	exit
fi

# Two inputs the core reads two ways, each changed at a place it has not
# read yet: a DUMPI trace, whose 4.5 MiB rank file the core reads mostly by
# windows of 1 MiB and more (each its own browser read, read ahead or not),
# paused at its byte 2 MiB; and an ovni trace of four 2.5 MiB streams read
# side by side in windows of less (read ahead, a stream the reader keeps
# open goes on over the change: the page's check of the file once its
# checks are done is what finds it), paused at byte 1 MiB.
"$GEN" --what=dumpi-trace --contexts=100000 --profiles=1 -o "$TMP/dt" >/dev/null
"$GEN" --what=ovni-trace --trace-len=60000 -o "$TMP/ov" >/dev/null
bin=$(cd "$TMP/dt" && ls ./*.bin | head -n 1)
bin=${bin#./}
obs=loom.node0.ovni/proc.1000/thread.1000/stream.obs
check "the DUMPI trace is conforming to the CLI" "$HPCVET" -q "$TMP/dt"
check "the ovni trace is conforming to the CLI" "$HPCVET" -q "$TMP/ov"
check "the ovni stream changed is there" test -f "$TMP/ov/$obs"
"$PY" "$ROOT/tests/web_changed.py" "$BUILD/web" "$HPCVET" "$TMP/work" "$TMP/dt:$bin:$((2 * 1024 * 1024))" \
	"$TMP/ov:$obs:$((1024 * 1024))" >"$TMP/page.log" 2>&1
rc=$?
cat "$TMP/page.log"
[ "$rc" -eq 0 ] || grep -q '^FAIL' "$TMP/page.log" || not_ok "tests/web_changed.py exited $rc"
for mode in read-ahead FileReaderSync JSPI; do
	for in in dt ov; do
		check "$mode, $in: paused with no change, the page's report and certificate are the CLI's" \
			grep -qx "$mode $in unchanged: ok" "$TMP/page.log"
		for c in modified truncated replaced deleted; do
			check "$mode, $in: a file $c while the core reads it: exit 3, unreadable, \"changed while it was read\"" \
				grep -qx "$mode $in $c: ok" "$TMP/page.log"
		done
	done
	for c in modified deleted; do
		check "$mode: a file $c after the checks, before its digest: exit 3, unreadable, no SHA-256" \
			grep -qx "$mode dt $c before its digest: ok" "$TMP/page.log"
	done
done
check "no console error" bash -c "! grep -q 'console:' '$TMP/page.log'"
done_testing
