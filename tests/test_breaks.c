/* Every rule in the table has a generated input that breaks exactly that
 * rule, in every edition the generator supports for it, and validating that
 * input fires that rule and no other. A rule without a breaking case fails. */
#include "tap.h"
#include "testlib.h"

/* The reader-hazard note every input of this kind gets, whatever it breaks
 * (the hazard is the layout itself), or -1: a draft-edition database, a
 * v1/v2 ovni tree; and the note that comes with the broken one: the
 * generator's lex_aware scope is a custom scope (hpctkdb.values.unverifiable)
 * whose values, unlike hpcprof's, differ from the function scope's, which
 * hatchet then shows (hpctkdb.metrics.reader-hazard-hatchet-scope). It may
 * fire beside the broken rule, and no other may. */
static int ambient_note(int rule, enum hv_edition ed, const char *what)
{
	if (rule == HV_R_HPCTKDB_VALUES_UNVERIFIABLE) return HV_R_HPCTKDB_METRICS_READER_HAZARD_HATCHET_SCOPE;
	if (rule == HV_R_HPCTKDB_METRICS_READER_HAZARD_HATCHET_SCOPE) return HV_R_HPCTKDB_VALUES_UNVERIFIABLE;
	if (ed == HV_EDITION_DRAFT && strcmp(what, "hpctoolkit-db") == 0) return HV_R_HPCTKDB_EDITION_READER_HAZARD_DRAFT;
	if (strcmp(what, "ovni-trace-v1") == 0 || strcmp(what, "ovni-trace-v2") == 0)
		return HV_R_OVNI_TREE_READER_HAZARD_LEGACY;
	return -1;
}

static void check_break(int rule, enum hv_edition ed, const char *what)
{
	const char *id = hv_rules[rule].id;
	gen_params p = tl_params(what, ed);
	p.break_rule = id;
	gen_output out;
	bool made = tl_generate(&p, &out);
	CHECK(made, "%s (%s): generated", id, tl_edition_name(ed));
	if (!made) return;

	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 1000};
	hv_report r;
	tl_validate(&out, &opt, &r);
	CHECK(r.failed[rule] > 0, "%s (%s, %s): the rule did not fire", id, tl_edition_name(ed), what);
	CHECK(hv_report_counts_consistent(&r), "%s (%s, %s): a rule failed more often than it was evaluated", id,
	      tl_edition_name(ed), what);
	int others = 0;
	for (int j = 0; j < HV_RULE_COUNT; j++)
		if (j != rule && j != ambient_note(rule, ed, what) && r.failed[j] > 0) {
			others++;
			if (others <= 5) printf("    also fired: %s (%llu)\n", hv_rules[j].id, (unsigned long long)r.failed[j]);
		}
	CHECK(others == 0, "%s (%s, %s): %d other rule(s) fired too", id, tl_edition_name(ed), what, others);
	int want = hv_rules[rule].severity == HV_SEV_ERROR ? 1 : 0;
	CHECK(hv_report_exit_code(&r, false) == want, "%s (%s): exit code %d, want %d", id, tl_edition_name(ed),
	      hv_report_exit_code(&r, false), want);
	if (hv_rules[rule].severity == HV_SEV_WARNING)
		CHECK(hv_report_exit_code(&r, true) == 1, "%s: --strict must fail on a warning", id);
	if (r.failed[rule] == 0 || others) tl_dump(&r);
	hv_report_free(&r);
	gen_output_free(&out);
}

int main(void)
{
	for (int rule = 0; rule < HV_RULE_COUNT; rule++) {
		bool found = false;
		const enum hv_edition eds[] = {HV_EDITION_RELEASE, HV_EDITION_DRAFT};
		for (size_t e = 0; e < 2; e++) {
			const char *what = gen_breaker_for(hv_rules[rule].id, eds[e]);
			if (!what) continue;
			found = true;
			check_break(rule, eds[e], what);
		}
		CHECK(found, "rule %s has no breaking case in any edition", hv_rules[rule].id);
	}
	TAP_DONE();
}
