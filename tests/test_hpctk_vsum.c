/* The summary-statistics checker (hpctoolkit/values/summary.c) driven directly on a
 * hand-made model, summary profile and cct.db: a context's statistics are
 * compared as its run is folded, sums from partial accumulators; when the
 * metric's values come in more than one piece (a run split by the window,
 * or a value by value after a run), the early comparison must be dropped
 * and the sums redone in file order, so that what is reported is exactly
 * the file-order result. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "hpctoolkit/values/values.h"
#include "tap.h"
#include "testlib.h"

#define CTX 5
#define NTHREADS 30
#define NV 22 /* values of the context: threads 1..22 */

/* pid 1 (a point scope), statistics 1..4: sum($$), sum($$^2), min($$), max($$). */
static hpctk_vmodel *model(void)
{
	hpctk_vmodel *vm = calloc(1, sizeof *vm);
	if (!vm || !hpctk_vmodel_tables(vm, 2, 5)) abort();
	vm->pool = calloc(16, 1);
	memcpy(vm->pool, "m\0p\0$$", 7);
	vm->metric_name = calloc(1, sizeof *vm->metric_name);
	vm->nmetrics = 1;
	vm->kind[1] = HPCTK_VP_POINT;
	vm->scope_name[1] = 2;
	vm->stats = calloc(4, sizeof *vm->stats);
	vm->nstats = 4;
	const uint8_t combine[4] = {0, 0, 1, 2};
	const double power[4] = {1, 2, 1, 1};
	vm->stat_of[0] = HPCTK_VNONE;
	for (uint16_t k = 0; k < 4; k++) {
		vm->stats[k] = (hpctk_vstat){.pid = 1, .stat = (uint16_t)(k + 1), .combine = combine[k],
					     .f = {true, 1.0, power[k]}, .formula = 4};
		vm->stat_of[k + 1] = k;
		vm->stat_known[0] |= (uint8_t)(1u << (k + 1));
	}
	vm->first_stat[2] = 4;
	return vm;
}

/* The summary profile's {Idx} (one context) and {Val} (its four values). */
static uint8_t prof[12 + 40];
static hv_blob prof_blob;

static hpctk_vsumview view(const double found[4])
{
	hv_put_le32(prof, CTX);
	hv_put_le64(prof + 4, 0);
	for (int k = 0; k < 4; k++) {
		hv_put_le16(prof + 12 + 10 * k, (uint16_t)(k + 1));
		uint64_t bits;
		memcpy(&bits, &found[k], 8);
		hv_put_le64(prof + 12 + 10 * k + 2, bits);
	}
	prof_blob = hv_blob_from_memory("profile.db", prof, sizeof prof);
	return (hpctk_vsumview){.ok = true, .b = &prof_blob, .pidx = 0, .nidx = 1, .pval = 12, .nval = 4,
				.nthreads = NTHREADS, .nprof = NTHREADS + 1};
}

/* The context's values: 1, then twenty of 1e-16 (lost one by one in file
 * order, not when some are added together first), then `last`. */
static double vals[NV];
static uint8_t cct[12 * NV];

/* The four statistics of the first n values, in file order (as hpcprof
 * adds them, and as the checker must report them). */
static void stats(uint32_t n, double out[4])
{
	out[0] = out[1] = 0.0;
	out[2] = out[3] = vals[0];
	for (uint32_t i = 0; i < n; i++) {
		out[0] = i ? out[0] + vals[i] : vals[i];
		out[1] = i ? out[1] + vals[i] * vals[i] : vals[i] * vals[i];
		out[2] = vals[i] < out[2] ? vals[i] : out[2];
		out[3] = vals[i] > out[3] ? vals[i] : out[3];
	}
}

/* Fold the values as `how` says (0: one run; 1: a run of all but the last,
 * then a run of one; 2: the same, the last value by value), then end the
 * block. */
static void fold(hpctk_vsum *s, const hpctk_vmodel *vm, const hpctk_vsumview *sv, hv_report *r, int how)
{
	static hv_blob cct_blob;
	for (uint32_t i = 0; i < NV; i++) {
		hv_put_le32(cct + 12 * i, i + 1);
		uint64_t bits;
		memcpy(&bits, &vals[i], 8);
		hv_put_le64(cct + 12 * i + 4, bits);
	}
	cct_blob = hv_blob_from_memory("cct.db", cct, sizeof cct);
	hv_report_init(r, "db", 100);
	hpctk_vsum_init(s, vm, sv, r, &cct_blob);
	CHECK(s->on, "the checker is on");
	if (how == 0) {
		hpctk_vsum_run(s, CTX, 1, cct, NV, 0);
	} else {
		hpctk_vsum_run(s, CTX, 1, cct, NV - 1, 0);
		const uint64_t last = 12 * (NV - 1);
		if (how == 1) hpctk_vsum_run(s, CTX, 1, cct + last, 1, last);
		else hpctk_vsum_value(s, CTX, 1, NV, hv_le64(cct + last + 4));
	}
	hpctk_vsum_block_end(s, CTX, true);
}

int main(void)
{
	hpctk_vmodel *vm = model();
	const char *how_name[3] = {"one run", "two runs", "a run and a value"};
	/* last 0.5: the sums of all values differ from those of all but the
	 * last (min and max do not); last 1e-17: min differs (the sums are
	 * within the tolerance) */
	const double lasts[2] = {0.5, 1e-17};
	const int differ[2][4] = {{1, 1, 0, 0}, {0, 0, 1, 0}};
	for (int l = 0; l < 2; l++) {
		vals[0] = 1.0;
		for (int i = 1; i < NV - 1; i++) vals[i] = 1e-16;
		vals[NV - 1] = lasts[l];
		double all[4], early[4];
		stats(NV, all);
		stats(NV - 1, early);
		CHECK(all[0] != early[0] || l == 1, "the test's own sums differ");
		int ndiffer = 0;
		for (int k = 0; k < 4; k++) ndiffer += differ[l][k];
		for (int how = 0; how < 3; how++) {
			/* the right values: the four statistics agree */
			hpctk_vsumview sv = view(all);
			hpctk_vsum s;
			hv_report r;
			fold(&s, vm, &sv, &r, how);
			CHECK(r.evaluated[HV_R_HPCTKDB_VALUES_SUMMARY] == 4 && s.nmiss == 0,
			      "last %g, %s, right values: %llu evaluations passed (want 4), %zu differences (want 0)", lasts[l],
			      how_name[how], (unsigned long long)r.evaluated[HV_R_HPCTKDB_VALUES_SUMMARY], s.nmiss);
			hpctk_vsum_free(&s);
			hv_report_free(&r);
			/* all but the last value's statistics: what the first run
			 * alone agrees with */
			sv = view(early);
			fold(&s, vm, &sv, &r, how);
			CHECK(r.evaluated[HV_R_HPCTKDB_VALUES_SUMMARY] == (uint64_t)(4 - ndiffer) && s.nmiss == (size_t)ndiffer,
			      "last %g, %s, early statistics: %llu passed (want %d), %zu differences (want %d)", lasts[l],
			      how_name[how], (unsigned long long)r.evaluated[HV_R_HPCTKDB_VALUES_SUMMARY], 4 - ndiffer,
			      s.nmiss, ndiffer);
			for (size_t i = 0; i < s.nmiss; i++) {
				const hpctk_vsum_miss *m = &s.miss[i];
				int k = m->stat - 1;
				bool known = k >= 0 && k < 4;
				CHECK(known && differ[l][k] && m->a == all[k] && m->found == early[k] && m->count == NV &&
					      m->has_found,
				      "last %g, %s: statistic %u expected %.17g (want %.17g, in file order), found %.17g, count %u",
				      lasts[l], how_name[how], m->stat, m->a, known ? all[k] : 0.0, m->found, m->count);
			}
			hpctk_vsum_free(&s);
			hv_report_free(&r);
		}
	}
	hpctk_vmodel_free(vm);
	TAP_DONE();
}
