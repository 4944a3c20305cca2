/* The propagated-value checker's verdicts (values.h, hpctk_vcheck_keep_fail
 * and hpctk_vcheck_verdicts): an equation out of tolerance while its
 * profile streams is only kept, because raw values at contexts elided from
 * meta.db may still arrive and widen what it may differ by; at the end of
 * the profile's slot group it is decided, and reported with both ends (the
 * value found, point value + children's, the elided values' allowance) and
 * the context's path. The hot loops stay in check.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "values.h"

void hpctk_vcheck_keep_fail(hpctk_vcheck *c, const hpctk_vfail *f)
{
	if (!HV_GROW(c->fail, c->fail_cap, c->nfail + 1, 16)) {
		c->oom = true; /* reported as far as kept */
		return;
	}
	c->fail[c->nfail++] = *f;
}

static void emit_prop(hpctk_vcheck *c, int rule, uint16_t pid, uint32_t n, uint64_t off, double found, double expect,
		      double lo, double hi)
{
	const hpctk_vmodel *vm = c->vm;
	char where[200], path[HV_PATH_MAX];
	hpctk_vmodel_path(vm, vm->by_ctx[n], where, sizeof where);
	snprintf(path, sizeof path, "profile.db/profile[%u]/ctx[%u]/metric[%u]", c->cur, vm->byrank[n].ctx, pid);
	const char *scope = vm->pool + vm->scope_name[pid];
	const char *terms = vm->kind[pid] == HPCTK_VP_EXEC ? "all children's" : "the children's (propagation bit set)";
	if (lo == 0 && hi == 0)
		hv_emit(c->r, rule, c->file, off, 10, path,
			"ctx %s (ctxId %u): metric \"%s\" %s-propagated value %.9g, but point value + %s %s values = %.9g "
			"(difference %.3g)",
			where, vm->byrank[n].ctx, vm->pool + vm->metric_name[vm->metric_of[pid]], scope, found, terms, scope,
			expect, found - expect);
	else
		hv_emit(c->r, rule, c->file, off, 10, path,
			"ctx %s (ctxId %u): metric \"%s\" %s-propagated value %.9g, but point value + %s %s values = %.9g; "
			"the profile's raw values at elided contexts allow a difference in [%.3g, %.3g], found %.3g",
			where, vm->byrank[n].ctx, vm->pool + vm->metric_name[vm->metric_of[pid]], scope, found, terms, scope,
			expect, lo, hi, found - expect);
}


/* The file offset a diagnostic of node n's scope pid points at: the
 * node's value of the scope, else its point value, else the first value
 * that touched it (read again from the node's own run). */
static uint64_t scan_off(hpctk_vcheck *c, const hpctk_vfail *f, uint16_t pid)
{
	uint64_t point = 0;
	for (uint32_t i = 0; i < f->own_cnt; i++) {
		const uint8_t *p = hv_window_get(&c->w, f->own_off + 10ull * i, 10);
		if (!p) break;
		uint16_t id = hv_le16(p);
		if (id == pid) return f->own_off + 10ull * i;
		if (c->vm->has_point[pid] && id == c->vm->point_of[pid] && !point) point = f->own_off + 10ull * i;
	}
	return point ? point : f->first_off;
}

/* Where each id first appears in f's run, read once for all the node's
 * failures (up to a value the window cannot read, as scan_off stops);
 * false without the memory for it. */
static bool map_run(hpctk_vcheck *c, const hpctk_vfail *f)
{
	const uint32_t npid = c->vm->npid;
	if (!c->run_seen) {
		c->run_seen = hv_calloc_optional(npid ? npid : 1, sizeof *c->run_seen);
		c->run_at = hv_calloc_optional(npid ? npid : 1, sizeof *c->run_at);
		if (!c->run_seen || !c->run_at) {
			free(c->run_seen);
			free(c->run_at);
			c->run_seen = NULL;
			c->run_at = NULL;
			return false;
		}
	}
	if (++c->run_seq == 0) { /* the stamps wrapped: every mark is stale */
		memset(c->run_seen, 0, (npid ? npid : 1) * sizeof *c->run_seen);
		c->run_seq = 1;
	}
	for (uint32_t i = 0; i < f->own_cnt; i++) {
		const uint8_t *p = hv_window_get(&c->w, f->own_off + 10ull * i, 10);
		if (!p) break;
		uint16_t id = hv_le16(p);
		if (id < npid && c->run_seen[id] != c->run_seq) {
			c->run_seen[id] = c->run_seq;
			c->run_at[id] = f->own_off + 10ull * i;
		}
	}
	return true;
}

/* slot_off's answer from the mapped run: the same scan_off gives. */
static uint64_t mapped_off(const hpctk_vcheck *c, const hpctk_vfail *f, uint16_t pid)
{
	const hpctk_vmodel *vm = c->vm;
	if (pid < vm->npid && c->run_seen[pid] == c->run_seq) return c->run_at[pid];
	if (pid < vm->npid && vm->has_point[pid]) {
		uint16_t q = vm->point_of[pid];
		if (q < vm->npid && c->run_seen[q] == c->run_seq) return c->run_at[q];
	}
	return f->first_off;
}

/* The failures come node by node: a node's first failure reads its run up
 * to the value it wants (a node fails on few metrics as a rule); a second
 * maps the run, and every further one is looked up, so a context where
 * every metric fails costs one read of its run, not one per metric. */
static uint64_t slot_off(hpctk_vcheck *c, const hpctk_vfail *f, uint16_t pid)
{
	if (!f->own_off || !c->w_ok) return f->first_off;
	if (f->own_off != c->run_off || f->own_cnt != c->run_cnt) {
		c->run_off = f->own_off;
		c->run_cnt = f->own_cnt;
		c->run_mapped = false;
		return scan_off(c, f, pid);
	}
	if (!c->run_mapped) c->run_mapped = map_run(c, f);
	return c->run_mapped ? mapped_off(c, f, pid) : scan_off(c, f, pid);
}

static int by_touch(const void *a, const void *b)
{
	const hpctk_vfail *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* An execution total of slot pid that does not add up to the elided values. */
static void emit_total(hpctk_vcheck *c, uint16_t pid, double tot, double allowed)
{
	const hpctk_vmodel *vm = c->vm;
	char path[HV_PATH_MAX];
	snprintf(path, sizeof path, "profile.db/profile[%u]/metric[%u]", c->cur, pid);
	hv_emit(c->r, HV_R_HPCTKDB_VALUES_EXECUTION, c->file, 0, 0, path,
		"metric \"%s\" %s: the contexts' execution values exceed point value + children's by %.9g in "
		"all, but the raw values at contexts elided from meta.db add up to %.9g",
		vm->pool + vm->metric_name[vm->metric_of[pid]], vm->pool + vm->scope_name[pid], tot, allowed);
}

/* Hold a verdict for the profile's end (hpctk_vpend); false when there is
 * no memory for it: it is then reported at once. */
static bool held(hpctk_vcheck *c, const hpctk_vpend *p)
{
	if (!HV_GROW(c->pend, c->pend_cap, c->npend + 1, 16)) {
		c->oom = true;
		return false;
	}
	c->pend[c->npend++] = *p;
	return true;
}

void hpctk_vcheck_verdicts(hpctk_vcheck *c)
{
	const hpctk_vmodel *vm = c->vm;
	const uint32_t g = c->g, g0 = c->g0;
	/* several groups: every verdict waits for the last (hpctk_vpend) */
	const bool hold = g < vm->nd;
	hv_eval_n(c->r, HV_R_HPCTKDB_VALUES_TRANSITIVE, c->nev[0]);
	hv_eval_n(c->r, HV_R_HPCTKDB_VALUES_EXECUTION, c->nev[1]);
	/* the failures in the order the nodes were first touched */
	hpctk_vfail *f = c->fail;
	if (c->nfail) qsort(f, c->nfail, sizeof *f, by_touch);
	c->run_off = 0; /* no run mapped yet for these */
	for (size_t j = 0; j < c->nfail; j++) {
		const uint32_t k = f[j].k;
		double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (f[j].mag + fabs(f[j].found) + c->elmag[k]);
		double diff = f[j].found - f[j].expect;
		if (diff >= c->neg[k] - tol && diff <= c->pos[k] + tol) continue; /* within what the elided values allow */
		uint16_t pid = vm->dpid[g0 + k];
		int rule = vm->kind[pid] == HPCTK_VP_EXEC ? HV_R_HPCTKDB_VALUES_EXECUTION : HV_R_HPCTKDB_VALUES_TRANSITIVE;
		uint64_t off = slot_off(c, &f[j], pid);
		/* a later group's replay numbers runs its own way: the first group's touch */
		const uint32_t nd = f[j].node;
		uint64_t key = c->key0 && c->stamp0 && c->stamp0[nd] == c->pseq && c->key0[nd] ? c->key0[nd] : f[j].key;
		if (hold && held(c, &(hpctk_vpend){key, g0 + k, f[j].node, rule, pid, off, f[j].found, f[j].expect,
						      c->neg[k], c->pos[k]}))
			continue;
		emit_prop(c, rule, pid, f[j].node, off, f[j].found, f[j].expect, c->neg[k], c->pos[k]);
	}
	/* Execution: every elided raw value lies below exactly one listed
	 * context, so the excesses add up to all of them. */
	double *tot = c->pos + 3u * c->gw, *totmag = c->pos + 4u * c->gw;
	for (uint32_t k = 0; k < g && g0 + k < vm->nd; k++) {
		uint16_t pid = vm->dpid[g0 + k];
		if (vm->kind[pid] != HPCTK_VP_EXEC || (c->pos[k] == 0 && c->neg[k] == 0)) continue;
		double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (totmag[k] + c->elmag[k]);
		if (hv_eval(c->r, HV_R_HPCTKDB_VALUES_EXECUTION, fabs(tot[k] - (c->pos[k] + c->neg[k])) <= tol)) continue;
		if (hold && held(c, &(hpctk_vpend){UINT64_MAX, g0 + k, 0, HV_R_HPCTKDB_VALUES_EXECUTION, pid, 0, tot[k],
						      c->pos[k] + c->neg[k], 0, 0}))
			continue;
		emit_total(c, pid, tot[k], c->pos[k] + c->neg[k]);
	}
}

static int by_key_slot(const void *a, const void *b)
{
	const hpctk_vpend *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

void hpctk_vcheck_report_held(hpctk_vcheck *c)
{
	if (!c->npend) return;
	qsort(c->pend, c->npend, sizeof *c->pend, by_key_slot);
	for (size_t j = 0; j < c->npend; j++) {
		const hpctk_vpend *p = &c->pend[j];
		if (p->key == UINT64_MAX) emit_total(c, p->pid, p->found, p->expect);
		else emit_prop(c, p->rule, p->pid, p->node, p->off, p->found, p->expect, p->lo, p->hi);
	}
	c->npend = 0;
}
