/* Differential fuzz target: an ovni trace tree replayed by the event model
 * the one-thread way, and as the split replay of ovni/model/split.c (each
 * stream's own checks in chunks, on any thread; the events the threads
 * share merged by clock on one), with chunks as small as one byte (one
 * event), on 1-4 threads (one: the runner runs the tasks one after the
 * other, so the merger makes every chunk), must give one report, byte for
 * byte, evaluation counts included. A difference aborts with the field
 * that differs (diff.h).
 *
 * Input: two control bytes, then the container of container.h (names fixed
 * as in `ovni_trace`):
 *   byte 0: bits 0-2 stream bytes per chunk (1, 13, 100, 1000, 4096,
 *           65536, the default, 1), bits 3-4 threads - 1;
 *   byte 1: the order the runner takes tasks in (0 as given, 1 reversed,
 *           else a shuffle seeded by it). */
#include "diff.h"
#include "ovni/model/model.h"
#include "ovni/tree/tree.h"

static void ovni_fix_name(char *name, size_t cap, size_t index)
{
	if (strncmp(name, "loom.", 5) == 0 && strchr(name, '/')) return;
	size_t thread = index / 2;
	snprintf(name, cap, "loom.n%zu.ovni/proc.%zu/thread.%zu/stream.%s", thread / 4, 100 + thread / 2,
		 1000 + thread, index % 2 ? "obs" : "json");
}

static void check_trace(const uint8_t *data, size_t size, const hv_options *opt, hv_report *r)
{
	fuzz_check_container(data, size, ovni_fix_name, "trace", opt, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ctl c = {data, size < 2 ? size : 2, 0};
	uint8_t b0 = fuzz_ctl_byte(&c), b1 = fuzz_ctl_byte(&c);
	data += c.n, size -= c.n;
	static const unsigned chunk_bytes[8] = {1, 13, 100, 1000, 4096, 65536, 0, 1};

	hv_options one = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report serial, split;
	ovni_split_on = false;
	check_trace(data, size, &one, &serial);
	ovni_split_on = true;

	hv_options par = one;
	fuzz_runner fr = {.threads = 1u + ((b0 >> 3) & 3u), .order = b1};
	fuzz_use_runner(&par, &fr);
	par.jobs = 8; /* threads to spare for up to four looms, whatever runs them */
	ovni_split_chunk = chunk_bytes[b0 & 7u];
	uint64_t runs0 = atomic_load(&ovni_split_runs), chunks0 = atomic_load(&ovni_split_chunks),
		 gave0 = atomic_load(&ovni_split_fallbacks);
	check_trace(data, size, &par, &split);
	ovni_split_chunk = 0;
	uint64_t runs = atomic_load(&ovni_split_runs) - runs0, chunks = atomic_load(&ovni_split_chunks) - chunks0,
		 gave = atomic_load(&ovni_split_fallbacks) - gave0;
	if (fuzz_diff_stats()) {
		char cb[24] = "the default";
		if (chunk_bytes[b0 & 7u]) snprintf(cb, sizeof cb, "%u", chunk_bytes[b0 & 7u]);
		fprintf(stderr, "diff_ovni_replay: %llu split replays (%llu gave up), %llu chunks of %s bytes, on %u threads\n",
			(unsigned long long)runs, (unsigned long long)gave, (unsigned long long)chunks, cb, fr.threads);
	}
	fuzz_diff_reports(&serial, "the one-thread replay", &split, "the split replay");
	hv_report_free(&serial);
	hv_report_free(&split);
	return 0;
}
