#!/usr/bin/env bash
# docs/RULES.md is generated from the rule table: it must be current.
source "$(dirname "$0")/lib.sh"
"$HPCVET" rules --format=markdown >"$TMP/RULES.md"
check "docs/RULES.md is current (run 'make docs')" cmp -s "$TMP/RULES.md" "$ROOT/docs/RULES.md"
check "every rule documented" test "$(grep -c '^### ' "$ROOT/docs/RULES.md")" -eq "$("$HPCVET" rules | wc -l)"

# Every clause starts with a code the legend at the top of docs/RULES.md
# explains, and cites nothing a user of hpcvet does not have (the project's
# research notes and decision files live outside the repository).
"$HPCVET" rules --format=json | jq -r '.rules[] | .id + "\t" + .clause' >"$TMP/clauses"
check "every clause starts with an explained code" bash -c '! grep -vE "	(R|D|METRICS|YAML 1\.2|S3|S1|EV|MV|T\.[0-9]+|MPI-3\.1|ovni|sst-dumpi|validator/[a-z]+/README\.md|hpcvet:)([ ,;]|$)" "$0"' "$TMP/clauses"
check "no clause cites a file users do not have" bash -c '! grep -E "specs/|research|real-samples|(^|[ ,])RS( |$)" "$0"' "$TMP/clauses"
for code in '`R`' '`D`' '`METRICS`' '`YAML 1.2 §n`' '`S3`' '`S1`' '`EV`' '`MV`' '`T.n`' '`MPI-3.1 §n`' '`hpcvet: ...`'; do
	check "RULES.md's legend explains $code" bash -c 'grep "^| \`" "$0" | grep -qF "$1"' "$ROOT/docs/RULES.md" "$code"
done

# The results pages speak of the program, not of the work items that produced
# it (history is in git): no issue or session numbers, here or anywhere.
workitem='(issue|session)s? [0-9]+'
for page in bench/RESULTS.md fuzz/README.md; do
	check "$page names no work item" bash -c '! grep -nIiE "$1" "$2"' _ "$workitem" "$ROOT/$page"
done
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	check "no tracked file names a work item" bash -c '! git -C "$1" grep -nIiE "$2"' _ "$ROOT" "$workitem"
else
	skip "not a git checkout: the tree-wide work-item check"
fi

# Every make target the documentation names (in `code` or on a line of a
# code block that starts with make, options and VAR=value before it) exists,
# every `make bench-*` target bench/RESULTS.md names among them, and every
# bench target the Makefile has is on the page: each row can be measured
# again. Targets have any number of hyphens (bench-dumpi-records).
docs=()
while IFS= read -r f; do docs+=("$ROOT/$f"); done < <(cd "$ROOT" && ls README.md CONTRIBUTING.md \
	bench/RESULTS.md fuzz/README.md golden/README.md python/README.md validator/*/README.md docs/*.md \
	docs/reader-findings/*.md docs/*.1 2>/dev/null)
opts='( +[A-Za-z_][A-Za-z0-9_]*=[^ `]*| +-[^ `]+)*'
named_targets() {
	{ grep -ohE "\`make$opts +[a-z][a-z0-9-]*" "$@"; grep -ohE "^[[:space:]]*make$opts +[a-z][a-z0-9-]*" "$@"; } |
		awk '{print $NF}' | sort -u
}
named_targets "${docs[@]}" >"$TMP/doc-targets"
named_targets "$ROOT/bench/RESULTS.md" | grep -E '^bench(-|$)' >"$TMP/page-targets"
grep -ohE '^[a-z][a-z0-9-]*( +[a-z][a-z0-9-]*)*:([^=]|$)' "$ROOT/Makefile" "$ROOT"/web/*.mk | sed 's/:.*//' |
	tr ' ' '\n' | sort -u >"$TMP/make-targets"
grep -E '^bench(-|$)' "$TMP/make-targets" >"$TMP/make-bench-targets"
check "the docs name make targets" test -s "$TMP/doc-targets"
check "every make target README, CONTRIBUTING and docs name exists" bash -c '! comm -23 "$1" "$2" | grep .' _ "$TMP/doc-targets" "$TMP/make-targets"
check "bench/RESULTS.md names bench targets" test -s "$TMP/page-targets"
check "every bench target of the Makefile is in bench/RESULTS.md" bash -c '! comm -13 "$1" "$2" | grep .' _ "$TMP/page-targets" "$TMP/make-bench-targets"

# fuzz/README.md's campaign table is fuzz/campaign-table.sh's sum of
# fuzz/campaigns.tsv, not a hand-edited copy.
bash "$ROOT/fuzz/campaign-table.sh" "$ROOT/fuzz/campaigns.tsv" >"$TMP/campaigns.md"
awk '/^\| target \| libFuzzer CPU-h/, /^\| all \|/' "$ROOT/fuzz/README.md" >"$TMP/readme-campaigns.md"
check "fuzz/README.md's campaign table is current (paste fuzz/campaign-table.sh's output)" \
	cmp -s "$TMP/campaigns.md" "$TMP/readme-campaigns.md"
done_testing
