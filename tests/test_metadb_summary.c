/* meta.db checker, beyond "which rule fires":
 *  - the summary handed to the cross-file checks (ctx ids, prop/stat metric
 *    ids, id kinds, edition) equals what the generator's model put in;
 *  - a broken tree or metrics section clears ctx_ok / metrics_ok;
 *  - forcing the wrong edition makes a valid file nonconforming;
 *  - random corruption of valid files (both editions) never crashes, and
 *    whatever summary comes out is still sorted and unique (the ctxIds: a
 *    consistent set). Run under
 *    ASan+UBSan by `make test`, this is a small built-in fuzzer. */
#include <stdlib.h>

#include "core/hv_int.h"
#include "../golden/hpctoolkit/model.h"
#include "hpctoolkit/hpctoolkit.h"
#include "tap.h"
#include "testlib.h"

static bool gen_one(gen_params *p, gen_output *out)
{
	bool made = tl_generate(p, out);
	CHECK(made, "meta.db generated");
	return made;
}

static void run_check(const uint8_t *data, size_t len, enum hv_edition forced, hv_report *r, hpctk_metadb_summary *s)
{
	hv_blob b = hv_blob_from_memory("gen/meta.db", data, len);
	hv_options opt = {.edition = forced, .max_diags = 1000};
	hv_report_init(r, "gen/meta.db", opt.max_diags);
	hpctk_check_metadb(&opt, &b, r, s);
	hv_blob_release(&b);
}

/* The set's bitmap or sorted array agrees with its count and maximum. */
static bool idset_consistent(const hpctk_idset *s)
{
	if (s->n == 0) return !s->map && !s->sorted && s->max == 0;
	if (!s->map) {
		for (size_t i = 1; i < s->n; i++)
			if (s->sorted[i - 1] >= s->sorted[i]) return false;
		return s->sorted && s->sorted[s->n - 1] == s->max;
	}
	size_t bits = 0;
	for (uint64_t i = 0; i <= s->max; i++) bits += (s->map[i >> 3] >> (i & 7)) & 1;
	bool top = (s->map[s->max >> 3] >> (s->max & 7)) & 1;
	bool above = s->map[s->max >> 3] >> (s->max & 7) >> 1; /* bits past max in its byte */
	return (s->map[0] & 1) && top && !above && (bits == s->n || bits == s->n + 1);
}

/* The set holds exactly the model's ids (sorted, unique, none 0) and 0. */
static bool idset_equals(const hpctk_idset *s, const uint32_t *ids, size_t n)
{
	if (s->n != n || !idset_consistent(s) || !hpctk_idset_has(s, 0)) return false;
	for (size_t i = 0; i < n; i++)
		if (!hpctk_idset_has(s, ids[i])) return false;
	if (s->sorted) return memcmp(s->sorted, ids, n * sizeof *ids) == 0;
	size_t bits = 0; /* n members plus the root: nothing else */
	for (uint64_t i = 0; s->map && i <= s->max; i++) bits += (s->map[i >> 3] >> (i & 7)) & 1;
	return n == 0 || bits == n + 1;
}

static bool sorted_unique16(const uint16_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] >= v[i]) return false;
	return true;
}

static void check_summary_matches_model(enum hv_edition ed, uint64_t seed, unsigned contexts, unsigned depth)
{
	gen_params p = tl_params("metadb", ed);
	p.seed = seed;
	p.contexts = contexts;
	p.depth = depth;
	hpctk_model model;
	char err[256] = "";
	int mrc = hpctk_model_build(&model, &p, err, sizeof err);
	CHECK(mrc == 0, "model: %s", err);
	if (mrc != 0) return;
	gen_output out;
	if (!gen_one(&p, &out)) {
		hpctk_model_free(&model);
		return;
	}
	hv_report r;
	hpctk_metadb_summary s;
	run_check(out.files[0].data, out.files[0].len, HV_EDITION_AUTO, &r, &s);
	const char *en = tl_edition_name(ed);
	CHECK(hv_report_exit_code(&r, true) == 0, "%s seed %llu: conforming", en, (unsigned long long)seed);
	CHECK(s.valid && s.edition == ed, "%s: summary edition", en);
	CHECK(s.ctx_ok && s.metrics_ok, "%s: ctx_ok %d metrics_ok %d", en, s.ctx_ok, s.metrics_ok);
	CHECK(s.nkinds == model.n_kinds, "%s: nkinds %u, model %u", en, s.nkinds, model.n_kinds);
	CHECK(idset_equals(&s.ctx_ids, model.ctx_ids_sorted, model.n_ctx_ids), "%s: %zu ctx ids (max %u), model %zu",
	      en, s.ctx_ids.n, s.ctx_ids.max, model.n_ctx_ids);
	CHECK(s.n_prop_metric_ids == model.n_prop_metric_ids &&
		      (s.n_prop_metric_ids == 0 || memcmp(s.prop_metric_ids, model.prop_metric_ids,
							  s.n_prop_metric_ids * sizeof *s.prop_metric_ids) == 0),
	      "%s: %zu prop ids, model %zu", en, s.n_prop_metric_ids, model.n_prop_metric_ids);
	CHECK(s.n_stat_metric_ids == model.n_stat_metric_ids &&
		      (s.n_stat_metric_ids == 0 || memcmp(s.stat_metric_ids, model.stat_metric_ids,
							  s.n_stat_metric_ids * sizeof *s.stat_metric_ids) == 0),
	      "%s: %zu stat ids, model %zu", en, s.n_stat_metric_ids, model.n_stat_metric_ids);
	hpctk_metadb_summary_free(&s);
	hv_report_free(&r);

	/* The other edition, forced, must not pass. */
	enum hv_edition other = ed == HV_EDITION_RELEASE ? HV_EDITION_DRAFT : HV_EDITION_RELEASE;
	run_check(out.files[0].data, out.files[0].len, other, &r, &s);
	CHECK(hv_report_exit_code(&r, false) == 1, "%s file validated as %s: nonconforming", en, tl_edition_name(other));
	CHECK(strcmp(r.edition, tl_edition_name(other)) == 0, "forced edition reported");
	hpctk_metadb_summary_free(&s);
	hv_report_free(&r);
	gen_output_free(&out);
	hpctk_model_free(&model);
}

/* A structural break in the tree / metrics must clear the matching flag,
 * so the cross-file checks do not report ids "missing" from a tree that
 * was only partly walked. */
static void check_ok_flags(enum hv_edition ed, const char *rule, bool want_ctx_ok, bool want_metrics_ok)
{
	gen_params p = tl_params("metadb", ed);
	p.break_rule = rule;
	CHECK(gen_breaker_for(rule, ed) != NULL, "%s (%s): no breaking case", rule, tl_edition_name(ed));
	if (!gen_breaker_for(rule, ed)) return;
	gen_output out;
	if (!gen_one(&p, &out)) return;
	hv_report r;
	hpctk_metadb_summary s;
	run_check(out.files[0].data, out.files[0].len, HV_EDITION_AUTO, &r, &s);
	CHECK(s.ctx_ok == want_ctx_ok && s.metrics_ok == want_metrics_ok, "%s (%s): ctx_ok %d metrics_ok %d", rule,
	      tl_edition_name(ed), s.ctx_ok, s.metrics_ok);
	hpctk_metadb_summary_free(&s);
	hv_report_free(&r);
	gen_output_free(&out);
}

static void fuzz(enum hv_edition ed, uint64_t seed, unsigned rounds)
{
	gen_params p = tl_params("metadb", ed);
	p.seed = seed;
	p.contexts = 40;
	p.depth = 6;
	p.minor = (unsigned)(seed % 2);
	gen_output out;
	if (!gen_one(&p, &out)) return;
	size_t len = out.files[0].len;
	uint8_t *buf = malloc(len);
	CHECK(buf != NULL, "malloc");
	if (!buf) return;
	gen_rng rng = {seed * 7919u + (ed == HV_EDITION_DRAFT)};
	unsigned bad = 0;
	for (unsigned i = 0; i < rounds; i++) {
		memcpy(buf, out.files[0].data, len);
		unsigned edits = 1 + (unsigned)gen_below(&rng, 4);
		for (unsigned k = 0; k < edits; k++) {
			size_t at = (size_t)gen_below(&rng, len);
			switch (gen_below(&rng, 4)) {
			case 0: buf[at] ^= (uint8_t)(1u << gen_below(&rng, 8)); break;
			case 1: buf[at] = (uint8_t)gen_rand(&rng); break;
			case 2: /* a plausible pointer or size: somewhere in the file */
				if (at + 8 <= len) hv_put_le64(buf + (at & ~(size_t)7), gen_below(&rng, len + 64));
				break;
			default: /* a huge value */
				if (at + 8 <= len) hv_put_le64(buf + (at & ~(size_t)7), gen_rand(&rng) | 1u << 31);
			}
		}
		const enum hv_edition modes[] = {HV_EDITION_AUTO, HV_EDITION_RELEASE, HV_EDITION_DRAFT};
		hv_report r;
		hpctk_metadb_summary s;
		run_check(buf, len, modes[i % 3], &r, &s);
		if (s.valid && (!idset_consistent(&s.ctx_ids) ||
				!sorted_unique16(s.prop_metric_ids, s.n_prop_metric_ids) ||
				!sorted_unique16(s.stat_metric_ids, s.n_stat_metric_ids)))
			bad++;
		if (r.internal_error) bad++;
		hpctk_metadb_summary_free(&s);
		hv_report_free(&r);
	}
	CHECK(bad == 0, "fuzz %s seed %llu: %u round(s) gave an unsorted summary or an internal error",
	      tl_edition_name(ed), (unsigned long long)seed, bad);
	free(buf);
	gen_output_free(&out);
}

/* The same corruption on a real file (older and newer hpcprof layouts),
 * when the shared samples are present. */
static void fuzz_real(const char *path, unsigned rounds)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		SKIP("%s not present (set HV_SHARED to the shared folder)", path);
		return;
	}
	static uint8_t orig[1 << 20], buf[1 << 20];
	size_t len = fread(orig, 1, sizeof orig, f);
	fclose(f);
	hv_report r;
	hpctk_metadb_summary s;
	run_check(orig, len, HV_EDITION_AUTO, &r, &s);
	CHECK(hv_report_exit_code(&r, true) == 0 && s.ctx_ok && s.metrics_ok && s.ctx_ids.n > 0,
	      "%s: conforming, summary complete", path);
	hpctk_metadb_summary_free(&s);
	hv_report_free(&r);
	gen_rng rng = {len};
	unsigned bad = 0;
	for (unsigned i = 0; i < rounds; i++) {
		memcpy(buf, orig, len);
		for (unsigned k = 0; k < 2; k++) {
			size_t at = (size_t)gen_below(&rng, len) & ~(size_t)7;
			if (at + 8 > len) continue;
			if (gen_below(&rng, 2))
				hv_put_le64(buf + at, gen_below(&rng, len + 16));
			else
				buf[at + gen_below(&rng, 8)] ^= (uint8_t)gen_rand(&rng);
		}
		run_check(buf, len, HV_EDITION_AUTO, &r, &s);
		if (r.internal_error || (s.valid && !idset_consistent(&s.ctx_ids))) bad++;
		hpctk_metadb_summary_free(&s);
		hv_report_free(&r);
	}
	CHECK(bad == 0, "fuzz %s: %u bad round(s)", path, bad);
}

int main(void)
{
	const enum hv_edition eds[] = {HV_EDITION_RELEASE, HV_EDITION_DRAFT};
	for (size_t e = 0; e < 2; e++) {
		check_summary_matches_model(eds[e], 1, 0, 0);
		check_summary_matches_model(eds[e], 2, 1, 1);
		check_summary_matches_model(eds[e], 3, 300, 20);
		check_ok_flags(eds[e], "metadb.ctx.children-size", false, true);
		check_ok_flags(eds[e], "metadb.ctx.children-overlap", false, true);
		check_ok_flags(eds[e], "metadb.metrics.metrics-contained", true, false);
		check_ok_flags(eds[e], "metadb.metrics.prop-id-unique", true, true);
		for (uint64_t seed = 1; seed <= 4; seed++) fuzz(eds[e], seed, 1500);
	}
	const char *shared = getenv("HV_SHARED") ? getenv("HV_SHARED") : "../shared";
	const char *real[] = {"small.d", "loops-cuda-nvidiapc-t.d", "recursion-cuda-nvidiapc-t.nostruct.d"};
	for (size_t i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/real-samples/hpctoolkit/%s/meta.db", shared, real[i]);
		fuzz_real(path, 1000);
	}
	TAP_DONE();
}
