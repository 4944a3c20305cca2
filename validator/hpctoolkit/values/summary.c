/* Summary statistics checked context by context from cct.db (values.h).
 *
 * A statistic of context c is combine() over the thread profiles of
 * formula(propagated value at c). cct.db's block of c holds exactly those
 * values, metric by metric, so one block gives every statistic of c: the
 * memory is one accumulator per statistic of meta.db, whatever the number
 * of contexts or profiles, and the check splits with cct.db's contexts.
 * The values found are the summary profile's, read through a view made
 * once before the walks (its {Idx} and {Val} arrays, proven sorted and in
 * range: nothing here trusts what a failed rule left unchecked). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "core/hv_int.h"
#include "hpctoolkit/format/ranges.h"
#include "values.h"

/* Statistics of a custom scope are not checked: hpcprof derives them
 * otherwise (the real databases' "lex_aware" summaries are not the sum of
 * the threads' values), and the spec leaves custom scopes undefined. */
static bool summarised(const hpctk_vmodel *vm, uint16_t pid)
{
	uint8_t k = hpctk_vkind(vm, pid);
	return k == HPCTK_VP_POINT || k == HPCTK_VP_EXEC || k == HPCTK_VP_TRANS;
}

static double apply(const hpctk_vformula *f, double x)
{
	if (f->power == 1.0) return f->scale * x;
	if (f->power == 2.0) return f->scale * x * x;
	return f->scale * pow(x, f->power);
}

/* --- the summary profile's view -------------------------------------------- */

#define PI_NEED 0x30u /* release {PI}: flags at 0x28 */

/* The {Idx} array read once, sequentially: ctxIds strictly increasing,
 * startIndex from 0, nondecreasing, within nValues (else its own rules
 * fired, and no summary is checked: a lookup could not be trusted). */
static bool idx_sound(const hpctk_vsumview *sv)
{
	if (sv->nidx == 0) return sv->nval == 0;
	hv_window w;
	if (!hv_window_init(&w, sv->b, hpctk_window_cap)) return false;
	uint32_t prev = 0;
	uint64_t last = 0;
	bool ok = true;
	for (uint64_t k = 0; ok && k < sv->nidx; k++) {
		const uint8_t *e = hv_window_get(&w, sv->pidx + 12 * k, 12);
		if (!e) {
			ok = false;
			break;
		}
		uint32_t ctx = hv_le32(e);
		uint64_t start = hv_le64(e + 4);
		ok = !((k && ctx <= prev) || (k == 0 && start != 0) || start < last || start > sv->nval);
		prev = ctx;
		last = start;
	}
	hv_window_free(&w);
	return ok;
}

void hpctk_vsumview_make(hpctk_vsumview *sv, hv_blob *b, uint64_t body_end, uint64_t pi_p, uint64_t pi_sz,
			 uint32_t nprof, const hpctk_vmodel *vm)
{
	memset(sv, 0, sizeof *sv);
	sv->b = b;
	if (!vm || !vm->nstats || nprof == 0 || pi_sz < PI_NEED || body_end > b->size) return;
	hv_window w;
	if (!hv_window_init(&w, b, hpctk_window_cap)) return;
	/* Which profiles are summaries (release: isSummary, flags bit 0); the
	 * bitmap only when one other than profile 0 is (bounded by {PI}). */
	uint8_t pi0[PI_NEED];
	const uint8_t *p = hv_window_get(&w, pi_p, PI_NEED);
	bool ok = p != NULL && (hv_le32(p + 0x28) & 1);
	if (ok) memcpy(pi0, p, PI_NEED);
	uint32_t nsum = 1;
	for (uint32_t i = 1; ok && i < nprof; i++) {
		p = hv_window_get(&w, pi_p + (uint64_t)i * pi_sz, PI_NEED);
		if (!p) ok = false;
		else if (hv_le32(p + 0x28) & 1) {
			if (!sv->is_summary && !(sv->is_summary = hv_calloc(((size_t)nprof + 7) / 8, 1))) ok = false;
			if (sv->is_summary) hv_bit_set(sv->is_summary, i);
			nsum++;
		}
	}
	hv_window_free(&w);
	if (!ok) return;
	if (sv->is_summary) hv_bit_set(sv->is_summary, 0);
	sv->nprof = nprof;
	sv->nthreads = nprof - nsum;
	sv->nval = hv_le64(pi0);
	sv->pval = hv_le64(pi0 + 0x08);
	sv->nidx = hv_le32(pi0 + 0x10);
	sv->pidx = hv_le64(pi0 + 0x18);
	if (!hv_range_in(sv->pval, hv_mul_sat(sv->nval, 10), body_end) ||
	    !hv_range_in(sv->pidx, hv_mul_sat(sv->nidx, 12), body_end))
		return;
	sv->ok = idx_sound(sv);
}

void hpctk_vsumview_free(hpctk_vsumview *sv)
{
	free(sv->is_summary);
	memset(sv, 0, sizeof *sv);
}

/* --- folding cct.db ------------------------------------------------------------ */

/* What a statistic's values need, decided once per checker rather than per
 * run: not checked (formula not recognised, scope not summarised, its
 * statMetricId listed twice), folded without a test per value (scale * x
 * or scale * x^2, a clean run), or value by value. The four statistics of
 * scale 1 that hpcprof writes (sum, min and max of $$, sum of $$^2) are
 * derived from one pass over a run shared by all the statistics of its
 * metric (VS_F_*: fuse below). */
enum { VS_SKIP, VS_CLEAN, VS_SLOW, VS_F_SUM1, VS_F_SUM2, VS_F_MIN, VS_F_MAX };

/* sid_code beside a checked statistic: a statMetricId meta.db does not
 * list (the run is not sound), or one whose value is not compared (its
 * statistic not checked, or listed twice: its unique rule fired). */
#define VSID_UNKNOWN UINT32_MAX
#define VSID_IGNORED (UINT32_MAX - 1)

static uint8_t stat_mode(const hpctk_vmodel *vm, uint32_t k)
{
	const hpctk_vstat *st = &vm->stats[k];
	if (!st->f.ok || !summarised(vm, st->pid) || vm->stat_of[st->stat] != k) return VS_SKIP;
	if (st->f.scale == 1.0 && st->f.power == 1.0 && st->combine <= 2)
		return st->combine == 0 ? VS_F_SUM1 : st->combine == 1 ? VS_F_MIN : VS_F_MAX;
	if (st->f.scale == 1.0 && st->f.power == 2.0 && st->combine == 0) return VS_F_SUM2;
	return st->f.power == 1.0 || st->f.power == 2.0 ? VS_CLEAN : VS_SLOW;
}

/* Whether a sum of n terms whose magnitudes sum to about mag, computed in
 * another order as `sum`, proves that the sum in file order passes
 * compare() against f. Both orders are within 2n u mag of the exact sum
 * (u = 2^-53, n <= 2^16: 2^-36 mag, 1.5% of the relative tolerance) and
 * their magnitudes within n u of each other: a sum within a quarter of the
 * tolerance here is within a third of it in file order. Far from overflow
 * only (and NaN fails every comparison). */
static inline bool certify(double sum, double mag, double f, uint64_t n)
{
	double m = mag + fabs(f);
	return n <= 65536 && m < 1e300 && fabs(f - sum) <= 0.25 * HPCTK_VALUES_REL_TOL * m;
}

void hpctk_vsum_init(hpctk_vsum *s, const hpctk_vmodel *vm, const hpctk_vsumview *sv, hv_report *r, hv_blob *cct)
{
	memset(s, 0, sizeof *s);
	s->vm = vm;
	s->sv = sv;
	s->r = r;
	s->cct = cct;
	s->ctx = UINT32_MAX;
	if (!vm || !sv || !sv->ok || !vm->nstats) return;
	s->acc = hv_calloc(vm->nstats, sizeof *s->acc);
	s->touched = hv_malloc(vm->nstats * sizeof *s->touched);
	s->mode = hv_malloc(vm->nstats);
	s->fuse = hv_calloc(vm->npid ? vm->npid : 1, 1);
	s->found = hv_calloc(vm->nstats, sizeof *s->found);
	s->plan = hv_malloc(vm->nstats * sizeof *s->plan);
	s->plan_first = hv_malloc(((size_t)vm->npid + 1) * sizeof *s->plan_first);
	s->sid_code = hv_malloc((vm->nsid ? vm->nsid : 1) * sizeof *s->sid_code);
	if (s->mode && s->fuse)
		for (size_t k = 0; k < vm->nstats; k++) {
			uint8_t m = s->mode[k] = stat_mode(vm, (uint32_t)k);
			if (m >= VS_F_SUM1) s->fuse[vm->stats[k].pid] |= (uint8_t)(1u << (m - VS_F_SUM1));
		}
	if (s->mode && s->plan && s->plan_first) {
		uint32_t n = 0;
		for (uint32_t p = 0; p < vm->npid; p++) {
			s->plan_first[p] = n;
			for (uint32_t k = vm->first_stat[p]; k < vm->first_stat[p + 1]; k++)
				if (s->mode[k] != VS_SKIP) s->plan[n++] = k;
		}
		s->plan_first[vm->npid] = n;
	}
	if (s->mode && s->sid_code)
		for (uint32_t id = 0; id < vm->nsid; id++) {
			uint32_t k = vm->stat_of[id];
			s->sid_code[id] = !hpctk_vstat_known(vm, id)		     ? VSID_UNKNOWN
					  : k >= HPCTK_VNONE - 1 || s->mode[k] == VS_SKIP ? VSID_IGNORED
											  : k;
		}
	bool wi = hv_window_init(&s->wi, sv->b, hpctk_window_cap), wv = hv_window_init(&s->wv, sv->b, hpctk_window_cap);
	bool wp = hv_window_init(&s->wp, sv->b, hpctk_window_cap < 4096 ? hpctk_window_cap : 4096);
	s->on = s->acc && s->touched && s->mode && s->fuse && s->found && s->plan && s->plan_first && s->sid_code && wi &&
		wv && wp;
	s->oom = !s->on;
}

void hpctk_vsum_release(hpctk_vsum *s)
{
	free(s->acc);
	free(s->touched);
	free(s->mode);
	free(s->fuse);
	free(s->found);
	free(s->plan);
	free(s->plan_first);
	free(s->sid_code);
	s->acc = NULL;
	s->touched = NULL;
	s->mode = NULL;
	s->fuse = NULL;
	s->found = NULL;
	s->plan = NULL;
	s->plan_first = NULL;
	s->sid_code = NULL;
	if (s->wc_ok) hv_window_free(&s->wc);
	memset(&s->wc, 0, sizeof s->wc);
	s->wc_ok = false;
	if (s->wi.buf) hv_window_free(&s->wi);
	if (s->wp.buf) hv_window_free(&s->wp);
	if (s->wv.buf) hv_window_free(&s->wv);
	memset(&s->wi, 0, sizeof s->wi);
	memset(&s->wv, 0, sizeof s->wv);
	memset(&s->wp, 0, sizeof s->wp);
	s->on = false;
}

void hpctk_vsum_free(hpctk_vsum *s)
{
	hpctk_vsum_release(s);
	free(s->miss);
	memset(s, 0, sizeof *s);
}

static void reset(hpctk_vsum *s)
{
	for (size_t i = 0; i < s->ntouched; i++) s->acc[s->touched[i]] = (hpctk_vsum_acc){0};
	s->ntouched = 0;
	s->tainted = false;
	s->prepared = false;
	s->ncert = s->nfound_cert = 0;
}

static bool thread(const hpctk_vsumview *sv, uint32_t prof)
{
	return prof != 0 && prof < sv->nprof && !(sv->is_summary && hv_bit_get(sv->is_summary, prof));
}

/* One statistic over a clean run (every value a thread's, finite: what
 * the value loop's fast path delivers when profile 0 is the only summary),
 * for the formulas scale * x and scale * x^2: no test per value. The
 * operations are apply()'s, in the same order. */
static void fold_clean(hpctk_vsum_acc *a, const hpctk_vstat *st, const uint8_t *vals, uint64_t cnt)
{
	const double sc = st->f.scale;
	const bool sq = st->f.power == 2.0;
	double acc = a->acc, mag = a->mag;
	uint64_t i = 0;
	if (a->count == 0) {
		double x = hv_lef64(vals + 4), y = sc * x;
		if (sq) y *= x;
		acc = y;
		mag += st->combine == 0 ? fabs(y) : 0;
		i = 1;
	}
	switch (st->combine) {
	case 0:
		for (; i < cnt; i++) {
			double x = hv_lef64(vals + 12 * i + 4), y = sc * x;
			if (sq) y *= x;
			acc += y;
			mag += fabs(y);
		}
		break;
	case 1:
		for (; i < cnt; i++) {
			double x = hv_lef64(vals + 12 * i + 4), y = sc * x;
			if (sq) y *= x;
			acc = y < acc ? y : acc;
		}
		break;
	default:
		for (; i < cnt; i++) {
			double x = hv_lef64(vals + 12 * i + 4), y = sc * x;
			if (sq) y *= x;
			acc = y > acc ? y : acc;
		}
		break;
	}
	a->acc = acc;
	a->mag = mag;
	a->count += (uint32_t)cnt;
}

/* Whether statistic st's accumulator u agrees with the value found f
 * (absent: 0), and what it expected (a, and b counting the threads
 * without a value as formula(0)). */
static inline bool agrees(const hpctk_vstat *st, const hpctk_vsum_acc *u, uint32_t nthreads, double f, double *pa,
			  double *pb)
{
	double a = u->count ? u->acc : 0.0, b = a;
	bool missing = u->count < nthreads; /* a thread without the value: skipped, or formula(0) */
	if (missing && st->combine != 0) {
		double z = apply(&st->f, 0.0);
		b = !u->count ? z : st->combine == 1 ? (z < a ? z : a) : (z > a ? z : a);
	}
	double mag = st->combine == 0 ? u->mag : fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	double tol = HPCTK_VALUES_ABS_TOL + HPCTK_VALUES_REL_TOL * (mag + fabs(f));
	*pa = a;
	*pb = b;
	return fabs(f - a) <= tol || fabs(f - b) <= tol;
}

/* The summary profile's run of ctx, [*from, *to) of {Val}: the cursor
 * moves forward as cct.db's contexts do (a binary search when it cannot).
 * False when it cannot be read. */
static bool find_run(hpctk_vsum *s, uint32_t ctx, uint64_t *from, uint64_t *to)
{
	const hpctk_vsumview *sv = s->sv;
	const uint8_t *e;
#define CTX_AT(k) ((e = hv_window_get(&s->wi, sv->pidx + 12 * (k), 12)) != NULL ? hv_le32(e) : (ok = false, 0u))
#define CTX_PROBE(k) ((e = hv_window_get(&s->wp, sv->pidx + 12 * (k), 12)) != NULL ? hv_le32(e) : (ok = false, 0u))
	bool ok = true;
	*from = *to = 0;
	if (!s->at_valid || (s->at < sv->nidx && CTX_AT(s->at) > ctx)) {
		/* probes far apart through a page-sized window: each would
		 * otherwise refill the whole read window at its offset */
		uint64_t lo = 0, hi = sv->nidx;
		while (ok && lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (CTX_PROBE(mid) < ctx) lo = mid + 1;
			else hi = mid;
		}
		s->at = lo;
		s->at_valid = ok;
	}
	while (ok && s->at < sv->nidx && CTX_AT(s->at) < ctx) s->at++;
	if (!ok || s->at >= sv->nidx || CTX_AT(s->at) != ctx) return ok;
	if (!(e = hv_window_get(&s->wi, sv->pidx + 12 * s->at + 4, 8))) return false;
	*from = hv_le64(e);
	if (s->at + 1 < sv->nidx) {
		if (!(e = hv_window_get(&s->wi, sv->pidx + 12 * (s->at + 1) + 4, 8))) return false;
		*to = hv_le64(e);
	} else {
		*to = sv->nval;
	}
	return ok;
#undef CTX_AT
#undef CTX_PROBE
}

/* The summary profile's values of one context: readable, statistic ids
 * known and increasing, values finite (else their own rules fired, and the
 * context is not compared: which statistic a value is cannot be told). */
static bool run_sound(hpctk_vsum *s, uint64_t from, uint64_t to)
{
	const hpctk_vmodel *vm = s->vm;
	uint32_t prev = 0;
	for (uint64_t j = from; j < to; j++) {
		const uint8_t *v = hv_window_get(&s->wv, s->sv->pval + 10 * j, 10);
		if (!v) return false;
		uint16_t id = hv_le16(v);
		if (!hpctk_vstat_known(vm, id) || !isfinite(hv_lef64(v + 2))) return false;
		if (j > from && id <= prev) return false;
		prev = id;
	}
	return true;
}

/* The same over a run in memory (n values at p). */
static bool run_sound_at(const hpctk_vmodel *vm, const uint8_t *p, uint64_t n)
{
	uint32_t prev = 0;
	for (uint64_t j = 0; j < n; j++, p += 10) {
		uint16_t id = hv_le16(p);
		if (!hpctk_vstat_known(vm, id) || !isfinite(hv_lef64(p + 2))) return false;
		if (j && id <= prev) return false;
		prev = id;
	}
	return true;
}

/* The summary profile's run of ctx: found_ok when readable and sound (a
 * context without one compares every statistic with 0), and [from, to). */
static void locate(hpctk_vsum *s, uint32_t ctx)
{
	s->found_ok = find_run(s, ctx, &s->from, &s->to);
	if (!s->found_ok) return;
	/* The run in one piece when the window holds it (it is short: one
	 * value per statistic), else value by value. */
	const uint64_t nrun = s->to - s->from;
	const uint8_t *run = nrun && nrun <= s->wv.cap / 10
				     ? hv_window_get(&s->wv, s->sv->pval + 10 * s->from, (size_t)(10 * nrun))
				     : NULL;
	s->found_ok = run ? run_sound_at(s->vm, run, nrun) : run_sound(s, s->from, s->to);
}

/* At a context's first value: locate's work, and in the same pass the
 * value found of each statistic (found[k].f, valid when found[k].stamp is
 * stamp: nothing to clear) and how many checked statistics have one
 * (nfound), for the comparisons made as the runs are folded (fold). A
 * value costs one table lookup (sid_code: known, listed once, checked). */
static void prepare(hpctk_vsum *s, uint32_t ctx)
{
	const hpctk_vmodel *vm = s->vm;
	s->prepared = true;
	s->nfound = 0;
	s->found_ok = find_run(s, ctx, &s->from, &s->to);
	if (!s->found_ok) return;
	if (++s->stamp == 0) {
		for (size_t k = 0; k < vm->nstats; k++) s->found[k].stamp = 0;
		s->stamp = 1;
	}
	const uint32_t stamp = s->stamp, nsid = vm->nsid;
	const uint32_t *code = s->sid_code;
	struct hpctk_vsum_found *found = s->found;
	size_t nfound = 0;
	const uint64_t from = s->from, nrun = s->to - from;
	const uint64_t pval = s->sv->pval;
	const uint8_t *run = nrun && nrun <= s->wv.cap / 10 ? hv_window_get(&s->wv, pval + 10 * from, (size_t)(10 * nrun))
							      : NULL;
	/* run_sound's conditions: known (below nsid and listed), finite,
	 * increasing; one value at v */
#define FOUND_ONE(v)                                                                    \
	do {                                                                            \
		const uint16_t id = hv_le16(v);                                         \
		const uint32_t k = id < nsid ? code[id] : VSID_UNKNOWN;                 \
		const double f = hv_lef64((v) + 2);                                     \
		if (k == VSID_UNKNOWN || !isfinite(f) || (int32_t)id <= prev) {         \
			s->found_ok = false;                                            \
			return;                                                         \
		}                                                                       \
		prev = id;                                                              \
		if (k != VSID_IGNORED) { /* else not compared */                        \
			found[k].f = f;                                                 \
			found[k].stamp = stamp;                                         \
			nfound++;                                                       \
		}                                                                       \
	} while (0)
	int32_t prev = -1;
	if (run) { /* the run in the window (the usual case): no test a value for it */
		for (const uint8_t *v = run, *end = run + 10 * nrun; v != end; v += 10) FOUND_ONE(v);
	} else {
		for (uint64_t j = 0; j < nrun; j++) {
			const uint8_t *v = hv_window_get(&s->wv, pval + 10 * (from + j), 10);
			if (!v) {
				s->found_ok = false;
				return;
			}
			FOUND_ONE(v);
		}
	}
#undef FOUND_ONE
	s->nfound = nfound;
}

/* A statistic whose run was compared as it was folded (fold) is about to
 * take more values (a second run of its metric in the context, or one
 * value by value): the comparison is void, and partial sums are replaced
 * by the sums in file order, its first run read again from cct.db. */
static void uncertify(hpctk_vsum *s, uint32_t k)
{
	hpctk_vsum_acc *a = &s->acc[k];
	s->ncert--;
	s->nfound_cert -= s->found[k].stamp == s->stamp;
	a->cert = false;
	if (!a->part) return;
	const uint32_t n = a->count;
	uint64_t off = a->roff, left = n;
	*a = (hpctk_vsum_acc){0};
	if (!s->wc_ok) s->wc_ok = hv_window_init(&s->wc, s->cct, hpctk_window_cap);
	const uint64_t per = s->wc_ok && s->wc.cap >= 12 ? s->wc.cap / 12 : 1;
	while (left) {
		const uint64_t c = left < per ? left : per;
		const uint8_t *p = s->wc_ok ? hv_window_get(&s->wc, off, (size_t)(12 * c)) : NULL;
		if (!p) {
			s->tainted = true; /* unreadable now: the context is not compared */
			a->count = n;      /* still touched (reset clears it) */
			return;
		}
		fold_clean(a, &s->vm->stats[k], p, c);
		off += 12 * c;
		left -= c;
	}
}

/* Inline in its two callers: the run's copy has `clean` constant. */
static inline __attribute__((always_inline)) void fold(hpctk_vsum *s, uint32_t ctx, uint16_t pid, const uint8_t *vals,
						      uint64_t cnt, bool clean, uint64_t off0)
{
	if (!s->on || cnt == 0) return;
	if (ctx != s->ctx) {
		reset(s); /* a block that ended without hpctk_vsum_block_end: its values are dropped */
		s->ctx = ctx;
	}
	const hpctk_vmodel *vm = s->vm;
	const hpctk_vsumview *sv = s->sv;
	if (hpctk_vkind(vm, pid) == HPCTK_VP_NONE) {
		s->foreign = true;
		if (pid >= vm->npid) return; /* no statistic of it either */
	}
	if (!s->prepared) prepare(s, ctx);
	if (!s->found_ok) return; /* the context is not compared: nothing to fold */
	clean = clean && !sv->is_summary;
	const unsigned need = clean ? s->fuse[pid] : 0;
	/* the checked statistics of pid (plan: no test for the others) */
	const uint32_t *p = s->plan + s->plan_first[pid], *const pend = s->plan + s->plan_first[pid + 1];
	if (need) {
		/* The hpctk_vfused statistics, fresh: fold_clean's result from nothing,
		 * as the one pass found it (the sums partial: certify, else in
		 * file order), compared at once with the value found (absent:
		 * 0), so that a context whose every statistic agrees ends in
		 * O(1). Anything else (a second run of the metric, another
		 * formula) goes to the loop below. The counters are kept in
		 * locals for the loop and stored once. */
		hpctk_vfused g;
		hpctk_vfuse2_fn[need](vals, cnt, &g);
		const uint32_t c = (uint32_t)cnt, nthreads = sv->nthreads, stamp = s->stamp;
		const bool may_certify = s->cct != NULL;
		size_t nt = s->ntouched, ncert = s->ncert, nfc = s->nfound_cert;
		for (; p < pend; p++) {
			const uint32_t k = *p;
			const uint8_t mode = s->mode[k];
			hpctk_vsum_acc *a = &s->acc[k];
			if (mode < VS_F_SUM1 || a->count) break; /* the general loop below from here */
			s->touched[nt++] = k;
			const bool has = s->found[k].stamp == stamp;
			const double f = has ? s->found[k].f : 0.0;
			bool cert;
			if (mode <= VS_F_SUM2) {
				const bool one = mode == VS_F_SUM1;
				const double sum = one ? g.s1 : g.s2, mag = one ? g.a1 : g.s2;
				if (may_certify && certify(sum, mag, f, cnt)) {
					*a = (hpctk_vsum_acc){sum, mag, c, true, true, off0};
					cert = true;
				} else {
					hpctk_vfused e;
					hpctk_vfuse_fn[one ? HPCTK_VF_SUM1 : HPCTK_VF_SUM2](vals, cnt, &e);
					*a = (hpctk_vsum_acc){one ? e.s1 : e.s2, one ? e.a1 : e.s2, c, false, false, 0};
					double x, y;
					cert = a->cert = agrees(&vm->stats[k], a, nthreads, f, &x, &y);
				}
			} else {
				*a = (hpctk_vsum_acc){mode == VS_F_MIN ? g.mn : g.mx, 0.0, c, false, false, 0};
				double x, y;
				cert = a->cert = agrees(&vm->stats[k], a, nthreads, f, &x, &y);
			}
			ncert += cert;
			nfc += cert & has;
		}
		s->ntouched = nt;
		s->ncert = ncert;
		s->nfound_cert = nfc;
	}
	for (; p < pend; p++) {
		const uint32_t k = *p;
		const uint8_t mode = s->mode[k];
		const hpctk_vstat *st = &vm->stats[k];
		hpctk_vsum_acc *a = &s->acc[k];
		if (a->cert) uncertify(s, k);
		if (need && mode >= VS_F_SUM1 && !a->count) {
			/* a hpctk_vfused one after the loop above stopped: in file order,
			 * compared at the block's end */
			hpctk_vfused g;
			hpctk_vfuse_fn[HPCTK_VF_SUM1 | HPCTK_VF_SUM2 | HPCTK_VF_MIN | HPCTK_VF_MAX](vals, cnt, &g);
			s->touched[s->ntouched++] = k;
			const uint32_t c = (uint32_t)cnt;
			*a = mode == VS_F_SUM1	 ? (hpctk_vsum_acc){g.s1, g.a1, c, false, false, 0}
			     : mode == VS_F_SUM2 ? (hpctk_vsum_acc){g.s2, g.s2, c, false, false, 0}
			     : mode == VS_F_MIN	 ? (hpctk_vsum_acc){g.mn, 0.0, c, false, false, 0}
						 : (hpctk_vsum_acc){g.mx, 0.0, c, false, false, 0};
			continue;
		}
		if (clean && mode != VS_SLOW) { /* (a hpctk_vfused one: a second run of its metric) */
			if (!a->count) s->touched[s->ntouched++] = k;
			fold_clean(a, st, vals, cnt);
			continue;
		}
		double acc = a->acc, mag = a->mag;
		uint32_t count = a->count;
		for (uint64_t i = 0; i < cnt; i++) {
			const uint8_t *v = vals + 12 * i;
			if (!thread(sv, hv_le32(v))) continue; /* the summary, or out of range: their own rules */
			double x = hv_lef64(v + 4);
			if (!isfinite(x)) {
				s->tainted = true; /* its own rule fired */
				continue;
			}
			x = apply(&st->f, x);
			if (count == 0) acc = x;
			else if (st->combine == 0) acc += x;
			else if (st->combine == 1) acc = x < acc ? x : acc;
			else acc = x > acc ? x : acc;
			mag += st->combine == 0 ? fabs(x) : 0;
			count++;
		}
		if (count && !a->count) s->touched[s->ntouched++] = k;
		*a = (hpctk_vsum_acc){acc, mag, count, false, false, 0};
	}
}

void hpctk_vsum_run(hpctk_vsum *s, uint32_t ctx, uint16_t pid, const uint8_t *vals, uint64_t cnt, uint64_t off0)
{
	fold(s, ctx, pid, vals, cnt, true, off0);
}

void hpctk_vsum_value(hpctk_vsum *s, uint32_t ctx, uint16_t pid, uint32_t prof, uint64_t bits)
{
	uint8_t raw[12];
	hv_put_le32(raw, prof);
	hv_put_le64(raw + 4, bits);
	fold(s, ctx, pid, raw, 1, false, 0);
}

void hpctk_vsum_keep(hpctk_vsum *s, const hpctk_vsum_miss *m)
{
	/* differences are kept until the transpose is known: bounded by
	 * cct.db's contexts times meta.db's statistics, and only as many as
	 * there are wrong values */
	if (!HV_GROW(s->miss, s->miss_cap, s->nmiss + 1, 16)) {
		s->oom = true;
		return;
	}
	s->miss[s->nmiss++] = *m;
}

/* One statistic of context ctx: its accumulator against the value found
 * (absent: 0). True when they agree (the caller counts the evaluations);
 * a difference is kept. */
static inline bool compare(hpctk_vsum *s, uint32_t ctx, uint32_t k, bool has_found, double f, uint64_t off)
{
	const hpctk_vstat *st = &s->vm->stats[k];
	const hpctk_vsum_acc *u = &s->acc[k];
	if (u->cert) return true; /* agreed with this very f as it was folded (fold) */
	double a, b;
	if (agrees(st, u, s->sv->nthreads, f, &a, &b)) return true;
	hpctk_vsum_keep(s, &(hpctk_vsum_miss){ctx, st->stat, has_found, u->count, f, a, b, off});
	return false;
}

void hpctk_vsum_block_end(hpctk_vsum *s, uint32_t ctx, bool whole)
{
	if (!s->on) return;
	if (ctx != s->ctx) {
		reset(s);
		s->ctx = ctx;
	}
	if (!whole || s->tainted) {
		reset(s);
		s->ctx = UINT32_MAX;
		return;
	}
	const hpctk_vmodel *vm = s->vm;
	const hpctk_vsumview *sv = s->sv;
	if (!s->prepared) locate(s, ctx); /* (no value folded in the block) */
	if (!s->found_ok) {
		reset(s);
		s->ctx = UINT32_MAX;
		return;
	}
	/* Every statistic folded agreed as it was folded, and every checked
	 * statistic with a value found is one of them: what the loops below
	 * would find, each comparison passing. */
	if (s->prepared && s->ncert == s->ntouched && s->nfound_cert == s->nfound) {
		hv_eval_n(s->r, HV_R_HPCTKDB_VALUES_SUMMARY, s->ntouched);
		reset(s);
		s->ctx = UINT32_MAX;
		return;
	}
	const uint64_t from = s->from, to = s->to, nrun = to - from;
	const uint8_t *run = nrun && nrun <= s->wv.cap / 10 ? hv_window_get(&s->wv, sv->pval + 10 * from, (size_t)(10 * nrun))
							      : NULL;
	/* Statistics with a value found, then those with thread values only;
	 * a compared accumulator's count is cleared so it is not compared twice. */
	uint64_t pass = 0;
	for (uint64_t j = from; j < to; j++) {
		const uint8_t *v = run ? run + 10 * (j - from) : hv_window_get(&s->wv, sv->pval + 10 * j, 10);
		if (!v) break; /* read by run_sound just now: only a failing re-read */
		uint32_t k = vm->stat_of[hv_le16(v)];
		if (k >= HPCTK_VNONE - 1) continue; /* twice in meta.db: its unique rule fired */
		if (s->mode[k] == VS_SKIP) continue;
		pass += compare(s, ctx, k, true, hv_lef64(v + 2), sv->pval + 10 * j);
		if (!s->acc[k].count) s->touched[s->ntouched++] = k; /* so that reset clears the mark */
		s->acc[k].count = UINT32_MAX; /* compared */
	}
	for (size_t i = 0; i < s->ntouched; i++) {
		uint32_t k = s->touched[i];
		if (s->acc[k].count != UINT32_MAX) pass += compare(s, ctx, k, false, 0.0, 0);
	}
	hv_eval_n(s->r, HV_R_HPCTKDB_VALUES_SUMMARY, pass);
	reset(s);
	s->ctx = UINT32_MAX;
}

/* --- after the walks ------------------------------------------------------------- */

void hpctk_vsum_report(const hpctk_vmodel *vm, hv_report *r, const char *file, uint32_t nthreads,
		       const hpctk_vsum_miss *m, size_t n, bool (*skip)(const void *arg, uint32_t ctx), const void *arg)
{
	static const char *const comb[] = {"sum", "min", "max"};
	for (size_t i = 0; i < n; i++) {
		const hpctk_vsum_miss *u = &m[i];
		if (skip && skip(arg, u->ctx)) continue; /* cct.db is not profile.db's transpose there */
		uint32_t k = vm->stat_of[u->stat];
		if (k >= HPCTK_VNONE - 1) continue;
		const hpctk_vstat *s = &vm->stats[k];
		hv_eval(r, HV_R_HPCTKDB_VALUES_SUMMARY, false);
		if (!hv_stores(r, HV_R_HPCTKDB_VALUES_SUMMARY)) { /* counted only: no path to name */
			hv_count_failure(r, HV_R_HPCTKDB_VALUES_SUMMARY, -1, file, u->has_found ? u->off : 0);
			continue;
		}
		char path[HV_PATH_MAX], where[200];
		uint32_t node = hpctk_vmodel_node(vm, u->ctx);
		if (node != HPCTK_VNONE) hpctk_vmodel_path(vm, node, where, sizeof where);
		else snprintf(where, sizeof where, "(elided from meta.db)");
		snprintf(path, sizeof path, "profile.db/summary/ctx[%u]/metric[%u]", u->ctx, u->stat);
		hv_emit(r, HV_R_HPCTKDB_VALUES_SUMMARY, file, u->has_found ? u->off : 0, u->has_found ? 10 : 0, path,
			"ctx %s (ctxId %u): metric \"%s\" %s statistic %s(%s) is %.9g%s, but over the %llu thread profiles "
			"with a value in cct.db (of %u) it is %.9g%s",
			where, u->ctx, vm->pool + vm->metric_name[s->metric], vm->pool + vm->scope_name[s->pid],
			comb[s->combine > 2 ? 0 : s->combine], vm->pool + s->formula, u->found, u->has_found ? "" : " (absent)",
			(unsigned long long)u->count, nthreads, u->a, u->b != u->a ? " (or counting the others as formula(0))" : "");
	}
}
