/* ovni streams: the fast path (a table of event keys, bulk evaluation
 * counts) must report exactly what checking every event one by one
 * reports. Generated streams get deterministic mutations aimed at the fast
 * path's exits (clocks going back or >= 2^63, sort markers and mark events
 * in the wrong place, zero mark values, odd mark types, reserved flags,
 * wrong sizes, unknown MCVs, cuts), and each is checked both ways, in
 * memory and through 256 KiB windows: every diagnostic, every evaluation
 * count and the summary the tree checks use must be equal. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "gen.h"
#include "ovni/ovni.h"
#include "tap.h"
#include "testlib.h"

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
	case 9: memcpy(p + 1, mcvs[gen_below(rng, 9)], 3); break;
	case 10: return e->off + gen_below(rng, e->len + 1); /* cut inside or after this event */
	default: hv_put_le64(p + 4, 0); break;
	}
	return n;
}

static void check_once(const uint8_t *d, size_t n, bool fast, bool windowed, hv_report *r, ovni_obs_summary *s)
{
	tl_memio io = {.d = d, .n = n};
	hv_blob b = windowed ? (hv_blob){.name = "t/stream.obs", .size = n, .fetch = tl_mem_fetch, .io = &io}
			     : hv_blob_from_memory("t/stream.obs", d, n);
	hv_report_init(r, "t/stream.obs", 1000);
	ovni_obs_fast_path = fast;
	ovni_check_obs(&b, r, false, s);
	ovni_obs_fast_path = true;
}

static bool same_summary(const ovni_obs_summary *a, const ovni_obs_summary *b)
{
	return a->walked == b->walked && a->nevents == b->nevents && a->first_clock == b->first_clock &&
	       a->models == b->models && memcmp(a->model_off, b->model_off, sizeof a->model_off) == 0 &&
	       memcmp(a->mark_types, b->mark_types, sizeof a->mark_types) == 0 &&
	       memcmp(a->mark_off, b->mark_off, sizeof a->mark_off) == 0 && a->mark_bad_type == b->mark_bad_type &&
	       a->mark_bad_type_value == b->mark_bad_type_value && a->mark_bad_type_off == b->mark_bad_type_off;
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

static unsigned fired[HV_RULE_COUNT];

/* Check one input both ways; true when they agree. */
static bool agree(const uint8_t *d, size_t n, bool windowed, const char *what)
{
	hv_report rf, rs;
	ovni_obs_summary sf, ss;
	check_once(d, n, true, windowed, &rf, &sf);
	check_once(d, n, false, windowed, &rs, &ss);
	const char *diff = report_diff(&rf, &rs);
	bool ok = !diff && same_summary(&sf, &ss);
	if (!ok) {
		printf("  %s: fast and one-by-one differ in %s\n", what, diff ? diff : "the summary");
		tl_dump(&rf);
		tl_dump(&rs);
	}
	for (int k = 0; k < HV_RULE_COUNT; k++)
		if (rs.failed[k]) fired[k]++;
	hv_report_free(&rf);
	hv_report_free(&rs);
	return ok;
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

static void run_mutants(uint64_t seed, unsigned steps, unsigned count, bool windowed)
{
	size_t n0;
	uint8_t *src = generate(seed, steps, &n0);
	evref *ev = malloc(MAX_EVENTS * sizeof *ev);
	uint8_t *d = malloc(n0 ? n0 : 1);
	CHECK(src && ev && d, "generated a stream of %u steps", steps);
	if (!src || !ev || !d) goto out;
	CHECK(agree(src, n0, windowed, "unmutated"), "seed %" PRIu64 ": the valid stream agrees", seed);
	gen_rng rng = {seed * 1000003u};
	unsigned bad = 0;
	for (unsigned i = 0; i < count; i++) {
		memcpy(d, src, n0);
		size_t n = n0;
		unsigned k = 1 + (unsigned)gen_below(&rng, 4);
		while (k--) n = mutate(d, n, &rng, ev, walk_events(d, n, ev));
		char what[64];
		snprintf(what, sizeof what, "seed %" PRIu64 " mutant %u", seed, i);
		if (!agree(d, n, windowed, what)) bad++;
	}
	CHECK(bad == 0, "seed %" PRIu64 ", %u steps%s: %u mutants, %u where the paths differ", seed, steps,
	      windowed ? ", windowed" : "", count, bad);
out:
	free(src);
	free(ev);
	free(d);
}

int main(void)
{
	for (uint64_t seed = 1; seed <= 3; seed++) run_mutants(seed, 300, 400, false);
	/* ~750 KB: three 256 KiB windows, events cut by their edges. */
	run_mutants(4, 30000, 12, true);
	/* The mutants reach the fast path's exits (so the comparison means something). */
	static const int want[] = {HV_R_OVNI_OBS_CLOCK_MONOTONIC, HV_R_OVNI_OBS_CLOCK_SIGNED, HV_R_OVNI_OBS_SORT_REGION,
				   HV_R_OVNI_OBS_MARK_VALUE, HV_R_OVNI_OBS_RESERVED_FLAGS, HV_R_OVNI_OBS_JUMBO_NIBBLE,
				   HV_R_OVNI_OBS_EVENT_TRUNCATED, HV_R_OVNI_OBS_PAYLOAD_SIGNATURE,
				   HV_R_OVNI_OBS_MCV_MINOR_NEWER};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK(fired[want[i]] >= 5, "%s fired in %u mutants", hv_rules[want[i]].id, fired[want[i]]);
	TAP_DONE();
}
