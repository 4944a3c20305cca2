/* A report's stored diagnostics by rule, found in one pass (see output.h).
 *
 * The JUnit and certificate writers ask, for each rule of the table that
 * failed, which of its diagnostics are stored, the first of them and the
 * severities they carry. Asked of the report rule by rule, each question
 * is a scan of every stored diagnostic: with no cap on the report, a
 * hundred failed rules times millions of diagnostics. Here one counting
 * pass answers all of them, and a stable bucket of the diagnostics' indices
 * by rule lists each rule's in report order. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "output.h"

static atomic_size_t scanned;

size_t hv_rule_index_scanned(void) { return atomic_load_explicit(&scanned, memory_order_relaxed); }

void hv_rule_index_build(hv_rule_index *x, const hv_report *r)
{
	memset(x, 0, sizeof *x);
	x->r = r;
	for (int i = 0; i < HV_RULE_COUNT; i++) x->first[i] = x->last[i] = SIZE_MAX;
	size_t count[HV_RULE_COUNT] = {0};
	for (size_t k = 0; k < r->ndiags; k++) {
		const hv_diag *d = &r->diags[k];
		if (d->rule < 0 || d->rule >= HV_RULE_COUNT) continue;
		if (!count[d->rule]++) x->first[d->rule] = k;
		x->last[d->rule] = k;
		x->sevs[d->rule] |= (unsigned char)(1u << ((unsigned)d->sev & 7u));
	}
	atomic_fetch_add_explicit(&scanned, r->ndiags, memory_order_relaxed);
	size_t at = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		x->start[i] = at;
		at += count[i];
	}
	x->start[HV_RULE_COUNT] = at;
	/* Without the buckets (out of memory) a rule's diagnostics are found
	 * between its first and its last: the same ones, in the same order. */
	if (at == 0 || at > SIZE_MAX / sizeof *x->order) return;
	x->order = hv_malloc_optional(at * sizeof *x->order);
	if (!x->order) return;
	size_t fill[HV_RULE_COUNT];
	memcpy(fill, x->start, sizeof fill);
	for (size_t k = 0; k < r->ndiags; k++) {
		int rule = r->diags[k].rule;
		if (rule >= 0 && rule < HV_RULE_COUNT) x->order[fill[rule]++] = k;
	}
}

void hv_rule_index_free(hv_rule_index *x)
{
	free(x->order);
	x->order = NULL;
}

size_t hv_rule_shown(const hv_rule_index *x, int rule) { return x->start[rule + 1] - x->start[rule]; }

const hv_diag *hv_rule_first(const hv_rule_index *x, int rule)
{
	return x->first[rule] == SIZE_MAX ? NULL : &x->r->diags[x->first[rule]];
}

const hv_diag *hv_rule_next(const hv_rule_index *x, int rule, size_t *pos)
{
	if (x->order) {
		if (*pos < x->start[rule]) *pos = x->start[rule];
		return *pos < x->start[rule + 1] ? &x->r->diags[x->order[(*pos)++]] : NULL;
	}
	if (x->first[rule] == SIZE_MAX) return NULL;
	if (*pos < x->first[rule]) *pos = x->first[rule];
	for (; *pos <= x->last[rule]; (*pos)++)
		if (x->r->diags[*pos].rule == rule) return &x->r->diags[(*pos)++];
	return NULL;
}

bool hv_rule_stored_sev(const hv_rule_index *x, int rule, enum hv_sev sev)
{
	return (x->sevs[rule] >> ((unsigned)sev & 7u)) & 1u;
}

bool hv_rule_fails(const hv_rule_index *x, int rule, bool strict)
{
	const hv_report *r = x->r;
	if (r->failed[rule] == 0) return false;
	if (hv_rule_stored_sev(x, rule, HV_SEV_ERROR) || (strict && hv_rule_stored_sev(x, rule, HV_SEV_WARNING)))
		return true;
	/* Every stored diagnostic of the rule was below the bar, but some were
	 * not stored: fall back to the rule's table severity. */
	if (hv_rule_shown(x, rule) && r->suppressed == 0) return false;
	enum hv_sev s = hv_rules[rule].severity;
	return s == HV_SEV_ERROR || (strict && s == HV_SEV_WARNING);
}

size_t hv_rules_failing(const hv_rule_index *x, bool strict)
{
	size_t n = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) n += hv_rule_fails(x, i, strict);
	return n;
}
