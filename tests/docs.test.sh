#!/usr/bin/env bash
# docs/RULES.md is generated from the rule table: it must be current.
source "$(dirname "$0")/lib.sh"
"$HPCVET" rules --format=markdown >"$TMP/RULES.md"
check "docs/RULES.md is current (run 'make docs')" cmp -s "$TMP/RULES.md" "$ROOT/docs/RULES.md"
check "every rule documented" test "$(grep -c '^### ' "$ROOT/docs/RULES.md")" -eq "$("$HPCVET" rules | wc -l)"
done_testing
