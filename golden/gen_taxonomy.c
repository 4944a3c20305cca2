/* metrics/default.yaml for generated databases, written as hpcprof writes
 * it (real-samples/hpctoolkit/NAME.d/metrics/default.yaml): version 0,
 * one anchored input per summary statistic of meta.db, and one root per
 * metric whose variants use them -- inclusive: standard: the execution
 * scope, exclusive: standard: the transitive (else point) scope and
 * custom: the custom scope -- one variant per (formula, combine), so that
 * every input is used under a root. `brk` names a taxonomy rule to break
 * (exactly that one); NULL writes the valid taxonomy. */
#include "gen_taxonomy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>


/* A double-quoted YAML scalar. */
static const char *q(const char *s, char *buf, size_t cap)
{
	size_t k = 0;
	buf[k++] = '"';
	for (; *s && k + 3 < cap; s++) {
		if (*s == '"' || *s == '\\') buf[k++] = '\\';
		buf[k++] = *s;
	}
	buf[k++] = '"';
	buf[k] = '\0';
	return buf;
}

static bool is(const char *brk, const char *rule) { return brk && strcmp(brk, rule) == 0; }

static const char *const comb_name[] = {"sum", "min", "max"};

static void group_label(const hpctk_summary *s, char *out, size_t cap)
{
	if (strcmp(s->formula, "$$") == 0 && s->combine == HPCTK_COMBINE_SUM) snprintf(out, cap, "Sum");
	else if (strcmp(s->formula, "$$") == 0) snprintf(out, cap, "%s", s->combine == HPCTK_COMBINE_MIN ? "Min" : "Max");
	else snprintf(out, cap, "%s %s", comb_name[s->combine % 3], s->formula);
}

static bool same_group(const hpctk_summary *a, const hpctk_summary *b)
{
	return a->combine == b->combine && strcmp(a->formula, b->formula) == 0;
}

/* One variant: inclusive from `exec`, exclusive standard from `std`,
 * custom from `cus` (indices into the metric's summaries, -1: none). */
static void variant(gen_buf *b, unsigned k, const char *label, int exec, int std, int cus, bool first, const char *brk)
{
	char qb[160];
	gen_buf_printf(b, "      %s:\n", q(label, qb, sizeof qb));
	if (first && is(brk, "hpctkdb.taxonomy.variant")) gen_buf_printf(b, "        render: [number, pie]\n");
	else gen_buf_printf(b, "        render: %s\n", exec >= 0 ? "[number, percent]" : "[number]");
	gen_buf_printf(b, "        formula:\n");
	if (exec >= 0) {
		gen_buf_printf(b, "          inclusive:\n");
		if (first && is(brk, "hpctkdb.taxonomy.hatchet"))
			gen_buf_printf(b, "            *in-%u-%d\n", k, exec); /* bare, as older hpcprof wrote it */
		else if (first && is(brk, "hpctkdb.taxonomy.alias"))
			gen_buf_printf(b, "            standard: [*in-%u-%d, +, *no-such-input]\n", k, exec);
		else if (first && is(brk, "hpctkdb.taxonomy.formula"))
			gen_buf_printf(b, "            standard: [*in-%u-%d, '* * 3']\n", k, exec);
		else
			gen_buf_printf(b, "            standard: *in-%u-%d\n", k, exec);
	}
	if (std >= 0 || cus >= 0) {
		gen_buf_printf(b, "          exclusive:\n");
		if (cus >= 0) gen_buf_printf(b, "            custom: *in-%u-%d\n", k, cus);
		if (std >= 0) gen_buf_printf(b, "            standard: *in-%u-%d\n", k, std);
		else gen_buf_printf(b, "            standard: null\n"); /* defaults to null; said, for readers that need the key */
	}
	if (first && is(brk, "hpctkdb.taxonomy.child-variant")) gen_buf_printf(b, "        child variant: Median\n");
}

int gen_taxonomy_write(const hpctk_model *m, const char *brk, gen_buf *b, const char **fail)
{
	char qb[160], label[64];
	*fail = NULL;
	/* formula/hatchet/alias breaks need an inclusive formula on the first root */
	unsigned first_metric = is(brk, "hpctkdb.taxonomy.unpresented") ? 1 : 0;
	if (m->n_metrics <= first_metric) {
		*fail = "too few metrics";
		return -1;
	}
	gen_buf_printf(b, "version: %d\n", is(brk, "hpctkdb.taxonomy.version") ? 1 : 0);
	gen_buf_printf(b, "inputs:\n");
	for (unsigned k = first_metric; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		for (unsigned i = 0; i < md->n_summaries; i++) {
			const hpctk_summary *s = &md->summaries[i];
			gen_buf_printf(b, "  - &in-%u-%u\n", k, i);
			gen_buf_printf(b, "    metric: %s\n", q(md->name, qb, sizeof qb));
			gen_buf_printf(b, "    scope: %s\n", m->scopes[s->scope].name);
			gen_buf_printf(b, "    formula: %s\n", q(s->formula, qb, sizeof qb));
			gen_buf_printf(b, "    combine: %s\n", comb_name[s->combine % 3]);
		}
	}
	if (is(brk, "hpctkdb.taxonomy.input"))
		gen_buf_printf(b, "  - &in-bad-combine\n    metric: %s\n    scope: point\n    formula: $$\n    combine: avg\n",
		    q(m->metrics[first_metric].name, qb, sizeof qb));
	if (is(brk, "hpctkdb.taxonomy.input-metadb"))
		gen_buf_printf(b, "  - &in-unknown\n    metric: no-such-metric\n    scope: point\n    formula: $$\n    combine: sum\n");
	gen_buf_printf(b, "%s:\n", is(brk, "hpctkdb.taxonomy.top") ? "root" : "roots");
	bool first_done = false;
	for (unsigned k = first_metric; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		if (md->n_summaries == 0) continue;
		gen_buf_printf(b, "  - name: %s\n", q(md->name, qb, sizeof qb));
		gen_buf_printf(b, "    description: %s\n", q(md->name, qb, sizeof qb));
		bool first_root = k == first_metric;
		if (first_root && is(brk, "hpctkdb.taxonomy.metric")) gen_buf_printf(b, "    visible by default: maybe\n");
		if (first_root && is(brk, "hpctkdb.taxonomy.format")) gen_buf_printf(b, "    format: \"%%d\"\n");
		if (first_root && is(brk, "hpctkdb.taxonomy.child-variant")) {
			/* a child to take values from, with only a Sum variant */
			gen_buf_printf(b, "    children:\n      - name: %s\n        variants:\n          Sum:\n", q("part", qb, sizeof qb));
			gen_buf_printf(b, "            render: [number]\n            formula:\n              exclusive:\n");
			unsigned j = 0;
			while (j + 1 < md->n_summaries && m->scopes[md->summaries[j].scope].type == HPCTK_SCOPE_CUSTOM) j++;
			gen_buf_printf(b, "                standard: *in-%u-%u\n", k, j);
		}
		gen_buf_printf(b, "    variants:\n");
		bool used[16] = {false};
		for (unsigned i = 0; i < md->n_summaries && i < 16; i++) {
			if (used[i]) continue;
			/* the group of (formula, combine) of summary i */
			int exec = -1, std = -1, cus = -1, pt = -1;
			for (unsigned j = i; j < md->n_summaries && j < 16; j++) {
				const hpctk_summary *s = &md->summaries[j];
				if (used[j] || !same_group(s, &md->summaries[i])) continue;
				uint8_t type = m->scopes[s->scope].type;
				int *slot = type == HPCTK_SCOPE_EXECUTION ? &exec : type == HPCTK_SCOPE_TRANSITIVE ? &std
					    : type == HPCTK_SCOPE_CUSTOM ? &cus : &pt;
				if (*slot < 0) {
					*slot = (int)j;
					used[j] = true;
				}
			}
			if (std < 0 && pt >= 0) std = pt, pt = -1;
			if (pt >= 0) used[pt] = false; /* a point scope beside a transitive one: its own variant below */
			group_label(&md->summaries[i], label, sizeof label);
			bool need_inclusive = is(brk, "hpctkdb.taxonomy.formula") || is(brk, "hpctkdb.taxonomy.hatchet") ||
					      is(brk, "hpctkdb.taxonomy.alias");
			bool first = !first_done && first_root && (!need_inclusive || exec >= 0);
			variant(b, k, label, exec, std, cus, first, brk);
			first_done |= first;
		}
		/* what is left (a second scope of a kind in a group): a variant each */
		for (unsigned i = 0; i < md->n_summaries && i < 16; i++) {
			if (used[i]) continue;
			char l2[96];
			group_label(&md->summaries[i], label, sizeof label);
			snprintf(l2, sizeof l2, "%s (%s)", label, m->scopes[md->summaries[i].scope].name);
			variant(b, k, l2, -1, (int)i, -1, false, brk);
		}
	}
	if (is(brk, "hpctkdb.taxonomy.input-metadb"))
		gen_buf_printf(b, "  - name: unknown\n    variants:\n      Sum:\n        render: [number]\n        formula:\n"
		       "          exclusive:\n            standard: *in-unknown\n");
	if (is(brk, "hpctkdb.taxonomy.bounds")) {
		/* a billion laughs beside roots: 9^9 strings from 90 nodes */
		gen_buf_printf(b, "lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
		for (int i = 1; i <= 9; i++)
			gen_buf_printf(b, "lol%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i - 1, i - 1, i - 1,
			    i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	}
	if (is(brk, "hpctkdb.taxonomy.depth")) {
		/* one flow collection past the flow bound, beside roots: */
		gen_buf_printf(b, "nested: ");
		for (int i = 0; i < 33; i++) gen_buf_printf(b, "[");
		for (int i = 0; i < 33; i++) gen_buf_printf(b, "]");
		gen_buf_printf(b, "\n");
	}
	if (is(brk, "hpctkdb.taxonomy.yaml")) gen_buf_printf(b, "broken: [1, 2\n");
	if (is(brk, "hpctkdb.taxonomy.viewer-aliases")) {
		gen_buf_printf(b, "many:\n");
		for (int i = 0; i < 1001; i++) gen_buf_printf(b, "  - *in-%u-0\n", first_metric);
	}
	if (!first_done && brk && (strstr(brk, "taxonomy.variant") || strstr(brk, "taxonomy.formula") ||
				   strstr(brk, "taxonomy.hatchet") || strstr(brk, "taxonomy.alias") ||
				   strstr(brk, "taxonomy.child-variant"))) {
		*fail = "the first metric has no execution-scope summary to break";
		return -1;
	}
	return b->oom ? -1 : 0;
}
