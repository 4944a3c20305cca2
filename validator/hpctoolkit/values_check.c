/* The value checker (values.h; rules in values_rules.def).
 *
 * Thread profiles: a profile's values are buffered as the walk delivers
 * them (at most what the file holds for that profile), then grouped by
 * metric id with one counting sort, and every propagation equation is
 * evaluated by adding each value into its own node's slot (raw values) or
 * its parent's (propagated values): O(values) per profile, no traversal of
 * the tree. Summary statistics: each thread value is folded, through its
 * statistic's formula, into a hash entry per (context, statistic), and the
 * summary profile's values are stored next to them; compared after the
 * walk. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"
#include "values.h"

/* (context, statistic) pairs held at most: 128 Ki pairs, a 12 MiB table.
 * Beyond that the summary is left unchecked (a note): held per pair, the
 * check would cost memory and a hash update per thread value in proportion
 * to the database (a context-major pass over cct.db would not; not done). */
#define SUM_MAX (128u << 10)

static unsigned long long U(uint64_t v) { return (unsigned long long)v; }

static bool derived(const hpctk_vmodel *vm, uint16_t pid)
{
	return (vm->kind[pid] == HPCTK_VP_EXEC || vm->kind[pid] == HPCTK_VP_TRANS) && vm->has_point[pid];
}

/* Statistics of a custom scope are not checked: hpcprof derives them
 * otherwise (the real databases' "lex_aware" summaries are not the sum of
 * the threads' values), and the spec leaves custom scopes undefined. */
static bool summarised(const hpctk_vmodel *vm, uint16_t pid)
{
	uint8_t k = vm->kind[pid];
	return k == HPCTK_VP_POINT || k == HPCTK_VP_EXEC || k == HPCTK_VP_TRANS;
}

void hpctk_vcheck_init(hpctk_vcheck *c, const hpctk_vmodel *vm, hv_report *r, const char *file)
{
	memset(c, 0, sizeof *c);
	c->vm = vm;
	c->r = r;
	c->file = file;
	if (!vm) return;
	size_t n = vm->n ? vm->n : 1;
	c->acc = calloc(n, sizeof *c->acc);
	c->mag = calloc(n, sizeof *c->mag);
	c->found = calloc(n, sizeof *c->found);
	c->found_off = calloc(n, sizeof *c->found_off);
	c->mark = calloc(n, 1);
	c->touched = malloc(n * sizeof *c->touched);
	c->count = malloc(65537 * sizeof *c->count);
	c->next = malloc(65536 * sizeof *c->next);
	/* the derived pids of each point pid, as one list with starts */
	c->dfirst = calloc(65537, sizeof *c->dfirst);
	c->dlist = malloc(65536 * sizeof *c->dlist);
	if (c->dfirst && c->dlist) {
		for (uint32_t p = 0; p < 65536; p++)
			if (derived(vm, (uint16_t)p)) c->dfirst[vm->point_of[p] + 1]++;
		for (uint32_t p = 1; p <= 65536; p++) c->dfirst[p] += c->dfirst[p - 1];
		uint32_t *at = c->count; /* scratch: next free slot per point pid */
		if (at) {
			memcpy(at, c->dfirst, 65537 * sizeof *at);
			for (uint32_t p = 0; p < 65536; p++)
				if (derived(vm, (uint16_t)p)) c->dlist[at[vm->point_of[p]]++] = (uint16_t)p;
		}
	}
	c->on = c->acc && c->mag && c->found && c->found_off && c->mark && c->touched && c->count && c->dfirst &&
		c->dlist && c->next;
	if (!c->on) c->oom = true;
}

void hpctk_vcheck_free(hpctk_vcheck *c)
{
	free(c->acc);
	free(c->mag);
	free(c->found);
	free(c->found_off);
	free(c->mark);
	free(c->touched);
	free(c->count);
	free(c->dfirst);
	free(c->dlist);
	free(c->e);
	free(c->next);
	free(c->sum);
	memset(c, 0, sizeof *c);
}

/* --- summary pairs ---------------------------------------------------------- */

static uint64_t sum_hash(uint32_t ctx, uint16_t stat)
{
	uint64_t k = ((uint64_t)ctx << 16 | stat) * 0x9e3779b97f4a7c15ull;
	return k ^ (k >> 29);
}

static bool sum_grow(hpctk_vcheck *c)
{
	size_t cap = c->sum_cap ? c->sum_cap * 2 : 1024;
	hpctk_vsum *ns = calloc(cap, sizeof *ns);
	if (!ns) return false;
	for (size_t i = 0; i < c->sum_cap; i++) {
		hpctk_vsum *o = &c->sum[i];
		if (!o->has_found && o->count == 0) continue;
		size_t j = sum_hash(o->ctx, o->stat) & (cap - 1);
		while (ns[j].has_found || ns[j].count) j = (j + 1) & (cap - 1);
		ns[j] = *o;
	}
	free(c->sum);
	c->sum = ns;
	c->sum_cap = cap;
	return true;
}

/* The entry of (ctx, stat); NULL when it is new and no more are held. */
static hpctk_vsum *sum_at(hpctk_vcheck *c, uint32_t ctx, uint16_t stat)
{
	if (c->sum_n * 2 >= c->sum_cap && c->sum_n < SUM_MAX && !sum_grow(c)) {
		c->oom = true;
		return NULL;
	}
	if (!c->sum_cap) return NULL;
	size_t j = sum_hash(ctx, stat) & (c->sum_cap - 1);
	while (c->sum[j].has_found || c->sum[j].count) {
		if (c->sum[j].ctx == ctx && c->sum[j].stat == stat) return &c->sum[j];
		j = (j + 1) & (c->sum_cap - 1);
	}
	if (c->sum_n >= SUM_MAX || (c->sum_n + 1) * 4 > c->sum_cap * 3) {
		c->sum_overflow = true;
		return NULL;
	}
	c->sum_n++;
	c->sum[j] = (hpctk_vsum){.ctx = ctx, .stat = stat};
	return &c->sum[j];
}

static double apply(const hpctk_vformula *f, double x)
{
	if (f->power == 1.0) return f->scale * x;
	if (f->power == 2.0) return f->scale * x * x;
	return f->scale * pow(x, f->power);
}

/* --- thread profiles ------------------------------------------------------- */

static void touch(hpctk_vcheck *c, uint32_t n, uint64_t off)
{
	if (c->mark[n] & 1) return;
	c->mark[n] |= 1;
	c->found_off[n] = off;
	c->touched[c->ntouched++] = n;
}

static void emit_prop(hpctk_vcheck *c, int rule, uint16_t pid, uint32_t n, double found, double expect,
		      double lo, double hi)
{
	const hpctk_vmodel *vm = c->vm;
	char where[200], path[HV_PATH_MAX];
	hpctk_vmodel_path(vm, n, where, sizeof where);
	snprintf(path, sizeof path, "profile.db/profile[%u]/ctx[%u]/metric[%u]", c->cur, vm->node[n].ctx, pid);
	const char *scope = vm->pool + vm->scope_name[pid];
	const char *terms = vm->kind[pid] == HPCTK_VP_EXEC ? "all children's" : "the children's (propagation bit set)";
	if (lo == 0 && hi == 0)
		hv_emit(c->r, rule, c->file, c->found_off[n], 10, path,
			"ctx %s (ctxId %u): metric \"%s\" %s-propagated value %.9g, but point value + %s %s values = %.9g "
			"(difference %.3g)",
			where, vm->node[n].ctx, vm->pool + vm->metric_name[vm->metric_of[pid]], scope, found, terms, scope,
			expect, found - expect);
	else
		hv_emit(c->r, rule, c->file, c->found_off[n], 10, path,
			"ctx %s (ctxId %u): metric \"%s\" %s-propagated value %.9g, but point value + %s %s values = %.9g; "
			"the profile's raw values at elided contexts allow a difference in [%.3g, %.3g], found %.3g",
			where, vm->node[n].ctx, vm->pool + vm->metric_name[vm->metric_of[pid]], scope, found, terms, scope,
			expect, lo, hi, found - expect);
}

/* Entries of one pid: [first, end) of c->e, once grouped. */
typedef struct grp {
	size_t first, end;
} grp;

static grp group(const hpctk_vcheck *c, uint16_t pid)
{
	return (grp){pid ? c->count[pid - 1] : 0, c->count[pid]};
}

static void check_scope(hpctk_vcheck *c, uint16_t pid)
{
	const hpctk_vmodel *vm = c->vm;
	grp d = group(c, pid), p = group(c, vm->point_of[pid]);
	if (d.first == d.end && p.first == p.end) return;
	bool exec = vm->kind[pid] == HPCTK_VP_EXEC;
	int rule = exec ? HV_R_HPCTKDB_VALUES_EXECUTION : HV_R_HPCTKDB_VALUES_TRANSITIVE;
	uint16_t bit = (uint16_t)(1u << (vm->bit[pid] & 15));
	double pos = 0, neg = 0, elmag = 0;
	for (size_t i = p.first; i < p.end; i++) {
		const hpctk_vent *e = &c->e[i];
		if (e->elided) {
			if (e->v > 0) pos += e->v;
			else neg += e->v;
			elmag += fabs(e->v);
			continue;
		}
		touch(c, e->key, e->off);
		c->acc[e->key] += e->v;
		c->mag[e->key] += fabs(e->v);
	}
	for (size_t i = d.first; i < d.end; i++) {
		const hpctk_vent *e = &c->e[i];
		if (e->elided) continue; /* an elided context's own value: no equation known */
		touch(c, e->key, e->off);
		c->found[e->key] = e->v;
		c->found_off[e->key] = e->off;
		c->mark[e->key] |= 2;
		uint32_t par = vm->node[e->key].parent;
		if (par == HPCTK_VNONE || !(exec || (vm->node[e->key].prop & bit))) continue;
		touch(c, par, e->off);
		c->acc[par] += e->v;
		c->mag[par] += fabs(e->v);
	}
	double tot = 0, totmag = 0;
	for (size_t i = 0; i < c->ntouched; i++) {
		uint32_t n = c->touched[i];
		double f = c->mark[n] & 2 ? c->found[n] : 0.0, x = c->acc[n];
		double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (c->mag[n] + fabs(f) + elmag);
		double diff = f - x;
		tot += diff;
		totmag += c->mag[n] + fabs(f);
		if (!hv_eval(c->r, rule, diff >= neg - tol && diff <= pos + tol)) emit_prop(c, rule, pid, n, f, x, neg, pos);
		c->acc[n] = c->mag[n] = c->found[n] = 0;
		c->mark[n] = 0;
	}
	c->ntouched = 0;
	/* Execution: every elided raw value lies below exactly one listed
	 * context, so the excesses add up to all of them. */
	if (exec && (pos != 0 || neg != 0)) {
		double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (totmag + elmag);
		if (!hv_eval(c->r, rule, fabs(tot - (pos + neg)) <= tol)) {
			char path[HV_PATH_MAX];
			snprintf(path, sizeof path, "profile.db/profile[%u]/metric[%u]", c->cur, pid);
			hv_emit(c->r, rule, c->file, p.first < p.end ? c->e[p.first].off : 0, 10, path,
				"metric \"%s\" %s: the contexts' execution values exceed point value + children's by %.9g in "
				"all, but the raw values at contexts elided from meta.db add up to %.9g",
				vm->pool + vm->metric_name[vm->metric_of[pid]], vm->pool + vm->scope_name[pid], tot, pos + neg);
		}
	}
}

static void fold_stats(hpctk_vcheck *c)
{
	const hpctk_vmodel *vm = c->vm;
	for (size_t i = 0; i < c->n; i++) {
		const hpctk_vent *e = &c->e[i];
		for (uint32_t k = vm->first_stat[e->pid]; k < vm->first_stat[e->pid + 1]; k++) {
			const hpctk_vstat *s = &vm->stats[k];
			if (!s->f.ok || !summarised(vm, s->pid)) continue;
			hpctk_vsum *u = sum_at(c, e->elided ? e->key : vm->node[e->key].ctx, s->stat);
			if (!u) continue;
			double x = apply(&s->f, e->v);
			if (u->count == 0) u->acc = x;
			else if (s->combine == 0) u->acc += x;
			else if (s->combine == 1) u->acc = x < u->acc ? x : u->acc;
			else u->acc = x > u->acc ? x : u->acc;
			u->mag += s->combine == 0 ? fabs(x) : 0;
			u->count++;
		}
	}
}

static void flush(hpctk_vcheck *c)
{
	if (!c->cur_set) return;
	c->cur_set = false;
	bool tainted = c->cur_tainted;
	c->cur_tainted = false;
	if (c->cur_summary) return;
	c->threads_seen++;
	if (tainted) {
		c->n = 0;
		return;
	}
	const hpctk_vmodel *vm = c->vm;
	/* group by pid in place: count[p] = end of p's group, next[p] its
	 * cursor; each misplaced entry is swapped straight into its group */
	memset(c->count, 0, 65537 * sizeof *c->count);
	for (size_t i = 0; i < c->n; i++) c->count[c->e[i].pid + 1]++;
	for (uint32_t p = 1; p <= 65536; p++) c->count[p] += c->count[p - 1];
	memcpy(c->next, c->count, 65536 * sizeof *c->next);
	for (uint32_t p = 0; p < 65536; p++) {
		uint32_t end = c->count[p + 1];
		while (c->next[p] < end) {
			hpctk_vent *e = &c->e[c->next[p]];
			uint16_t q = e->pid;
			if (q == p) {
				c->next[p]++;
				continue;
			}
			hpctk_vent t = *e;
			*e = c->e[c->next[q]];
			c->e[c->next[q]++] = t;
		}
	}
	memmove(c->count, c->count + 1, 65536 * sizeof *c->count); /* count[p] = end of p's group */
	/* count[p] is now the end of p's group; group() reads count[p-1] as its
	 * start. Each derived pid is checked once: from its point pid when that
	 * has values here, else from its own values. */
	uint16_t prev = 0;
	bool any = false;
	for (size_t i = 0; i < c->n; i++) {
		uint16_t pid = c->e[i].pid;
		if (any && pid == prev) continue;
		any = true;
		prev = pid;
		if (vm->kind[pid] == HPCTK_VP_POINT) {
			for (uint32_t k = c->dfirst[pid]; k < c->dfirst[pid + 1]; k++) check_scope(c, c->dlist[k]);
		} else if (derived(vm, pid)) {
			grp p = group(c, vm->point_of[pid]);
			if (p.first == p.end) check_scope(c, pid);
		}
	}
	if (!c->sum_overflow && !c->sum_tainted) fold_stats(c);
	c->n = 0;
}

static void add(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, uint16_t pid, double v, uint64_t off)
{
	if (!c->cur_set || prof != c->cur || summary != c->cur_summary) {
		flush(c);
		c->cur_set = true;
		c->cur = prof;
		c->cur_summary = summary;
	}
	if (!isfinite(v)) return; /* its own rule fired */
	const hpctk_vmodel *vm = c->vm;
	if (summary) {
		if (c->sum_overflow) return; /* the summary check is off: nothing to hold */
		if (!(vm->stat_known[pid / 8] >> (pid % 8) & 1)) {
			c->sum_tainted = true; /* hpctkdb.metric.stat-known: which statistic it was is unknown */
			return;
		}
		hpctk_vsum *u = sum_at(c, ctx, pid);
		if (u) {
			u->has_found = true;
			u->found = v;
			u->off = off;
		}
		return;
	}
	if (vm->kind[pid] == HPCTK_VP_NONE) {
		/* hpctkdb.metric.prop-known fired: some metric's values are under
		 * an id meta.db does not give, so its equations cannot be set up */
		c->cur_tainted = c->sum_tainted = true;
		return;
	}
	if (vm->kind[pid] == HPCTK_VP_AMBIGUOUS) return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4096;
		hpctk_vent *ne = realloc(c->e, cap * sizeof *ne);
		if (!ne) {
			c->oom = c->sum_overflow = true;
			return;
		}
		c->e = ne;
		c->cap = cap;
	}
	if (!c->last_valid || ctx != c->last_ctx) {
		c->last_ctx = ctx;
		c->last_node = hpctk_vmodel_find(vm, ctx);
		c->last_valid = true;
	}
	bool elided = c->last_node == HPCTK_VNONE;
	c->e[c->n++] = (hpctk_vent){v, off, elided ? ctx : c->last_node, pid, elided};
}

void hpctk_vcheck_value(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, uint16_t pid, uint64_t bits,
			uint64_t off)
{
	if (!c->on) return;
	double v;
	memcpy(&v, &bits, sizeof v);
	add(c, prof, summary, ctx, pid, v, off);
}

void hpctk_vcheck_run(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, const uint8_t *vals, uint64_t cnt,
		      uint64_t off0)
{
	if (!c->on || cnt == 0) return;
	const hpctk_vmodel *vm = c->vm;
	/* A thread's run: one context, so the profile switch, the node lookup
	 * and the growth are settled once; then a plain copy loop. */
	if (summary || !c->cur_set || prof != c->cur || c->cur_summary || c->n + cnt > c->cap) {
		for (uint64_t i = 0; i < cnt; i++) {
			const uint8_t *p = vals + 10 * i;
			add(c, prof, summary, ctx, hv_le16(p), hv_lef64(p + 2), off0 + 10 * i);
		}
		return;
	}
	if (!c->last_valid || ctx != c->last_ctx) {
		c->last_ctx = ctx;
		c->last_node = hpctk_vmodel_find(vm, ctx);
		c->last_valid = true;
	}
	bool elided = c->last_node == HPCTK_VNONE;
	uint32_t key = elided ? ctx : c->last_node;
	hpctk_vent *out = c->e + c->n;
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *p = vals + 10 * i;
		uint16_t pid = hv_le16(p);
		uint8_t k = vm->kind[pid];
		if (k == HPCTK_VP_NONE) c->cur_tainted = c->sum_tainted = true;
		if (k == HPCTK_VP_NONE || k == HPCTK_VP_AMBIGUOUS) continue;
		*out++ = (hpctk_vent){hv_lef64(p + 2), off0 + 10 * i, key, pid, elided};
	}
	c->n = (size_t)(out - c->e);
}

static void note(hpctk_vcheck *c, const char *fmt, const char *arg)
{
	hv_eval(c->r, HV_R_HPCTKDB_VALUES_UNVERIFIABLE, false);
	hv_emit(c->r, HV_R_HPCTKDB_VALUES_UNVERIFIABLE, c->vm->meta_name ? c->vm->meta_name : c->file, 0, 0,
		"meta.db/Metrics", fmt, arg);
}

static void check_summaries(hpctk_vcheck *c, uint32_t nthreads)
{
	const hpctk_vmodel *vm = c->vm;
	/* statMetricId -> its statistic (sorted by pid, so search linearly once) */
	uint32_t *of = malloc(65536 * sizeof *of);
	if (!of) {
		c->oom = true;
		return;
	}
	for (uint32_t i = 0; i < 65536; i++) of[i] = HPCTK_VNONE;
	for (size_t k = 0; k < vm->nstats; k++) {
		uint16_t s = vm->stats[k].stat;
		of[s] = of[s] == HPCTK_VNONE ? (uint32_t)k : HPCTK_VNONE - 1; /* twice: its unique rule fired */
	}
	for (size_t i = 0; i < c->sum_cap; i++) {
		const hpctk_vsum *u = &c->sum[i];
		if (!u->has_found && !u->count) continue;
		uint32_t k = of[u->stat];
		if (k >= HPCTK_VNONE - 1 || !vm->stats[k].f.ok || !summarised(vm, vm->stats[k].pid)) continue;
		const hpctk_vstat *s = &vm->stats[k];
		double f = u->has_found ? u->found : 0.0;
		double a = u->count ? u->acc : 0.0, b = a;
		bool missing = u->count < nthreads; /* a thread without the value: skipped, or formula(0) */
		if (missing && s->combine != 0) {
			double z = apply(&s->f, 0.0);
			b = !u->count ? z : s->combine == 1 ? (z < a ? z : a) : (z > a ? z : a);
		}
		double mag = s->combine == 0 ? u->mag : fabs(a) > fabs(b) ? fabs(a) : fabs(b);
		double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (mag + fabs(f));
		if (hv_eval(c->r, HV_R_HPCTKDB_VALUES_SUMMARY, fabs(f - a) <= tol || fabs(f - b) <= tol)) continue;
		char path[HV_PATH_MAX], where[200];
		uint32_t n = hpctk_vmodel_find(vm, u->ctx);
		if (n != HPCTK_VNONE) hpctk_vmodel_path(vm, n, where, sizeof where);
		else snprintf(where, sizeof where, "(elided from meta.db)");
		snprintf(path, sizeof path, "profile.db/summary/ctx[%u]/metric[%u]", u->ctx, u->stat);
		static const char *const comb[] = {"sum", "min", "max"};
		hv_emit(c->r, HV_R_HPCTKDB_VALUES_SUMMARY, c->file, u->has_found ? u->off : 0, u->has_found ? 10 : 0, path,
			"ctx %s (ctxId %u): metric \"%s\" %s statistic %s(%s) is %.9g%s, but over the %llu thread profiles "
			"with a value (of %u) it is %.9g%s",
			where, u->ctx, vm->pool + vm->metric_name[s->metric], vm->pool + vm->scope_name[s->pid],
			comb[s->combine > 2 ? 0 : s->combine], vm->pool + s->formula, f, u->has_found ? "" : " (absent)",
			U(u->count), nthreads, a, b != a ? " (or counting the others as formula(0))" : "");
	}
	free(of);
}

void hpctk_vcheck_finish(hpctk_vcheck *c, bool complete, uint32_t nthreads)
{
	if (!c->vm) return;
	if (c->on) flush(c);
	const hpctk_vmodel *vm = c->vm;
	if (vm->note_custom) note(c, "%s", vm->pool + vm->note_custom);
	if (vm->note_nopoint) note(c, "%s", vm->pool + vm->note_nopoint);
	if (vm->note_formula) note(c, "%s", vm->pool + vm->note_formula);
	if (!c->on || !vm->nstats) return;
	if (!complete) {
		note(c, "%s", "profile.db could not be read completely: the summary statistics are not checked");
		return;
	}
	if (c->sum_tainted) return; /* metric ids meta.db does not list: reported as such */
	if (c->sum_overflow) {
		note(c, "%s", "more (context, statistic) pairs than the checker holds (131072), or out of memory: "
			      "the summary statistics are not checked");
		return;
	}
	check_summaries(c, nthreads);
}
