/* The value checker (validator/hpctoolkit/values_*.c) driven directly: the
 * summary formulas it evaluates and the ones it leaves as notes, and the
 * propagation equations on a hand-made tree, with and without values of
 * contexts elided from meta.db, at and beyond the tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "core/simd.h"
#include "hpctoolkit/values/values.h"
#include "tap.h"
#include "testlib.h"

static void formula(const char *s, bool ok, double scale, double power)
{
	hpctk_vformula f = hpctk_vformula_parse(s);
	CHECK(f.ok == ok, "formula \"%s\": recognised %d, want %d", s, f.ok, ok);
	if (ok && f.ok) CHECK(f.scale == scale && f.power == power, "formula \"%s\": %g * x^%g", s, f.scale, f.power);
}

/* global(0) -> entry 1 -> a 2 (lexical: prop 1) -> b 3 (call: prop 0); pids:
 * 1 point, 2 execution, 3 function (transitive, bit 0). ctxIds: parents
 * first (0, 10, 20, 30: every node's equations wait for the profile's
 * end), or children first as hpcprof numbers them (0, 30, 20, 10: b, a and
 * the entry are evaluated as their own runs end; the global context,
 * always ctxId 0, at the end). */
static hpctk_vmodel *tree(bool children_first)
{
	hpctk_vmodel *vm = calloc(1, sizeof *vm);
	vm->n = 4;
	vm->node = calloc(4, sizeof *vm->node);
	vm->by_ctx = malloc(4 * sizeof *vm->by_ctx);
	const uint32_t parent[4] = {HPCTK_VNONE, 0, 1, 2};
	const uint16_t prop[4] = {0, 0, 1, 0};
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t ctx = children_first && i ? 40 - i * 10 : i * 10;
		vm->node[i] = (hpctk_vnode){.ctx = ctx, .parent = parent[i], .prop = prop[i], .lex = 2, .label = 7 + i};
		vm->by_ctx[children_first && i ? 4 - i : i] = i;
	}
	vm->node[0].lex = HPCTK_VLEX_GLOBAL;
	vm->pool = calloc(64, 1);
	memcpy(vm->pool, "m\0p\0e\0f", 8);
	vm->pool_len = 8;
	vm->metric_name = calloc(1, sizeof *vm->metric_name);
	vm->nmetrics = 1;
	const uint8_t kind[4] = {0, HPCTK_VP_POINT, HPCTK_VP_EXEC, HPCTK_VP_TRANS};
	if (!hpctk_vmodel_tables(vm, 4, 0)) abort(); /* zeroed: no statistics */
	for (uint16_t p = 1; p <= 3; p++) {
		vm->kind[p] = kind[p];
		vm->has_point[p] = true;
		vm->point_of[p] = 1;
		vm->scope_name[p] = 2 * p;
	}
	if (!hpctk_vmodel_index(vm)) abort();
	return vm;
}

/* Thread profile 1: raw values r[node], execution e[node], function f[node]
 * (0 = absent), in ctxId order, plus an elided context (ctxId 99) with raw
 * value `el`; `again`: node 3's run once more at the end (out of order). */
static hv_report run_again(hpctk_vmodel *vm, const double r[4], const double e[4], const double f[4], double el,
			   bool again)
{
	hv_report rep;
	hv_report_init(&rep, "t", 100);
	hpctk_vcheck c;
	hpctk_vcheck_init(&c, vm, &rep, NULL, "profile.db");
	for (uint32_t i = 0; i < 4u + (again ? 1u : 0u); i++) {
		uint32_t n = i < 4 ? vm->by_ctx[i] : 3;
		const double *col[3] = {r, e, f};
		for (uint16_t p = 1; p <= 3; p++) {
			double v = col[p - 1][n];
			if (v == 0) continue;
			uint64_t bits;
			memcpy(&bits, &v, 8);
			hpctk_vcheck_value(&c, 1, false, vm->node[n].ctx, p, bits, 100 + n * 30 + p * 10);
		}
	}
	if (el != 0) {
		uint64_t bits;
		memcpy(&bits, &el, 8);
		hpctk_vcheck_value(&c, 1, false, 99, 1, bits, 500);
	}
	hpctk_vcheck_finish(&c);
	hpctk_vcheck_free(&c);
	return rep;
}

static hv_report run(hpctk_vmodel *vm, const double r[4], const double e[4], const double f[4], double el)
{
	return run_again(vm, r, e, f, el, false);
}

static void expect(hpctk_vmodel *vm, const char *what, const double r[4], const double e[4], const double f[4],
		   double el, unsigned exec_fail, unsigned trans_fail)
{
	hv_report rep = run(vm, r, e, f, el);
	CHECK(rep.failed[HV_R_HPCTKDB_VALUES_EXECUTION] == exec_fail, "%s: execution failures %llu, want %u", what,
	      (unsigned long long)rep.failed[HV_R_HPCTKDB_VALUES_EXECUTION], exec_fail);
	CHECK(rep.failed[HV_R_HPCTKDB_VALUES_TRANSITIVE] == trans_fail, "%s: transitive failures %llu, want %u", what,
	      (unsigned long long)rep.failed[HV_R_HPCTKDB_VALUES_TRANSITIVE], trans_fail);
	CHECK(hv_report_counts_consistent(&rep), "%s: counts consistent", what);
	if (rep.failed[HV_R_HPCTKDB_VALUES_EXECUTION] != exec_fail ||
	    rep.failed[HV_R_HPCTKDB_VALUES_TRANSITIVE] != trans_fail)
		tl_dump(&rep);
	hv_report_free(&rep);
}

int main(void)
{
	formula("$$", true, 1, 1);
	formula("($$)", true, 1, 1);
	formula("$$^2", true, 1, 2);
	formula("($$) ^ 2", true, 1, 2);
	formula("$$**3", true, 1, 3);
	formula("$$*$$", true, 1, 2);
	formula("pow($$, 0.5)", true, 1, 0.5);
	formula("2*$$", true, 2, 1);
	formula("$$ * 1e3", true, 1000, 1);
	formula("$$+$$*2-1", false, 0, 0);
	formula("", false, 0, 0);
	formula("$$^", false, 0, 0);
	formula("sqrt($$)", false, 0, 0);

	/* each case in both ctxId orders, with the narrow evaluation and (where
	 * the processor has it) the wide one */
	for (int order = 0; order < 4; order++) {
		hv_simd_allow_avx512(order >= 2);
		hpctk_vmodel *vm = tree(order % 2 == 1);
		/* raw 1, 2, 3, 4 at global, entry, a, b. execution: b 4, a 7, entry 9,
		 * global 10. function: b 4 (call: stops), a 3 (b has no bit), entry 2
		 * (a's bit set: entries hold only what propagates into them) + 3 = 5,
		 * global 1 (entries never propagate). */
		const double r[4] = {1, 2, 3, 4}, e[4] = {10, 9, 7, 4}, f[4] = {1, 5, 3, 4};
		expect(vm, "consistent", r, e, f, 0, 0, 0);
		double e2[4] = {10, 9, 7.5, 4};
		expect(vm, "execution of a off by 0.5 (a and entry disagree)", r, e2, f, 0, 2, 0);
		double f2[4] = {1, 5, 3, 4.25};
		expect(vm, "function of b off (b's own equation only: b does not propagate)", r, e, f2, 0, 0, 1);
		double e3[4] = {10, 9, 7 * (1 + 1.5e-9), 4};
		expect(vm, "inside the tolerance", r, e3, f, 0, 0, 0);
		double e4[4] = {10, 9, 7 * (1 + 4e-9), 4};
		expect(vm, "beyond the tolerance", r, e4, f, 0, 2, 0);
		/* An elided raw value 0.5 below a: a (and its ancestors) may exceed
		 * their sums by it, and the excesses must add up to it. */
		double e5[4] = {10.5, 9.5, 7.5, 4}, f5[4] = {1, 5.5, 3.5, 4};
		expect(vm, "elided value below a", r, e5, f5, 0.5, 0, 0);
		double e6[4] = {10.5, 9.5, 8, 4};
		expect(vm, "elided value 0.5 but a exceeds by 1", r, e6, f5, 0.5, 2, 0);
		double e7[4] = {10.25, 9.25, 7.25, 4};
		expect(vm, "elided value 0.5, excesses add to 0.25", r, e7, f5, 0.5, 1, 0);
		if (order % 2 == 1) {
			/* b's run again after its parent's: the profile is left unchecked
			 * (its index rule reports the order), not misjudged */
			hv_report rep = run_again(vm, r, e2, f, 0, true);
			CHECK(rep.failed[HV_R_HPCTKDB_VALUES_EXECUTION] == 0 && rep.evaluated[HV_R_HPCTKDB_VALUES_EXECUTION] == 0,
			      "a run out of ctxId order: no evaluation (%llu evaluated, %llu failed)",
			      (unsigned long long)rep.evaluated[HV_R_HPCTKDB_VALUES_EXECUTION],
			      (unsigned long long)rep.failed[HV_R_HPCTKDB_VALUES_EXECUTION]);
			hv_report_free(&rep);
			rep = run(vm, r, e, f, 0);
			CHECK(rep.evaluated[HV_R_HPCTKDB_VALUES_EXECUTION] == 4, "in order: 4 execution equations evaluated (%llu)",
			      (unsigned long long)rep.evaluated[HV_R_HPCTKDB_VALUES_EXECUTION]);
			hv_report_free(&rep);
		}
		hpctk_vmodel_free(vm);
	}
	TAP_DONE();
}
