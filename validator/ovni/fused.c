/* The fused pass: each v3 stream that the event model replays is read once,
 * for both its stream checks (obs.c) and the replay (model.c). The replay
 * needs every stream's metadata, the clock offsets and the looms before it
 * starts, and the report must read as if the stream checks ran where the
 * ordered walk (trace.c) reaches each stream, and the model after the tree
 * checks. So, before the walk:
 *   - the stream.json documents are checked, on every thread, each into
 *     a report of its own, and clock-offsets.txt into a scratch report
 *     (the walk reads it again for the real one); when they hold an error
 *     the pass does nothing (the model will not run, so the streams are
 *     checked as usual, their documents parsed again by the walk). A
 *     document whose check found nothing waits as its metadata and counts
 *     for the walk, which takes them where it would have parsed it
 *     (ovni_fused_json); one with a diagnostic the walk parses again, so
 *     its diagnostics are written into the trace's report as before;
 *   - each loom is replayed (looms in parallel under -j, and within a loom
 *     its streams' own checks on the threads to spare: model/split.c, and
 *     a wide loom's streams' reports made and folded on them too),
 *     its streams' checks writing into one report and summary
 *     per stream, which the walk merges where it would have checked the
 *     stream (ovni_fused_take);
 *   - the replay's own report waits, and ovni_model_check merges it only
 *     when the finished report holds no error, exactly when the model would
 *     have run. A stream whose checks find an error ends the replay of that
 *     stream (its events are not replayed), which is safe because the model
 *     report is then dropped.
 * Memory: one window per stream, shared by its checks and the replay; a
 * report per stream of the looms being replayed; and per stream waiting to
 * be merged, its summary and either its counts alone (a clean stream's
 * report adds nothing else: a few hundred bytes, where a report is 19 KiB)
 * or, for a stream with a diagnostic, its report, and the same for each
 * loom's model report: more than ovni_fused_max_noisy of those and the pass
 * gives up, the walk then reads the streams twice. So a trace of 65,536 clean streams is read once, as one of
 * 16 is. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"
#include "ovni/model/model.h"
#include "trace.h"


bool ovni_fused_on = true;
unsigned ovni_fused_max_noisy = 4096; /* reports kept whole: 19 KiB each */
_Atomic uint64_t ovni_fused_docs;

/* A clean report, as its nonzero evaluation counts. */
typedef struct fcount {
	uint32_t rule;
	uint64_t n;
} fcount;

/* A report waiting to be merged: whole, or folded into its counts. */
typedef struct fheld {
	hv_report *rep;           /* NULL once folded into cnt (or never made) */
	fcount *cnt;
	uint32_t ncnt;
} fheld;

typedef struct fjob {
	const hv_blob *obs;
	bool used;
	fheld h;                  /* the stream checks' report */
	ovni_obs_summary sum;
} fjob;

typedef struct floom {
	size_t from, to;          /* its streams: ord[from, to) */
	fheld h;                  /* the model's report for this loom */
} floom;

/* A stream.json parsed before the replay, for the walk to take instead of
 * parsing it again: its metadata and, when its check found nothing, its
 * counts (a document with a diagnostic is parsed again by the walk, into
 * the trace's report, so its diagnostics are written exactly as before). */
typedef struct fdoc {
	bool clean;               /* kept: the walk takes meta and cnt */
	fheld h;                  /* its counts (h.rep is never kept) */
} fdoc;

struct ovni_fused {
	fjob *job;                /* per replayed stream, in replay order */
	size_t njob;
	size_t *byobs;            /* job indices by stream (the blob's address), for the walk's look-ups */
	hv_report model;
	ovni_stream *pre;         /* every stream.json, in the walk's order, with its metadata */
	fdoc *doc;                /* per pre */
	size_t npre, next_pre;    /* the walk takes them in order */
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
	const hv_report *like;    /* the trace's report: path and caps for the streams' */
	atomic_uint noisy;        /* reports kept whole */
	atomic_bool gave_up;      /* too many of them, or out of memory */
} fctx;

/* A clean report's counts into j (false: out of memory). */
static bool counts_of(const hv_report *r, fheld *j)
{
	uint32_t n = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) n += r->evaluated[i] != 0;
	j->cnt = n ? hv_malloc(n * sizeof *j->cnt) : NULL;
	if (n && !j->cnt) return false;
	for (int i = 0; i < HV_RULE_COUNT; i++)
		if (r->evaluated[i]) j->cnt[j->ncnt++] = (fcount){(uint32_t)i, r->evaluated[i]};
	return true;
}

/* After the loom's replay: a clean report becomes its counts (merging it
 * adds them and nothing else); another is kept whole. */
static void fold(fctx *c, fheld *j)
{
	if (!j->rep) return;
	if (hv_report_only_counts(j->rep)) {
		if (counts_of(j->rep, j)) {
			hv_report_free(j->rep);
			free(j->rep);
			j->rep = NULL;
			return;
		}
	}
	if (atomic_fetch_add(&c->noisy, 1) >= ovni_fused_max_noisy) atomic_store(&c->gave_up, true);
}

/* A held report into dst, as hv_report_merge would merge it. */
static void held_merge(hv_report *dst, const fheld *j)
{
	if (j->rep) hv_report_merge(dst, j->rep);
	for (uint32_t k = 0; k < j->ncnt; k++) dst->evaluated[j->cnt[k].rule] += j->cnt[k].n; /* a clean report's merge */
}

static void held_free(fheld *j)
{
	if (j->rep) hv_report_free(j->rep);
	free(j->rep);
	free(j->cnt);
	*j = (fheld){0};
}

static hv_report *held_new(fheld *j, const hv_report *like)
{
	if ((j->rep = hv_malloc(sizeof *j->rep))) hv_report_init(j->rep, like->input_path, like->max_diags);
	return j->rep;
}

typedef struct dctx {
	ovni_stream *s;
	fdoc *doc;
	const hv_report *like;
	atomic_bool error;        /* a document holds an error: the model will not run */
} dctx;

/* One stream.json, on any thread: checked into a report of its own, which
 * is kept as counts when it holds nothing else. */
static void doc_task(void *ctx, size_t i)
{
	dctx *c = ctx;
	hv_report r;
	hv_report_init(&r, c->like->input_path, c->like->max_diags);
	ovni_check_json(c->s[i].json, &r, OVNI_DOC_STREAM3, &c->s[i].meta);
	if (r.count[HV_SEV_ERROR] || r.internal_error) atomic_store(&c->error, true);
	c->doc[i].clean = hv_report_only_counts(&r) && counts_of(&r, &c->doc[i].h);
	hv_report_free(&r);
}

/* A wide loom's streams' reports made and folded on the threads it has
 * (19 KiB each, fresh pages: 388 of them were a tenth of the node's
 * serial part); the split replay keeps them busy between the two. */
#define FUSED_PAR_STREAMS 64u

typedef struct rctx {
	fctx *c;
	size_t from;
	bool fold;
} rctx;

static void rep_task(void *ctx, size_t i)
{
	rctx *rc = ctx;
	size_t k = rc->from + i;
	if (rc->fold) fold(rc->c, &rc->c->job[k].h);
	else rc->c->reps[k] = held_new(&rc->c->job[k].h, rc->c->like);
}

static void loom_task(void *ctx, size_t i)
{
	fctx *c = ctx;
	floom *l = &c->loom[i];
	if (atomic_load(&c->gave_up)) return;
	size_t n = l->to - l->from;
	/* within a loom task only when the looms leave threads to spare */
	const hv_options *par = c->threads > 1 && n >= FUSED_PAR_STREAMS ? c->opt : NULL;
	rctx rc = {c, l->from, false};
	hv_for_each(par, n, rep_task, &rc); /* its streams' reports, for the replay's time */
	bool made = true;
	for (size_t k = l->from; k < l->to; k++) made = made && c->reps[k];
	if (!made || !held_new(&l->h, c->like)) {
		atomic_store(&c->gave_up, true);
	} else {
		ovni_trace t = *c->pre; /* a copy per loom: its own report */
		t.r = l->h.rep;
		ovni_model_loom(&t, c->ord + l->from, n, c->offs, c->reps + l->from, c->sums + l->from, c->opt, c->threads);
	}
	rc.fold = true;
	hv_for_each(par, n, rep_task, &rc);
	fold(c, &l->h);
}

/* qsort has no context argument; an input is validated on one thread (-j
 * with several inputs runs them side by side) */
static _Thread_local const fjob *g_sort_jobs;

static int by_obs(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)g_sort_jobs[*(const size_t *)a].obs, y = (uintptr_t)g_sort_jobs[*(const size_t *)b].obs;
	size_t i = *(const size_t *)a, k = *(const size_t *)b;
	return x < y ? -1 : x > y ? 1 : i < k ? -1 : i > k;
}

void ovni_fused_run(const hv_options *opt, ovni_trace *t, hv_blob *const *json, hv_blob *const *obs, size_t n,
		    hv_blob *clkoff)
{
	if (!ovni_fused_on || opt->units || n == 0) return;
	hv_report scratch;
	hv_report_init(&scratch, t->r->input_path, 0);
	ovni_trace pre = {.r = &scratch, .clkoff = clkoff, .s = hv_calloc(n, sizeof *pre.s), .ns = n};
	size_t *ord = hv_malloc(n * sizeof *ord), nl = 0, m = 0;
	int64_t *offs = hv_calloc(n, sizeof *offs);
	struct ovni_fused *fx = hv_calloc(1, sizeof *fx);
	floom *loom = hv_calloc(n, sizeof *loom);
	hv_report **reps = hv_calloc(n, sizeof *reps);
	ovni_obs_summary **sums = hv_calloc(n, sizeof *sums);
	fdoc *doc = hv_calloc(n, sizeof *doc);
	if (!pre.s || !ord || !offs || !fx || !loom || !reps || !sums || !doc) goto out;
	for (size_t i = 0; i < n; i++) { /* as the walk's check_v3 sets them */
		ovni_stream *s = &pre.s[i];
		s->proc = -1;
		s->rel = ovni_relpath(t->r, json[i]->name);
		s->json = json[i];
		s->obs = obs[i];
		s->version = 3;
	}
	/* The documents on every thread: parsed once, here, for the replay
	 * and the walk (a node's 388 of them were a fifth of the work on the
	 * one thread that runs before and after the replay, parsed twice). */
	dctx dc = {.s = pre.s, .doc = doc, .like = t->r};
	atomic_init(&dc.error, false);
	hv_for_each(opt, n, doc_task, &dc);
	for (size_t i = 0; i < n; i++) ovni_stream_ids_from_meta(&pre.s[i]);
	ovni_clock_offsets(&pre, offs);
	/* the model will not run */
	if (atomic_load(&dc.error) || scratch.count[HV_SEV_ERROR] || scratch.internal_error) goto out;
	m = ovni_model_order(&pre, ord, false);
	if (m == SIZE_MAX || m == 0) goto out;
	fx->job = hv_calloc(m, sizeof *fx->job);
	if (!fx->job) goto out;
	fx->njob = m;
	fx->byobs = hv_malloc(m * sizeof *fx->byobs);
	if (!fx->byobs) goto out;
	for (size_t k = 0; k < m; k++) {
		fjob *j = &fx->job[k];
		j->obs = pre.s[ord[k]].obs;
		sums[k] = &j->sum;
		fx->byobs[k] = k;
	}
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && strcmp(pre.s[ord[j]].loom, pre.s[ord[i]].loom) == 0) j++;
		loom[nl].from = i;
		loom[nl++].to = j;
		i = j;
	}
	/* Looms run side by side; a loom's split replay (model/split.c) gets
	 * its share of the threads to spare. */
	unsigned threads = opt->runner && opt->jobs > nl ? (unsigned)(opt->jobs / nl) : 1;
	int8_t kinds[OVNI_MARK_TYPES];
	ovni_model_mark_kinds(&pre, kinds);
	pre.mark_kind = kinds;
	fctx c = {.pre = &pre, .opt = opt, .threads = threads, .ord = ord, .offs = offs, .job = fx->job, .loom = loom,
		  .reps = reps, .sums = sums, .like = t->r};
	atomic_init(&c.noisy, 0);
	atomic_init(&c.gave_up, false);
	hv_for_each(opt, nl, loom_task, &c);
	if (atomic_load(&c.gave_up)) goto out; /* the walk checks the streams, the model reads them again */
	g_sort_jobs = fx->job;
	qsort(fx->byobs, m, sizeof *fx->byobs, by_obs);
	hv_report_init(&fx->model, t->r->input_path, t->r->max_diags);
	for (size_t i = 0; i < nl; i++) held_merge(&fx->model, &loom[i].h);
	fx->pre = pre.s; /* for the walk (ovni_fused_json) */
	fx->doc = doc;
	fx->npre = n;
	pre.s = NULL;
	doc = NULL;
	t->fx = fx;
	t->fused = &fx->model;
	fx = NULL;
out:
	for (size_t i = 0; i < nl; i++) held_free(&loom[i].h);
	if (fx) {
		for (size_t k = 0; k < fx->njob; k++) held_free(&fx->job[k].h);
		free(fx->job);
		free(fx->byobs);
		free(fx);
	}
	for (size_t i = 0; doc && i < n; i++) held_free(&doc[i].h);
	free(doc);
	for (size_t i = 0; pre.s && i < n; i++) ovni_meta_free(&pre.s[i].meta);
	free(pre.s);
	free(ord);
	free(offs);
	free(loom);
	free(reps);
	free(sums);
	hv_report_free(&scratch);
}

/* The first unused job of `obs`, found by halving: the walk looks up every
 * stream, so a scan would cost the streams squared. */
static fjob *find(const ovni_trace *t, const hv_blob *obs)
{
	if (!t->fx) return NULL;
	const struct ovni_fused *fx = t->fx;
	size_t lo = 0, hi = fx->njob;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)fx->job[fx->byobs[mid]].obs < (uintptr_t)obs) lo = mid + 1;
		else hi = mid;
	}
	for (; lo < fx->njob && fx->job[fx->byobs[lo]].obs == obs; lo++)
		if (!fx->job[fx->byobs[lo]].used) return &fx->job[fx->byobs[lo]];
	return NULL;
}

bool ovni_fused_take(ovni_trace *t, const hv_blob *obs, ovni_obs_summary *sum)
{
	fjob *j = find(t, obs);
	if (!j) return false;
	j->used = true;
	held_merge(t->r, &j->h);
	*sum = j->sum;
	held_free(&j->h);
	return true;
}

bool ovni_fused_has(const ovni_trace *t, const hv_blob *obs) { return find(t, obs) != NULL; }

bool ovni_fused_json(ovni_trace *t, const hv_blob *json, ovni_meta *meta)
{
	struct ovni_fused *fx = t->fx;
	if (!fx || fx->next_pre >= fx->npre || fx->pre[fx->next_pre].json != json) return false;
	size_t k = fx->next_pre++;
	if (!fx->doc[k].clean) return false;
	held_merge(t->r, &fx->doc[k].h);
	atomic_fetch_add_explicit(&ovni_fused_docs, 1, memory_order_relaxed);
	*meta = fx->pre[k].meta;
	memset(&fx->pre[k].meta, 0, sizeof fx->pre[k].meta); /* now the walk's */
	return true;
}

void ovni_fused_free(ovni_trace *t)
{
	if (!t->fx) return;
	for (size_t k = 0; k < t->fx->njob; k++) held_free(&t->fx->job[k].h);
	for (size_t k = 0; k < t->fx->npre; k++) {
		held_free(&t->fx->doc[k].h);
		ovni_meta_free(&t->fx->pre[k].meta);
	}
	free(t->fx->doc);
	free(t->fx->pre);
	free(t->fx->job);
	free(t->fx->byobs);
	hv_report_free(&t->fx->model);
	free(t->fx);
	t->fx = NULL;
	t->fused = NULL;
}
