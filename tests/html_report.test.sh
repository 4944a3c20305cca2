#!/usr/bin/env bash
# The HTML report (--format=html): one self-contained page with the same
# exit code as the other formats, its data safe inside the page whatever a
# file name holds, and in a real browser (headless Chromium through
# tests/html_report.py): golden cases of every family (y_, n_, i_) and the
# real samples open with no console error, their rows equal the JSON
# report's diagnostics, a rule filter shows exactly that rule's rows, each
# picture has one mark per located diagnostic; a wide DUMPI trace with
# findings on every rank opens and filters. Browser parts skip visibly
# without chromium, chromedriver or python3-selenium (Debian packages), and
# run once, with the plain build: the sanitizer build still writes every
# page here (under ASan+UBSan), and what the browser checks is the page's
# script, the same in both builds.
source "$(dirname "$0")/lib.sh"

CASES="$ROOT/golden/cases"
PER_KIND=${HTML_CASES_PER_KIND:-4} # golden cases per family and prefix
list="$TMP/cases.tsv"
: >"$list"
cd "$TMP" || exit 1

# the page's data, parsed as the page's script parses it
data_of() { # html
	/usr/bin/python3 - "$1" <<'PYEOF'
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="hv-data">(.*?)</script>', s, re.S)
d = json.loads(m.group(1))
print(len(d["diags"]))
PYEOF
}

# report CASE-DIR REL NAME [OPTIONS]: the HTML and JSON reports of REL (as
# the corpus names it, from CASE-DIR), the same exit code; added to the list.
report() {
	local dir=$1 rel=$2 name=$3
	shift 3
	(cd "$dir" && "$HPCVET" "$@" --format=json "$rel") >"$name.json" 2>/dev/null
	local rj=$?
	(cd "$dir" && "$HPCVET" "$@" --format=html "$rel") >"$name.html" 2>/dev/null
	local rh=$?
	if [ "$rj" -ne "$rh" ]; then not_ok "$rel: --format=html exits $rh, --format=json $rj"; return; fi
	ok
	printf '%s\t%s\trows\n' "$TMP/$name.html" "$TMP/$name.json" >>"$list"
}

# golden cases: PER_KIND of each family and prefix, spread over the sorted list
ncase=0
for fam in any dumpi hpctoolkit ovni; do
	for pre in y_ n_ i_; do
		mapfile -t all < <(cd "$CASES/$fam" && ls -d "$pre"* 2>/dev/null | grep -v '\.expect\.json$' | grep -v '\.content\.json$' | sort)
		[ "${#all[@]}" -eq 0 ] && continue
		step=$(((${#all[@]} + PER_KIND - 1) / PER_KIND))
		for ((k = 0; k < ${#all[@]}; k += step)); do
			report "$CASES" "$fam/${all[$k]}" "case$ncase"
			ncase=$((ncase + 1))
		done
	done
done
check "golden cases of every family sampled ($ncase)" test "$ncase" -ge $((9 * PER_KIND))

# several inputs in one report, and a certificate's digests
report "$CASES" "dumpi/i_dumpi.mpi.coll-count.alltoall.d" multi hpctoolkit/n_hpctkdb.ctx.unknown_01.d ovni/n_ovni.model.state-pop_01.d
(cd "$CASES" && "$HPCVET" --certify --format=html dumpi/i_dumpi.mpi.coll-count.alltoall.d) >cert.html 2>/dev/null
check "--certify --format=html exits 0 on a conforming input" test $? -eq 0
(cd "$CASES" && "$HPCVET" --certify --format=json dumpi/i_dumpi.mpi.coll-count.alltoall.d) >cert.json 2>/dev/null
sha=$(jq -r '.certificate.inputs[0].files[0].sha256' cert.json)
check "the certified report holds the files' SHA-256 ($sha)" grep -q "\"sha256\":\"$sha\"" cert.html

# one file: inline style and script, no address to fetch
check "one page, no external resource" bash -c "! grep -Eqi '(src|href)=\"[a-z]+:|@import|url\\(' case0.html"
check "the page has a content security policy" grep -q "Content-Security-Policy" case0.html
# hostile names: a .meta key and a file name that would close the data's
# <script> element or open a comment if written as they are
mkdir -p hostile
cp "$CASES"/dumpi/i_dumpi.meta.key-unknown_01.d/* hostile/
printf '</script><script>alert(1)</script>=1\n' >>hostile/*.meta
cp hostile/dumpi-2019.05.22.11.54.43-0000.bin 'hostile/<!--<script>.bin'
"$HPCVET" --format=html hostile >hostile.html 2>/dev/null
rh=$?
"$HPCVET" --format=json hostile >hostile.json 2>/dev/null
check "hostile names: the same exit code as JSON ($rh)" test "$rh" -eq $?
check "hostile names: the key is reported" grep -q 'alert(1)' hostile.json
check "hostile names: the page closes two script elements, no more" test "$(grep -o '</script>' hostile.html | wc -l)" -eq 2
check "hostile names: no comment opens in the page" bash -c "! grep -q '<!--' hostile.html"
n=$(data_of hostile.html 2>/dev/null)
check "hostile names: the data parses and holds every diagnostic ($n)" test "${n:-0}" -eq "$(jq '[.inputs[].diagnostics[]] | length' hostile.json)"
printf '%s\t%s\trows\n' "$TMP/hostile.html" "$TMP/hostile.json" >>"$list"
# unreadable input: the same exit code as JSON
expect_exit 3 "an unreadable input: exit 3 in HTML too" "$HPCVET" --format=html "$TMP/no-such-file"

# real samples: those with findings one report each; the conforming ones
# (exit 0) of a family in one report of several inputs, whose rows and
# each input's marks the browser compares as for one (a page opened and
# scrolled costs the browser more than its rows do).
nreal=0
if [ -d "$SHARED/real-samples" ]; then
	for fam in dumpi hpctoolkit ovni; do
		conforming=()
		for d in "$SHARED/real-samples/$fam"/*; do
			[ -e "$d" ] || continue
			nreal=$((nreal + 1))
			if (cd "$(dirname "$d")" && "$HPCVET" --format=json "$(basename "$d")") >"real$nreal.json" 2>/dev/null; then
				conforming+=("$(basename "$d")")
			else
				report "$(dirname "$d")" "$(basename "$d")" "real$nreal"
			fi
		done
		# (report puts its options, here the other inputs, before the last)
		n=${#conforming[@]}
		[ "$n" -gt 0 ] && report "$SHARED/real-samples/$fam" "${conforming[n - 1]}" "real-$fam" "${conforming[@]:0:n-1}"
	done
else
	skip "real samples: $SHARED/real-samples not present (set HV_SHARED)"
fi

# a wide DUMPI trace whose u16 seconds wrap: findings on every rank
WIDE_RANKS=${HTML_WIDE_RANKS:-256}
"$GEN" --what=dumpi-trace --pattern=stencil3d --profiles="$WIDE_RANKS" --trace-len=400000 -o wide >/dev/null 2>&1 ||
	not_ok "generate the wide DUMPI trace"
"$HPCVET" --max-per-rule=0 --max-diagnostics=10000000 --format=json wide >wide.json
rj=$?
"$HPCVET" --max-per-rule=0 --max-diagnostics=10000000 --format=html wide >wide.html
check "wide trace: --format=html exits as --format=json ($rj)" test $? -eq "$rj"
nw=$(jq '.inputs[0].diagnostics | length' wide.json)
nf=$(jq '[.inputs[0].diagnostics[].file] | unique | length' wide.json)
check "wide trace: findings on every one of $WIDE_RANKS ranks ($nf files, $nw diagnostics)" test "$nf" -eq "$WIDE_RANKS"
bytes=$(wc -c <wide.html)
check "wide trace: the page is under 200 bytes a diagnostic ($bytes bytes)" test "$bytes" -lt $((nw * 200 + 200000))
printf '%s\t%s\tbig\n' "$TMP/wide.html" "$TMP/wide.json" >>"$list"

# in the browser
no_browser=""
if ! /usr/bin/python3 -c 'import selenium' 2>/dev/null; then
	no_browser="no python3-selenium (apt-get install python3-selenium)"
elif ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
	no_browser="no chromium or chromedriver (apt-get install chromium chromium-driver)"
fi
if is_san_build; then
	skip "the HTML report in a browser: tested once, with the plain build"
elif [ -n "$no_browser" ] && [ -n "${CI:-}" ]; then
	not_ok "the HTML report in a browser: $no_browser in CI (.ci/run installs them)"
elif [ -n "$no_browser" ]; then
	skip "the HTML report in a browser: $no_browser"
else
	out="$TMP/browser.log"
	/usr/bin/python3 "$ROOT/tests/html_report.py" "$list" >"$out" 2>&1
	rc=$?
	grep -E '^(FAIL|  )' "$out" | head -40
	grep -E '^compared ' "$out"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	bp=${line%% passed*}
	bf=$(echo "$line" | sed -nE 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/p')
	passed=$((passed + ${bp:-0}))
	failed=$((failed + ${bf:-0}))
	if [ -z "$line" ] || [ "$rc" -ne 0 ] && [ "${bf:-0}" -eq 0 ]; then not_ok "tests/html_report.py exited $rc"; tail -20 "$out"; fi
	echo "browser: $ncase golden cases, $nreal real samples, the multi-input report, a $WIDE_RANKS-rank trace of $nw diagnostics"
fi
done_testing
