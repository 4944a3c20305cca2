/* The propagated-value checker of thread profiles (values.h; rules in
 * rules.def).
 *
 * A profile's runs come in ctxId order. Each run of a listed context (a
 * node) is folded at once: its point values into its own expected sums,
 * its derived values as its found values, and those that propagate
 * (execution always, a transitive scope on its bit of the node's mask)
 * pushed into the parent's expected sums. So every sum is made in arrival
 * order, and a node's equations are complete once its own run and its
 * children's runs are in:
 *   found - (point value + sum of the propagating children's found) in
 *   [neg - tol, pos + tol]
 * where pos / neg are the profile's positive / negative raw values at
 * contexts elided from meta.db (each may lie below any listed context),
 * and for the execution scope the excesses must also add up to pos + neg.
 * hpcprof numbers children before their parents, so for nearly every node
 * the children's runs came first: such a node (`eager` in the model) is
 * evaluated as soon as its own run ends, while its record is in the cache,
 * and a node nothing had touched before its own run (a leaf) is folded in
 * a scratch record, not in the array of records at all. The other nodes
 * touched (the global context, ctxIds numbered otherwise) are evaluated at
 * the profile's end. An equation out of tolerance before the profile's
 * end is kept with its terms and decided at the end, when pos / neg and
 * the elided magnitudes are complete (they only widen the interval;
 * verdict.c).
 * Diagnostics are reported in the order the profile first touched the
 * nodes (a node's own run, or a child's run that propagates into it).
 * A run that comes after its node, or its parent, was evaluated (ctxIds
 * out of order: hpctkdb's own index rules fired) leaves the profile
 * unchecked. Nodes are ranks here (values.h, hpctk_vrank) and records are
 * lent from a pool: an eager node touched by its children but with no run
 * of its own (its values missing) is evaluated when another node needs its
 * place, not at the profile's end (evict). The slot groups after the
 * first are folded again from kept runs (groups.c); the rare
 * negative terms are kept aside (negative.c). */
#include <math.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "core/hv_int.h"
#include "core/simd.h"
#include "core/zmem.h"
#include "hpctoolkit/format/ranges.h"
#include "v2.h"
#include "values.h"

size_t hpctk_vbudget = HPCTK_VBUDGET;

/* Node (rank) n's records, at its place in the pool (hpctk_vrank.slot; a
 * leaf has none and never asks). */
static inline hpctk_vrec *rec(const hpctk_vcheck *c, uint32_t n)
{
	return (hpctk_vrec *)(void *)(c->recs + (size_t)c->vm->byrank[n].slot * c->stride);
}

static inline hpctk_vown *own_rec(const hpctk_vcheck *c, uint32_t n)
{
	return (hpctk_vown *)(void *)(c->recs + ((size_t)c->vm->npool + c->vm->byrank[n].slot) * c->stride);
}

static inline double *expects(hpctk_vrec *r) { return (double *)(void *)(r + 1); }
static inline double *founds(hpctk_vown *o) { return (double *)(void *)(o + 1); }

/* g slots in whole pairs (the evaluation takes two at a time; the spare
 * lane is always zero, so it always passes). */
static inline uint32_t lanes(uint64_t g) { return (uint32_t)((g + 1) & ~(uint64_t)1); }

/* The records' bytes for a model: per node two records of a header and g
 * doubles, g as hpctk_vcheck_init chooses it. */
static size_t recs_len(const hpctk_vmodel *vm, size_t *stride, uint32_t *gout)
{
	uint64_t g = hpctk_vbudget / ((uint64_t)vm->n * 2 * sizeof(double));
	g = g < 1 ? 1 : g > vm->nd ? vm->nd : g;
	if (gout) *gout = (uint32_t)g;
	*stride = sizeof(hpctk_vrec) + (size_t)lanes(g) * sizeof(double);
	/* whole cache lines when that costs at most an eighth more: a record
	 * across one line fewer (the records are read from memory, in the
	 * order ctxIds give, once or twice per profile) */
	size_t whole = (*stride + 63) & ~(size_t)63;
	if ((whole - *stride) * 8 <= *stride) *stride = whole;
	return 2 * (size_t)vm->npool * *stride;
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
	recs_len(vm, &c->stride, &c->g);
	c->gp = lanes(c->g);
	/* pos, neg, elmag, then per slot: total, total magnitude; rows of whole
	 * 64-byte lines, so the evaluation reads and writes them a vector at a
	 * time, unmasked (the spare lanes stay zero): a masked store is not
	 * forwarded to the next node's load of the same totals */
	c->gw = (c->gp + 7u) & ~7u;
	c->pos = hv_aligned_alloc(64, 5u * c->gw * sizeof *c->pos);
	if (c->pos) memset(c->pos, 0, 5u * c->gw * sizeof *c->pos);
	c->neg = c->pos ? c->pos + c->gw : NULL;
	c->elmag = c->pos ? c->pos + 2u * c->gw : NULL;
	c->kshift = hv_malloc(c->g);
	c->isexec = hv_calloc(c->gp, sizeof *c->isexec);
	c->execmask = hv_calloc((c->gp + 7) / 8, 1);
	c->zero = hv_calloc(c->gp, sizeof *c->zero);
	c->act = hv_malloc((vm->npid ? vm->npid : 1) * sizeof *c->act);
	c->code = hv_malloc((vm->npid ? vm->npid : 1) * sizeof *c->code);
	c->pk = hv_malloc(((size_t)vm->nd + 1) * sizeof *c->pk); /* each derived slot is fed by one point pid */
	c->scratch = hv_calloc(3, c->stride); /* an eager node's hpctk_vrec and hpctk_vown, then the sums a run pushes */
	c->hasrec = hv_calloc(2 * (((size_t)vm->n + 7) / 8), 1);
	c->done = c->hasrec ? c->hasrec + ((size_t)vm->n + 7) / 8 : NULL;
	c->made = hv_malloc((size_t)vm->n * sizeof *c->made);
	/* several groups: each node's first touch in the first, which orders the
	 * verdicts of every group (a replay numbers its runs its own way) */
	if (c->g < vm->nd) {
		c->key0 = hv_calloc(vm->n, sizeof *c->key0);
		c->stamp0 = hv_calloc(vm->n, sizeof *c->stamp0);
	}
	c->owner = hv_malloc(((size_t)vm->npool + 1) * sizeof *c->owner);
	if (c->owner)
		for (uint32_t i = 0; i < vm->npool; i++) c->owner[i] = HPCTK_VNONE;
	c->on = c->pos && c->kshift && c->isexec && c->execmask && c->zero && c->act && c->code && c->pk && c->scratch && c->hasrec && c->made && c->owner;
	if (!c->on) {
		c->oom = true;
		return;
	}
#if defined(__SSE2__)
	c->wide = hv_simd_avx512();
#endif
	c->lanes = (hpctk_vlanes){c->gp, c->pos, c->neg, c->elmag, c->pos + 3u * c->gw, c->pos + 4u * c->gw, c->isexec, c->execmask};
	hpctk_vgroup_set(c);
}

void hpctk_vspare_free(hpctk_vspare *sp, const hpctk_vmodel *vm)
{
	void *p = atomic_exchange(&sp->recs, NULL);
	size_t stride;
	if (p) hv_zfree_big(p, recs_len(vm, &stride, NULL));
}

/* The records, zeroed: made (or taken from the spare) when the first value
 * arrives, so a checker whose unit has no thread value costs nothing. */
static bool recs(hpctk_vcheck *c)
{
	if (c->recs) return true;
	size_t stride, len = recs_len(c->vm, &stride, NULL);
	if (c->spare) c->recs = atomic_exchange(&c->spare->recs, NULL);
	/* huge pages where offered: the records are touched at random */
	if (!c->recs) c->recs = hv_zalloc_big(len);
	if (!c->recs) c->oom = c->cur_tainted = true;
	return c->recs != NULL;
}

void hpctk_vcheck_free(hpctk_vcheck *c)
{
	size_t stride, len = c->vm && c->recs ? recs_len(c->vm, &stride, NULL) : 0;
	if (c->recs && c->spare && c->nmade == 0 && !c->open) {
		/* all zero (every profile's records were cleared): for the next unit */
		void *old = atomic_exchange(&c->spare->recs, (void *)c->recs);
		hv_zfree_big(old, len);
	} else {
		hv_zfree_big(c->recs, len);
	}
	free(c->pos);
	free(c->keep);
	free(c->negk);
	free(c->negv);
	free(c->fail);
	free(c->pend);
	free(c->key0);
	free(c->stamp0);
	free(c->kshift);
	free(c->isexec);
	free(c->execmask);
	free(c->zero);
	free(c->act);
	free(c->code);
	free(c->pk);
	free(c->scratch);
	free(c->hasrec);
	free(c->made);
	free(c->owner);
	free(c->run_seen);
	free(c->run_at);
	if (c->w_ok) hv_window_free(&c->w);
	memset(c, 0, sizeof *c);
}


static void evict(hpctk_vcheck *c, uint32_t q);

/* Node n's hpctk_vrec, made (zero, and now in use) with its first touch
 * when it was not in use. */
static hpctk_vrec *touch(hpctk_vcheck *c, uint32_t n, uint64_t key, uint64_t off)
{
	hpctk_vrec *r = rec(c, n);
	if (!hv_bit_get(c->hasrec, n)) {
		/* its place may still hold an eager node that was touched but
		 * not evaluated (it had no run of its own): evaluated now */
		const uint32_t s = c->vm->byrank[n].slot, q = c->owner[s];
		if (q != n && q != HPCTK_VNONE && hv_bit_get(c->hasrec, q) && !hv_bit_get(c->done, q)) evict(c, q);
		c->owner[s] = n;
		hv_bit_set(c->hasrec, n);
		c->made[c->nmade++] = n; /* at most once per node and profile: bounded by n */
		r->key = key;
		r->first_off = off;
	}
	return r;
}

/* One slot's equation, kept when out of tolerance so far (see eval_node). */
static inline void eval_slot(hpctk_vcheck *c, uint32_t n, const hpctk_vrec *r, const hpctk_vown *o, uint32_t k,
			     double f, double x, double mag, bool count)
{
	double *tot = c->pos + 3u * c->gw, *totmag = c->pos + 4u * c->gw;
	double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (mag + fabs(f) + c->elmag[k]);
	double diff = f - x;
	if (count) {
		tot[k] += diff;
		totmag[k] += mag + fabs(f);
		c->nev[c->kshift[k] == 16]++;
	}
	if (!(diff >= c->neg[k] - tol && diff <= c->pos[k] + tol))
		hpctk_vcheck_keep_fail(c, &(hpctk_vfail){r->key, k, n, o->own_off, r->first_off, o->own_cnt, f, x, mag});
}


/* Node n's equations, one per touched slot of the group: first touch
 * `r`, expected sums ex (plus ex2, an eager node's own point values, when
 * not NULL: the children's sum first, then the own point value, as they
 * arrived), found values `found`, own run `o`. Those out of tolerance so
 * far are kept for the profile's end. Without a negative term in the
 * profile (the usual case) the slots go two at a time (SSE2, on every
 * x86-64; WebAssembly's SIMD in the web page's build; elsewhere one at a
 * time) with no branch: an
 * untouched slot (found and expected 0) adds 0 to the totals and always
 * passes, so only the count of evaluations needs its mask, and a node
 * with a slot out of tolerance is walked again slot by slot for it. */
static void eval_node(hpctk_vcheck *c, uint32_t n, const hpctk_vrec *r, const double *ex, const double *ex2,
		      const double *found, const hpctk_vown *o)
{
	if (!r->key) return; /* untouched: all zero */
	if (c->key0 && c->stamp0 && c->g0 == 0) {
		c->key0[n] = r->key;
		c->stamp0[n] = c->pseq; /* this profile's */
	}
	const uint32_t g = c->g, gn = c->g0 + g <= c->vm->nd ? g : c->vm->nd - c->g0;
	if (c->negn) {
		for (uint32_t k = 0; k < gn; k++) {
			double f = found[k], x = ex2 ? ex[k] + ex2[k] : ex[k];
			double nm = hpctk_vneg_get(c, n, k);
			if (x == 0 && f == 0 && nm < 0) continue; /* untouched */
			eval_slot(c, n, r, o, k, f, x, x + 2 * (nm > 0 ? nm : 0), true);
		}
		return;
	}
#if defined(__SSE2__)
	bool in = c->wide ? hpctk_vlanes_avx512(&c->lanes, ex, ex2 ? ex2 : c->zero, found, c->nev)
			  : hpctk_vlanes_2(&c->lanes, ex, ex2 ? ex2 : c->zero, found, c->nev);
#else
	bool in = hpctk_vlanes_2(&c->lanes, ex, ex2 ? ex2 : c->zero, found, c->nev);
#endif
	if (in) return;
	/* a slot out of tolerance: the kernel kept the totals, the slots are
	 * evaluated again one by one for the diagnostics */
	for (uint32_t k = 0; k < gn; k++) {
		double f = found[k], x = ex2 ? ex[k] + ex2[k] : ex[k];
		if (x == 0 && f == 0) continue;
		eval_slot(c, n, r, o, k, f, x, x + 2 * 0.0, false);
	}
}

/* The end of the open node's own run: an eager node is evaluated and its
 * records cleared now; the others wait for the profile's end. */
static void close_open(hpctk_vcheck *c)
{
	if (!c->open) return;
	c->open = false;
	const uint32_t n = c->open_n;
	if (!c->vm->byrank[n].eager) return;
	hv_bit_set(c->done, n);
	hpctk_vrec *sr = (hpctk_vrec *)(void *)c->scratch;
	hpctk_vown *so = (hpctk_vown *)(void *)(c->scratch + c->stride);
	if (hv_bit_get(c->hasrec, n)) {
		/* its children pushed into its record: it has the first touch */
		hpctk_vrec *r = rec(c, n);
		if (!c->cur_tainted) eval_node(c, n, r, expects(r), expects(sr), founds(so), so);
		memset(r, 0, c->stride);
	} else if (!c->cur_tainted) {
		eval_node(c, n, sr, expects(sr), NULL, founds(so), so);
	}
	memset(c->scratch, 0, 2 * c->stride);
}

/* An eager node q whose place in the pool another node needs before the
 * profile's end (q had no run of its own, or its children's runs came out
 * of ctxId order): evaluated as the profile's end would, and its record
 * cleared. Open, it would be read again when closed: the profile is left
 * unchecked instead (ctxIds out of order). */
static void evict(hpctk_vcheck *c, uint32_t q)
{
	hpctk_vrec *r = rec(c, q);
	if (c->open && c->open_n == q) c->cur_tainted = true;
	else if (!c->cur_tainted) eval_node(c, q, r, expects(r), NULL, founds(own_rec(c, q)), own_rec(c, q));
	hv_bit_set(c->done, q);
	memset(r, 0, c->stride);
}

/* Start loading the records the runs a few places after node n's in
 * ctxId order will touch: that node's pushed sums (read when it is
 * evaluated) and its parent's (pushed into). Along hpcprof's numbering
 * both are streams of their own, but through a window too short for the
 * hardware to see; a record is a few cache lines. */
#define HPCTK_VAHEAD 6
static inline void prefetch_rec(const hpctk_vcheck *c, uint32_t m)
{
	const uint8_t *p = (const uint8_t *)rec(c, m);
	size_t len = c->stride < 512 ? c->stride : 512;
	for (size_t o = 0; o < len; o += 64) __builtin_prefetch(p + o, 1);
	__builtin_prefetch(p + len - 1, 1);
}

static inline void prefetch_ahead(const hpctk_vcheck *c, uint32_t n)
{
	const hpctk_vmodel *vm = c->vm;
	uint32_t m = n + HPCTK_VAHEAD;
	if (m >= vm->n) return;
	if (hv_bit_get(c->hasrec, m)) prefetch_rec(c, m);
	uint32_t p = vm->byrank[m].parent;
	if (p != HPCTK_VNONE) prefetch_rec(c, p);
}

/* A run's propagating values, summed in the scratch (each slot takes at
 * most one value of a run: 0 + v is v), into its parent's expected sums at
 * the run's end, one vector at a time, and the scratch cleared: the
 * parent's record is read once a run, not once a value (its first touch
 * may miss the cache). */
static void push_up(hpctk_vcheck *c, uint32_t parent, double *push, uint64_t seq, uint64_t first_off)
{
	if (hv_bit_get(c->done, parent)) {
		c->cur_tainted = true; /* the parent was evaluated: ctxIds out of order */
		memset(push, 0, c->gp * sizeof *push);
		return;
	}
	double *up = expects(touch(c, parent, 2 * seq + 1, first_off));
	/* two slots a step (gp is even): the compiler at -O2 leaves the plain
	 * loop scalar, and it runs once a run over every slot */
	const v2d zero = v2_splat(0.0);
	for (uint32_t k = 0; k < c->gp; k += 2) {
		v2_store(up + k, v2_add(v2_load(up + k), v2_load(push + k)));
		v2_store(push + k, zero);
	}
}

/* An elided context's run: its raw point values (no equation is known for
 * the context itself) into the profile's pos / neg / elided magnitudes of
 * their slots. Every value here is finite: the walk's fast path checked
 * them, its slow path (hpctk_vcheck_value) drops the others. */
static inline void elided_add(hpctk_vcheck *c, uint32_t k, double v)
{
	if (v > 0) c->pos[k] += v;
	else c->neg[k] += v;
	c->elmag[k] += fabs(v);
}

static void fold_elided(hpctk_vcheck *c, const uint8_t *vals, uint64_t cnt)
{
	const uint64_t *code = c->code;
	const uint32_t npid = c->vm->npid;
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *p = vals + 10 * i;
		uint16_t pid = hv_le16(p);
		if (pid >= npid) continue;
		const uint64_t cd = code[pid];
		if (!(cd & HPCTK_VCODE_POINT)) continue;
		double v = hv_lef64(p + 2);
		if (cd & HPCTK_VCODE_LIST) {
			for (uint32_t j = c->act[pid].pa; j < c->act[pid].pb; j++) elided_add(c, c->pk[j], v);
			continue;
		}
		elided_add(c, cd & 0xffff, v);
		if ((cd >> 16 & 0xffff) != HPCTK_VCODE_NOK) elided_add(c, cd >> 16 & 0xffff, v);
	}
}

/* Fold a run of raw {Val} entries of node n (HPCTK_VNONE: an elided
 * context) into the slots of the current group (see the top). */
void hpctk_vcheck_fold(hpctk_vcheck *c, uint32_t n, const uint8_t *vals, uint64_t cnt, uint64_t off0)
{
	const hpctk_vmodel *vm = c->vm;
	if (n == HPCTK_VNONE) {
		close_open(c);
		fold_elided(c, vals, cnt);
		return;
	}
	if (!recs(c)) return;
	const uint64_t seq = ++c->seq;
	if (!(c->open && c->open_n == n)) {
		close_open(c);
		if (hv_bit_get(c->done, n)) {
			c->cur_tainted = true; /* a second run of an evaluated node: ctxIds out of order */
			return;
		}
		if (vm->byrank[n].eager) {
			/* in the scratch pair (its hpctk_vrec, if its children pushed
			 * into it, is read when it is evaluated) */
			c->open_r = (hpctk_vrec *)(void *)c->scratch;
			c->open_o = (hpctk_vown *)(void *)(c->scratch + c->stride);
			c->open_r->key = 2 * seq;
			c->open_r->first_off = off0;
		} else {
			c->open_r = touch(c, n, 2 * seq, off0);
			c->open_o = own_rec(c, n);
		}
		c->open = true;
		c->open_n = n;
		prefetch_ahead(c, n);
	}
	hpctk_vown *o = c->open_o;
	double *ex = expects(c->open_r), *found = founds(o);
	if (!o->own_off) {
		o->own_off = off0;
		o->own_cnt = (uint32_t)cnt;
	} else if (o->own_off + 10ull * o->own_cnt == off0) {
		o->own_cnt += (uint32_t)cnt; /* the next chunk of the same run */
	}
	const uint32_t parent = vm->byrank[n].parent;
	/* bit `shift` of pm: this node's value of a slot goes into its parent's */
	const uint32_t pm = parent != HPCTK_VNONE ? ((uint32_t)vm->byrank[n].prop | 1u << 16) : 0;
	double *push = (double *)(void *)(c->scratch + 2 * c->stride); /* what the run pushes into its parent: zero */
	uint64_t first_push = UINT64_MAX;
	const uint64_t *code = c->code;
	const uint32_t npid = vm->npid;
	uint64_t signs = 0; /* or of the bits of every value added: a negative one sets the top bit */
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *p = vals + 10 * i;
		uint16_t pid = hv_le16(p);
		if (pid >= npid) continue;
		const uint64_t cd = code[pid];
		const uint64_t bits = hv_le64(p + 2);
		double v;
		memcpy(&v, &bits, sizeof v);
		if ((cd & HPCTK_VCODE_POINT) != 0) {
			if (cd & HPCTK_VCODE_LIST) {
				for (uint32_t j = c->act[pid].pa; j < c->act[pid].pb; j++) ex[c->pk[j]] += v;
			} else {
				ex[cd & 0xffff] += v;
				if ((cd >> 16 & 0xffff) != HPCTK_VCODE_NOK) ex[cd >> 16 & 0xffff] += v;
			}
			signs |= bits;
			continue;
		}
		if ((cd & HPCTK_VCODE_DERIVED) == 0) {
			/* not a scope checked, or another group's: that one still
			 * touches the parent (HPCTK_VCODE_ELSEWHERE) */
			if ((cd & HPCTK_VCODE_ELSEWHERE) && first_push == UINT64_MAX && (pm >> (cd >> 16 & 31) & 1)) first_push = i;
			continue;
		}
		const uint32_t k = cd & 0xffff;
		found[k] = v; /* given twice (a broken run): every copy propagates, the last is found */
		if (!(pm >> (cd >> 16 & 31) & 1)) continue;
		if (first_push == UINT64_MAX) first_push = i;
		push[k] += v;
		signs |= bits;
	}
	if (first_push != UINT64_MAX) push_up(c, parent, push, seq, off0 + 10 * first_push);
	if (signs >> 63) hpctk_vneg_terms(c, n, parent, pm, vals, cnt);
}

/* The end of a profile's group: the nodes still waiting are evaluated,
 * every record is cleared, and the equations kept are decided with the
 * profile's elided values complete and reported in touch order. */
static void end_group(hpctk_vcheck *c, bool check)
{
	const hpctk_vmodel *vm = c->vm;
	close_open(c);
	check = check && !c->cur_tainted;
	for (uint32_t j = 0; j < c->nmade; j++) {
		uint32_t n = c->made[j];
		if (hv_bit_get(c->done, n)) continue; /* evaluated and cleared */
		hpctk_vrec *r = rec(c, n);
		hpctk_vown *o = own_rec(c, n);
		if (check) eval_node(c, n, r, expects(r), NULL, founds(o), o);
		memset(r, 0, c->stride);
		if (!vm->byrank[n].eager) memset(o, 0, c->stride); /* an eager node's own run was in the scratch */
	}
	c->nmade = 0;
	memset(c->hasrec, 0, 2 * (((size_t)vm->n + 7) / 8)); /* and done */
	if (check) hpctk_vcheck_verdicts(c);
	c->nfail = 0;
	c->nev[0] = c->nev[1] = 0;
	c->seq = 0;
	memset(c->pos, 0, 5u * c->gw * sizeof *c->pos);
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
	if (c->cur_summary) {
		c->cur_tainted = false;
		return;
	}
	end_group(c, check);
	for (c->g0 = c->g; check && c->g0 < c->vm->nd; c->g0 += c->g) {
		c->cur_tainted = false;
		hpctk_vgroup_set(c);
		hpctk_vgroup_replay(c);
		end_group(c, true);
	}
	if (c->g0 != 0) {
		c->g0 = 0;
		hpctk_vgroup_set(c);
	}
	hpctk_vcheck_report_held(c);
	c->pseq++; /* the next profile's first group: this one's key0 are stale */
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

/* The rank of ctxId ctx (HPCTK_VNONE: not in meta.db's tree). A profile's
 * runs come in ctxId order, so a cursor that steps forward finds each in a
 * step or two; a ctxId behind it (a new profile, or ids out of order) is
 * searched for. */
static uint32_t node_of(hpctk_vcheck *c, uint32_t ctx)
{
	if (c->last_valid && ctx == c->last_ctx) return c->last_node;
	const hpctk_vrank *br = c->vm->byrank;
	const uint32_t n = c->vm->n;
	uint32_t r = c->cursor;
	if (r > n || (r > 0 && br[r - 1].ctx >= ctx)) {
		uint32_t lo = 0, hi = n;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (br[mid].ctx < ctx) lo = mid + 1;
			else hi = mid;
		}
		r = lo;
	} else {
		while (r < n && br[r].ctx < ctx) r++;
	}
	c->cursor = r;
	c->last_ctx = ctx;
	c->last_node = r < n && br[r].ctx == ctx ? r : HPCTK_VNONE;
	c->last_valid = true;
	return c->last_node;
}

void hpctk_vcheck_run(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, const uint8_t *vals, uint64_t cnt,
		      uint64_t off0)
{
	if (!c->on || cnt == 0) return;
	begin(c, prof, summary);
	if (summary || c->cur_tainted) return;
	uint32_t n = node_of(c, ctx);
	if (c->g < c->vm->nd) hpctk_vgroup_keep(c, n, vals, cnt, off0);
	hpctk_vcheck_fold(c, n, vals, cnt, off0);
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

void hpctk_vcheck_end_profile(hpctk_vcheck *c)
{
	if (c->on) flush(c);
}

void hpctk_vcheck_finish(hpctk_vcheck *c)
{
	if (c->on) flush(c);
}
