/* The event model per loom: a loom's threads, readers, CPUs and windows
 * set up, its replay run (model.c) and its state freed; and the trace's
 * looms in the emulator's stream order, checked one after the other when
 * the fused pass (fused.c) did not replay them. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "model.h"

/* Per-stream window: the looms' windows share WINDOW_BUDGET bytes, each
 * between WINDOW_MIN (a loom may have thousands of streams) and WINDOW_MAX
 * (few streams read in few, large refills). */
#define WINDOW_BUDGET (256u * 1024u)
#define WINDOW_MIN 16384u
#define WINDOW_MAX (64u * 1024u)

/* The loom's logical CPUs are 0..N-1 (ovni.tree.loom-cpus-index checks
 * that), so N is at most the number of loom_cpus entries its threads list:
 * an index beyond that count is a metadata error already reported, and must
 * not size the per-CPU tables (an index of 2^31-2 would ask for gigabytes). */
static int32_t loom_ncpus(ovni_trace *t, const size_t *idx, size_t n)
{
	int64_t max = -1;
	size_t entries = 0;
	for (size_t i = 0; i < n; i++) entries += t->s[idx[i]].meta.ncpus;
	for (size_t i = 0; i < n; i++) {
		const ovni_meta *m = &t->s[idx[i]].meta;
		for (size_t c = 0; c < m->ncpus; c++)
			if (m->cpus[c].index > max && (uint64_t)m->cpus[c].index < entries &&
			    m->cpus[c].index < INT32_MAX)
				max = m->cpus[c].index;
	}
	return (int32_t)(max + 1);
}

/* Set up the loom's threads and readers (the caller zeroed L and set its
 * trace and report); false on out of memory (reported). `reps`: the fused
 * stream checks' reports, or NULL (the streams were checked). */
static bool loom_setup(model_loom *L, ovni_trace *t, const size_t *idx, size_t n, hv_report **reps,
		       ovni_obs_summary **sums)
{
	L->th = hv_calloc(n, sizeof *L->th);
	L->rd = hv_calloc(n, sizeof *L->rd);
	L->cpu.ncpus = loom_ncpus(t, idx, n);
	size_t nc = L->cpu.ncpus > 0 ? (size_t)L->cpu.ncpus : 1;
	L->cpu.running = hv_calloc(nc, sizeof *L->cpu.running);
	L->cpu.owner = hv_calloc(nc, sizeof *L->cpu.owner);
	if (!L->th || !L->rd || !L->cpu.running || !L->cpu.owner) {
		hv_report_internal(t->r, "out of memory");
		return false;
	}
	L->nth = n;
	/* every slot holds key 0, which classifies as no model */
	for (size_t i = 0; i < MODEL_OP_SLOTS; i++) L->ops[i] = (mop){.h = model_h_none};
	size_t wcap = WINDOW_BUDGET / n;
	wcap = wcap < WINDOW_MIN ? WINDOW_MIN : wcap > WINDOW_MAX ? WINDOW_MAX : wcap;
	/* found once per trace: a walk over every stream of the trace per loom
	 * costs the looms times the streams */
	if (t->mark_kind) memcpy(L->mark_kind, t->mark_kind, sizeof L->mark_kind);
	else ovni_model_mark_kinds(t, L->mark_kind);
	for (size_t i = 0; i < n; i++) {
		mthread *th = &L->th[i];
		th->s = &t->s[idx[i]];
		th->tid = th->s->tid;
		th->cpu = MODEL_NO_CPU;
		mreader *rd = &L->rd[i];
		rd->pos = 8;
		rd->end = th->s->obs->size;
		/* the process of the first thread with its pid; threads of a
		 * process come one after the other (by path), so the thread
		 * before is asked first, not every thread before it */
		uint32_t p = (uint32_t)i;
		if (i > 0 && L->th[i - 1].s->pid == th->s->pid) {
			p = L->th[i - 1].proc;
		} else {
			for (size_t j = 0; j < i; j++)
				if (L->th[j].s->pid == th->s->pid) {
					p = L->th[j].proc;
					break;
				}
		}
		th->proc = p;
		if (!hv_window_init(&rd->w, th->s->obs, wcap)) {
			rd->done = true;
			L->oom = true;
		} else if (reps) {
			/* nothing is walkable before the checks pass over it */
			rd->end = rd->pos;
			rd->chk_rep = reps[i];
			rd->chk = ovni_obs_start(th->s->obs, reps[i], false, sums[i], &rd->w);
			if (!rd->chk) rd->done = true;
		}
	}
	return true;
}

/* Free the loom's state; with `reps`, the stream checks of what the replay
 * did not read first. L is zeroed but for its trace and report. */
static void loom_free(model_loom *L, const size_t *idx, size_t n, hv_report **reps, ovni_obs_summary **sums)
{
	for (size_t i = 0; L->th && L->rd && i < L->nth; i++) {
		mthread *th = &L->th[i];
		mreader *rd = &L->rd[i];
		ovni_obs_end(rd->chk); /* the checks of what the replay did not read */
		hv_window_free(&rd->w);
		if (reps && !rd->chk_rep) ovni_check_obs(th->s->obs, reps[i], false, sums[i]);
		for (int c = 0; c < MODEL_NCH; c++) free(th->st[c].v);
		for (int m = 0; th->marks && m < OVNI_MARK_TYPES; m++) free(th->marks[m].v);
		free(th->marks);
		free(th->bodies);
	}
	for (size_t i = 0; reps && L->nth == 0 && i < n; i++) ovni_check_obs(L->t->s[idx[i]].obs, reps[i], false, sums[i]);
	free(L->th);
	free(L->rd);
	free(L->cpu.running);
	free(L->cpu.owner);
	mmap64_free(&L->types);
	mmap64_free(&L->tasks);
	mmap64_free(&L->bodymap);
	model_tasks_free(L);
	for (size_t i = 0; L->dense && i < L->nth * 3; i++) free(L->dense[i].ix);
	free(L->dense);
	free(L->body);
	ovni_trace *t = L->t;
	hv_report *r = L->r;
	memset(L, 0, sizeof *L);
	L->t = t;
	L->r = r;
}

static bool any_error(hv_report **reps, size_t n)
{
	for (size_t i = 0; reps && i < n; i++)
		if (reps[i]->count[HV_SEV_ERROR] || reps[i]->internal_error) return true;
	return false;
}

void ovni_model_loom(ovni_trace *t, const size_t *idx, size_t n, const int64_t *all_offs, hv_report **reps,
		     ovni_obs_summary **sums, const hv_options *opt, unsigned threads)
{
	model_loom *L = hv_calloc(1, sizeof *L);
	int64_t *offs = hv_malloc(n * sizeof *offs);
	if (!L || !offs) {
		hv_report_internal(t->r, "out of memory");
		free(L);
		free(offs);
		for (size_t i = 0; reps && i < n; i++) ovni_check_obs(t->s[idx[i]].obs, reps[i], false, sums[i]);
		return;
	}
	L->t = t;
	L->r = t->r;
	for (size_t i = 0; i < n; i++) offs[i] = all_offs[idx[i]];
	hv_report **left = reps; /* fused stream checks still to finish */
	if (loom_setup(L, t, idx, n, reps, sums)) {
		int split = L->oom ? 0 : model_replay_split(L, offs, opt, threads);
		if (split == 0) {
			model_replay(L, offs);
		} else if (split < 0) {
			/* the split replay gave up: the one-thread replay, from
			 * the start, over streams whose checks are finished
			 * first; if they found an error the model is not
			 * reported */
			loom_free(L, idx, n, left, sums);
			left = NULL;
			if (!any_error(reps, n) && loom_setup(L, t, idx, n, NULL, NULL)) model_replay(L, offs);
			else L->stop = true;
		}
		if (!L->stop && !L->oom) model_end_checks(L);
		if (L->oom) hv_report_internal(t->r, "out of memory in the ovni event model");
	}
	loom_free(L, idx, n, left, sums);
	free(L);
	free(offs);
}

typedef struct loom_key {
	const char *loom, *rel;
	size_t i;
} loom_key;

static int cmp_loom(const void *a, const void *b)
{
	const loom_key *x = a, *y = b;
	int c = strcmp(x->loom, y->loom);
	if (c) return c;
	c = strcmp(x->rel, y->rel);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

size_t ovni_model_order(const ovni_trace *t, size_t *ord, bool walked_only)
{
	loom_key *k = hv_malloc((t->ns ? t->ns : 1) * sizeof *k);
	size_t n = 0;
	if (!k) return SIZE_MAX;
	for (size_t i = 0; i < t->ns; i++) {
		const ovni_stream *s = &t->s[i];
		/* ovniemu 1.14 reads v3 streams of part "thread" only */
		if (s->version == 3 && s->thread && s->obs && (s->sum.walked || !walked_only) && !s->meta.part_unknown)
			k[n++] = (loom_key){s->loom, s->rel, i};
	}
	/* relative-path order within a loom: the emulator's stream order */
	qsort(k, n, sizeof *k, cmp_loom);
	for (size_t i = 0; i < n; i++) ord[i] = k[i].i;
	free(k);
	return n;
}

void ovni_model_mark_kinds(const ovni_trace *t, int8_t kind[OVNI_MARK_TYPES])
{
	memset(kind, -1, OVNI_MARK_TYPES);
	for (size_t i = 0; i < t->ns; i++)
		for (size_t k = 0; k < t->s[i].meta.nmarks; k++) {
			const ovni_mark *mk = &t->s[i].meta.marks[k];
			if (!mk->is_label && mk->type >= 0 && mk->type < OVNI_MARK_TYPES) kind[mk->type] = mk->stack;
		}
}

void ovni_model_check(ovni_trace *t, const int64_t *offsets)
{
	hv_report *r = t->r;
	if (t->fused) { /* replayed already, with the stream checks */
		if (!r->count[HV_SEV_ERROR] && !r->internal_error && !r->unreadable) hv_report_merge(r, t->fused);
		return;
	}
	if (r->count[HV_SEV_ERROR] || r->internal_error || r->unreadable) return;
	size_t *ord = hv_malloc((t->ns ? t->ns : 1) * sizeof *ord);
	size_t n = ord ? ovni_model_order(t, ord, true) : SIZE_MAX;
	int8_t kinds[OVNI_MARK_TYPES];
	ovni_model_mark_kinds(t, kinds);
	t->mark_kind = kinds;
	for (size_t i = 0; n != SIZE_MAX && i < n;) {
		size_t j = i + 1;
		while (j < n && strcmp(t->s[ord[j]].loom, t->s[ord[i]].loom) == 0) j++;
		ovni_model_loom(t, ord + i, j - i, offsets, NULL, NULL, NULL, 1);
		i = j;
	}
	t->mark_kind = NULL;
	free(ord);
}
