/* Differential fuzz target: an ovni trace tree replayed by the event model
 * on one thread, and as the pipeline of -j (ovni/model.c: a reader that
 * walks the streams with their checks and merges them in clock order into
 * batches, a replayer that hands the batches' events to the handlers),
 * with batches as small as one event, two to five of them in flight, on 1-4
 * threads (one: the runner runs the pipeline's two tasks one after the
 * other, so the reader replays too), must give one report, byte for byte.
 * A difference aborts with the field that differs (diff.h).
 *
 * Input: two control bytes, then the container of container.h (names fixed
 * as in `ovni_trace`):
 *   byte 0: bits 0-2 events per batch (1, 2, 3, 5, 8, 64, as many as fit,
 *           1), bits 3-4 threads - 1, bits 5-6 batches in flight - 2;
 *   byte 1: the order the runner takes tasks in (0 as given, 1 reversed,
 *           else a shuffle seeded by it). */
#include "container.h"
#include "diff.h"
#include "ovni/model.h"

static void ovni_fix_name(char *name, size_t cap, size_t index)
{
	if (strncmp(name, "loom.", 5) == 0 && strchr(name, '/')) return;
	size_t thread = index / 2;
	snprintf(name, cap, "loom.n%zu.ovni/proc.%zu/thread.%zu/stream.%s", thread / 4, 100 + thread / 2,
		 1000 + thread, index % 2 ? "obs" : "json");
}

static void check_trace(const uint8_t *data, size_t size, const hv_options *opt, hv_report *r)
{
	static fuzz_files ff;
	fuzz_unpack_fixed(data, size, &ff, ovni_fix_name);
	hv_report_init(r, "trace", opt->max_diags);
	hv_validate_set(opt, ff.blobs, ff.n, r);
	fuzz_check_report(r);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ctl c = {data, size < 2 ? size : 2, 0};
	uint8_t b0 = fuzz_ctl_byte(&c), b1 = fuzz_ctl_byte(&c);
	data += c.n, size -= c.n;
	static const unsigned batch_events[8] = {1, 2, 3, 5, 8, 64, 0, 1};

	hv_options one = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report serial, piped;
	check_trace(data, size, &one, &serial);

	hv_options pipe = one;
	fuzz_runner fr = {.threads = 1u + ((b0 >> 3) & 3u), .order = b1};
	fuzz_use_runner(&pipe, &fr);
	pipe.jobs = 8; /* two threads to spare for up to four looms, whatever runs them */
	ovni_pipeline_on = true;
	ovni_pipe_batch_events = batch_events[b0 & 7u];
	ovni_pipe_batches = 2u + ((b0 >> 5) & 3u);
	uint64_t runs0 = atomic_load(&ovni_pipe_runs), pushed0 = atomic_load(&ovni_pipe_pushed);
	check_trace(data, size, &pipe, &piped);
	ovni_pipeline_on = false;
	uint64_t runs = atomic_load(&ovni_pipe_runs) - runs0, pushed = atomic_load(&ovni_pipe_pushed) - pushed0;
	ovni_pipe_batch_events = 0;
	ovni_pipe_batches = 8;
	if (fuzz_diff_stats())
		fprintf(stderr, "diff_ovni_replay: %llu pipelines, %llu batches of %s%u events, %u in flight, on %u threads\n",
			(unsigned long long)runs, (unsigned long long)pushed, batch_events[b0 & 7u] ? "" : "up to ",
			batch_events[b0 & 7u] ? batch_events[b0 & 7u] : 65536u / 14u, 2u + ((b0 >> 5) & 3u), fr.threads);
	fuzz_diff_reports(&serial, "the one-thread replay", &piped, "the pipeline");
	hv_report_free(&serial);
	hv_report_free(&piped);
	return 0;
}
