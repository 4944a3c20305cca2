/* ovni traces: the fused pass (validator/ovni/fused.c), where each stream
 * is read once for its stream checks and the event model's replay, must
 * report exactly what reading the streams twice reports (stream checks in
 * the ordered walk, then the replay): every diagnostic in order, every
 * evaluation count. Inputs: generated traces, the event-model and tree
 * breaks, and traces with one stream damaged (clock going back, a random
 * byte, a cut), each through memory and through small windows (files read
 * by fetch, so the shared windows refill hundreds of times), with 1 and 2
 * jobs and a low diagnostics limit. The fused pass replays each loom as
 * the split replay (ovni/model/split.c), the two-read path the one-thread
 * way: with 2 jobs on a runner that runs the tasks one after the other
 * (the merger makes every chunk), and on threads with chunks of one event
 * and of 100 bytes, which must report what one thread reports. */
#include <pthread.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "gen.h"
#include "ovni/model/model.h"
#include "ovni/trace.h"
#include "tap.h"
#include "testlib.h"

/* A runner that runs tasks in reverse order: any order must give the same report. */
static void reverse_runner(void *ctx, size_t n, hv_task_fn task, void *tctx)
{
	(void)ctx;
	for (size_t i = n; i-- > 0;) task(tctx, i);
}

/* A runner that runs each task on a thread of its own, side by side. */
typedef struct th_job {
	hv_task_fn task;
	void *ctx;
	size_t i;
} th_job;

static void *th_main(void *arg)
{
	th_job *j = arg;
	j->task(j->ctx, j->i);
	return NULL;
}

static void thread_runner(void *ctx, size_t n, hv_task_fn task, void *tctx)
{
	(void)ctx;
	for (size_t i = 0; i < n; i += 4) {
		th_job job[4];
		pthread_t t[4];
		bool started[4] = {false};
		for (size_t k = 0; k < 4 && i + k < n; k++) {
			job[k] = (th_job){task, tctx, i + k};
			started[k] = pthread_create(&t[k], NULL, th_main, &job[k]) == 0;
			if (!started[k]) task(tctx, i + k);
		}
		for (size_t k = 0; k < 4 && i + k < n; k++)
			if (started[k]) pthread_join(t[k], NULL);
	}
}

static bool threads; /* jobs on thread_runner rather than reverse_runner */

static void run(gen_output *out, bool fused, bool windowed, bool jobs, size_t max_diags, hv_report *r)
{
	static hv_blob blobs[GEN_MAX_FILES];
	static char names[GEN_MAX_FILES][160];
	static tl_memio io[GEN_MAX_FILES];
	hv_options opt = {.max_diags = max_diags,
			  .runner = !jobs ? NULL : threads ? thread_runner : reverse_runner,
			  .jobs = jobs ? 2 : 0};
	for (size_t i = 0; i < out->n; i++) {
		snprintf(names[i], sizeof names[i], "gen/%s", out->files[i].name);
		io[i] = (tl_memio){.d = out->files[i].data, .n = out->files[i].len};
		blobs[i] = windowed ? (hv_blob){.name = names[i], .size = out->files[i].len, .fetch = tl_mem_fetch, .io = &io[i]}
				    : hv_blob_from_memory(names[i], out->files[i].data, out->files[i].len);
	}
	hv_report_init(r, "gen", max_diags);
	ovni_fused_on = fused;
	ovni_split_on = fused; /* the two-read path replays the one-thread way */
	hv_validate_set(&opt, blobs, out->n, r);
	ovni_fused_on = true;
	ovni_split_on = true;
	for (size_t i = 0; i < out->n; i++) hv_blob_release(&blobs[i]);
}

static const char *report_diff(const hv_report *a, const hv_report *b)
{
	if (memcmp(a->evaluated, b->evaluated, sizeof a->evaluated) != 0) return "evaluation counts";
	if (memcmp(a->failed, b->failed, sizeof a->failed) != 0) return "failure counts";
	if (memcmp(a->count, b->count, sizeof a->count) != 0 || a->suppressed != b->suppressed) return "totals";
	if (a->internal_error != b->internal_error || a->unreadable != b->unreadable) return "status";
	if (a->ndiags != b->ndiags) return "number of diagnostics";
	for (size_t i = 0; i < a->ndiags; i++) {
		const hv_diag *x = &a->diags[i], *y = &b->diags[i];
		if (x->rule != y->rule || x->sev != y->sev || x->offset != y->offset || x->length != y->length ||
		    strcmp(x->file, y->file) != 0 || strcmp(x->path, y->path) != 0 || strcmp(x->msg, y->msg) != 0)
			return "a diagnostic";
	}
	return NULL;
}

static unsigned n_model_fired, n_inputs;

/* Both ways, every reading; true when all agree. */
static bool agree(gen_output *out, const char *what)
{
	bool ok = true;
	n_inputs++;
	for (int v = 0; v < 6 && ok; v++) {
		bool windowed = v & 1, jobs = v & 2 || v >= 4;
		size_t md = v == 3 ? 2 : 100;
		hv_report a, b;
		threads = v >= 4;
		/* chunks of one event, of a few, of the default size */
		ovni_split_chunk = v == 4 ? 1 : v == 5 ? 100 : 0;
		run(out, true, windowed, jobs, md, &a);
		ovni_split_chunk = 0;
		run(out, false, windowed, jobs, md, &b);
		threads = false;
		const char *diff = report_diff(&a, &b);
		if (diff) {
			printf("  %s (%s, %s): fused and two-read differ in %s\n", what, windowed ? "windows" : "memory",
			       v >= 4 ? "small chunks on threads" : jobs ? "2 jobs" : "1 job", diff);
			tl_dump(&a);
			tl_dump(&b);
			ok = false;
		}
		for (int k = 0; k < HV_RULE_COUNT && v == 0; k++)
			if (b.failed[k] && strncmp(hv_rules[k].id, "ovni.model.", 11) == 0) {
				n_model_fired++;
				break;
			}
		hv_report_free(&a);
		hv_report_free(&b);
	}
	return ok;
}

static bool generate(gen_output *out, uint64_t seed, unsigned len, const char *brk)
{
	gen_params p;
	gen_params_default(&p);
	p.what = "ovni-trace";
	p.seed = seed;
	p.trace_len = len;
	p.break_rule = brk;
	memset(out, 0, sizeof *out);
	char err[128];
	return gen_generate(&p, out, err, sizeof err) == 0;
}

/* Damage the largest stream.obs: kind 0 a clock going back, 1 a random
 * byte, 2 a cut. */
static void damage(gen_output *out, unsigned kind, gen_rng *rng)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < out->n; i++)
		if (strstr(out->files[i].name, "stream.obs") && (best == SIZE_MAX || out->files[i].len > out->files[best].len))
			best = i;
	if (best == SIZE_MAX || out->files[best].len < 64) return;
	uint8_t *d = out->files[best].data;
	size_t n = out->files[best].len, at = 8 + gen_below(rng, n - 40);
	if (kind == 0) {
		/* the clock of the event at or after `at` (walk to it) */
		size_t o = 8;
		while (o + 28 < n && o < at) o += (d[o] & 0x10) ? 16 + hv_le32(d + o + 12) : 12 + ((d[o] & 15) ? (d[o] & 15) + 1u : 0);
		if (o + 12 <= n) hv_put_le64(d + o + 4, hv_le64(d + o + 4) - 500000);
	} else if (kind == 1) {
		d[at] = (uint8_t)gen_rand(rng);
	} else {
		out->files[best].len = at;
	}
}

/* Damage the second stream.json: kind 0 a comment before it and 1 bytes
 * after it (warnings: the fused pass runs, and the walk parses that
 * document again, writing its diagnostic), 2 a version 2 (an error: the
 * pass does nothing, the walk parses every document). */
static void damage_json(gen_output *out, unsigned kind)
{
	size_t seen = 0;
	for (size_t i = 0; i < out->n; i++) {
		gen_file *f = &out->files[i];
		if (!strstr(f->name, "stream.json") || ++seen != 2) continue;
		const char *add = kind == 0 ? "// a comment\n" : "\n}\n";
		size_t an = strlen(add);
		uint8_t *d = realloc(f->data, f->len + an);
		if (!d) return;
		if (kind == 0) {
			memmove(d + an, d, f->len);
			memcpy(d, add, an);
			f->len += an;
		} else if (kind == 1) {
			memcpy(d + f->len, add, an);
			f->len += an;
		} else {
			uint8_t *v = memchr(d, '3', f->len);
			if (v) *v = '2';
		}
		f->data = d;
		return;
	}
}

int main(void)
{
	bool small = TL_SANITIZED; /* a smaller sample in the sanitizer build */
	unsigned len = small ? 400 : 1500; /* steps per stream: ~20 to 60 KiB, beyond the 16 KiB windows */
	for (uint64_t seed = 1; seed <= (small ? 2u : 4u); seed++) {
		gen_output out;
		CHECK(generate(&out, seed, len, NULL), "seed %" PRIu64 " generated", seed);
		char what[64];
		snprintf(what, sizeof what, "seed %" PRIu64, seed);
		CHECK(agree(&out, what), "%s: the fused pass reports what the two-read path reports", what);
		gen_output_free(&out);
		gen_rng rng = {seed * 7777u};
		for (unsigned k = 0; k < (small ? 3u : 9u); k++) {
			CHECK(generate(&out, seed, len, NULL), "generated");
			damage(&out, k % 3, &rng);
			snprintf(what, sizeof what, "seed %" PRIu64 " damage %u", seed, k);
			CHECK(agree(&out, what), "%s: the fused pass reports what the two-read path reports", what);
			gen_output_free(&out);
		}
	}
	/* a stream.json with a diagnostic: the walk parses it (and, after an
	 * error, every one) again, the others are taken from the fused pass */
	for (unsigned k = 0; k < 3; k++) {
		gen_output out;
		CHECK(generate(&out, 1 + k, small ? 60 : 200, NULL), "generated");
		damage_json(&out, k);
		char what[64];
		snprintf(what, sizeof what, "seed %u, stream.json damage %u", 1 + k, k);
		uint64_t docs = atomic_load(&ovni_fused_docs);
		CHECK(agree(&out, what), "%s: the fused pass reports what the two-read path reports", what);
		uint64_t taken = atomic_load(&ovni_fused_docs) - docs;
		hv_report r;
		run(&out, true, false, true, 100, &r);
		int want = k == 0 ? HV_R_OVNI_JSON_COMMENT : k == 1 ? HV_R_OVNI_JSON_TRAILING_GARBAGE : HV_R_OVNI_JSON_VERSION;
		CHECK(r.failed[want] == 1, "%s: %s reported", what, hv_rules[want].id);
		hv_report_free(&r);
		CHECK(k < 2 ? taken > 0 : taken == 0, "%s: %" PRIu64 " documents taken from the fused pass", what, taken);
		gen_output_free(&out);
	}
	unsigned nbrk = 0, bad = 0;
	for (int k = 0; k < HV_RULE_COUNT; k++) {
		const char *id = hv_rules[k].id;
		if (strncmp(id, "ovni.model.", 11) != 0 && strncmp(id, "ovni.tree.", 10) != 0) continue;
		gen_output out;
		if (!generate(&out, 1, 60, id)) continue;
		nbrk++;
		if (!agree(&out, id)) bad++;
		gen_output_free(&out);
	}
	CHECK(nbrk > 20 && bad == 0, "%u ovni.model/ovni.tree breaks: %u where the fused pass differs", nbrk, bad);
	/* a fused pass that keeps too many reports with diagnostics whole
	 * gives up, and the walk reads the streams twice: the same report */
	for (unsigned keep = 0; keep < 2; keep++) {
		ovni_fused_max_noisy = keep;
		gen_rng rng = {4242};
		for (unsigned k = 0; k < 3; k++) {
			gen_output out;
			CHECK(generate(&out, 1 + k, len, NULL), "generated");
			damage(&out, k % 3, &rng);
			char what[64];
			snprintf(what, sizeof what, "seed %u damage %u, %u reports kept", 1 + k, k, keep);
			CHECK(agree(&out, what), "%s: the fused pass gives up and reports what the two-read path reports", what);
			gen_output_free(&out);
		}
		gen_output out;
		if (generate(&out, 1, 60, "ovni.model.cpu-shared")) {
			CHECK(agree(&out, "ovni.model.cpu-shared, few reports kept"), "a model break: the same report when the pass gives up");
			gen_output_free(&out);
		}
	}
	ovni_fused_max_noisy = 4096;
	/* the documents were parsed once, by the fused pass, on the inputs
	 * where the pass ran */
	CHECK(atomic_load(&ovni_fused_docs) > 100, "%" PRIu64 " stream.json documents taken from the fused pass",
	      (uint64_t)atomic_load(&ovni_fused_docs));
	/* the comparison means something only if the model ran and fired */
	CHECK(n_model_fired > 10, "the model reported on %u of %u inputs", n_model_fired, n_inputs);
	/* and the split replay ran, in chunks of one event among others, and
	 * gave up on the inputs the model reports on */
	uint64_t runs = atomic_load(&ovni_split_runs), chunks = atomic_load(&ovni_split_chunks),
		 gave_up = atomic_load(&ovni_split_fallbacks);
	CHECK(runs >= 10 && chunks > 5000 && gave_up > 10 && gave_up < runs,
	      "%" PRIu64 " split replays (%u inputs) made %" PRIu64 " chunks; %" PRIu64 " gave up", runs, n_inputs, chunks,
	      gave_up);
	TAP_DONE();
}
