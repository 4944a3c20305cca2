/* The propagated-value checker of thread profiles (values.h; rules in
 * values_rules.def).
 *
 * Two phases per profile, both sequential where it matters:
 * - arrival: the values are folded in arrival order (ctxId order), each
 *   into its own node's record only (found for a derived scope, expected
 *   for the point scope's values), so a run of one context costs one
 *   record; nothing is added into the parent yet.
 * - sweep: at the end of the profile the records are visited once, in
 *   node order. The tree is numbered breadth first, so a node's children
 *   are contiguous and come after it (the model's kid ranges): node i
 *   pulls its children's values that propagate into its expected sums,
 *   in the order the profile gave them (so the sums are those arrival
 *   order makes), its equations are then complete and are evaluated, and
 *   its record is cleared (its parent, before it, has pulled it). The
 *   nodes and their children are two forward streams: no random access.
 * Each equation, as before:
 *   found - (point value + sum of the propagating children's found) in
 *   [neg - tol, pos + tol]
 * where pos / neg are the profile's positive / negative raw values at
 * contexts elided from meta.db (each may lie below any listed context),
 * and for the execution scope the excesses must also add up to pos + neg.
 * Diagnostics are reported in the order the profile first touched the
 * nodes (a node's own run, or a child's run that propagates into it), as
 * when the sums were made in arrival order: the failures of a sweep are
 * few, kept and sorted by that order before they are reported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>

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

/* A failed equation of the sweep, reported after it in touch order. */
typedef struct vfail {
	uint64_t key;    /* the node's first touch (hpctk_vrec.key) */
	uint32_t k, node;
	uint64_t off;
	double found, expect;
} vfail;

static inline hpctk_vrec *rec(const hpctk_vcheck *c, uint32_t n)
{
	return (hpctk_vrec *)(void *)(c->recs + (size_t)n * c->stride);
}

static inline hpctk_vslot *slots(hpctk_vrec *r) { return (hpctk_vslot *)(void *)(r + 1); }

/* Start loading node n's record (its first KiB) into the cache: the
 * records are visited in ctxId order by the fold, which is no tree
 * order, and the sweep's parents are a stream the hardware may not see. */
static inline void prefetch_lines(const hpctk_vcheck *c, uint32_t n)
{
	const uint8_t *p = (const uint8_t *)rec(c, n);
	size_t len = c->stride < 1024 ? c->stride : 1024;
	for (size_t o = 0; o < len; o += 64) __builtin_prefetch(p + o, 1);
	__builtin_prefetch(p + len - 1, 1);
}

static void set_group(hpctk_vcheck *c);

enum { VA_NONE, VA_POINT, VA_DERIVED };

/* The records' bytes for a model: per node a header and g slots, g as
 * hpctk_vcheck_init chooses it. */
static size_t recs_len(const hpctk_vmodel *vm, size_t *stride)
{
	uint64_t g = HPCTK_VBUDGET / ((uint64_t)vm->n * sizeof(hpctk_vslot));
	g = g < 1 ? 1 : g > vm->nd ? vm->nd : g;
	*stride = sizeof(hpctk_vrec) + (size_t)g * sizeof(hpctk_vslot);
	return (size_t)vm->n * *stride;
}


void hpctk_vcheck_init(hpctk_vcheck *c, const hpctk_vmodel *vm, hv_report *r, hv_blob *b, const char *file)
{
	memset(c, 0, sizeof *c);
	c->vm = vm;
	c->r = r;
	c->b = b;
	c->file = file;
	if (!vm || vm->nd == 0 || vm->n == 0) return;
	c->w_ok = b && hv_window_init(&c->w, b, hpctk_window_cap);
	/* slots per group: the records of every node within the budget */
	recs_len(vm, &c->stride);
	c->g = (uint32_t)((c->stride - sizeof(hpctk_vrec)) / sizeof(hpctk_vslot));
	c->pos = calloc(5u * c->g, sizeof *c->pos); /* pos, neg, elmag, then per slot: total, total magnitude */
	c->neg = c->pos ? c->pos + c->g : NULL;
	c->elmag = c->pos ? c->pos + 2u * c->g : NULL;
	c->kshift = malloc(c->g);
	c->tmp = malloc(c->g * sizeof *c->tmp);
	c->act = malloc((vm->npid ? vm->npid : 1) * sizeof *c->act);
	c->pk = malloc(((size_t)vm->nd + 1) * sizeof *c->pk); /* each derived slot is fed by one point pid */
	c->on = c->pos && c->kshift && c->act && c->pk && c->tmp;
	if (!c->on) {
		c->oom = true;
		return;
	}
	set_group(c);
}

/* Zeroed memory for the records. A big set is mapped on its own, with
 * huge pages asked for where the system has them: a set is touched at
 * random, so with 4 KiB pages every fold pays a TLB miss and the first
 * one a page fault each. */
#define HUGE_2M ((size_t)2 << 20)
static size_t huge_len(size_t len) { return (len + HUGE_2M - 1) / HUGE_2M * HUGE_2M; }

static void *recs_alloc(size_t len)
{
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
	if (len >= (4u << 20)) {
		/* 2 MiB aligned, whole 2 MiB pages: an unaligned head or a partial
		 * tail would have 4 KiB pages (hundreds of page faults, ~15 us
		 * each on a VM) */
		const size_t huge = HUGE_2M, maplen = huge_len(len);
		uint8_t *p = mmap(NULL, maplen + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) return NULL;
		size_t head = (huge - (uintptr_t)p % huge) % huge;
		if (head) munmap(p, head);
		munmap(p + head + maplen, huge - head);
		madvise(p + head, maplen, MADV_HUGEPAGE); /* advice only: fine when refused */
		return p + head;
	}
#endif
	return calloc(1, len);
}

static void recs_release(void *p, size_t len)
{
	if (!p) return;
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
	if (len >= (4u << 20)) {
		munmap(p, huge_len(len));
		return;
	}
#endif
	(void)len;
	free(p);
}

void hpctk_vspare_free(hpctk_vspare *sp, const hpctk_vmodel *vm)
{
	void *p = atomic_exchange(&sp->recs, NULL);
	size_t stride;
	if (p) recs_release(p, recs_len(vm, &stride));
}

/* The records, zeroed: made (or taken from the spare) when the first value
 * arrives, so a checker whose unit has no thread value costs nothing. */
static bool recs(hpctk_vcheck *c)
{
	if (c->recs) return true;
	size_t stride, len = recs_len(c->vm, &stride);
	if (c->spare) c->recs = atomic_exchange(&c->spare->recs, NULL);
	if (!c->recs) c->recs = recs_alloc(len);
	if (!c->recs) c->oom = c->cur_tainted = true;
	return c->recs != NULL;
}

void hpctk_vcheck_free(hpctk_vcheck *c)
{
	size_t stride, len = c->vm && c->recs ? recs_len(c->vm, &stride) : 0;
	if (c->recs && c->spare && !c->recs_dirty) {
		/* all zero (every fold was swept): for the next unit */
		void *old = atomic_exchange(&c->spare->recs, (void *)c->recs);
		recs_release(old, len);
	} else {
		recs_release(c->recs, len);
	}
	free(c->pos);
	free(c->keep);
	free(c->negk);
	free(c->negv);
	free(c->dupk);
	free(c->dupv);
	free(c->fail);
	free(c->kshift);
	free(c->tmp);
	free(c->ups);
	free(c->act);
	free(c->pk);
	if (c->w_ok) hv_window_free(&c->w);
	memset(c, 0, sizeof *c);
}

/* Side tables, open addressing on (node, slot), for what is rare: the
 * magnitudes of negative terms (for the tolerance), and a derived value
 * given twice at one node (a broken file: every copy propagates, the last
 * is the one found). */
static uint64_t side_hash(uint64_t key) { return (key * 0x9e3779b97f4a7c15ull) >> 20; }

typedef struct side {
	uint64_t **k;
	double **v;      /* vals per entry */
	size_t *n, *cap;
	unsigned nv;
} side;

static double *side_get(hpctk_vcheck *c, side t, uint32_t node, uint32_t k, bool make)
{
	if (make && 2 * (*t.n + 1) > *t.cap) {
		size_t cap = *t.cap ? *t.cap * 2 : 64;
		uint64_t *nk = calloc(cap, sizeof *nk);
		double *nv = calloc(cap * t.nv, sizeof *nv);
		if (!nk || !nv) {
			free(nk);
			free(nv);
			c->oom = c->cur_tainted = true;
			return NULL;
		}
		for (size_t i = 0; i < *t.cap; i++) {
			if (!(*t.k)[i]) continue;
			size_t j = side_hash((*t.k)[i]) & (cap - 1);
			while (nk[j]) j = (j + 1) & (cap - 1);
			nk[j] = (*t.k)[i];
			memcpy(nv + j * t.nv, *t.v + i * t.nv, t.nv * sizeof *nv);
		}
		free(*t.k);
		free(*t.v);
		*t.k = nk;
		*t.v = nv;
		*t.cap = cap;
	}
	if (!*t.n && !make) return NULL;
	uint64_t key = ((uint64_t)node << 16 | k) + 1;
	size_t j = side_hash(key) & (*t.cap - 1);
	while ((*t.k)[j] && (*t.k)[j] != key) j = (j + 1) & (*t.cap - 1);
	if (!(*t.k)[j]) {
		if (!make) return NULL;
		(*t.k)[j] = key;
		memset(*t.v + j * t.nv, 0, t.nv * sizeof **t.v);
		(*t.n)++;
	}
	return *t.v + j * t.nv;
}

static side negs(hpctk_vcheck *c) { return (side){&c->negk, &c->negv, &c->negn, &c->negcap, 1}; }
static side dups(hpctk_vcheck *c) { return (side){&c->dupk, &c->dupv, &c->dupn, &c->dupcap, 2}; }

static void neg_add(hpctk_vcheck *c, uint32_t node, uint32_t k, double a)
{
	double *v = side_get(c, negs(c), node, k, true);
	if (v) *v += a;
}

/* -1: no negative term */
static inline double neg_get(hpctk_vcheck *c, uint32_t node, uint32_t k)
{
	if (!c->negn) return -1.0;
	const double *v = side_get(c, negs(c), node, k, false);
	return v ? *v : -1.0;
}

/* Per slot of the group starting at g0: the bit of a node's propagation
 * mask (or'ed with 1 << 16) that says whether its value of the slot's
 * scope goes into its parent's: 16 for execution (always). */
static void set_group(hpctk_vcheck *c)
{
	const hpctk_vmodel *vm = c->vm;
	/* what each propMetricId's value does in this group */
	uint32_t npk = 0;
	for (uint32_t pid = 0; pid < vm->npid; pid++) {
		hpctk_vact a = {0};
		uint8_t kind = vm->kind[pid];
		if (kind == HPCTK_VP_POINT) {
			a.pa = npk;
			for (uint32_t j = vm->pfirst[pid]; j < vm->pfirst[pid + 1]; j++) {
				uint32_t k = vm->plist[j] - c->g0;
				if (k < c->g) c->pk[npk++] = (uint16_t)k;
			}
			a.pb = npk;
			a.type = a.pb > a.pa ? VA_POINT : VA_NONE;
		} else if ((kind == HPCTK_VP_EXEC || kind == HPCTK_VP_TRANS) && (uint32_t)vm->dslot[pid] - c->g0 < c->g) {
			a.type = VA_DERIVED;
			a.k = (uint16_t)(vm->dslot[pid] - c->g0);
			a.shift = kind == HPCTK_VP_EXEC ? 16 : (uint8_t)(vm->bit[pid] & 15);
		}
		c->act[pid] = a;
	}
	for (uint32_t k = 0; k < c->g && c->g0 + k < vm->nd; k++) {
		uint16_t pid = vm->dpid[c->g0 + k];
		c->kshift[k] = vm->kind[pid] == HPCTK_VP_EXEC ? 16 : (uint8_t)(vm->bit[pid] & 15);
	}
}

/* Fold a run of raw {Val} entries of node n (HPCTK_VNONE: an elided
 * context) into the slots of the current group: its own record only. */
static void fold_run(hpctk_vcheck *c, uint32_t n, const uint8_t *vals, uint64_t cnt, uint64_t off0)
{
	const hpctk_vmodel *vm = c->vm;
	if (n == HPCTK_VNONE) {
		for (uint64_t i = 0; i < cnt; i++) {
			const uint8_t *p = vals + 10 * i;
			uint16_t pid = hv_le16(p);
			if (pid >= vm->npid || c->act[pid].type != VA_POINT) continue; /* an elided context's own values: no equation known */
			double v = hv_lef64(p + 2);
			if (!isfinite(v)) continue;
			for (uint32_t j = c->act[pid].pa; j < c->act[pid].pb; j++) {
				uint32_t k = c->pk[j];
				if (v > 0) c->pos[k] += v;
				else c->neg[k] += v;
				c->elmag[k] += fabs(v);
			}
		}
		return;
	}
	if (!recs(c)) return;
	c->recs_dirty = true;
	const uint64_t seq = ++c->seq;
	hpctk_vrec *r = rec(c, n);
	hpctk_vslot *own = slots(r);
	const uint32_t parent = vm->node[n].parent;
	const uint16_t prop = vm->node[n].prop;
	if (!r->key) {
		r->key = 2 * seq; /* touched by its own run (before its parent, in the same run) */
		r->first_off = off0;
	}
	if (!r->own_off) {
		r->own_off = off0;
		r->own_cnt = (uint32_t)cnt;
	} else if (r->own_off + 10ull * r->own_cnt == off0) {
		r->own_cnt += (uint32_t)cnt; /* the next chunk of the same run */
	}
	/* bit `shift` of pm: this node's value of a slot goes into its parent's */
	const uint32_t pm = parent != HPCTK_VNONE ? ((uint32_t)prop | 1u << 16) : 0;
	const hpctk_vact *act = c->act;
	const uint32_t npid = vm->npid;
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *p = vals + 10 * i;
		uint16_t pid = hv_le16(p);
		if (pid >= npid) continue;
		const hpctk_vact a = act[pid];
		double v = hv_lef64(p + 2);
		if (a.type == VA_POINT) {
			for (uint32_t j = a.pa; j < a.pb; j++) {
				uint32_t k = c->pk[j];
				own[k].expect += v;
				if (v < 0) neg_add(c, n, k, -v);
			}
			continue;
		}
		if (a.type != VA_DERIVED) continue; /* not a scope checked, or another group's */
		const uint32_t k = a.k;
		const bool up = pm >> a.shift & 1;
		if (own[k].found != 0 || r->dup) {
			/* given before at this node: what propagates is every copy */
			double *d = side_get(c, dups(c), n, k, true);
			if (d && up) {
				d[0] += own[k].found;
				d[1] += own[k].found < 0 ? -own[k].found : 0;
			}
			r->dup = 1;
		}
		own[k].found = v;
		if (up && !r->up_key) {
			r->up_key = 2 * seq + 1; /* the parent is touched by this run */
			r->up_off = off0 + 10 * i;
		}
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
	c->seq = 0; /* the same touch order as the first group's */
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

/* The file offset a diagnostic of node n's scope pid points at: the
 * node's value of the scope, else its point value, else the first value
 * that touched it (read again from the node's own run). */
static uint64_t slot_off(hpctk_vcheck *c, const hpctk_vrec *r, uint16_t pid)
{
	if (!r->own_off || !c->w_ok) return r->first_off;
	uint64_t point = 0;
	for (uint32_t i = 0; i < r->own_cnt; i++) {
		const uint8_t *p = hv_window_get(&c->w, r->own_off + 10ull * i, 10);
		if (!p) break;
		uint16_t id = hv_le16(p);
		if (id == pid) return r->own_off + 10ull * i;
		if (c->vm->has_point[pid] && id == c->vm->point_of[pid] && !point) point = r->own_off + 10ull * i;
	}
	return point ? point : r->first_off;
}

static void keep_fail(hpctk_vcheck *c, const vfail *f)
{
	if (c->nfail == c->fail_cap) {
		size_t cap = c->fail_cap ? c->fail_cap * 2 : 16;
		vfail *nf = realloc(c->fail, cap * sizeof *nf);
		if (!nf) {
			c->oom = true; /* reported as far as kept */
			return;
		}
		c->fail = nf;
		c->fail_cap = cap;
	}
	((vfail *)c->fail)[c->nfail++] = *f;
}

static int by_touch(const void *a, const void *b)
{
	const vfail *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* Node i pulls child ch's values that propagate (and its first touch). */
static void pull(hpctk_vcheck *c, hpctk_vrec *r, uint32_t i, uint32_t ch, uint32_t gn, const uint8_t *kshift)
{
	const hpctk_vrec *cr = rec(c, ch);
	if (!r->key || cr->up_key < r->key) {
		r->key = cr->up_key;
		r->first_off = cr->up_off;
	}
	hpctk_vslot *s = slots(r);
	const hpctk_vslot *cs = slots((hpctk_vrec *)cr);
	const uint32_t pm = (uint32_t)c->vm->node[ch].prop | 1u << 16;
	for (uint32_t k = 0; k < gn; k++) {
		if (!(pm >> kshift[k] & 1)) continue;
		double v = cs[k].found;
		if (cr->dup) {
			/* the earlier copies came first */
			const double *d = side_get(c, dups(c), ch, k, false);
			if (d) {
				s[k].expect += d[0];
				if (d[1] > 0) neg_add(c, i, k, d[1]);
			}
		}
		s[k].expect += v;
		if (v < 0) neg_add(c, i, k, -v);
	}
}

static bool grow_ups(hpctk_vcheck *c)
{
	size_t cap = c->ups_cap ? c->ups_cap * 2 : 64; /* bounded by the tree's nodes */
	hpctk_vup *nu = realloc(c->ups, cap * sizeof *nu);
	if (!nu) {
		c->oom = c->cur_tainted = true;
		return false;
	}
	c->ups = nu;
	c->ups_cap = cap;
	return true;
}

static int by_up(const void *a, const void *b)
{
	const hpctk_vup *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

/* By key (unique): few children are sorted by insertion. */
static void sort_ups(hpctk_vup *u, uint32_t n)
{
	if (n > 16) {
		qsort(u, n, sizeof *u, by_up);
		return;
	}
	for (uint32_t j = 1; j < n; j++) {
		hpctk_vup x = u[j];
		uint32_t m = j;
		while (m > 0 && u[m - 1].key > x.key) {
			u[m] = u[m - 1];
			m--;
		}
		u[m] = x;
	}
}

/* The sweep (see the top): every touched slot of the group is one
 * equation; the records are cleared for the next group or profile. */
static void eval_group(hpctk_vcheck *c, bool check)
{
	const hpctk_vmodel *vm = c->vm;
	const uint32_t g = c->g, g0 = c->g0;
	double *tot = c->pos + 3u * g, *totmag = c->pos + 4u * g;
	const uint8_t *kshift = c->kshift + 0; /* per slot of the group (set by set_group) */
	const uint32_t gn = g0 + g <= vm->nd ? g : vm->nd - g0;
	const double *neg = c->neg, *pos = c->pos, *elmag = c->elmag;
	uint64_t nev[2] = {0, 0}; /* evaluations: transitive, execution */
	const uint32_t *kid = vm->kid;
	for (uint32_t i = 0; c->recs && i < vm->n; i++) {
		hpctk_vrec *r = rec(c, i);
		if (i + 8 < vm->n) {
			/* a few nodes ahead: their records and their first children's */
			prefetch_lines(c, i + 8);
			if (kid[i + 8] < kid[i + 9]) prefetch_lines(c, kid[i + 8]);
		}
		hpctk_vslot *s = slots(r);
		/* Pull from the children (contiguous, after i): their first touch
		 * of i and the values that propagate, added in the order the
		 * profile gave them (each child's run; i's own point values at
		 * its own run), so that the sums are the ones arrival order makes. */
		uint32_t nu = 0;
		for (uint32_t ch = kid[i]; ch < kid[i + 1]; ch++) {
			const hpctk_vrec *cr = rec(c, ch);
			if (!cr->up_key) continue;
			if (nu == c->ups_cap && !grow_ups(c)) break;
			c->ups[nu++] = (hpctk_vup){cr->up_key, ch};
		}
		if (nu) {
			sort_ups(c->ups, nu);
			const uint64_t own = r->key; /* 0: no run of its own */
			bool own_done = own == 0;
			if (!own_done)
				for (uint32_t k = 0; k < gn; k++) {
					c->tmp[k] = s[k].expect;
					s[k].expect = 0;
				}
			for (uint32_t j = 0; j < nu; j++) {
				if (!own_done && own < c->ups[j].key) {
					for (uint32_t k = 0; k < gn; k++) s[k].expect += c->tmp[k];
					own_done = true;
				}
				pull(c, r, i, c->ups[j].ch, gn, kshift);
			}
			if (!own_done)
				for (uint32_t k = 0; k < gn; k++) s[k].expect += c->tmp[k];
		}
		if (!r->key) continue; /* untouched: all zero */
		for (uint32_t k = 0; check && k < gn; k++) {
			double found = s[k].found, x = s[k].expect, mag;
			if (!c->negn) {
				/* no negative term in the profile (the usual case) */
				if (x == 0 && found == 0) continue; /* untouched */
				mag = x + 2 * 0.0;
			} else {
				double nm = neg_get(c, i, k);
				if (x == 0 && found == 0 && nm < 0) continue; /* untouched */
				mag = x + 2 * (nm > 0 ? nm : 0);
			}
			double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (mag + fabs(found) + elmag[k]);
			double diff = found - x;
			tot[k] += diff;
			totmag[k] += mag + fabs(found);
			nev[kshift[k] == 16]++;
			if (!(diff >= neg[k] - tol && diff <= pos[k] + tol))
				keep_fail(c, &(vfail){r->key, k, i, slot_off(c, r, vm->dpid[g0 + k]), found, x});
		}
		/* its parent pulled its values already (a parent comes first) */
		memset(r, 0, c->stride);
	}
	c->recs_dirty = false; /* every record was visited and cleared */
	hv_eval_n(c->r, HV_R_HPCTKDB_VALUES_TRANSITIVE, nev[0]);
	hv_eval_n(c->r, HV_R_HPCTKDB_VALUES_EXECUTION, nev[1]);
	/* the failures in the order the nodes were first touched */
	if (c->nfail) {
		vfail *f = c->fail;
		qsort(f, c->nfail, sizeof *f, by_touch);
		for (size_t j = 0; j < c->nfail; j++) {
			uint16_t pid = vm->dpid[g0 + f[j].k];
			int rule = vm->kind[pid] == HPCTK_VP_EXEC ? HV_R_HPCTKDB_VALUES_EXECUTION : HV_R_HPCTKDB_VALUES_TRANSITIVE;
			emit_prop(c, rule, pid, f[j].node, f[j].off, f[j].found, f[j].expect, c->neg[f[j].k], c->pos[f[j].k]);
		}
		c->nfail = 0;
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
	c->seq = 0;
	memset(c->pos, 0, 5u * g * sizeof *c->pos);
	if (c->negn) {
		memset(c->negk, 0, c->negcap * sizeof *c->negk);
		c->negn = 0;
	}
	if (c->dupn) {
		memset(c->dupk, 0, c->dupcap * sizeof *c->dupk);
		c->dupn = 0;
	}
}

/* Fold the run kept back by hpctk_vcheck_run. */
static void drain(hpctk_vcheck *c)
{
	if (!c->stage_n) return;
	uint32_t k = c->stage_n;
	c->stage_n = 0;
	if (!c->cur_tainted) fold_run(c, c->stage_node, c->stage, k, c->stage_off);
}

/* The end of a thread profile: the first group was folded while it
 * streamed; the others are folded from the kept runs. */
static void flush(hpctk_vcheck *c)
{
	drain(c);
	if (!c->cur_set) return;
	c->cur_set = false;
	bool check = !c->cur_tainted && !c->cur_summary;
	c->cur_tainted = false;
	if (c->cur_summary) return;
	eval_group(c, check);
	for (c->g0 = c->g; check && c->g0 < c->vm->nd; c->g0 += c->g) {
		set_group(c);
		replay(c);
		eval_group(c, !c->cur_tainted);
	}
	if (c->g0 != 0) {
		c->g0 = 0;
		set_group(c);
	}
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

/* Start loading node n's record into the cache. */
static void prefetch_rec(const hpctk_vcheck *c, uint32_t n)
{
	if (n == HPCTK_VNONE || !c->recs) return;
	__builtin_prefetch(&c->vm->node[n]);
	prefetch_lines(c, n);
}

void hpctk_vcheck_run(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, const uint8_t *vals, uint64_t cnt,
		      uint64_t off0)
{
	if (!c->on || cnt == 0) return;
	begin(c, prof, summary);
	if (summary || c->cur_tainted) return;
	uint32_t n = node_of(c, ctx);
	if (c->g < c->vm->nd) keep_run(c, n, vals, cnt, off0);
	/* The runs are folded one behind: this one's record is fetched while
	 * the previous one is folded (the records are visited in ctxId order,
	 * which need not be tree order: then each is a cache miss). Its bytes
	 * are copied, as the walk's window moves on; a long run is folded at
	 * once, and so is a run whose record is next to the previous run's
	 * (ctxIds numbered along the tree, as hpcprof does: the records are
	 * then a stream the hardware prefetches, and the copy is waste). */
	const uint32_t prev = c->prev_node;
	c->prev_node = n;
	const bool near = n != HPCTK_VNONE && prev != HPCTK_VNONE && n - prev + 4u <= 8u;
	if (!near) prefetch_rec(c, n);
	drain(c);
	if (near || cnt > HPCTK_VSTAGE) {
		fold_run(c, n, vals, cnt, off0);
		return;
	}
	memcpy(c->stage, vals, (size_t)cnt * 10);
	c->stage_n = (uint32_t)cnt;
	c->stage_node = n;
	c->stage_off = off0;
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
