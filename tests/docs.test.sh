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
check "every clause starts with an explained code" bash -c '! grep -vE "	(R|D|S3|S1|EV|MV|T\.[0-9]+|MPI-3\.1|ovni|sst-dumpi|validator/[a-z]+/README\.md|hpcvet:)([ ,;]|$)" "$0"' "$TMP/clauses"
check "no clause cites a file users do not have" bash -c '! grep -E "specs/|research|real-samples|(^|[ ,])RS( |$)" "$0"' "$TMP/clauses"
for code in '`R`' '`D`' '`S3`' '`S1`' '`EV`' '`MV`' '`T.n`' '`MPI-3.1 §n`' '`hpcvet: ...`'; do
	check "RULES.md's legend explains $code" bash -c 'grep "^| \`" "$0" | grep -qF "$1"' "$ROOT/docs/RULES.md" "$code"
done
done_testing
