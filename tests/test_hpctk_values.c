/* The value checker (validator/hpctoolkit/values_*.c) driven directly: the
 * summary formulas it evaluates and the ones it leaves as notes, and the
 * propagation equations on a hand-made tree, with and without values of
 * contexts elided from meta.db, at and beyond the tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "hpctoolkit/values.h"
#include "tap.h"
#include "testlib.h"

static void formula(const char *s, bool ok, double scale, double power)
{
	hpctk_vformula f = hpctk_vformula_parse(s);
	CHECK(f.ok == ok, "formula \"%s\": recognised %d, want %d", s, f.ok, ok);
	if (ok && f.ok) CHECK(f.scale == scale && f.power == power, "formula \"%s\": %g * x^%g", s, f.scale, f.power);
}

/* global(0) -> entry 1 -> a 2 (lexical: prop 1) -> b 3 (call: prop 0); pids:
 * 1 point, 2 execution, 3 function (transitive, bit 0). */
static hpctk_vmodel *tree(void)
{
	hpctk_vmodel *vm = calloc(1, sizeof *vm);
	vm->n = 4;
	vm->node = calloc(4, sizeof *vm->node);
	vm->by_ctx = malloc(4 * sizeof *vm->by_ctx);
	const uint32_t parent[4] = {HPCTK_VNONE, 0, 1, 2};
	const uint16_t prop[4] = {0, 0, 1, 0};
	for (uint32_t i = 0; i < 4; i++) {
		vm->node[i] = (hpctk_vnode){.ctx = i * 10, .parent = parent[i], .prop = prop[i], .lex = 2, .label = 7 + i};
		vm->by_ctx[i] = i;
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
 * (0 = absent), plus an elided context (ctxId 99) with raw value `el`. */
static hv_report run(hpctk_vmodel *vm, const double r[4], const double e[4], const double f[4], double el)
{
	hv_report rep;
	hv_report_init(&rep, "t", 100);
	hpctk_vcheck c;
	hpctk_vcheck_init(&c, vm, &rep, NULL, "profile.db");
	for (uint32_t n = 0; n < 4; n++) {
		const double *col[3] = {r, e, f};
		for (uint16_t p = 1; p <= 3; p++) {
			double v = col[p - 1][n];
			if (v == 0) continue;
			uint64_t bits;
			memcpy(&bits, &v, 8);
			hpctk_vcheck_value(&c, 1, false, n * 10, p, bits, 100 + n * 30 + p * 10);
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

	hpctk_vmodel *vm = tree();
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
	hpctk_vmodel_free(vm);
	TAP_DONE();
}
