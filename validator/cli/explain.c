/* `hpcvet explain RULE`: the rule's entry of the table (text.c), then where
 * it is checked and the conformance corpus cases that exercise it, both
 * compiled in by the build (rule_sources.h, corpus_cases.h). */
#include "cli/explain.h"

#include "cli/corpus_cases.h"
#include "cli/rule_sources.h"
#include "core/rules.h"
#include "output/output.h"

#include <string.h>

/* Enough cases to find one to start from; a rule checked across many inputs
 * (the minor-newer warnings) would otherwise print a page of them. */
#define EXPLAIN_CASES_SHOWN 8

bool hv_cli_explain(FILE *out, const char *id)
{
	int k = hv_rule_find(id);
	if (k < 0 || !hv_write_rule_explain(out, id)) return false;
	const char *src = hv_rule_sources[k];
	fprintf(out, "\nchecked in:   %s\n", src ? src : "(no source names this rule)");
	size_t n = 0;
	for (const hv_rule_case *c = hv_corpus_cases; c->rule; c++) {
		if (strcmp(c->rule, hv_rules[k].id) != 0) continue;
		if (n < EXPLAIN_CASES_SHOWN)
			fprintf(out, "%s%s\n", n == 0 ? "golden cases: golden/cases/" : "              golden/cases/",
				c->path);
		n++;
	}
	if (n == 0) fputs("golden cases: none in this build's corpus\n", out);
	else if (n > EXPLAIN_CASES_SHOWN)
		fprintf(out, "              and %zu more ('hpcvet rules --format=json' lists them all)\n",
			n - EXPLAIN_CASES_SHOWN);
	return true;
}
