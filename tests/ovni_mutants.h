/* Mutated ovni streams for the tests that compare two ways of checking a
 * stream (test_ovni_fastpath.c: fast path against one by one;
 * test_ovni_split.c: chunks against the one walk): a generated stream,
 * deterministic mutations aimed at the per-event rules and at what crosses
 * a walk's seams, and the first difference between two reports. */
#ifndef HV_TEST_OVNI_MUTANTS_H
#define HV_TEST_OVNI_MUTANTS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "core/report.h"
#include "gen.h"
#include "tap.h"

#define MAX_EVENTS 65536

typedef struct evref {
	size_t off, len;
} evref;

/* The events of a stream with its 8-byte header, as a reader walks them. */
static size_t walk_events(const uint8_t *d, size_t n, evref *ev)
{
	size_t o = 8, k = 0;
	while (o + 12 <= n && k < MAX_EVENTS) {
		size_t len;
		if (d[o] & 0x10) {
			if (o + 16 > n) break;
			len = 16 + (size_t)hv_le32(d + o + 12);
		} else {
			unsigned nib = d[o] & 0x0fu;
			len = 12 + (nib ? nib + 1 : 0);
		}
		ev[k++] = (evref){o, len};
		if (len > n - o) break;
		o += len;
	}
	return k;
}

/* One mutation of a random event (not the first: its clock is always taken
 * one by one). Returns the new size. */
static size_t mutate(uint8_t *d, size_t n, gen_rng *rng, const evref *ev, size_t nev)
{
	if (nev < 3) return n;
	const evref *e = &ev[1 + gen_below(rng, nev - 2)];
	uint8_t *p = d + e->off;
	static const char *const mcvs[] = {"OX!", "Zab", "OHx", "VYc", "6Yc", "OB.", "OU[", "OU]", "OM="};
	static const char *const marks[] = {"OM[", "OM]", "OM="};
	static const uint8_t b0s[] = {0x00, 0x03, 0x07, 0x0b, 0x0f, 0x13, 0x10, 0x01};
	static const int32_t types[] = {-1, 0, 3, 99, 100, 7};
	static const uint32_t jsizes[] = {0, 1, 2097135, 2097136, 0xffffffffu, 5};
	uint64_t clock = hv_le64(p + 4);
	switch (gen_below(rng, 12)) {
	case 0: hv_put_le64(p + 4, clock > 3000 ? clock - 1 - gen_below(rng, 3000) : 0); break;
	case 1: hv_put_le64(p + 4, (1ull << 63) + gen_below(rng, 1000)); break;
	case 2:
		if (e->len == 12) memcpy(p + 1, gen_below(rng, 2) ? "OU[" : "OU]", 3);
		break;
	case 3:
		if (e->len == 24) {
			memcpy(p + 1, marks[gen_below(rng, 3)], 3);
			hv_put_le64(p + 12, gen_below(rng, 2) ? 0 : 1);
		}
		break;
	case 4:
		if (e->len == 24) hv_put_le32(p + 20, (uint32_t)types[gen_below(rng, 6)]);
		break;
	case 5: p[0] |= (uint8_t)(0x20u << gen_below(rng, 3)); break;
	case 6: p[1 + gen_below(rng, 3)] = (uint8_t)gen_rand(rng); break;
	case 7:
		if (p[0] & 0x10) hv_put_le32(p + 12, jsizes[gen_below(rng, 6)]);
		break;
	case 8: p[0] = b0s[gen_below(rng, 8)]; break;
	case 9:
		if (!(p[0] & 0x10) && e->len >= 16 && e->len <= 28) {
			/* the jumbo form, as long, of an event with arguments */
			static const char *const jmcvs[] = {"OAs", "OHx", "VTx", "6Tx", "OAr", "OM["};
			p[0] = 0x13;
			memcpy(p + 1, jmcvs[gen_below(rng, 6)], 3);
			hv_put_le32(p + 12, (uint32_t)(e->len - 16));
		} else {
			memcpy(p + 1, mcvs[gen_below(rng, 9)], 3);
		}
		break;
	case 10: return e->off + gen_below(rng, e->len + 1); /* cut inside or after this event */
	default: hv_put_le64(p + 4, 0); break;
	}
	return n;
}

static uint8_t *generate(uint64_t seed, unsigned steps, size_t *n)
{
	gen_params p;
	gen_params_default(&p);
	p.what = "ovni-stream";
	p.seed = seed;
	p.trace_len = steps;
	gen_output out = {0};
	char err[128];
	if (gen_generate(&p, &out, err, sizeof err) != 0 || out.n != 1) return NULL;
	uint8_t *d = out.files[0].data;
	*n = out.files[0].len;
	out.files[0].data = NULL;
	gen_output_free(&out);
	return d;
}

/* The first difference between the two reports, or NULL. */
static const char *report_diff(const hv_report *a, const hv_report *b)
{
	if (memcmp(a->evaluated, b->evaluated, sizeof a->evaluated) != 0) return "evaluation counts";
	if (memcmp(a->failed, b->failed, sizeof a->failed) != 0) return "failure counts";
	if (a->ndiags != b->ndiags) return "number of diagnostics";
	for (size_t i = 0; i < a->ndiags; i++) {
		const hv_diag *x = &a->diags[i], *y = &b->diags[i];
		if (x->rule != y->rule || x->sev != y->sev || x->offset != y->offset || x->length != y->length ||
		    strcmp(x->path, y->path) != 0 || strcmp(x->msg, y->msg) != 0)
			return "a diagnostic";
	}
	return NULL;
}

/* A test's comparison of two ways of checking one input: true when they agree. */
typedef bool (*mutant_agree)(const uint8_t *d, size_t n, const char *what, void *ctx);

/* agree() on the valid stream of `steps` generator steps from `seed`
 * (checked), then on `count` mutants of it, 1 to max_k mutations each drawn
 * from rng_seed; returns how many mutants disagreed. */
static unsigned mutants_disagreeing(uint64_t seed, unsigned steps, unsigned count, unsigned max_k, uint64_t rng_seed,
				    mutant_agree agree, void *ctx)
{
	size_t n0;
	uint8_t *src = generate(seed, steps, &n0);
	evref *ev = malloc(MAX_EVENTS * sizeof *ev);
	uint8_t *d = malloc(n0 ? n0 : 1);
	unsigned bad = 0;
	CHECK(src && ev && d, "generated a stream of %u steps", steps);
	if (!src || !ev || !d) goto out;
	CHECK(agree(src, n0, "unmutated", ctx), "seed %" PRIu64 ": the valid stream agrees", seed);
	gen_rng rng = {rng_seed};
	for (unsigned i = 0; i < count; i++) {
		memcpy(d, src, n0);
		size_t n = n0;
		unsigned k = 1 + (unsigned)gen_below(&rng, max_k);
		while (k--) n = mutate(d, n, &rng, ev, walk_events(d, n, ev));
		char what[64];
		snprintf(what, sizeof what, "seed %" PRIu64 " mutant %u", seed, i);
		if (!agree(d, n, what, ctx)) bad++;
	}
out:
	free(src);
	free(ev);
	free(d);
	return bad;
}

#endif
