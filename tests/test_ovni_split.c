/* One stream checked in chunks (ovni/stream/split.c) reports exactly
 * what the one walk reports: every diagnostic in order (event indices and
 * all), every evaluation count, the cap on stored diagnostics, for chunks
 * of many sizes (down to 1 byte, so cuts fall inside every kind of event
 * and sort region), with the chunks run in reverse order, in memory and
 * through windows. The streams are generated and mutated
 * (ovni_mutants.h): clocks going back or >= 2^63, sort markers nested or
 * unmatched, zero mark values, reserved flags, wrong sizes, cuts. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ovni/stream/walk.h"
#include "tap.h"
#include "testlib.h"
#include "ovni_mutants.h"

/* Units run last to first: the merge must not depend on the order. */
static void reverse_runner(void *rctx, size_t n, hv_task_fn task, void *ctx)
{
	(void)rctx;
	for (size_t i = n; i-- > 0;) task(ctx, i);
}

static void check_one(const uint8_t *d, size_t n, bool windowed, uint64_t unit, size_t max_diags, hv_report *r)
{
	tl_memio io = {.d = d, .n = n};
	hv_blob b = windowed ? (hv_blob){.name = "t/stream.obs", .size = n, .fetch = tl_mem_fetch, .io = &io}
			     : hv_blob_from_memory("t/stream.obs", d, n);
	hv_report_init(r, "t/stream.obs", max_diags);
	if (unit == 0) {
		ovni_check_obs(&b, r, false, NULL);
		return;
	}
	hv_options opt = {.max_diags = max_diags, .runner = reverse_runner, .jobs = 2, .unit_bytes = unit};
	ovni_check_obs_split(&opt, &b, r);
}

static unsigned fired[HV_RULE_COUNT];

/* The one walk against the chunks of each size; true when all agree. */
static bool agree(const uint8_t *d, size_t n, bool windowed, size_t max_diags, const char *what)
{
	static const uint64_t units[] = {1, 13, 64, 301, 4096};
	hv_report ref;
	check_one(d, n, windowed, 0, max_diags, &ref);
	bool ok = true;
	for (size_t u = 0; u < sizeof units / sizeof units[0] && ok; u++) {
		hv_report r;
		check_one(d, n, windowed, units[u], max_diags, &r);
		const char *diff = report_diff(&ref, &r);
		if (!diff && (ref.suppressed != r.suppressed || memcmp(ref.count, r.count, sizeof r.count) != 0))
			diff = "suppressed or severity counts";
		if (diff) {
			printf("  %s, chunks of %" PRIu64 " bytes: differs from the one walk in %s\n", what, units[u], diff);
			tl_dump(&ref);
			tl_dump(&r);
			ok = false;
		}
		hv_report_free(&r);
	}
	for (int k = 0; k < HV_RULE_COUNT; k++)
		if (ref.failed[k]) fired[k]++;
	hv_report_free(&ref);
	return ok;
}

typedef struct split_how {
	bool windowed;
	size_t max_diags;
} split_how;

static bool agree_split(const uint8_t *d, size_t n, const char *what, void *ctx)
{
	const split_how *h = ctx;
	return agree(d, n, h->windowed, h->max_diags, what);
}

static void run_mutants(uint64_t seed, unsigned steps, unsigned count, bool windowed, size_t max_diags)
{
	split_how h = {windowed, max_diags};
	unsigned bad = mutants_disagreeing(seed, steps, count, 6, seed * 7919u, agree_split, &h);
	CHECK(bad == 0, "seed %" PRIu64 ", %u steps%s, %zu diagnostics kept: %u mutants, %u where the chunks differ",
	      seed, steps, windowed ? ", windowed" : "", max_diags, count, bad);
}

/* The sanitizer build (5-10x slower, and every chunk's report is an
 * allocation it tracks) runs a smaller sample. */
#define SMALL TL_SANITIZED

int main(void)
{
	unsigned count = SMALL ? 12 : 120;
	uint64_t taken0 = ovni_obs_chunks_taken, redone0 = ovni_obs_chunks_redone;
	for (uint64_t seed = 1; seed <= 3; seed++) run_mutants(seed, 200, count, false, 1000);
	run_mutants(5, 200, count, false, 2); /* the cap: the same two kept, the same suppressed */
	run_mutants(6, 3000, SMALL ? 1 : 4, true, 1000);
	/* The comparisons mean something: the chunks were taken as checked
	 * (not all walked again), and the mutants break what crosses a cut. */
	CHECK(ovni_obs_chunks_taken - taken0 > (SMALL ? 100u : 1000u), "%" PRIu64 " chunks taken, %" PRIu64 " walked again",
	      (uint64_t)(ovni_obs_chunks_taken - taken0), (uint64_t)(ovni_obs_chunks_redone - redone0));
	/* and the merge's other path, a chunk walked again from the true boundary, ran too */
	CHECK(ovni_obs_chunks_redone - redone0 > 10, "%" PRIu64 " chunks walked again",
	      (uint64_t)(ovni_obs_chunks_redone - redone0));
	static const int want[] = {HV_R_OVNI_OBS_CLOCK_MONOTONIC, HV_R_OVNI_OBS_CLOCK_SIGNED, HV_R_OVNI_OBS_SORT_REGION,
				   HV_R_OVNI_OBS_MARK_VALUE, HV_R_OVNI_OBS_EVENT_TRUNCATED, HV_R_OVNI_OBS_PAYLOAD_SIGNATURE,
				   HV_R_OVNI_OBS_PAYLOAD_SIZE};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK(fired[want[i]] >= (SMALL ? 1u : 5u), "%s fired in %u mutants", hv_rules[want[i]].id, fired[want[i]]);
	TAP_DONE();
}
