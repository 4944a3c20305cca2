#!/usr/bin/env bash
# The reader matrix (golden/readers/, make reader-matrix): every outcome class is
# detected, on stub readers built to produce each (golden/readers/stub.py), with
# no real reader installed; the page and its picture are the same bytes when run
# again and when written from the saved results; a reader that is not installed
# is skipped and said so; the committed docs/READERS.md names a version for every
# reader column. The page checks run in both builds; the harness on the stubs in
# the plain build only (it is Python around hpcvet, the same in both builds).
source "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { skip "no python3"; done_testing; exit; }
M="$ROOT/golden/readers/matrix.py"

# The committed page: every reader column names its version (or says it was not
# installed), and its picture is beside it.
P="$ROOT/docs/READERS.md"
check "docs/READERS.md exists" test -f "$P"
check "docs/readers-matrix.svg exists" test -f "$ROOT/docs/readers-matrix.svg"
cols=$(awk '/^## Readers/{r=1;next} /^## /{r=0} r && /^\| [a-z]/ && !/^\| column/' "$P")
check "the page has the seven columns" test "$(grep -c . <<<"$cols")" -ge 7
check "every column names a version" bash -c "! awk -F' [|] ' '{ if (\$3 == \"\" || \$3 ~ /unknown|None/) bad=1 } END { exit !bad }' <<<\"\$1\"" _ "$cols"
for r in hpcvet hpcviewer hatchet pipit ovniemu ovnidump dumpi2ascii; do
	check "the page has a column for $r" grep -q "^| $r |" <<<"$cols"
done
if is_san_build; then done_testing; exit; fi

only='^ovni/(y_ovni-trace\.v3_s[12]|n_ovni\.model\.body-(nest|parallel|pause|rerun|state)_01|i_ovni\.tree\.dirname_01)\.d$'
plan='v3_s2=misread,body-nest_=refuse,body-parallel_=raise,body-pause_=segv,body-rerun_=hang,dirname_01=abort'
plan_exec='v3_s2=abort-msg,body-nest_=refuse,body-parallel_=segv,body-pause_=segv,body-rerun_=hang,dirname_01=abort'
run() { # out-dir plan
	mkdir -p "$1"
	python3 "$M" --build="$BUILD" --real="$TMP/no-real-samples" --only="$only" --timeout=1 --stub="$2" \
		--results="$1/results.json" --out="$1/READERS.md" --svg="$1/matrix.svg" 2>"$1/log"
}
# One plan for both stubs: the exec stub reads the plan's behaviours its own way
# (stub.py), so give it a plan where every class it can show appears.
expect_exit 0 "the matrix runs on the stub readers" run "$TMP/a" "$plan"
R="$TMP/a/results.json"
outcome() { jq -r --arg r "$1" --arg c "$2" '.results[$r][$c].outcome' "$R"; }
case_of() { echo "ovni/$1.d"; }
check "batch: a conforming trace it reads right is accepted" test "$(outcome stub-batch "$(case_of y_ovni-trace.v3_s1)")" = accepted
check "batch: a wrong value decoded is a misread" test "$(outcome stub-batch "$(case_of y_ovni-trace.v3_s2)")" = misread
check "batch: the misread names the value" grep -q 'MISMATCH.*clock: reader' <(jq -r '.results["stub-batch"]["ovni/y_ovni-trace.v3_s2.d"].message' "$R")
check "batch: the reader's own raise is a refusal" test "$(outcome stub-batch "$(case_of n_ovni.model.body-nest_01)")" = refused
check "batch: its message is kept" grep -q 'ValueError: stub: not a trace I read' <(jq -r '.results["stub-batch"]["ovni/n_ovni.model.body-nest_01.d"].message' "$R")
check "batch: an IndexError is a crash" test "$(outcome stub-batch "$(case_of n_ovni.model.body-parallel_01)")" = crash
check "batch: a SIGSEGV is a crash" test "$(outcome stub-batch "$(case_of n_ovni.model.body-pause_01)")" = crash
check "batch: a busy loop is a hang" test "$(outcome stub-batch "$(case_of n_ovni.model.body-rerun_01)")" = hang
check "batch: the case after a hang is run (a new driver)" test "$(outcome stub-batch "$(case_of n_ovni.model.body-state_01)")" = accepted
check "exec: SIGSEGV is a crash" test "$(outcome stub-exec "$(case_of n_ovni.model.body-pause_01)")" = crash
check "exec: a bare abort() is a crash" test "$(outcome stub-exec "$(case_of i_ovni.tree.dirname_01)")" = crash
check "exec: exit 1 is a refusal" test "$(outcome stub-exec "$(case_of n_ovni.model.body-nest_01)")" = refused
check "exec: a busy loop is a hang" test "$(outcome stub-exec "$(case_of n_ovni.model.body-rerun_01)")" = hang
check "hpcvet's column: the corpus's verdicts" test "$(outcome hpcvet "$(case_of n_ovni.model.body-nest_01)")/$(outcome hpcvet "$(case_of y_ovni-trace.v3_s1)")" = refused/accepted
check "a reader not installed is skipped" grep -q 'stub-missing not installed' "$TMP/a/log"
check "the page says it was skipped" grep -q '^| stub-missing | ovni | not installed: skipped' "$TMP/a/READERS.md"
check "the page lists the crash with its reproducer" \
	grep -q '^| `ovni/n_ovni.model.body-pause_01.d` | n_ | crash | killed by SIGSEGV | `hpcvet-gen --what=ovni-trace --break=ovni.model.body-pause' "$TMP/a/READERS.md"
check "the page lists the misread" grep -q '^| `ovni/y_ovni-trace.v3_s2.d` | y_ | misread | MISMATCH' "$TMP/a/READERS.md"
check "the page says what a reader does not check" grep -q 'stub-batch\*\* (ovni): accepts 1 of 5 n_ cases' "$TMP/a/READERS.md"
# The picture: one cell per case and reader column, each with its letter.
cells=$(grep -c '<title>' "$TMP/a/matrix.svg")
check "the picture has a cell per case and column (8 x 4 = $cells)" test "$cells" -eq 32
check "cells carry letters, not colour alone" grep -q '>M</text>' "$TMP/a/matrix.svg"
# Byte for byte: a second run, and the page written from the saved results.
expect_exit 0 "the matrix runs again" run "$TMP/b" "$plan"
check "the page is the same bytes on a second run" cmp -s "$TMP/a/READERS.md" "$TMP/b/READERS.md"
check "the picture is the same bytes on a second run" cmp -s "$TMP/a/matrix.svg" "$TMP/b/matrix.svg"
expect_exit 0 "the page from saved results" python3 "$M" --from-results="$R" --out="$TMP/c.md" --svg="$TMP/c.svg"
check "the page from saved results is the same" cmp -s "$TMP/a/READERS.md" "$TMP/c.md"
check "the page holds no time of day" bash -c "! grep -qE '[0-9]{2}:[0-9]{2}:[0-9]{2}|UTC' '$TMP/a/READERS.md'"
# The exec stub's plan differs (its classes): run it alone for the abort-msg case.
expect_exit 0 "the exec stub's plan" run "$TMP/d" "$plan_exec"
check "exec: abort() after the reader's own FATAL message is a refusal" \
	test "$(jq -r '.results["stub-exec"]["ovni/y_ovni-trace.v3_s2.d"].outcome' "$TMP/d/results.json")" = refused
check "exec: SIGSEGV in place of an exception is a crash" test "$(jq -r '.results["stub-exec"]["ovni/n_ovni.model.body-parallel_01.d"].outcome' "$TMP/d/results.json")" = crash

# hpcviewer's adapter (its root values against the summary profile's at the root
# context) agrees with a y_ case's content file, and flags one value changed.
viewer_roots() { # root-value-of-statistic-8
	(cd "$ROOT/golden/readers" && python3 -c '
import json, sys, content
class Case: embedded = None
want = json.load(open("../cases/hpctoolkit/y_hpctoolkit-db.release.4.0_s2.content.json"))
m = [{"index": 8, "type": "INCLUSIVE", "root": sys.argv[1], "class": "HierarchicalMetric", "name": "cpu-time: Sum (I)"},
     {"index": 5, "type": "LEXICAL_AWARE", "root": "1", "class": "HierarchicalMetric", "name": "cpu-time: Sum (E)"}]
print(content.viewer_roots(Case(), {"metrics": m}, want))' "$1")
}
check "viewer adapter: the content file's root value agrees" test "$(viewer_roots 91302.49124999998)" = "[]"
check "viewer adapter: a changed root value is a misread" grep -q 'MISMATCH root value of cpu-time: Sum (I) (statistic 8)' <(viewer_roots 91302.5)

# The adapters that key the readers' data their own way (hpctk_adapters.py), on
# stubs made from a y_ case's content file (stub_hpctk.py): read right, they agree;
# with one value wrong, each is a misread that names it.
H=hpctoolkit/y_hpctoolkit-db.release.4.0_s2.d
stub_adapter() { python3 "$ROOT/golden/readers/stub_hpctk.py" "$@"; }
check "hatchet adapter: a frame read right agrees" test "$(stub_adapter hatchet $H right)" = None
check "hatchet adapter: one cell wrong is a misread" \
	grep -q "^MISMATCH cct.db ctx 91, profile 1 {'node_pid': 2130706689, 'rank': 0, 'thread': 0}, instructions (inc) (statistic 21): reader 20444.925, expected 20444.425$" <(stub_adapter hatchet $H wrong)
check "hatchet adapter: an exclusive column holding the next statistic is a misread that says so" \
	grep -q 'expected 664.932 (the value of statistic 2, scope lex_aware, which hatchet writes into the same column)' <(stub_adapter hatchet $H collide)
check "hatchet adapter: a wrong cell is named before the column's known mix-up" \
	grep -q '^MISMATCH .*instructions (inc) (statistic 21): reader 20444.925, expected 20444.425 (and 391 more)$' <(stub_adapter hatchet $H collide+wrong)
check "pipit adapter: events read right agree" test "$(stub_adapter pipit $H right)" = None
check "pipit adapter: one event's time wrong is a misread" \
	grep -q '^MISMATCH trace of profile 1 .*change 0 of 56: reader (1, 91), expected (0, 18)' <(stub_adapter pipit $H wrong)
check "ovniemu adapter: the event count and span agree" test "$(stub_adapter ovniemu ovni/y_ovni-trace.v3_s1.d right)" = None
check "ovniemu adapter: one event short is a misread" \
	test "$(stub_adapter ovniemu ovni/y_ovni-trace.v3_s1.d wrong)" = "MISMATCH input events: reader 679, expected 680"

# hpcviewer's driver (ViewerBatch.java) over stand-ins of the hpcdata classes it
# calls (golden/readers/stub_hpcdata): each outcome class of the Java side, without
# hpcviewer.
if ! command -v javac >/dev/null || ! command -v java >/dev/null; then
	skip "no javac: the Java driver's outcome classes are not tried (Debian: default-jdk-headless)"
else
	jonly='^hpctoolkit/(y_hpctoolkit-db\.release\.4\.0_s[12]|n_hpctkdb\.(cct\.(ctx-covered|prof-in-range|transpose)_0[12]|ctx\.unknown_01|edition\.agree_01))\.d$'
	jplan='java:s2\.d$=misread,ctx-covered_01=refuse,ctx-covered_02=io,prof-in-range_01=raise,prof-in-range_02=index,transpose_01=stack,transpose_02=die,unknown_01=hang'
	mkdir -p "$TMP/j"
	expect_exit 0 "the matrix runs on the Java stub" \
		python3 "$M" --build="$BUILD" --real="$TMP/no-real-samples" --only="$jonly" --timeout=1 --stub="$jplan" \
		--results="$TMP/j/results.json" --out="$TMP/j/READERS.md" --svg="$TMP/j/matrix.svg" 2>"$TMP/j/log"
	jout() { jq -r --arg c "hpctoolkit/$1.d" '.results["stub-viewer"][$c] | .outcome + " | " + .message' "$TMP/j/results.json"; }
	check "java: a database it reads is accepted" grep -q '^accepted | $' <(jout y_hpctoolkit-db.release.4.0_s1)
	check "java: a wrong root value is a misread" grep -q '^misread | MISMATCH root value of cpu-time: Sum (I) (statistic 8): reader 1.5' <(jout y_hpctoolkit-db.release.4.0_s2)
	check "java: an exception thrown by hpcdata's own code is a refusal" grep -q '^refused | java.lang.IllegalStateException: stub: not a database I read (at edu.rice.cs.hpcdata' <(jout n_hpctkdb.cct.ctx-covered_01)
	check "java: an IOException is a refusal" grep -q '^refused | java.io.IOException' <(jout n_hpctkdb.cct.ctx-covered_02)
	check "java: a null pointer is a crash" grep -q '^crash | java.lang.NullPointerException' <(jout n_hpctkdb.cct.prof-in-range_01)
	check "java: an index out of bounds is a crash" grep -q '^crash | java.lang.ArrayIndexOutOfBoundsException' <(jout n_hpctkdb.cct.prof-in-range_02)
	check "java: a stack overflow is a crash" grep -q '^crash | java.lang.StackOverflowError' <(jout n_hpctkdb.cct.transpose_01)
	check "java: a JVM that dies is a crash, not a hang" grep -q "^crash | the reader's process died (exit 134)" <(jout n_hpctkdb.cct.transpose_02)
	check "java: a busy loop is a hang" grep -q '^hang | no answer within 1 s of CPU time' <(jout n_hpctkdb.ctx.unknown_01)
	check "java: the case after a hang gets a new JVM" grep -q '^accepted' <(jout n_hpctkdb.edition.agree_01)
fi

done_testing
