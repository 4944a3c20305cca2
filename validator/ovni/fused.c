/* The fused pass: each v3 stream that the event model replays is read once,
 * for both its stream checks (obs.c) and the replay (model.c). The replay
 * needs every stream's metadata, the clock offsets and the looms before it
 * starts, and the report must read as if the stream checks ran where the
 * ordered walk (tree.c) reaches each stream, and the model after the tree
 * checks. So, before the walk:
 *   - the stream.json documents and clock-offsets.txt are read into a
 *     scratch report (the walk reads them again for the real one: they are
 *     small), and when they hold an error the pass does nothing (the model
 *     will not run, so the streams are checked as usual);
 *   - each loom is replayed (looms in parallel under -j, and within a loom
 *     its streams' own checks on the threads to spare: model_split.c),
 *     its streams' checks writing into one report and summary
 *     per stream, which the walk merges where it would have checked the
 *     stream (ovni_fused_take);
 *   - the replay's own report waits, and ovni_model_check merges it only
 *     when the finished report holds no error, exactly when the model would
 *     have run. A stream whose checks find an error ends the replay of that
 *     stream (its events are not replayed), which is safe because the model
 *     report is then dropped.
 * Memory: one window per stream, shared by its checks and the replay, plus
 * a report per stream waiting to be merged (bounded by FUSED_MAX_STREAMS;
 * larger traces take the two-read path). */
#include <stdlib.h>
#include <string.h>

#include "../core/units.h"
#include "model.h"
#include "tree.h"

#define FUSED_MAX_STREAMS 4096u

bool ovni_fused_on = true;

typedef struct fjob {
	const hv_blob *obs;
	bool used;
	hv_report rep;
	ovni_obs_summary sum;
} fjob;

typedef struct floom {
	size_t from, to;          /* its streams: ord[from, to) */
	hv_report rep;            /* the model's diagnostics for this loom */
} floom;

struct ovni_fused {
	fjob *job;                /* per replayed stream, in replay order */
	size_t njob;
	hv_report model;
};

typedef struct fctx {
	ovni_trace *pre;
	const hv_options *opt;    /* the runner of each loom's split replay */
	unsigned threads;         /* threads per loom */
	const size_t *ord;
	const int64_t *offs;
	fjob *job;
	floom *loom;
	hv_report **reps;
	ovni_obs_summary **sums;
} fctx;

static void loom_task(void *ctx, size_t i)
{
	fctx *c = ctx;
	floom *l = &c->loom[i];
	ovni_trace t = *c->pre; /* a copy per loom: its own report */
	t.r = &l->rep;
	ovni_model_loom(&t, c->ord + l->from, l->to - l->from, c->offs, c->reps + l->from, c->sums + l->from, c->opt, c->threads);
}

void ovni_fused_run(const hv_options *opt, ovni_trace *t, hv_blob *const *json, hv_blob *const *obs, size_t n,
		    hv_blob *clkoff)
{
	if (!ovni_fused_on || opt->units || n == 0 || n > FUSED_MAX_STREAMS) return;
	hv_report scratch;
	hv_report_init(&scratch, t->r->input_path, 0);
	ovni_trace pre = {.r = &scratch, .clkoff = clkoff, .s = calloc(n, sizeof *pre.s), .ns = n};
	size_t *ord = malloc(n * sizeof *ord), nl = 0, m = 0;
	int64_t *offs = calloc(n, sizeof *offs);
	struct ovni_fused *fx = calloc(1, sizeof *fx);
	floom *loom = calloc(n, sizeof *loom);
	hv_report **reps = calloc(n, sizeof *reps);
	ovni_obs_summary **sums = calloc(n, sizeof *sums);
	if (!pre.s || !ord || !offs || !fx || !loom || !reps || !sums) goto out;
	for (size_t i = 0; i < n; i++) { /* as the walk's check_v3 sets them */
		ovni_stream *s = &pre.s[i];
		s->proc = -1;
		s->rel = ovni_relpath(t->r, json[i]->name);
		s->json = json[i];
		s->obs = obs[i];
		s->version = 3;
		ovni_check_json(json[i], &scratch, OVNI_DOC_STREAM3, &s->meta);
		ovni_stream_ids_from_meta(s);
	}
	ovni_clock_offsets(&pre, offs);
	if (scratch.count[HV_SEV_ERROR] || scratch.internal_error) goto out; /* the model will not run */
	m = ovni_model_order(&pre, ord, false);
	if (m == SIZE_MAX || m == 0) goto out;
	fx->job = calloc(m, sizeof *fx->job);
	if (!fx->job) goto out;
	fx->njob = m;
	for (size_t k = 0; k < m; k++) {
		fjob *j = &fx->job[k];
		j->obs = pre.s[ord[k]].obs;
		hv_report_init(&j->rep, t->r->input_path, t->r->max_diags);
		reps[k] = &j->rep;
		sums[k] = &j->sum;
	}
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && strcmp(pre.s[ord[j]].loom, pre.s[ord[i]].loom) == 0) j++;
		loom[nl].from = i;
		loom[nl].to = j;
		hv_report_init(&loom[nl++].rep, t->r->input_path, t->r->max_diags);
		i = j;
	}
	/* Looms run side by side; a loom's split replay (model_split.c) gets
	 * its share of the threads to spare. */
	unsigned threads = opt->runner && opt->jobs > nl ? (unsigned)(opt->jobs / nl) : 1;
	fctx c = {&pre, opt, threads, ord, offs, fx->job, loom, reps, sums};
	hv_for_each(opt, nl, loom_task, &c);
	hv_report_init(&fx->model, t->r->input_path, t->r->max_diags);
	for (size_t i = 0; i < nl; i++) hv_report_merge(&fx->model, &loom[i].rep);
	t->fx = fx;
	t->fused = &fx->model;
	fx = NULL;
out:
	for (size_t i = 0; i < nl; i++) hv_report_free(&loom[i].rep);
	if (fx) {
		for (size_t k = 0; k < fx->njob; k++) hv_report_free(&fx->job[k].rep);
		free(fx->job);
		free(fx);
	}
	for (size_t i = 0; pre.s && i < n; i++) ovni_meta_free(&pre.s[i].meta);
	free(pre.s);
	free(ord);
	free(offs);
	free(loom);
	free(reps);
	free(sums);
	hv_report_free(&scratch);
}

static fjob *find(const ovni_trace *t, const hv_blob *obs)
{
	/* in replay order, which is near the walk's name order: a short scan */
	for (size_t k = 0; t->fx && k < t->fx->njob; k++)
		if (t->fx->job[k].obs == obs && !t->fx->job[k].used) return &t->fx->job[k];
	return NULL;
}

bool ovni_fused_take(ovni_trace *t, const hv_blob *obs, ovni_obs_summary *sum)
{
	fjob *j = find(t, obs);
	if (!j) return false;
	j->used = true;
	hv_report_merge(t->r, &j->rep);
	*sum = j->sum;
	hv_report_free(&j->rep);
	return true;
}

bool ovni_fused_has(const ovni_trace *t, const hv_blob *obs) { return find(t, obs) != NULL; }

void ovni_fused_free(ovni_trace *t)
{
	if (!t->fx) return;
	for (size_t k = 0; k < t->fx->njob; k++)
		if (!t->fx->job[k].used) hv_report_free(&t->fx->job[k].rep);
	free(t->fx->job);
	hv_report_free(&t->fx->model);
	free(t->fx);
	t->fx = NULL;
	t->fused = NULL;
}
