/* The propagated-value checker of thread profiles (values.h; rules in
 * values_rules.def).
 *
 * Values are folded in arrival order, with no buffer and no sort: a run of
 * one context costs a lookup of its node, then per value one add into the
 * node's block (and one into its parent's). Blocks are allocated when a
 * profile first touches a node, so the memory follows the profile's
 * contexts, capped by HPCTK_VBUDGET through the slot groups (values.h).
 * At the end of a profile every touched slot is one equation:
 *   found - (point value + sum of the propagating children's found) in
 *   [neg - tol, pos + tol]
 * where pos / neg are the profile's positive / negative raw values at
 * contexts elided from meta.db (each may lie below any listed context),
 * and for the execution scope the excesses must also add up to pos + neg. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"
#include "crossdb_ranges.h"
#include "values.h"

/* A kept run (replayed for slot groups after the first): header, then the
 * raw {Val} bytes. */
typedef struct kept_run {
	uint32_t node;   /* HPCTK_VNONE: elided */
	uint32_t cnt;
	uint64_t off0;
} kept_run;

void hpctk_vcheck_init(hpctk_vcheck *c, const hpctk_vmodel *vm, hv_report *r, hv_blob *b, const char *file)
{
	memset(c, 0, sizeof *c);
	c->vm = vm;
	c->r = r;
	c->b = b;
	c->file = file;
	if (!vm || vm->nd == 0 || vm->n == 0) return;
	c->w_ok = b && hv_window_init(&c->w, b, hpctk_window_cap);
	uint64_t per_node = sizeof(hpctk_vslot);
	uint64_t g = HPCTK_VBUDGET / ((uint64_t)vm->n * per_node);
	c->g = g < 1 ? 1 : g > vm->nd ? vm->nd : (uint32_t)g;
	c->ns = malloc((size_t)vm->n * sizeof *c->ns);
	c->touched = malloc((size_t)vm->n * sizeof *c->touched);
	c->pos = calloc(5u * c->g, sizeof *c->pos); /* pos, neg, elmag, then per slot: total, total magnitude */
	c->neg = c->pos ? c->pos + c->g : NULL;
	c->elmag = c->pos ? c->pos + 2u * c->g : NULL;
	c->on = c->ns && c->touched && c->pos;
	if (!c->on) {
		c->oom = true;
		return;
	}
	for (uint32_t i = 0; i < vm->n; i++)
		c->ns[i] = (hpctk_vnstate){.parent = vm->node[i].parent, .blk = HPCTK_VNONE, .prop = vm->node[i].prop};
}

void hpctk_vcheck_free(hpctk_vcheck *c)
{
	free(c->ns);
	free(c->touched);
	free(c->slot);
	free(c->pos);
	free(c->keep);
	free(c->negk);
	free(c->negv);
	if (c->w_ok) hv_window_free(&c->w);
	memset(c, 0, sizeof *c);
}

/* Room for two more blocks (a run's own and its parent's), so that block
 * pointers taken during a run stay valid. Bounded by the tree's nodes. */
static bool reserve(hpctk_vcheck *c)
{
	size_t n = c->vm->n;
	if (c->ntouched + 2 <= c->slot_cap || c->slot_cap >= n) return true; /* a node is touched once */
	size_t cap = c->slot_cap ? c->slot_cap * 2 : 256;
	if (cap > n) cap = n;
	hpctk_vslot *ns = realloc(c->slot, cap * c->g * sizeof *ns);
	if (!ns) return false;
	/* zero once here; eval_group zeroes every block it evaluates */
	memset(ns + c->slot_cap * c->g, 0, (cap - c->slot_cap) * c->g * sizeof *ns);
	c->slot = ns;
	c->slot_cap = cap;
	return true;
}

static hpctk_vslot *block(hpctk_vcheck *c, uint32_t n, uint64_t off)
{
	hpctk_vnstate *st = &c->ns[n];
	if (st->blk != HPCTK_VNONE) return c->slot + (size_t)st->blk * c->g;
	st->blk = (uint32_t)c->ntouched;
	c->touched[c->ntouched++] = n;
	st->own_off = 0;
	st->own_cnt = 0;
	st->first_off = off;
	return c->slot + (size_t)st->blk * c->g;
}

/* The negative terms' table: open addressing on (block, slot). */
static uint64_t neg_hash(uint64_t key) { return (key * 0x9e3779b97f4a7c15ull) >> 20; }

static void neg_add(hpctk_vcheck *c, uint32_t b, uint32_t k, double a)
{
	if (2 * (c->negn + 1) > c->negcap) {
		size_t cap = c->negcap ? c->negcap * 2 : 64;
		uint64_t *nk = calloc(cap, sizeof *nk);
		double *nv = calloc(cap, sizeof *nv);
		if (!nk || !nv) {
			free(nk);
			free(nv);
			c->oom = c->cur_tainted = true;
			return;
		}
		for (size_t i = 0; i < c->negcap; i++) {
			if (!c->negk[i]) continue;
			size_t j = neg_hash(c->negk[i]) & (cap - 1);
			while (nk[j]) j = (j + 1) & (cap - 1);
			nk[j] = c->negk[i];
			nv[j] = c->negv[i];
		}
		free(c->negk);
		free(c->negv);
		c->negk = nk;
		c->negv = nv;
		c->negcap = cap;
	}
	uint64_t key = ((uint64_t)b << 16 | k) + 1;
	size_t j = neg_hash(key) & (c->negcap - 1);
	while (c->negk[j] && c->negk[j] != key) j = (j + 1) & (c->negcap - 1);
	if (!c->negk[j]) {
		c->negk[j] = key;
		c->negv[j] = 0;
		c->negn++;
	}
	c->negv[j] += a;
}

static double neg_get(const hpctk_vcheck *c, uint32_t b, uint32_t k)
{
	if (!c->negn) return -1.0;
	uint64_t key = ((uint64_t)b << 16 | k) + 1;
	size_t j = neg_hash(key) & (c->negcap - 1);
	while (c->negk[j] && c->negk[j] != key) j = (j + 1) & (c->negcap - 1);
	return c->negk[j] ? c->negv[j] : -1.0; /* -1: none */
}

/* Fold a run of raw {Val} entries of node n (HPCTK_VNONE: an elided
 * context) into the slots of the current group. */
static void fold_run(hpctk_vcheck *c, uint32_t n, const uint8_t *vals, uint64_t cnt, uint64_t off0)
{
	const hpctk_vmodel *vm = c->vm;
	const uint32_t g0 = c->g0, g = c->g;
	if (n == HPCTK_VNONE) {
		for (uint64_t i = 0; i < cnt; i++) {
			const uint8_t *p = vals + 10 * i;
			uint16_t pid = hv_le16(p);
			if (hpctk_vkind(vm, pid) != HPCTK_VP_POINT) continue; /* an elided context's own values: no equation known */
			double v = hv_lef64(p + 2);
			if (!isfinite(v)) continue;
			for (uint32_t j = vm->pfirst[pid]; j < vm->pfirst[pid + 1]; j++) {
				uint32_t k = vm->plist[j] - g0;
				if (k >= g) continue;
				if (v > 0) c->pos[k] += v;
				else c->neg[k] += v;
				c->elmag[k] += fabs(v);
			}
		}
		return;
	}
	if (!reserve(c)) {
		c->oom = true;
		c->cur_tainted = true;
		return;
	}
	hpctk_vslot *own = block(c, n, off0), *par = NULL;
	hpctk_vnstate *bi = &c->ns[n];
	const uint32_t parent = bi->parent;
	const uint16_t prop = bi->prop;
	if (!bi->own_off) {
		bi->own_off = off0;
		bi->own_cnt = (uint32_t)cnt;
	} else if (bi->own_off + 10ull * bi->own_cnt == off0) {
		bi->own_cnt += (uint32_t)cnt; /* the next chunk of the same run */
	}
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *p = vals + 10 * i;
		uint16_t pid = hv_le16(p);
		uint8_t kind = hpctk_vkind(vm, pid);
		double v = hv_lef64(p + 2);
		if (kind == HPCTK_VP_POINT) {
			for (uint32_t j = vm->pfirst[pid]; j < vm->pfirst[pid + 1]; j++) {
				uint32_t k = vm->plist[j] - g0;
				if (k >= g) continue;
				own[k].expect += v;
				if (v < 0) neg_add(c, bi->blk, k, -v);
			}
			continue;
		}
		if (kind != HPCTK_VP_EXEC && kind != HPCTK_VP_TRANS) continue;
		uint32_t k = (uint32_t)vm->dslot[pid] - g0;
		if (k >= g) continue; /* HPCTK_VNOSLOT, or another group's */
		own[k].found = v;
		if (parent == HPCTK_VNONE || !(kind == HPCTK_VP_EXEC || (prop >> (vm->bit[pid] & 15) & 1))) continue;
		if (!par) par = block(c, parent, off0 + 10 * i);
		par[k].expect += v;
		if (v < 0) neg_add(c, c->ns[parent].blk, k, -v);
	}
}

/* A run for the later groups: with the file at hand, where it is (16
 * bytes, contiguous runs of a node merged), else its bytes too. */
static void keep_run(hpctk_vcheck *c, uint32_t n, const uint8_t *vals, uint64_t cnt, uint64_t off0)
{
	if (c->w_ok && c->keep_n >= sizeof(kept_run)) {
		kept_run *last = (kept_run *)(void *)(c->keep + c->keep_n - sizeof(kept_run));
		if (last->node == n && last->off0 + 10ull * last->cnt == off0 && last->cnt + cnt <= UINT32_MAX) {
			last->cnt += (uint32_t)cnt;
			return;
		}
	}
	size_t need = sizeof(kept_run) + (c->w_ok ? 0 : (size_t)cnt * 10);
	if (c->keep_n + need > c->keep_cap) {
		size_t cap = c->keep_cap ? c->keep_cap * 2 : 1u << 12;
		while (cap < c->keep_n + need) cap *= 2;
		uint8_t *nk = realloc(c->keep, cap);
		if (!nk) {
			c->oom = c->cur_tainted = true;
			return;
		}
		c->keep = nk;
		c->keep_cap = cap;
	}
	kept_run h = {n, (uint32_t)cnt, off0};
	memcpy(c->keep + c->keep_n, &h, sizeof h);
	if (!c->w_ok) memcpy(c->keep + c->keep_n + sizeof h, vals, (size_t)cnt * 10);
	c->keep_n += need;
}

/* Fold the kept runs again (the next group of slots): read from the file
 * a window at a time, or from the kept bytes. */
static void replay(hpctk_vcheck *c)
{
	for (size_t at = 0; at < c->keep_n;) {
		kept_run h;
		memcpy(&h, c->keep + at, sizeof h);
		at += sizeof h;
		if (!c->w_ok) {
			fold_run(c, h.node, c->keep + at, h.cnt, h.off0);
			at += (size_t)h.cnt * 10;
			continue;
		}
		const uint64_t per = c->w.cap >= 20 ? c->w.cap / 10 : 1;
		for (uint64_t done = 0; done < h.cnt;) {
			uint64_t k = h.cnt - done < per ? h.cnt - done : per;
			const uint8_t *p = hv_window_get(&c->w, h.off0 + 10 * done, (size_t)(10 * k));
			if (!p) {
				c->cur_tainted = true; /* read before, unreadable now: the profile is left unchecked */
				return;
			}
			fold_run(c, h.node, p, k, h.off0 + 10 * done);
			done += k;
		}
	}
}

static void emit_prop(hpctk_vcheck *c, int rule, uint16_t pid, uint32_t n, uint64_t off, double found, double expect,
		      double lo, double hi)
{
	const hpctk_vmodel *vm = c->vm;
	char where[200], path[HV_PATH_MAX];
	hpctk_vmodel_path(vm, n, where, sizeof where);
	snprintf(path, sizeof path, "profile.db/profile[%u]/ctx[%u]/metric[%u]", c->cur, vm->node[n].ctx, pid);
	const char *scope = vm->pool + vm->scope_name[pid];
	const char *terms = vm->kind[pid] == HPCTK_VP_EXEC ? "all children's" : "the children's (propagation bit set)";
	if (lo == 0 && hi == 0)
		hv_emit(c->r, rule, c->file, off, 10, path,
			"ctx %s (ctxId %u): metric \"%s\" %s-propagated value %.9g, but point value + %s %s values = %.9g "
			"(difference %.3g)",
			where, vm->node[n].ctx, vm->pool + vm->metric_name[vm->metric_of[pid]], scope, found, terms, scope,
			expect, found - expect);
	else
		hv_emit(c->r, rule, c->file, off, 10, path,
			"ctx %s (ctxId %u): metric \"%s\" %s-propagated value %.9g, but point value + %s %s values = %.9g; "
			"the profile's raw values at elided contexts allow a difference in [%.3g, %.3g], found %.3g",
			where, vm->node[n].ctx, vm->pool + vm->metric_name[vm->metric_of[pid]], scope, found, terms, scope,
			expect, lo, hi, found - expect);
}

/* Every touched slot of the group is one equation; then the blocks are
 * released for the next group or profile. */
/* The file offset a diagnostic of slot k of block b points at: the
 * node's value of the scope, else its point value, else the first value
 * that touched it (read again from the node's own run). */
static uint64_t slot_off(hpctk_vcheck *c, uint32_t n, uint16_t pid)
{
	const hpctk_vnstate *bi = &c->ns[n];
	if (!bi->own_off || !c->w_ok) return bi->first_off;
	uint64_t point = 0;
	for (uint32_t i = 0; i < bi->own_cnt; i++) {
		const uint8_t *p = hv_window_get(&c->w, bi->own_off + 10ull * i, 10);
		if (!p) break;
		uint16_t id = hv_le16(p);
		if (id == pid) return bi->own_off + 10ull * i;
		if (c->vm->has_point[pid] && id == c->vm->point_of[pid] && !point) point = bi->own_off + 10ull * i;
	}
	return point ? point : bi->first_off;
}

static void eval_group(hpctk_vcheck *c, bool check)
{
	const hpctk_vmodel *vm = c->vm;
	const uint32_t g = c->g, g0 = c->g0;
	double *tot = c->pos + 3u * g, *totmag = c->pos + 4u * g;
	for (size_t t = 0; t < c->ntouched; t++) {
		uint32_t n = c->touched[t];
		hpctk_vslot *s = c->slot + (size_t)t * g;
		c->ns[n].blk = HPCTK_VNONE;
		for (uint32_t k = 0; check && k < g; k++) {
			double nm = neg_get(c, (uint32_t)t, k);
			if (s[k].expect == 0 && s[k].found == 0 && nm < 0) continue; /* untouched */
			double mag = s[k].expect + 2 * (nm > 0 ? nm : 0);
			uint16_t pid = vm->dpid[g0 + k];
			int rule = vm->kind[pid] == HPCTK_VP_EXEC ? HV_R_HPCTKDB_VALUES_EXECUTION : HV_R_HPCTKDB_VALUES_TRANSITIVE;
			double found = s[k].found, x = s[k].expect;
			double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (mag + fabs(found) + c->elmag[k]);
			double diff = found - x;
			tot[k] += diff;
			totmag[k] += mag + fabs(found);
			if (!hv_eval(c->r, rule, diff >= c->neg[k] - tol && diff <= c->pos[k] + tol))
				emit_prop(c, rule, pid, n, slot_off(c, n, pid), found, x, c->neg[k], c->pos[k]);
		}
		memset(s, 0, g * sizeof *s);
	}
	/* Execution: every elided raw value lies below exactly one listed
	 * context, so the excesses add up to all of them. */
	for (uint32_t k = 0; check && k < g && g0 + k < vm->nd; k++) {
		uint16_t pid = vm->dpid[g0 + k];
		if (vm->kind[pid] != HPCTK_VP_EXEC || (c->pos[k] == 0 && c->neg[k] == 0)) continue;
		double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (totmag[k] + c->elmag[k]);
		if (hv_eval(c->r, HV_R_HPCTKDB_VALUES_EXECUTION, fabs(tot[k] - (c->pos[k] + c->neg[k])) <= tol)) continue;
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "profile.db/profile[%u]/metric[%u]", c->cur, pid);
		hv_emit(c->r, HV_R_HPCTKDB_VALUES_EXECUTION, c->file, 0, 0, path,
			"metric \"%s\" %s: the contexts' execution values exceed point value + children's by %.9g in "
			"all, but the raw values at contexts elided from meta.db add up to %.9g",
			vm->pool + vm->metric_name[vm->metric_of[pid]], vm->pool + vm->scope_name[pid], tot[k],
			c->pos[k] + c->neg[k]);
	}
	c->ntouched = 0;
	memset(c->pos, 0, 5u * g * sizeof *c->pos);
	if (c->negn) {
		memset(c->negk, 0, c->negcap * sizeof *c->negk);
		c->negn = 0;
	}
}

/* The end of a thread profile: the first group was folded while it
 * streamed; the others are folded from the kept runs. */
static void flush(hpctk_vcheck *c)
{
	if (!c->cur_set) return;
	c->cur_set = false;
	bool check = !c->cur_tainted && !c->cur_summary;
	c->cur_tainted = false;
	if (c->cur_summary) return;
	eval_group(c, check);
	for (c->g0 = c->g; check && c->g0 < c->vm->nd; c->g0 += c->g) {
		replay(c);
		eval_group(c, !c->cur_tainted);
	}
	c->g0 = 0;
	c->keep_n = 0;
	c->cur_tainted = false;
}

static void begin(hpctk_vcheck *c, uint32_t prof, bool summary)
{
	if (c->cur_set && prof == c->cur && summary == c->cur_summary) return;
	flush(c);
	c->cur_set = true;
	c->cur = prof;
	c->cur_summary = summary;
}

static uint32_t node_of(hpctk_vcheck *c, uint32_t ctx)
{
	if (!c->last_valid || ctx != c->last_ctx) {
		c->last_ctx = ctx;
		c->last_node = hpctk_vmodel_node(c->vm, ctx);
		c->last_valid = true;
	}
	return c->last_node;
}

void hpctk_vcheck_run(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, const uint8_t *vals, uint64_t cnt,
		      uint64_t off0)
{
	if (!c->on || cnt == 0) return;
	begin(c, prof, summary);
	if (summary || c->cur_tainted) return;
	uint32_t n = node_of(c, ctx);
	fold_run(c, n, vals, cnt, off0);
	if (c->g < c->vm->nd) keep_run(c, n, vals, cnt, off0);
}

void hpctk_vcheck_value(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, uint16_t pid, uint64_t bits,
			uint64_t off)
{
	if (!c->on) return;
	begin(c, prof, summary);
	if (summary) return;
	double v;
	memcpy(&v, &bits, sizeof v);
	if (!isfinite(v)) return; /* its own rule fired */
	if (hpctk_vkind(c->vm, pid) == HPCTK_VP_NONE) {
		/* hpctkdb.metric.prop-known fired: some metric's values are under
		 * an id meta.db does not give, so its equations cannot be set up */
		c->cur_tainted = true;
		return;
	}
	uint8_t raw[10];
	hv_put_le16(raw, pid);
	hv_put_le64(raw + 2, bits);
	hpctk_vcheck_run(c, prof, summary, ctx, raw, 1, off);
}

void hpctk_vcheck_finish(hpctk_vcheck *c)
{
	if (c->on) flush(c);
}
