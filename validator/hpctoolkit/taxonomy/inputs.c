/* The taxonomy's inputs: (1) each entry of inputs: is a summary statistic
 * of meta.db named by metric, scope, a canonical unary formula and a
 * combine; (2) with meta.db's value model at hand, each names one that
 * meta.db declares; (3) after the metrics are walked, the note on meta.db
 * metrics nothing presents. A malformed input is not compared with meta.db. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "taxonomy.h"
#include "hpctoolkit/values/values.h"

/* ---- inputs ---- */

/* The canonical unary form: no whitespace, balanced parentheses, no empty
 * or outermost pair of parentheses. */
static bool canonical_unary(const char *s, size_t len, const char **why)
{
	int depth = 0;
	if (len == 0) return *why = "it is empty", false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (isspace((unsigned char)c)) return *why = "it holds whitespace (the canonical form has none)", false;
		if (c == '(') {
			if (i + 1 < len && s[i + 1] == ')') return *why = "it holds an empty pair of parentheses", false;
			depth++;
		} else if (c == ')' && --depth < 0)
			return *why = "its parentheses do not balance", false;
		else if (c == ')' && depth == 0 && i + 1 < len) {
			/* fine: the outer pair closed before the end */
		}
	}
	if (depth) return *why = "its parentheses do not balance", false;
	if (s[0] == '(') {
		/* a pair around the whole formula is extraneous */
		int dd = 0;
		size_t i = 0;
		for (; i < len; i++) {
			dd += s[i] == '(';
			dd -= s[i] == ')';
			if (dd == 0) break;
		}
		if (i == len - 1) return *why = "a pair of parentheses encloses the whole formula (extraneous)", false;
	}
	return true;
}

void tx_check_inputs(tx *t, uint32_t seq)
{
	const yd_doc *d = &t->d;
	const yd_node *s = &d->node[seq];
	t->in = hv_calloc(s->n ? s->n : 1, sizeof *t->in);
	if (!t->in) return;
	char path[HV_PATH_MAX], buf[64];
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t e = d->edge[s->first + i];
		tx_pathf(path, sizeof path, "%s/inputs[%u]", tx_base_name(t->file), i);
		if (t->input_of[e] != YD_NONE) continue; /* an alias of an earlier entry */
		if (!tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, d->node[e].kind == YD_MAP, e, path,
			      "an input is a map of metric:, scope:, formula:, combine:; found %s", tx_type_name(yd_type(d, e))))
			continue;
		tx_input *in = &t->in[t->nin];
		in->node = e;
		in->mi = -1;
		in->viewer_at = in->used_by = YD_NONE;
		t->input_of[e] = t->nin++;
		t->d.node[e].input = 1;
		uint32_t m = yd_get(&t->d, e, "metric"), sc = yd_get(&t->d, e, "scope");
		uint32_t f = yd_get(&t->d, e, "formula"), c = yd_get(&t->d, e, "combine");
		bool ok = true;
		ok &= tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, m != YD_NONE && yd_type(d, m) == YD_T_STR && d->node[m].len > 0,
			       m != YD_NONE ? m : e, path,
			       "metric: must be the metric's canonical name (a non-empty string); found %s",
			       m == YD_NONE ? "no metric: key" : tx_text(t, m, buf, sizeof buf));
		ok &= tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, sc != YD_NONE && yd_type(d, sc) == YD_T_STR && d->node[sc].len > 0,
			       sc != YD_NONE ? sc : e, path,
			       "scope: must name a propagation scope (a non-empty string); found %s",
			       sc == YD_NONE ? "no scope: key" : tx_text(t, sc, buf, sizeof buf));
		const char *why = "it is not a scalar";
		int fty = f == YD_NONE ? YD_T_STR : yd_type(d, f);
		bool fok = f == YD_NONE || ((fty == YD_T_STR || fty == YD_T_INT || fty == YD_T_FLOAT) &&
					    canonical_unary(yd_str(d, &d->node[f]), d->node[f].len, &why));
		ok &= tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, fok, f != YD_NONE ? f : e, path,
			       "formula: must be a summary's unary formula in canonical form (e.g. $$); found %s: %s",
			       tx_text(t, f, buf, sizeof buf), why);
		int comb = 0;
		if (c != YD_NONE) comb = yd_is(d, c, "sum") ? 0 : yd_is(d, c, "min") ? 1 : yd_is(d, c, "max") ? 2 : -1;
		ok &= tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, comb >= 0, c, path,
			       "combine: must be sum, min or max (default sum); found %s", tx_text(t, c, buf, sizeof buf));
		/* Defaults the spec gives but hpcviewer does not apply: it
		 * matches String.valueOf(formula) and the combine: text. */
		if (ok)
			tx_check(t, HV_R_HPCTKDB_TAXONOMY_VIEWER_INPUT, f != YD_NONE && c != YD_NONE, e, path,
				 "no %s: key; the spec defaults it (%s), but hpcviewer 2025.01 matches inputs with meta.db by "
				 "the written text and refuses the database (IllegalStateException: %s/null: metric does not "
				 "exist): write it, as hpcprof does",
				 f == YD_NONE ? "formula" : "combine", f == YD_NONE ? "$$" : "sum",
				 m != YD_NONE ? yd_str(d, &d->node[m]) : "?");
		in->ok = ok;
		if (!ok) continue;
		in->metric = yd_str(d, &d->node[m]);
		in->scope = yd_str(d, &d->node[sc]);
		in->combine = (uint8_t)comb;
		snprintf(in->formula, sizeof in->formula, "%s", f == YD_NONE ? "$$" : yd_str(d, &d->node[f]));
	}
}

/* ---- meta.db cross-checks ---- */

static void strip_ws(const char *s, char *out, size_t cap)
{
	size_t k = 0;
	for (; *s && k + 1 < cap; s++)
		if (!isspace((unsigned char)*s)) out[k++] = *s;
	out[k] = '\0';
}

typedef struct name_ix {
	const char *name;
	uint32_t mi;
} name_ix;

static int cmp_name_ix(const void *a, const void *b)
{
	return strcmp(((const name_ix *)a)->name, ((const name_ix *)b)->name);
}

void tx_cross_inputs(tx *t)
{
	const hpctk_vmodel *vm = t->vm;
	name_ix *ix = hv_malloc((vm->nmetrics ? vm->nmetrics : 1) * sizeof *ix);
	if (!ix) return;
	for (uint32_t i = 0; i < vm->nmetrics; i++) ix[i] = (name_ix){vm->pool + vm->metric_name[i], i};
	qsort(ix, vm->nmetrics, sizeof *ix, cmp_name_ix);
	/* Each metric's summaries, in meta.db's order (a stable counting sort):
	 * an input looks at its metric's few, not at all of them, so a large
	 * taxonomy over a large meta.db costs inputs + summaries, not their
	 * product (4,096 metrics took 0.4 s here before). */
	uint32_t *at = hv_calloc((size_t)vm->nmetrics + 1, sizeof *at);
	uint32_t *by_metric = hv_malloc((vm->nstats ? vm->nstats : 1) * sizeof *by_metric);
	if (!at || !by_metric) {
		free(ix);
		free(at);
		free(by_metric);
		return;
	}
	for (size_t s = 0; s < vm->nstats; s++)
		if (vm->stats[s].metric < vm->nmetrics) at[vm->stats[s].metric + 1]++;
	for (uint32_t i = 0; i < vm->nmetrics; i++) at[i + 1] += at[i];
	for (size_t s = 0; s < vm->nstats; s++)
		if (vm->stats[s].metric < vm->nmetrics) by_metric[at[vm->stats[s].metric]++] = (uint32_t)s;
	for (uint32_t i = vm->nmetrics; i > 0; i--) at[i] = at[i - 1]; /* back to each metric's first */
	at[0] = 0;
	char path[HV_PATH_MAX], mf[64];
	static const char *const comb[] = {"sum", "min", "max"};
	for (uint32_t k = 0; k < t->nin; k++) {
		tx_input *in = &t->in[k];
		if (!in->ok) continue;
		tx_pathf(path, sizeof path, "%s/inputs/%s", tx_base_name(t->file), in->metric);
		name_ix key = {in->metric, 0};
		name_ix *hit = bsearch(&key, ix, vm->nmetrics, sizeof *ix, cmp_name_ix);
		if (!tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, hit != NULL, in->node, path,
			      "metric '%s' is not a metric of meta.db (%u metrics): its values cannot be found", in->metric,
			      vm->nmetrics))
			continue;
		in->mi = (int32_t)hit->mi;
		/* the summaries of that metric: scope, formula, combine */
		bool scope_seen = false, found = false;
		char seen_f[64] = "";
		int seen_c = -1;
		for (uint32_t j = at[hit->mi]; j < at[hit->mi + 1] && !found; j++) {
			const hpctk_vstat *st = &vm->stats[by_metric[j]];
			if (st->pid >= vm->npid) continue;
			if (strcmp(vm->pool + vm->scope_name[st->pid], in->scope) != 0) continue;
			scope_seen = true;
			strip_ws(vm->pool + st->formula, mf, sizeof mf);
			if (strcmp(mf, in->formula) == 0 && st->combine == in->combine) {
				found = true;
				in->custom = vm->kind[st->pid] == HPCTK_VP_CUSTOM;
			} else if (seen_c < 0) {
				snprintf(seen_f, sizeof seen_f, "%s", mf);
				seen_c = st->combine;
			}
		}
		if (!scope_seen) {
			tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, false, in->node, path,
				 "metric '%s' has no summary statistic of propagation scope '%s' in meta.db", in->metric,
				 in->scope);
			continue;
		}
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, found, in->node, path,
			 "metric '%s' scope '%s': meta.db has no summary with formula '%s' and combine %s (it has e.g. "
			 "formula '%s' combine %s)",
			 in->metric, in->scope, in->formula, comb[in->combine], seen_f,
			 seen_c >= 0 && seen_c < 3 ? comb[seen_c] : "?");
	}
	free(ix);
	free(at);
	free(by_metric);
}

/* ---- what is not presented (hatchet's reading: readers.c) ---- */

void tx_notes(tx *t)
{
	char list[512];
	size_t len = 0;
	if (!t->vm) return;
	/* meta.db metrics whose inputs no root uses, or that no input names */
	const hpctk_vmodel *vm = t->vm;
	uint8_t *shown = hv_calloc(vm->nmetrics ? vm->nmetrics : 1, 1);
	if (!shown) return;
	for (uint32_t k = 0; k < t->nin; k++)
		if (t->in[k].mi >= 0 && (t->d.node[t->in[k].node].seen & SEEN_USED)) shown[t->in[k].mi] = 1;
	len = 0;
	uint32_t hidden = 0;
	for (uint32_t i = 0; i < vm->nmetrics; i++) {
		if (shown[i]) continue;
		if (hidden++ < 6 && len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", hidden > 1 ? ", " : "",
						 vm->pool + vm->metric_name[i]);
	}
	free(shown);
	if (!hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_UNPRESENTED, hidden == 0))
		hv_emit(t->r, HV_R_HPCTKDB_TAXONOMY_UNPRESENTED, t->file, 0, 0, tx_base_name(t->file),
			"%u of meta.db's %u metrics are not presented (no formula under roots: uses them): %s%s", hidden,
			vm->nmetrics, list, hidden > 6 ? ", ..." : "");
}
