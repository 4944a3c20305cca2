#!/usr/bin/env bash
# The web page (make web) in a real browser: headless Chromium, driven by
# Selenium (tests/web_page.py), is given golden cases of every family and
# kind (y_, n_, i_) and the real samples through the page's file inputs,
# some dropped on its drop zone, and a folder deeper than the command line
# walks, and each JSON report the page makes must equal `hpcvet
# --format=json` (and its certificate, with WebCrypto's digests, `hpcvet
# certify --format=json`) on the same input. All of them with the page
# served cross-origin isolated and asked to read ahead into shared memory,
# the golden cases again served plainly and asked for FileReaderSync, and
# all of them again by the page's default, JSPI (a second worker hands the
# blocks over), in one browser session, each CLI report made once. Skipped, visibly,
# without Chromium, its driver, Python's Selenium or the wasm toolchain,
# and in the sanitizer build (the page runs the wasm build, which the
# sanitizers do not instrument).
# WEB_SCREENSHOT=PNG: also save a screenshot of the page (docs/web-page.png
# is made so).
source "$(dirname "$0")/lib.sh"

if is_san_build; then
	skip "web page: tested once, with the plain build"
	done_testing
	exit
fi
need_browser "web page"
if ! make --no-print-directory -C "$ROOT" BUILD="$BUILD" WEB_DEPS_INSTALL=0 web-deps >"$TMP/deps.log" 2>&1; then
	skip "web page: $(tail -n 1 "$TMP/deps.log")"
	done_testing
	exit
fi
# cJSON and libyaml come from Debian's source packages, downloaded at the
# first build: without a network that build cannot be made.
if ! make --no-print-directory -C "$ROOT" BUILD="$BUILD" web >"$TMP/web.log" 2>&1; then
	if [ -f "$BUILD/web/src/.fetched" ]; then
		not_ok "make web failed"
		tail -n 20 "$TMP/web.log"
	else
		skip "web page: make web could not download cJSON's and libyaml's Debian source packages"
	fi
	done_testing
	exit
fi

# The cases: up to 8 of each family and kind, in the manifest's order.
CASES="$ROOT/golden/cases"
: >"$TMP/cases.tsv"
jq -r '.cases | group_by(.family + .kind)[] | .[:8][] | .path' "$CASES/MANIFEST.json" | while read -r p; do
	full="$CASES/$p"
	if [ -d "$full" ]; then kind=dir; else kind=file; fi
	printf '%s\t%s\t%s\n' "$kind" "$(dirname "$full")" "$(basename "$full")" >>"$TMP/cases.tsv"
done
ngolden=$(wc -l <"$TMP/cases.tsv")
# Served plainly, the page is given these, the drops and the deep folder.
cp "$TMP/cases.tsv" "$TMP/plain.tsv"
check "golden cases of every kind chosen" test "$(jq -r '.cases | group_by(.kind) | length' "$CASES/MANIFEST.json")" -eq 3

# The real samples: databases, ovni traces and DUMPI traces as folders; each
# DUMPI .meta with its loose files, as `hpcvet X.meta` in the trace's folder.
R="$SHARED/real-samples"
if [ -d "$R" ]; then
	for d in "$R"/hpctoolkit/*.d/ "$R"/ovni/*/ "$R"/dumpi/*/; do
		[ -d "$d" ] && printf 'dir\t%s\t%s\n' "$(dirname "$d")" "$(basename "$d")" >>"$TMP/cases.tsv"
	done
	for m in "$R"/dumpi/*/*.meta; do
		[ -f "$m" ] && printf 'loose\t%s\t%s\n' "$(dirname "$m")" "$(basename "$m")" >>"$TMP/cases.tsv"
	done
	m=$(ls "$R"/dumpi/*/*.meta 2>/dev/null | head -n 1)
	[ -n "$m" ] && printf 'drop-loose\t%s\t%s\n' "$(dirname "$m")" "$(basename "$m")" | tee -a "$TMP/plain.tsv" >>"$TMP/cases.tsv"
else
	skip "web page: $R not present (set HV_SHARED to the shared folder): golden cases only"
fi
# Dropped on the page (a DataTransfer the test makes: tests/web_page.py):
# the first file case of each kind, and a DUMPI trace's loose files.
for k in y n i; do
	jq -r --arg k "$k" '[.cases[] | select(.kind == $k) | .path] | .[]' "$CASES/MANIFEST.json" | while read -r p; do
		[ -f "$CASES/$p" ] && printf 'drop-file\t%s\t%s\n' "$(dirname "$CASES/$p")" "$(basename "$CASES/$p")" && break
	done
done | tee -a "$TMP/plain.tsv" >>"$TMP/cases.tsv"
ndrop=$(grep -c '^drop-' "$TMP/cases.tsv")
# A folder 65 levels deep: the command line walks 64 (fileio.h), and the
# page must call the input unreadable with its words.
deep="$TMP/deep/tree"
for _ in $(seq 1 65); do deep="$deep/d"; done
mkdir -p "$deep" && echo x >"$deep/f" && echo x >"$TMP/deep/tree/top"
printf 'dir\t%s\t%s\n' "$TMP/deep" tree | tee -a "$TMP/plain.tsv" >>"$TMP/cases.tsv"

ncases=$(wc -l <"$TMP/cases.tsv")

# The screenshot shows a report with findings: a golden case of each family's.
shot=()
if [ -n "${WEB_SCREENSHOT:-}" ]; then
	printf 'dir\t%s\t%s\n' "$CASES/hpctoolkit" n_hpctkdb.ctx.unknown_01.d >>"$TMP/cases.tsv"
	ncases=$((ncases + 1))
	shot=(--screenshot "$WEB_SCREENSHOT")
fi

# Served without cross-origin isolation (as by any static server) and
# asked for FileReaderSync (index.html?read=sync): the golden cases, the
# drops and the deep folder again; then served plainly and asked for
# nothing, so by JSPI, the page's default where the browser has it: all
# the cases again, in the same browser session (tests/web_page.py).
nplain=$(wc -l <"$TMP/plain.tsv")
"$PY" "$ROOT/tests/web_page.py" "$BUILD/web" "$HPCVET" "$TMP/cases.tsv" --plain "$TMP/plain.tsv" "${shot[@]}" >"$TMP/page.log" 2>&1
rc=$?
cat "$TMP/page.log"
[ "$rc" -eq 0 ] || grep -q '^FAIL' "$TMP/page.log" || not_ok "tests/web_page.py exited $rc"
check "read ahead into shared memory (cross-origin isolated, ?read=ahead): the page's JSON report and certificate equal the CLI's on $ncases inputs ($ngolden golden cases, $ndrop dropped), no console error" grep -qx "read-ahead: 0 failed" "$TMP/page.log"
check "read ahead: every case was compared" grep -qx "read-ahead: compared $ncases" "$TMP/page.log"
check "read ahead: the page says it reads ahead" grep -qx "read-ahead: mode read-ahead" "$TMP/page.log"
check "FileReaderSync (served plainly): the page's JSON report and certificate equal the CLI's on $nplain inputs, no console error" grep -qx "FileReaderSync: 0 failed" "$TMP/page.log"
check "FileReaderSync: every case was compared" grep -qx "FileReaderSync: compared $nplain" "$TMP/page.log"
check "FileReaderSync: the page says it reads with FileReaderSync" grep -qx "FileReaderSync: mode FileReaderSync" "$TMP/page.log"
check "JSPI (served plainly, the page's default): the page's JSON report and certificate equal the CLI's on $ncases inputs, no console error" grep -qx "JSPI: 0 failed" "$TMP/page.log"
check "JSPI: every case was compared" grep -qx "JSPI: compared $ncases" "$TMP/page.log"
check "JSPI: the page says it reads by JSPI" grep -qx "JSPI: mode JSPI" "$TMP/page.log"
done_testing
