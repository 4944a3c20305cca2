/* metrics/default.yaml for generated databases, written as hpcprof writes
 * it (real-samples/hpctoolkit/NAME.d/metrics/default.yaml): version 0,
 * one anchored input per summary statistic of meta.db, and one root per
 * metric whose variants use them -- inclusive: standard: the execution
 * scope, exclusive: standard: the transitive (else point) scope and
 * custom: the custom scope -- one variant per (formula, combine), so that
 * every input is used under a root. `brk` names a taxonomy rule to break
 * (exactly that one), or RULE~VARIANT for another way to break it (the
 * one-change variants the readers were measured on); NULL writes the valid
 * taxonomy. */
#include "taxonomy.h"

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
#define HATCHET "hpctkdb.taxonomy.hatchet"

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
 * custom from `cus` (indices into the metric's summaries, -1: none). The
 * first variant of the first root carries the break. */
static void variant(gen_buf *b, unsigned k, const char *label, int exec, int std, int cus, bool first, const char *brk)
{
	char qb[160];
	if (first && is(brk, HATCHET "~not-sum") && strcmp(label, "Sum") == 0) label = "Total";
	gen_buf_printf(b, "      %s:\n", q(label, qb, sizeof qb));
	if (first && is(brk, "hpctkdb.taxonomy.variant")) gen_buf_printf(b, "        render: [number, pie]\n");
	else if (first && is(brk, HATCHET "~render-number")) gen_buf_printf(b, "        render: [number]\n");
	else if (first && is(brk, HATCHET "~percentage")) gen_buf_printf(b, "        render: [number, percentage]\n");
	else if (first && is(brk, "hpctkdb.taxonomy.variant~render-string") && exec >= 0)
		gen_buf_printf(b, "        render: percent\n"); /* the spec's one-string form */
	else gen_buf_printf(b, "        render: %s\n", exec >= 0 ? "[number, percent]" : "[number]");
	gen_buf_printf(b, "        formula:\n");
	if (exec >= 0) {
		gen_buf_printf(b, "          inclusive:\n");
		if (first && is(brk, HATCHET))
			gen_buf_printf(b, "            *in-%u-%d\n", k, exec); /* bare, as older hpcprof wrote it */
		else if (first && is(brk, "hpctkdb.taxonomy.alias"))
			gen_buf_printf(b, "            standard: {+: [*in-%u-%d, *no-such-input]}\n", k, exec);
		else if (first && is(brk, "hpctkdb.taxonomy.formula"))
			gen_buf_printf(b, "            standard: [*in-%u-%d, '* * 3']\n", k, exec);
		else if (first && is(brk, "hpctkdb.taxonomy.viewer-formula")) /* the spec's parenthesised form */
			gen_buf_printf(b, "            standard: [*in-%u-%d, '*', 1]\n", k, exec);
		else if (first && is(brk, "hpctkdb.taxonomy.viewer-formula~string"))
			gen_buf_printf(b, "            standard: '2 * 3'\n            custom: *in-%u-%d\n", k, exec);
		else if (first && is(brk, "hpctkdb.taxonomy.viewer-formula~three-args"))
			gen_buf_printf(b, "            standard: {+: [*in-%u-%d, 0, 0]}\n", k, exec);
		else if (first && is(brk, HATCHET "~expression"))
			gen_buf_printf(b, "            standard: {'*': [1, *in-%u-%d]}\n", k, exec);
		else
			gen_buf_printf(b, "            standard: *in-%u-%d\n", k, exec);
	}
	if (std >= 0 || cus >= 0) {
		gen_buf_printf(b, "          exclusive:\n");
		if (first && is(brk, "hpctkdb.taxonomy.viewer-order") && std >= 0) {
			/* standard: first; custom: (the same input when there is no custom scope) after it */
			gen_buf_printf(b, "            standard: *in-%u-%d\n", k, std);
			gen_buf_printf(b, "            custom: *in-%u-%d\n", k, cus >= 0 ? cus : std);
		} else {
			if (cus >= 0) gen_buf_printf(b, "            custom: *in-%u-%d\n", k, cus);
			if (std >= 0) gen_buf_printf(b, "            standard: *in-%u-%d\n", k, std);
			else gen_buf_printf(b, "            standard: null\n"); /* defaults to null; said, for readers that need the key */
		}
	}
	if (first && is(brk, "hpctkdb.taxonomy.child-variant")) gen_buf_printf(b, "        child variant: Median\n");
	if (first && is(brk, "hpctkdb.taxonomy.viewer-input-reuse") && exec >= 0)
		/* a second column whose whole formula is the same input */
		gen_buf_printf(b, "      Copy:\n        render: [number]\n        formula:\n          inclusive:\n"
				  "            standard: *in-%u-%d\n", k, exec);
}

/* The collection aliases written so far (each *in-... is an alias of an
 * input map, the aliases hpcviewer's SnakeYAML loader counts). */
static unsigned count_aliases(const gen_buf *b)
{
	unsigned n = 0;
	for (size_t i = 0; i + 4 <= b->len; i++) n += b->data[i] == '*' && memcmp(b->data + i, "*in-", 4) == 0;
	return n;
}

/* Append src to dst with `indent` more spaces on every line. */
static void append_indented(gen_buf *dst, const gen_buf *src, int indent)
{
	size_t i = 0;
	while (i < src->len) {
		size_t e = i;
		while (e < src->len && src->data[e] != '\n') e++;
		gen_buf_printf(dst, "%*s%.*s\n", indent, "", (int)(e - i), (const char *)src->data + i);
		i = e + 1;
	}
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
	if (is(brk, "hpctkdb.taxonomy.bounds")) {
		/* an alias bomb that an input holds: hpcviewer hashes input maps, and
		 * 9^12 strings keep it busy for good (9^9 takes it seconds) */
		gen_buf_printf(b, "lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
		for (int i = 1; i <= 12; i++)
			gen_buf_printf(b, "lol%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i - 1, i - 1, i - 1,
			    i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	}
	gen_buf_printf(b, "inputs:\n");
	bool dropped = false;
	for (unsigned k = first_metric; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		for (unsigned i = 0; i < md->n_summaries; i++) {
			const hpctk_summary *s = &md->summaries[i];
			bool dollar = strcmp(s->formula, "$$") == 0, sum = s->combine == HPCTK_COMBINE_SUM;
			gen_buf_printf(b, "  - &in-%u-%u\n", k, i);
			gen_buf_printf(b, "    metric: %s\n", q(md->name, qb, sizeof qb));
			gen_buf_printf(b, "    scope: %s\n", m->scopes[s->scope].name);
			/* the spec's defaults ($$, sum) left to the reader, once */
			if (!dropped && dollar && is(brk, "hpctkdb.taxonomy.viewer-input~no-formula")) dropped = true;
			else gen_buf_printf(b, "    formula: %s\n", q(s->formula, qb, sizeof qb));
			if (!dropped && sum && is(brk, "hpctkdb.taxonomy.viewer-input")) dropped = true;
			else gen_buf_printf(b, "    combine: %s\n", comb_name[s->combine % 3]);
			if (k == first_metric && i == 0 && is(brk, "hpctkdb.taxonomy.bounds")) gen_buf_printf(b, "    notes: *l12\n");
		}
	}
	if (brk && strncmp(brk, "hpctkdb.taxonomy.viewer-input", 29) == 0 && brk[29] != '-' && !dropped) {
		*fail = "no summary of $$ and sum to leave its default out";
		return -1;
	}
	if (is(brk, "hpctkdb.taxonomy.input"))
		gen_buf_printf(b, "  - &in-bad-combine\n    metric: %s\n    scope: point\n    formula: $$\n    combine: avg\n",
		    q(m->metrics[first_metric].name, qb, sizeof qb));
	if (is(brk, "hpctkdb.taxonomy.input-metadb"))
		gen_buf_printf(b, "  - &in-unknown\n    metric: no-such-metric\n    scope: point\n    formula: $$\n    combine: sum\n");
	gen_buf_printf(b, "%s:\n", is(brk, "hpctkdb.taxonomy.top") ? "root" : "roots");
	bool first_done = false;
	gen_buf *const out = b;
	gen_buf one = {0};
	for (unsigned k = first_metric; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		if (md->n_summaries == 0) continue;
		bool first_root = k == first_metric;
		bool nest = first_root && is(brk, HATCHET "~nested");
		b = nest ? &one : out;
		if (first_root && is(brk, HATCHET "~renamed")) {
			char renamed[96];
			snprintf(renamed, sizeof renamed, "%s (renamed)", md->name);
			gen_buf_printf(b, "  - name: %s\n", q(renamed, qb, sizeof qb));
		} else
			gen_buf_printf(b, "  - name: %s\n", q(md->name, qb, sizeof qb));
		gen_buf_printf(b, "    description: %s\n", q(md->name, qb, sizeof qb));
		if (first_root && is(brk, "hpctkdb.taxonomy.viewer-variants"))
			gen_buf_printf(b, "    children:\n      - name: %s\n        description: a child without variants\n",
			    q("part", qb, sizeof qb));
		if (first_root && is(brk, "hpctkdb.taxonomy.metric")) gen_buf_printf(b, "    visible by default: maybe\n");
		if (first_root && is(brk, "hpctkdb.taxonomy.format")) gen_buf_printf(b, "    format: \"%%d\"\n");
		if (first_root && is(brk, "hpctkdb.taxonomy.child-variant")) {
			/* a child to take values from, with only a Sum variant */
			gen_buf_printf(b, "    children:\n      - name: %s\n        variants:\n          Sum:\n", q("part", qb, sizeof qb));
			gen_buf_printf(b, "            render: [number]\n            formula:\n              exclusive:\n");
			unsigned j = 0;
			while (j + 1 < md->n_summaries && m->scopes[md->summaries[j].scope].type == HPCTK_SCOPE_CUSTOM) j++;
			/* computed from the input, so no second column is the input itself */
			gen_buf_printf(b, "                standard: {'*': [1, *in-%u-%u]}\n", k, j);
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
			bool need_inclusive = is(brk, "hpctkdb.taxonomy.formula") || (brk && strstr(brk, "taxonomy.hatchet")) ||
					      is(brk, "hpctkdb.taxonomy.alias") || (brk && strstr(brk, "taxonomy.viewer-formula")) ||
					      is(brk, "hpctkdb.taxonomy.viewer-input-reuse") ||
					      is(brk, "hpctkdb.taxonomy.variant~render-string");
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
		if (nest) {
			/* under a parent whose columns sum its children's */
			gen_buf_printf(out, "  - name: %s\n    description: a group of metrics\n    variants:\n      Sum:\n"
					    "        render: [number, percent]\n        formula: sum\n    children:\n",
			    q("group", qb, sizeof qb));
			append_indented(out, &one, 4);
			if (one.oom) out->oom = true;
			gen_buf_free(&one);
		}
	}
	b = out;
	if (is(brk, "hpctkdb.taxonomy.input-metadb"))
		gen_buf_printf(b, "  - name: unknown\n    variants:\n      Sum:\n        render: [number]\n        formula:\n"
		       "          exclusive:\n            standard: *in-unknown\n");
	if (is(brk, "hpctkdb.taxonomy.limit")) {
		/* a billion laughs beside roots: 9^9 strings from 90 nodes, under a
		 * key no reader walks (hpcviewer and hatchet load it at once) */
		gen_buf_printf(b, "lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
		for (int i = 1; i <= 9; i++)
			gen_buf_printf(b, "lol%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i - 1, i - 1, i - 1,
			    i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	}
	if (is(brk, "hpctkdb.taxonomy.depth")) {
		/* beside roots:, a scalar inside 50 block sequences: level 52 from
		 * the top map, one past what hpcviewer's SnakeYAML loads */
		gen_buf_printf(b, "nested:\n  ");
		for (int i = 0; i < 50; i++) gen_buf_printf(b, "- ");
		gen_buf_printf(b, "1\n");
	}
	if (is(brk, "hpctkdb.taxonomy.yaml")) gen_buf_printf(b, "broken: [1, 2\n");
	if (is(brk, "hpctkdb.taxonomy.viewer-alias-cap") || is(brk, "hpctkdb.taxonomy.viewer-alias-cap~at-cap")) {
		/* 10001 (one past hpcviewer's cap) or exactly 10000 aliases of maps in all */
		unsigned want = is(brk, "hpctkdb.taxonomy.viewer-alias-cap") ? 10001 : 10000, have = count_aliases(b);
		gen_buf_printf(b, "many:\n");
		for (unsigned i = have; i < want; i++) gen_buf_printf(b, "  - *in-%u-0\n", first_metric);
	}
	if (is(brk, "hpctkdb.taxonomy.viewer-size") || is(brk, "hpctkdb.taxonomy.viewer-size~at-cap")) {
		/* a plain scalar beside roots: that brings the characters up to the
		 * end of its scan (its line break included) to one past hpcviewer's
		 * 3 Mi, or to exactly 3 Mi with a comment after it, which SnakeYAML
		 * reads after its last check */
		bool over = is(brk, "hpctkdb.taxonomy.viewer-size");
		size_t have = 0, want = (3u << 20) + (over ? 1 : 0), frame = strlen("padding: \n");
		for (size_t i = 0; i < b->len; i++) have += (b->data[i] & 0xc0) != 0x80;
		if (b->len && b->data[b->len - 1] != '\n') gen_buf_printf(b, "\n"), have++;
		if (have + frame >= want) {
			*fail = "the taxonomy is already past 3 Mi characters";
			return -1;
		}
		gen_buf_printf(b, "padding: ");
		char xs[4096];
		memset(xs, 'x', sizeof xs);
		for (size_t left = want - have - frame; left;) {
			size_t n = left < sizeof xs ? left : sizeof xs;
			gen_buf_append(b, xs, n);
			left -= n;
		}
		gen_buf_printf(b, "\n");
		if (!over) gen_buf_printf(b, "# a comment after the last token: SnakeYAML does not count it\n");
	}
	if (!first_done && brk && (strstr(brk, "taxonomy.variant") || strstr(brk, "taxonomy.formula") ||
				   strstr(brk, "taxonomy.hatchet") || strstr(brk, "taxonomy.alias") ||
				   strstr(brk, "taxonomy.child-variant") || strstr(brk, "taxonomy.viewer-formula") ||
				   strstr(brk, "taxonomy.viewer-input-reuse"))) {
		*fail = "the first metric has no execution-scope summary to break";
		return -1;
	}
	return b->oom ? -1 : 0;
}
