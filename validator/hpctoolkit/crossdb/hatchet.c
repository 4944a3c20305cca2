/* hatchet 1.4.0's exclusive column (hpctkdb.metrics.reader-hazard-hatchet-scope):
 * hatchet's CCTReader names a column by the metric alone for every scope
 * that is not the taxonomy's inclusive standard scope, and writes each
 * value of a context's cct.db block into its (context, profile) cell as it
 * reads them, so the cell keeps the value of the last such scope that has
 * one there, not the exclusive scope's.
 *
 * Checked as cct.db's values stream by, context by context: a metric whose
 * scopes share that column is a group; its values at one context are the
 * consecutive runs of its propMetricIds (cct.db lists a block's metrics in
 * increasing id order, and every metric's ids form one stretch of that
 * order: checked once, else nothing is checked), so one table indexed by
 * profile (bounded by profile.db's {PI} array) holds the group being read.
 * Each value decides its cell as the cell stands (hatchet's value against
 * the exclusive scope's), so a group's count is known when the next group
 * or the block's end comes, with no second pass over its cells; the order
 * and places of the cells are kept only until a unit has found its first
 * one (the one the note names). A database without such a metric costs one
 * table lookup per run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "core/hv_int.h"
#include "crossdb.h"
#include "hpctoolkit/values/values.h"

typedef struct hz_cell {
	uint64_t last;         /* the value hatchet keeps, as bits (kept while the first is sought) */
	uint64_t exc;          /* the exclusive scope's value as bits; 0 (the bits of 0.0) where it has none */
	uint64_t off;          /* the kept value's {Val} entry in cct.db (kept while the first is sought) */
	uint32_t stamp;        /* the group reading this cell (hpctk_hzcol.stamp) */
	uint16_t pid;          /* the kept value's propMetricId (kept while the first is sought) */
	uint8_t has_exc;
	uint8_t bad;           /* hatchet shows another scope's value here, as the cell stands */
} hz_cell;

static inline double bits_f64(uint64_t b)
{
	double v;
	memcpy(&v, &b, sizeof v);
	return v;
}

typedef struct hpctk_hzcol {
	hz_cell *cell;         /* per profIndex below nprof, made at the first value of a group */
	uint32_t *touched;     /* the profiles the open group wrote, in the order it first did (when `track`) */
	uint32_t nt, nprof, stamp;
	uint64_t nbad;         /* the open group's cells whose `bad` is set */
	bool open, oom, track;
	uint32_t ctx;
	uint16_t grp;          /* the open group + 1 */
	uint32_t read_ctx;     /* the context hz_read answered last, and its answer */
	bool read_valid, read_ok;
} hpctk_hzcol;
void hpctk_xdb_hatchet_init(hpctk_xdb *x, const uint8_t *role)
{
	const hpctk_vmodel *vm = x->meta && x->meta->values ? x->meta->values : NULL;
	if (!role || !vm || !x->meta->ctx_ok || !x->prof || !x->cct || x->prof->pi.n < 2 || vm->npid == 0) return;
	uint32_t nm = vm->nmetrics;
	uint32_t *exc = hv_malloc((nm ? nm : 1) * sizeof *exc), *others = hv_calloc(nm ? nm : 1, sizeof *others);
	uint16_t *grp = hv_calloc(vm->npid, sizeof *grp), *gexc = NULL;
	uint8_t *closed = NULL;
	bool ok = exc && others && grp;
	for (uint32_t k = 0; ok && k < nm; k++) exc[k] = HPCTK_VNONE;
	/* each metric's exclusive scope (the first of that name) and how many others share its column */
	for (uint32_t p = 0; ok && p < vm->npid; p++) {
		uint32_t k = vm->metric_of[p];
		if (role[p] < HPCTK_HATCHET_EXC || k >= nm) continue;
		if (role[p] == HPCTK_HATCHET_EXC && exc[k] == HPCTK_VNONE) exc[k] = p;
		else others[k]++;
	}
	uint32_t ng = 0;
	for (uint32_t k = 0; ok && k < nm; k++)
		if (exc[k] != HPCTK_VNONE && others[k] && ng < UINT16_MAX - 1) others[k] = ++ng; /* its group + 1 */
		else others[k] = 0;
	ok = ok && ng > 0 && (gexc = hv_malloc(ng * sizeof *gexc)) != NULL && (closed = hv_calloc(ng, 1)) != NULL;
	for (uint32_t k = 0; ok && k < nm; k++)
		if (others[k]) gexc[others[k] - 1] = (uint16_t)exc[k];
	/* every group's ids one stretch of the id order (hpcprof hands out a
	 * metric's ids from one counter), else the reading below would not hold */
	uint32_t last = 0;
	for (uint32_t p = 0; ok && p < vm->npid; p++) {
		uint32_t k = vm->metric_of[p];
		uint32_t g = role[p] >= HPCTK_HATCHET_EXC && k < nm ? others[k] : 0;
		if (!g || g == last) continue;
		if (closed[g - 1]) ok = false;
		if (last) closed[last - 1] = 1;
		last = g;
	}
	for (uint32_t p = 0; ok && p < vm->npid; p++) {
		uint32_t k = vm->metric_of[p];
		grp[p] = (uint16_t)(role[p] >= HPCTK_HATCHET_EXC && k < nm ? others[k] : 0);
	}
	free(exc);
	free(others);
	free(closed);
	if (!ok) {
		free(grp);
		free(gexc);
		return;
	}
	x->hz_grp = grp;
	x->hz_exc = gexc;
	x->hz_npid = vm->npid;
	x->hz_ngrp = ng;
}

void hpctk_xdb_hatchet_free(hpctk_xdb *x)
{
	free(x->hz_grp);
	free(x->hz_exc);
	x->hz_grp = x->hz_exc = NULL;
	x->hz_npid = x->hz_ngrp = 0;
}

void hpctk_xfile_hatchet_begin(hpctk_xfile *f)
{
	if (!f->x->hz_grp || f->hz) return;
	if (!(f->hz = hv_calloc(1, sizeof *f->hz))) {
		f->alloc_failed = true;
		return;
	}
	f->hz->nprof = f->x->prof->pi.n;
}

/* The open group's verdict. Each cell's `bad` is kept up to date as its
 * values arrive (hz_put), so the group's count is at hand when it closes;
 * its cells are walked only for the first one a unit finds, and only then
 * were their order and places kept (`track`). */
static void hz_close(hpctk_xfile *f)
{
	hpctk_hzcol *h = f->hz;
	if (!h->open) return;
	h->open = false;
	if (h->nbad && f->hz_count == 0 && h->track) {
		uint16_t e = f->x->hz_exc[h->grp - 1];
		for (uint32_t i = 0; i < h->nt; i++) {
			const hz_cell *c = &h->cell[h->touched[i]];
			if (!c->bad) continue;
			f->hz_first = (hpctk_hzfirst){.ctx = h->ctx, .prof = h->touched[i], .pid = c->pid, .exc = e,
						      .has_exc = c->has_exc, .v = bits_f64(c->last), .x = bits_f64(c->exc), .off = c->off};
			break;
		}
	}
	f->hz_count += h->nbad;
	h->nbad = 0;
	h->nt = 0;
}

static bool hz_open_slow(hpctk_xfile *f, uint32_t ctx, uint16_t g)
{
	hpctk_hzcol *h = f->hz;
	hz_close(f);
	if (h->oom) return false;
	if (!h->cell) {
		h->cell = hv_calloc(h->nprof, sizeof *h->cell);
		h->touched = hv_malloc((size_t)h->nprof * sizeof *h->touched);
		if (!h->cell || !h->touched) {
			h->oom = f->alloc_failed = true;
			return false;
		}
	}
	if (++h->stamp == 0) { /* 2^32 groups read: the stamps start again */
		for (uint32_t i = 0; i < h->nprof; i++) h->cell[i].stamp = 0;
		h->stamp = 1;
	}
	h->open = true;
	h->ctx = ctx;
	h->grp = g;
	/* once the unit has its first cell, only the count is wanted */
	h->track = f->hz_count == 0;
	return true;
}

static inline bool hz_open(hpctk_xfile *f, uint32_t ctx, uint16_t g)
{
	const hpctk_hzcol *h = f->hz;
	if (h->open && h->ctx == ctx && h->grp == g) return true;
	return hz_open_slow(f, ctx, g);
}

/* hatchet reads the blocks of the contexts of meta.db's tree only: not the
 * global context 0, not the elided ones. Asked once per context. */
static inline bool hz_read(const hpctk_xdb *x, hpctk_hzcol *h, uint32_t ctx)
{
	if (h->read_valid && h->read_ctx == ctx) return h->read_ok;
	h->read_valid = true;
	h->read_ctx = ctx;
	return h->read_ok = ctx != 0 && (x->ctx_map ? ctx <= x->ctx_map_max && hv_bit_get(x->ctx_map, ctx)
						  : hpctk_idset_has(&x->meta->ctx_ids, ctx));
}

/* The cell of profile prof in the open group, fresh when the group had not
 * written it yet; NULL outside [1, nprof) (left to hpctkdb.cct.prof-in-range
 * and the summary rules). */
static inline __attribute__((always_inline)) hz_cell *hz_cell_at(hpctk_hzcol *h, uint32_t prof, const bool track)
{
	if (prof - 1u >= h->nprof - 1u) return NULL; /* prof 0, or nprof and above (nprof >= 2) */
	hz_cell *c = &h->cell[prof];
	if (c->stamp != h->stamp) {
		c->stamp = h->stamp;
		c->exc = 0;
		c->has_exc = 0;
		c->bad = 0;
		if (track) h->touched[h->nt++] = prof;
	}
	return c;
}

/* One value into its cell: hatchet keeps the last one, and shows another
 * scope's value where the cell's last scope is not the exclusive one and
 * its value is not that scope's (0.0 where it has none), compared as
 * doubles (NaN equal to NaN). */
static inline __attribute__((always_inline)) void hz_put(hpctk_hzcol *h, bool is_exc, uint16_t pid, uint32_t prof,
							 uint64_t bits, uint64_t off, const bool track)
{
	hz_cell *c = hz_cell_at(h, prof, track);
	if (!c) return;
	c->last = bits;
	if (track) {
		c->pid = pid;
		c->off = off;
	}
	uint8_t bad = 0;
	if (is_exc) {
		c->exc = bits;
		c->has_exc = 1;
	} else {
		double v = bits_f64(bits), want = bits_f64(c->exc);
		bad = !(v == want || (v != v && want != want));
	}
	h->nbad += (uint64_t)bad - c->bad;
	c->bad = bad;
}

/* A clean run (values.h: every value finite and non-zero, profIndex
 * increasing): a finite non-zero double equals another double exactly when
 * their bits are equal (0.0 and -0.0 or NaN on the other side differ in
 * both), so the comparison is of bits; the scope is the run's, tested once. */
static inline __attribute__((always_inline)) void hz_run(hpctk_hzcol *h, bool is_exc, uint16_t pid, const uint8_t *vals,
							 uint64_t cnt, uint64_t off0, const bool track)
{
	uint64_t nbad = h->nbad;
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *p = vals + 12 * i;
		hz_cell *c = hz_cell_at(h, hv_le32(p), track);
		if (!c) continue;
		uint64_t bits = hv_le64(p + 4);
		if (track) {
			c->last = bits;
			c->pid = pid;
			c->off = off0 + 12 * i;
		}
		uint8_t bad = is_exc ? 0 : bits != c->exc;
		if (is_exc) {
			c->exc = bits;
			c->has_exc = 1;
		}
		nbad += (uint64_t)bad - c->bad;
		c->bad = bad;
	}
	h->nbad = nbad;
}

void hpctk_xfile_hatchet_run(hpctk_xfile *f, uint32_t ctx, uint16_t pid, const uint8_t *vals, uint64_t cnt, uint64_t off0)
{
	const hpctk_xdb *x = f->x;
	uint16_t g = pid < x->hz_npid ? x->hz_grp[pid] : 0;
	hpctk_hzcol *h = f->hz;
	if (!g || !hz_read(x, h, ctx) || !hz_open(f, ctx, g)) return;
	bool is_exc = pid == x->hz_exc[g - 1];
	if (h->track) hz_run(h, is_exc, pid, vals, cnt, off0, true);
	else if (is_exc) hz_run(h, true, pid, vals, cnt, off0, false);
	else hz_run(h, false, pid, vals, cnt, off0, false);
}

void hpctk_xfile_hatchet_value(hpctk_xfile *f, uint32_t ctx, uint16_t pid, uint32_t prof, uint64_t bits, uint64_t off)
{
	const hpctk_xdb *x = f->x;
	uint16_t g = pid < x->hz_npid ? x->hz_grp[pid] : 0;
	hpctk_hzcol *h = f->hz;
	if (!g || !hz_read(x, h, ctx) || !hz_open(f, ctx, g)) return;
	bool is_exc = pid == x->hz_exc[g - 1];
	if (h->track) hz_put(h, is_exc, pid, prof, bits, off, true);
	else hz_put(h, is_exc, pid, prof, bits, off, false);
}

void hpctk_xfile_hatchet_block_end(hpctk_xfile *f) { hz_close(f); }

void hpctk_xfile_hatchet_done(hpctk_xfile *f)
{
	if (!f->hz) return;
	hz_close(f);
	free(f->hz->cell);
	free(f->hz->touched);
	free(f->hz);
	f->hz = NULL;
}

void hpctk_xdb_report_hatchet(const hpctk_xdb *x, hv_report *r, const hpctk_xfile *cct)
{
	if (!x->hz_grp) return;
	if (hv_eval(r, HV_R_HPCTKDB_METRICS_READER_HAZARD_HATCHET_SCOPE, cct->hz_count == 0)) return;
	const hpctk_vmodel *vm = x->meta->values;
	const hpctk_hzfirst *h = &cct->hz_first;
	char path[HV_PATH_MAX], want[80];
	snprintf(path, sizeof path, "cct.db/ctx[%u]/valueBlock/value", h->ctx);
	if (h->has_exc) snprintf(want, sizeof want, "%.17g", h->x);
	else snprintf(want, sizeof want, "no value");
	hv_emit(r, HV_R_HPCTKDB_METRICS_READER_HAZARD_HATCHET_SCOPE, x->cct->b->name, h->off, 12, path,
		"hatchet 1.4.0 shows another scope in a metric's exclusive column at %llu (context, profile) cells; "
		"first: context %u, profile %u, metric '%.40s': %.17g of propMetricId %u (%.24s, the last cct.db "
		"lists there), not %s of propMetricId %u (%.24s)",
		(unsigned long long)cct->hz_count, h->ctx, h->prof, vm->pool + vm->metric_name[vm->metric_of[h->pid]], h->v,
		h->pid, vm->pool + vm->scope_name[h->pid], want, h->exc, vm->pool + vm->scope_name[h->exc]);
}
