#!/usr/bin/env bash
# A file that changes while the web page (make web) validates it is never
# judged, in headless Chromium (tests/web_changed.py): a DUMPI rank file
# modified in place, truncated, replaced by a rename and deleted while the
# core reads it, and modified or deleted after the checks, before the
# page reads it again for a certificate's SHA-256. The change lands inside
# the run, not by a race: the test serves the page's worker with a pause
# of its own before it (tests/web_changed_hook.js, never part of the built
# page), which holds the worker at a chosen read until the file is
# changed. Each: exit 3, the input unreadable, "FILE: changed while it was
# read" as on the command line (tests/changed.test.sh), no SHA-256; and
# the same pause with no change gives the CLI's report and certificate.
# Both ways the page reads: read ahead (cross-origin isolated) and
# FileReaderSync (served plainly). Skipped, visibly, as tests/web.test.sh
# is: without Chromium, its driver, Python's Selenium or the page, and in
# the sanitizer build.
source "$(dirname "$0")/lib.sh"

if is_san_build; then
	skip "web page, changed files: tested once, with the plain build"
	done_testing
	exit
fi
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import selenium' 2>/dev/null; then PY=$p && break; fi
done
missing=""
command -v chromium >/dev/null || missing="$missing chromium"
[ -x /usr/bin/chromedriver ] || missing="$missing chromium-driver"
[ -n "$PY" ] || missing="$missing python3-selenium"
if [ -n "$missing" ]; then
	skip "web page, changed files: no$missing (Debian packages)"
	done_testing
	exit
fi
# the page as make test-build makes it (tests/web.test.sh says why it
# could not be made; no second make here, beside that test's)
if [ ! -f "$BUILD/web/hpcvet.wasm" ] || [ ! -f "$BUILD/web/worker.js" ]; then
	skip "web page, changed files: $BUILD/web not built (make web)"
	done_testing
	exit
fi

# A DUMPI trace whose rank file (~9 MiB) the core reads through many
# windows and, read ahead, several runs; the worker pauses at its byte
# 3 MiB.
"$GEN" --what=dumpi-trace --contexts=200000 --profiles=1 -o "$TMP/dt" >/dev/null
bin=$(cd "$TMP/dt" && ls ./*.bin | head -n 1)
bin=${bin#./}
check "the trace is conforming to the CLI" "$HPCVET" -q "$TMP/dt"
mkdir -p "$TMP/work"
"$PY" "$ROOT/tests/web_changed.py" "$BUILD/web" "$HPCVET" "$TMP/dt" "$bin" $((3 * 1024 * 1024)) "$TMP/work" >"$TMP/page.log" 2>&1
rc=$?
cat "$TMP/page.log"
[ "$rc" -eq 0 ] || grep -q '^FAIL' "$TMP/page.log" || not_ok "tests/web_changed.py exited $rc"
for mode in read-ahead FileReaderSync; do
	check "$mode: paused with no change, the page's report and certificate are the CLI's" grep -qx "$mode unchanged: ok" "$TMP/page.log"
	for c in modified truncated replaced deleted "modified before its digest" "deleted before its digest"; do
		check "$mode: $bin $c while read: exit 3, unreadable, changed while it was read, no SHA-256" \
			grep -qx "$mode $c: ok" "$TMP/page.log"
	done
done
check "no console error" bash -c "! grep -q 'console:' '$TMP/page.log'"
done_testing
