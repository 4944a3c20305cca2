#!/usr/bin/env bash
# The propagation checker holds one slot per derived metric and node, within
# a budget (hpctoolkit/values/values.h, HPCTK_VBUDGET: 32 MiB). A tree whose slots
# do not fit is checked in groups of slots: the first while profile.db
# streams, the others by folding the profile's runs again from the file
# (hpctoolkit/values/groups.c). No generated or real database of test size is that
# large, so HPCVET_VALUE_BUDGET shrinks the budget: at 1 byte every group is
# one slot and every profile is folded once per derived metric. The report
# and every rule's count of evaluated checks must not change.
source "$(dirname "$0")/lib.sh"

# every rule's evaluated and failed counts (the certificate's rule table)
counts() { jq -c '[.certificate.inputs[0].rules[] | [.id, .evaluated, .failed]]'; }

# same NAME DIR [HPCVET ARGS...]: one group and many give the same report and counts
same() {
	local name=$1 dir=$2
	shift 2
	"$HPCVET" "$@" --format=json "$dir" >"$TMP/$name.one" 2>/dev/null
	"$HPCVET" "$@" --certify --format=json "$dir" 2>/dev/null | counts >"$TMP/$name.c1"
	for budget in 1 100000; do
		HPCVET_VALUE_BUDGET=$budget "$HPCVET" "$@" --format=json "$dir" >"$TMP/$name.$budget" 2>/dev/null
		check "$name: the same report in groups of $budget bytes" cmp -s "$TMP/$name.one" "$TMP/$name.$budget"
		HPCVET_VALUE_BUDGET=$budget "$HPCVET" "$@" --certify --format=json "$dir" 2>/dev/null | counts >"$TMP/$name.c$budget"
		check "$name: the same counts in groups of $budget bytes" cmp -s "$TMP/$name.c1" "$TMP/$name.c$budget"
	done
	check "$name: propagated values were evaluated" \
		test "$(jq -r '.[] | select(.[0] == "hpctkdb.values.transitive") | .[1]' "$TMP/$name.c1")" -gt 0
}

# 12 metrics: 19 derived slots; hpcprof's post-order ctxIds (nearly every
# context evaluated at its own run) and the generator's spread numbering
for ids in postorder spread; do
	check "generate a database ($ids ctxIds)" "$GEN" --what=hpctoolkit-db --edition=release --seed=5 \
		--contexts=2000 --profiles=4 --metrics=12 --ctx-ids=$ids -o "$TMP/db-$ids" >/dev/null
	same "$ids" "$TMP/db-$ids"
	same "$ids, -j2" "$TMP/db-$ids" -j2
done
check "valid: conforming" test "$(jq -r '.inputs[0].verdict' "$TMP/postorder.1")" = conforming

# the equations that fail are found, at the same places, in every group
for rule in hpctkdb.values.execution hpctkdb.values.transitive; do
	check "generate a break of $rule" "$GEN" --what=hpctoolkit-db --break=$rule -o "$TMP/$rule" >/dev/null
	same "$rule" "$TMP/$rule"
	check "$rule: reported in groups of 1 byte" \
		test "$(jq -r --arg r $rule '[.inputs[0].diagnostics[] | select(.rule == $r)] | length' "$TMP/$rule.1")" -gt 0
done

# hpcprof's own databases
if [ -d "$SHARED/real-samples/hpctoolkit" ]; then
	for d in "$SHARED"/real-samples/hpctoolkit/*/; do same "real $(basename "$d")" "$d"; done
else
	skip "real samples: $SHARED/real-samples not present (set HV_SHARED); the generated inputs only"
fi
done_testing
