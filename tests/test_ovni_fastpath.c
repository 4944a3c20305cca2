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

#include "ovni/ovni.h"
#include "tap.h"
#include "testlib.h"
#include "ovni_mutants.h"

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

static bool agree_fast(const uint8_t *d, size_t n, const char *what, void *ctx)
{
	return agree(d, n, *(const bool *)ctx, what);
}

static void run_mutants(uint64_t seed, unsigned steps, unsigned count, bool windowed)
{
	unsigned bad = mutants_disagreeing(seed, steps, count, 4, seed * 1000003u, agree_fast, &windowed);
	CHECK(bad == 0, "seed %" PRIu64 ", %u steps%s: %u mutants, %u where the paths differ", seed, steps,
	      windowed ? ", windowed" : "", count, bad);
}

int main(void)
{
	for (uint64_t seed = 1; seed <= 3; seed++) run_mutants(seed, 300, 400, false);
	/* ~750 KB: three 256 KiB windows, events cut by their edges. */
	run_mutants(4, 30000, 12, true);
	/* The mutants reach the fast path's exits (so the comparison means something). */
	static const int want[] = {HV_R_OVNI_OBS_CLOCK_MONOTONIC, HV_R_OVNI_OBS_CLOCK_SIGNED, HV_R_OVNI_OBS_SORT_REGION,
				   HV_R_OVNI_OBS_MARK_VALUE, HV_R_OVNI_OBS_RESERVED_FLAGS, HV_R_OVNI_OBS_JUMBO_NIBBLE,
				   HV_R_OVNI_OBS_EVENT_TRUNCATED, HV_R_OVNI_OBS_PAYLOAD_SIGNATURE, HV_R_OVNI_OBS_PAYLOAD_SIZE,
				   HV_R_OVNI_OBS_MCV_MINOR_NEWER};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK(fired[want[i]] >= 5, "%s fired in %u mutants", hv_rules[want[i]].id, fired[want[i]]);
	TAP_DONE();
}
