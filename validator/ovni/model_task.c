/* The ovni event model: task types, tasks and task bodies of nOS-V (VY VT),
 * Nanos6 (6Y 6T) and OpenMP (PO PP). Types and tasks belong to a process
 * and a model. A task has one body (nOS-V parallel tasks, VTC, may have
 * several), and each thread keeps a stack of the bodies it runs. What a
 * body may do depends on its model:
 *   nOS-V VTc: pause, run again after it ends, no nesting over a running body;
 *   nOS-V VTC: no pause, no rerun, no nesting, several bodies;
 *   Nanos6:    pause, no rerun, nesting allowed (deprecated, a warning);
 *   OpenMP:    no pause, rerun, nesting allowed (a warning).
 * Starting and ending a Nanos6 or nOS-V body also pushes and pops the
 * "task body" state on the thread's subsystem stack. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../core/hv_int.h"
#include "model.h"

enum { F_PARALLEL = 1, F_RESURRECT = 2, F_PAUSE = 4, F_RELAX = 8 };
enum { B_CREATED, B_RUNNING, B_PAUSED, B_DEAD };
static const char *const bstate[] = {"created", "running", "paused", "dead"};

static uint64_t pkey(const mthread *th, uint8_t model, uint32_t id)
{
	return ((uint64_t)th->proc << 40) | ((uint64_t)model << 32) | id;
}

static inline mdense *dense_of(const model_loom *L, const mthread *th, uint8_t model)
{
	if (!L->dense) return NULL;
	return &L->dense[(size_t)th->proc * 3 + (model == 'V' ? 0 : model == '6' ? 1 : 2)];
}

static inline bool find_task(const model_loom *L, const mthread *th, uint8_t model, uint32_t id, uint32_t *tix)
{
	const mdense *d = dense_of(L, th, model);
	uint32_t i = id - (d ? d->base : 0); /* wraps above cap for ids below base */
	if (d && i < d->cap && d->ix[i]) {
		*tix = d->ix[i] - 1;
		return true;
	}
	return mmap64_get(&L->tasks, pkey(th, model, id), tix);
}

/* Record task tix of `model` with `id`; false when memory fails. */
static bool add_task(model_loom *L, const mthread *th, uint8_t model, uint32_t id, uint32_t tix)
{
	if (!L->dense && !(L->dense = calloc(L->nth * 3, sizeof *L->dense))) return false;
	mdense *d = dense_of(L, th, model);
	if (!d->cap) d->base = id > 64 ? id - 64 : 0;
	uint64_t limit = 2 * (uint64_t)d->n + 1024;
	uint32_t i = id - d->base;
	if (id < d->base || i >= limit) return mmap64_put(&L->tasks, pkey(th, model, id), tix);
	if (i >= d->cap) {
		uint64_t nc = d->cap ? 2 * (uint64_t)d->cap : 1024;
		if (nc <= i) nc = (uint64_t)i + 1;
		if (nc > limit) nc = limit;
		uint32_t *nv = realloc(d->ix, nc * sizeof *nv);
		if (!nv) return false;
		memset(nv + d->cap, 0, (nc - d->cap) * sizeof *nv);
		d->ix = nv;
		d->cap = (uint32_t)nc;
	}
	d->ix[i] = tix + 1;
	d->n++;
	return true;
}

static inline void note(mtwhere *w, const mevent *e)
{
	w->off_v = (e->off & ((1ull << 56) - 1)) | (uint64_t)e->p[3] << 56;
	w->clock = e->clock;
}

/* A task event's place as messages show it. */
static mwhere where_of(const mtask *t, const mtwhere *w);
static mwhere body_where(const model_loom *L, const mbody *bd);
#define BODY_WHERE(L, bd) ((const mwhere[1]){body_where(L, bd)})
static mwhere where_of(const mtask *t, const mtwhere *w)
{
	uint8_t v = (uint8_t)(w->off_v >> 56);
	return (mwhere){.off = w->off_v & ((1ull << 56) - 1), .clock = w->clock,
			.mcv = {t->model, t->model == 'P' ? 'P' : 'T', v}, .set = v != 0};
}

static mwhere body_where(const model_loom *L, const mbody *bd) { return where_of(model_task_at(L, bd->task), &bd->last); }

/* Task events too short for their arguments: see model_cpu.c payload_ok. */
static bool payload_ok(const mevent *e, bool ok)
{
	(void)e;
	return ok;
}

static void type_event(model_loom *L, uint32_t ti, const mevent *e)
{
	mthread *th = &L->th[ti];
	if (!payload_ok(e, e->jumbo)) return;
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_PAYLOAD, e->plen >= 4)) {
		model_fail(L, HV_R_OVNI_MODEL_PAYLOAD, th, e,
			   "the type declaration carries %" PRIu32 " byte(s) of jumbo data, fewer than its u32 type id; the "
			   "emulator reads the id from the bytes after the event", e->plen);
		return;
	}
	uint32_t id = hv_le32(e->payload), prev;
	uint64_t k = pkey(th, e->p[1], id);
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_DUPLICATE, !mmap64_get(&L->types, k, &prev))) {
		model_fail(L, HV_R_OVNI_MODEL_TASK_DUPLICATE, th, e,
			   "process %" PRId64 " declares task type %" PRIu32 " again", th->s->pid, id);
		return;
	}
	if (!mmap64_put(&L->types, k, 0)) L->oom = L->stop = true;
}


/* Full chunks freed by finished looms, for the next looms of the same trace
 * (looms may run in parallel: a lock). Fresh pages cost a page fault and a
 * kernel clear each (on this project's VMs ~1 GB/s: 13% of the Nanos6-heavy
 * bench mix); a recycled chunk costs neither. Bounded by the chunks the
 * looms of the trace had live at once, freed with the trace. */
struct model_pool {
	pthread_mutex_t mu;
	mtask **v;
	size_t n, cap;
};

model_pool *model_pool_new(void)
{
	model_pool *p = calloc(1, sizeof *p);
	if (p && pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

void model_pool_free(model_pool *p)
{
	if (!p) return;
	for (size_t i = 0; i < p->n; i++) free(p->v[i]);
	free(p->v);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

static mtask *pool_take(model_pool *p)
{
	mtask *c = NULL;
	if (!p) return NULL;
	pthread_mutex_lock(&p->mu);
	if (p->n) c = p->v[--p->n];
	pthread_mutex_unlock(&p->mu);
	return c;
}

/* Give back a full chunk; false when it must be freed instead. */
static bool pool_give(model_pool *p, mtask *c)
{
	bool ok = false;
	if (!p) return false;
	pthread_mutex_lock(&p->mu);
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 8;
		mtask **nv = realloc(p->v, nc * sizeof *nv);
		if (nv) {
			p->v = nv;
			p->cap = nc;
		}
	}
	if (p->n < p->cap) {
		p->v[p->n++] = c;
		ok = true;
	}
	pthread_mutex_unlock(&p->mu);
	return ok;
}

/* Room for `cap` tasks: a full chunk aligned to its size and in huge pages
 * where the system has them (one page fault for the whole chunk, not one per
 * 4 KiB), recycled from the trace's pool when one is there; a smaller first
 * chunk aligned to the records' 64 bytes, in small pages, so a loom of few
 * tasks keeps a small footprint. */
static mtask *chunk_alloc(model_loom *L, size_t cap)
{
	if (cap != MODEL_TASK_CHUNK) return aligned_alloc(64, cap * sizeof(mtask));
	mtask *c = pool_take(L->t->pool);
	if (c) return c;
	c = aligned_alloc(MODEL_TASK_CHUNK * sizeof(mtask), MODEL_TASK_CHUNK * sizeof(mtask));
#ifdef MADV_HUGEPAGE
	if (c) madvise(c, MODEL_TASK_CHUNK * sizeof *c, MADV_HUGEPAGE);
#endif
	return c;
}

void model_tasks_free(model_loom *L)
{
	for (size_t i = 0; i < L->ntaskc; i++) {
		bool full = i > 0 || L->cap0 == MODEL_TASK_CHUNK;
		if (!full || !pool_give(L->t->pool, L->taskc[i])) free(L->taskc[i]);
	}
	free(L->taskc);
	L->taskc = NULL;
	L->ntaskc = 0;
}

/* The first chunk, full: a bigger one (records are 64-byte aligned, so no
 * realloc; tasks are found by index, never kept by address across a create). */
static bool grow_first_chunk(model_loom *L)
{
	if (L->cap0 >= MODEL_TASK_CHUNK) return true;
	size_t cap = L->cap0 * 8 < MODEL_TASK_CHUNK ? L->cap0 * 8 : MODEL_TASK_CHUNK;
	mtask *c = chunk_alloc(L, cap);
	if (!c) return false;
	memcpy(c, L->taskc[0], L->cap0 * sizeof *c);
	free(L->taskc[0]);
	L->taskc[0] = c;
	L->cap0 = cap;
	return true;
}
static void create_event(model_loom *L, uint32_t ti, const mevent *e, uint8_t flags)
{
	mthread *th = &L->th[ti];
	if (!payload_ok(e, !e->jumbo && e->plen >= 8)) return;
	uint32_t id = hv_le32(e->payload), type = hv_le32(e->payload + 4), x;
	uint8_t m = e->p[1];
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_DUPLICATE, !find_task(L, th, m, id, &x))) {
		mwhere then = where_of(model_task_at(L, x), &model_task_at(L, x)->created);
		model_fail_since(L, HV_R_OVNI_MODEL_TASK_DUPLICATE, th, e, &then,
				 "process %" PRId64 " creates task %" PRIu32 " again; it was created by", th->s->pid, id);
		return;
	}
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_UNKNOWN, mmap64_get(&L->types, pkey(th, m, type), &x))) {
		model_fail(L, HV_R_OVNI_MODEL_TASK_UNKNOWN, th, e,
			   "task %" PRIu32 " is created with type %" PRIu32 ", which process %" PRId64
			   " has not declared (%cYc/POc) before", id, type, th->s->pid, m == 'P' ? 'P' : m);
		return;
	}
	if (L->ntask > 0 && L->ntask == L->cap0 && !grow_first_chunk(L)) {
		L->oom = L->stop = true;
		return;
	}
	if (L->ntask % MODEL_TASK_CHUNK == 0) {
		if (L->ntask >= MODEL_BODY1) {
			L->oom = L->stop = true;
			return;
		}
		if (L->ntaskc == L->captaskc) {
			size_t nc = L->captaskc ? L->captaskc * 2 : 16;
			mtask **nv = realloc(L->taskc, nc * sizeof *nv);
			if (!nv) {
				L->oom = L->stop = true;
				return;
			}
			L->taskc = nv;
			L->captaskc = nc;
		}
		/* The first chunk starts small (most traces, and every test and
		 * fuzzing input, have few tasks: a 2 MiB mapping made and
		 * unmapped per validation cost them more than their checks). */
		size_t cap = L->ntaskc == 0 ? MODEL_TASK_FIRST : MODEL_TASK_CHUNK;
		mtask *c = chunk_alloc(L, cap);
		if (L->ntaskc == 0) L->cap0 = cap;
		if (!c) {
			L->oom = L->stop = true;
			return;
		}
		L->taskc[L->ntaskc++] = c;
	}
	mtask *t = model_task_at(L, (uint32_t)L->ntask);
	/* tasks are written in order, a few events apart: fetch the line of
	 * a later one now, so its first write does not wait for memory */
	if (L->ntask % MODEL_TASK_CHUNK + 16 < (L->ntask < MODEL_TASK_CHUNK ? L->cap0 : MODEL_TASK_CHUNK))
		__builtin_prefetch(t + 16, 1, 3);
	*t = (mtask){.id = id, .type = type, .model = m, .flags = flags, .b1 = {.task = (uint32_t)L->ntask, .thread = -1}};
	note(&t->created, e);
	if (!add_task(L, th, m, id, (uint32_t)L->ntask)) L->oom = L->stop = true;
	L->ntask++;
}

static inline mbody *body_at(const model_loom *L, uint32_t ref)
{
	return ref & MODEL_BODY1 ? &model_task_at(L, ref & ~MODEL_BODY1)->b1 : &L->body[ref];
}

static bool top_is(const mthread *th, uint32_t b) { return th->nb && th->bodies[th->nb - 1] == b; }

/* The body's state, its stack and the thread's top; false (reported) when
 * the event `what` may not act on it. */
static bool body_on_top_fail(model_loom *L, uint32_t ti, const mevent *e, uint32_t b, int want, const char *what);

static inline bool body_on_top(model_loom *L, uint32_t ti, const mevent *e, uint32_t b, int want, const char *what)
{
	const mbody *bd = body_at(L, b);
	if (__builtin_expect(bd->state == want && bd->thread == (int32_t)ti && top_is(&L->th[ti], b), 1)) {
		L->r->evaluated[HV_R_OVNI_MODEL_BODY_STATE]++;
		return true;
	}
	return body_on_top_fail(L, ti, e, b, want, what);
}

__attribute__((noinline, cold)) static bool body_on_top_fail(model_loom *L, uint32_t ti, const mevent *e, uint32_t b,
							      int want, const char *what)
{
	mthread *th = &L->th[ti];
	mbody *bd = body_at(L, b);
	mtask *t = model_task_at(L, bd->task);
	const char *why = NULL;
	if (bd->state != want) why = "state";
	else if (bd->thread != (int32_t)ti) why = "thread";
	else if (!top_is(th, b)) why = "top";
	if (hv_eval(L->r, HV_R_OVNI_MODEL_BODY_STATE, why == NULL)) return true;
	if (why[0] == 's')
		model_fail_since(L, HV_R_OVNI_MODEL_BODY_STATE, th, e, BODY_WHERE(L, bd),
				 "thread %" PRId64 " %s body %" PRIu32 " of task %" PRIu32 ", which must be %s but is %s since",
				 th->tid, what, bd->id, t->id, bstate[want], bstate[bd->state]);
	else if (why[0] == 't' && why[1] == 'h')
		model_fail_since(L, HV_R_OVNI_MODEL_BODY_STATE, th, e, BODY_WHERE(L, bd),
				 "thread %" PRId64 " %s body %" PRIu32 " of task %" PRIu32 ", which runs on thread %" PRId64 " since",
				 th->tid, what, bd->id, t->id, bd->thread >= 0 ? L->th[bd->thread].tid : -1);
	else {
		const mbody *top = body_at(L, th->bodies[th->nb - 1]);
		model_fail_since(L, HV_R_OVNI_MODEL_BODY_STATE, th, e, BODY_WHERE(L, top),
				 "thread %" PRId64 " %s body %" PRIu32 " of task %" PRIu32 ", which is not the top of its body stack: "
				 "the top is body %" PRIu32 " of task %" PRIu32 ", there since",
				 th->tid, what, bd->id, t->id, top->id, model_task_at(L, top->task)->id);
	}
	return false;
}

static bool push_body(model_loom *L, mthread *th, uint32_t b)
{
	if (th->nb == th->capb) {
		uint32_t nc = th->capb ? th->capb * 2 : 4;
		uint32_t *nv = realloc(th->bodies, nc * sizeof *nv);
		if (!nv) {
			L->oom = L->stop = true;
			return false;
		}
		th->bodies = nv;
		th->capb = nc;
	}
	th->bodies[th->nb++] = b;
	return true;
}

static bool execute(model_loom *L, uint32_t ti, const mevent *e, uint32_t tix, uint32_t bid)
{
	mthread *th = &L->th[ti];
	mtask *t = model_task_at(L, tix);
	uint32_t b;
	uint64_t k = ((uint64_t)tix << 32) | bid;
	bool known = bid == 1 ? t->b1.id == 1 : mmap64_get(&L->bodymap, k, &b);
	if (bid == 1) {
		b = MODEL_BODY1 | tix;
		if (!known) {
			t->b1 = (mbody){.task = tix, .id = 1, .state = B_CREATED, .thread = -1};
			t->nbodies++;
		}
	} else if (!known) {
		if (L->nbody == L->capbody || L->nbody >= MODEL_BODY1) {
			size_t nc = L->capbody ? L->capbody * 2 : 64;
			mbody *nv = nc <= MODEL_BODY1 ? realloc(L->body, nc * sizeof *nv) : NULL;
			if (!nv) {
				L->oom = L->stop = true;
				return false;
			}
			L->body = nv;
			L->capbody = nc;
		}
		b = (uint32_t)L->nbody;
		L->body[b] = (mbody){.task = tix, .id = bid, .state = B_CREATED, .thread = -1};
		if (!mmap64_put(&L->bodymap, k, b)) {
			L->oom = L->stop = true;
			return false;
		}
		L->nbody++;
		t->nbodies++;
	}
	mbody *bd = body_at(L, b);
	if (bd->state == B_DEAD) {
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_BODY_RERUN, t->flags & F_RESURRECT)) {
			model_fail_since(L, HV_R_OVNI_MODEL_BODY_RERUN, th, e, BODY_WHERE(L, bd),
					 "body %" PRIu32 " of task %" PRIu32 " may not run again: it ended by", bid, t->id);
			return false;
		}
		bd->state = B_CREATED;
	}
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_BODY_STATE, bd->state == B_CREATED)) {
		model_fail_since(L, HV_R_OVNI_MODEL_BODY_STATE, th, e, BODY_WHERE(L, bd),
				 "thread %" PRId64 " executes body %" PRIu32 " of task %" PRIu32 ", which must be created%s but is %s since",
				 th->tid, bid, t->id, bd->state == B_PAUSED ? " (a paused body resumes instead)" : "",
				 bstate[bd->state]);
		return false;
	}
	if (th->nb) {
		mbody *top = body_at(L, th->bodies[th->nb - 1]);
		if (top->state == B_RUNNING && (t->flags & F_RELAX) && !(t->flags & F_PAUSE)) {
			/* OpenMP: a task nests over the running one (an undeferred or
			 * included task runs at once on the encountering thread) and the
			 * model has no pause event; ovniemu's "deprecated nesting"
			 * warning is about Nanos6, which can pause first (6Tp). */
			hv_eval(L->r, HV_R_OVNI_MODEL_BODY_NEST, true);
		} else if (top->state == B_RUNNING) {
			int rule = (t->flags & F_RELAX) ? HV_R_OVNI_MODEL_BODY_NEST_DEPRECATED : HV_R_OVNI_MODEL_BODY_NEST;
			hv_eval(L->r, rule, false);
			model_fail_since(L, rule, th, e, BODY_WHERE(L, top),
					 "thread %" PRId64 " starts body %" PRIu32 " of task %" PRIu32 " over body %" PRIu32
					 " of task %" PRIu32 "%s, still running since",
					 th->tid, bid, t->id, top->id, model_task_at(L, top->task)->id,
					 rule == HV_R_OVNI_MODEL_BODY_NEST ? " (pause or end that one first)" : "");
			if (rule == HV_R_OVNI_MODEL_BODY_NEST) return false;
		} else {
			hv_eval(L->r, HV_R_OVNI_MODEL_BODY_NEST, true);
		}
	}
	if (!push_body(L, th, b)) return false;
	bd->state = B_RUNNING;
	bd->thread = (int32_t)ti;
	note(&bd->last, e);
	return true;
}

static void body_event(model_loom *L, uint32_t ti, const mevent *e)
{
	mthread *th = &L->th[ti];
	uint8_t m = e->p[1], v = e->p[3];
	bool nosv = m == 'V';
	size_t need = nosv ? 8 : 4;
	if (!payload_ok(e, !e->jumbo && e->plen >= need)) return;
	uint32_t id = hv_le32(e->payload), bid = nosv ? hv_le32(e->payload + 4) : 1, tix, b;
	/* Pausing, resuming and ending act on the thread's top body nearly
	 * always: when the event names it, its task and body are known without
	 * the two map lookups (tasks are never removed from the maps, so the
	 * lookups would find these). */
	bool cached = false;
	if (v != 'x' && th->nb) {
		const mbody *tb = body_at(L, th->bodies[th->nb - 1]);
		const mtask *tt = model_task_at(L, tb->task);
		uint32_t want = nosv && !(tt->flags & F_PARALLEL) && bid == 0 ? 1 : bid;
		if (tt->id == id && tt->model == m && tb->id == want) {
			tix = tb->task;
			b = th->bodies[th->nb - 1];
			cached = true;
		}
	}
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_UNKNOWN, cached || find_task(L, th, m, id, &tix))) {
		model_fail(L, HV_R_OVNI_MODEL_TASK_UNKNOWN, th, e, "process %" PRId64 " has no task %" PRIu32
			   " (no %cTc/PPc for it before this event)", th->s->pid, id, m);
		return;
	}
	mtask *t = model_task_at(L, tix);
	if (nosv) {
		/* parallel tasks (VTC) number their bodies from 1; other tasks
		 * have the one body 0 (the emulator calls it 1 internally) */
		bool par = t->flags & F_PARALLEL;
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_BODY_PARALLEL, par ? bid != 0 : bid == 0)) {
			model_fail(L, HV_R_OVNI_MODEL_BODY_PARALLEL, th, e,
				   "task %" PRIu32 " was created with %s, so its body id must be %s, not %" PRIu32, id,
				   par ? "VTC (parallel)" : "VTc (not parallel)", par ? "1 or more" : "0", bid);
			return;
		}
		if (!par) bid = 1;
	}
	uint8_t key[3] = {m, 'T', 'x'};
	int ch = m == 'V' ? CH_NOSV_SS : CH_N6_SS;
	if (v == 'x') {
		if (execute(L, ti, e, tix, bid) && m != 'P') model_stack_push(L, ti, ch, key, e);
		return;
	}
	bool found = cached || (bid == 1 ? (b = MODEL_BODY1 | tix, t->b1.id == 1)
					 : mmap64_get(&L->bodymap, ((uint64_t)tix << 32) | bid, &b));
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_UNKNOWN, found)) {
		model_fail(L, HV_R_OVNI_MODEL_TASK_UNKNOWN, th, e, "task %" PRIu32 " has no body %" PRIu32 " (it never executed)",
			   id, bid);
		return;
	}
	mbody *bd = body_at(L, b);
	if (v == 'p') {
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_BODY_PAUSE, t->flags & F_PAUSE)) {
			model_fail(L, HV_R_OVNI_MODEL_BODY_PAUSE, th, e, "body %" PRIu32 " of task %" PRIu32 " may not pause (%s)",
				   bid, id, m == 'V' ? "a parallel task, created with VTC" : "an OpenMP task");
			return;
		}
		if (!body_on_top(L, ti, e, b, B_RUNNING, "pauses")) return;
		bd->state = B_PAUSED;
	} else if (v == 'r') {
		if (!body_on_top(L, ti, e, b, B_PAUSED, "resumes")) return;
		bd->state = B_RUNNING;
	} else if (v == 'e') {
		if (!body_on_top(L, ti, e, b, B_RUNNING, "ends")) return;
		bd->state = B_DEAD;
		bd->thread = -1;
		th->nb--;
		note(&bd->last, e);
		if (m != 'P') model_stack_pop(L, ti, ch, key, e);
		return;
	} else {
		return;
	}
	note(&bd->last, e);
}

void model_h_task(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	if (o->act && !model_runtime_ok(L, ti, e, o->act)) return;
	uint8_t m = e->p[1], c = e->p[2], v = e->p[3];
	if ((m == 'P' && c == 'O') || (m != 'P' && c == 'Y')) {
		if (v == 'c') type_event(L, ti, e);
		return;
	}
	if (m == 'P' && c != 'P') return;
	if (v == 'c' || (m == 'V' && v == 'C')) {
		uint8_t f = m == 'V' ? (v == 'C' ? F_PARALLEL : F_RESURRECT | F_PAUSE)
			    : m == '6' ? F_PAUSE | F_RELAX : F_RELAX | F_RESURRECT;
		create_event(L, ti, e, f);
		return;
	}
	if (v == 'x' || v == 'e' || ((v == 'p' || v == 'r') && m != 'P')) body_event(L, ti, e);
}

/* The common execute and end of a nOS-V or Nanos6 task's body 1 (all but
 * parallel nOS-V tasks have only that one): every check of model_h_task
 * made without a side effect, and only when all pass, their counts and the
 * changes, the same ones model_h_task makes. Anything else (a check that
 * fails, a task found only in the hashed map, a body stack to grow) goes to
 * model_h_task from the start, as if this path were not there. */
void model_h_task_x(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	mthread *th = &L->th[ti];
	uint8_t m = e->p[1];
	bool nosv = m == 'V';
	if (!o->act || !model_runtime_pass(th, o->act) || e->jumbo || e->plen < (nosv ? 8u : 4u) || th->nb == th->capb) goto slow;
	uint32_t id = hv_le32(e->payload);
	if (nosv && hv_le32(e->payload + 4) != 0) goto slow; /* a parallel task's body, or a wrong one */
	const mdense *d = dense_of(L, th, m);
	uint32_t i = id - (d ? d->base : 0);
	if (!d || i >= d->cap || !d->ix[i]) goto slow;
	uint32_t tix = d->ix[i] - 1;
	mtask *t = model_task_at(L, tix);
	if (nosv && (t->flags & F_PARALLEL)) goto slow;
	mbody *bd = &t->b1;
	bool known = bd->id == 1;
	int st = known ? bd->state : B_CREATED;
	if (st == B_DEAD ? !(t->flags & F_RESURRECT) : st != B_CREATED) goto slow;
	if (th->nb && body_at(L, th->bodies[th->nb - 1])->state == B_RUNNING) goto slow;
	/* every check passed: count them as model_h_task does */
	uint64_t *ev = L->r->evaluated;
	model_runtime_count(L, o->act);
	ev[HV_R_OVNI_MODEL_TASK_UNKNOWN]++;
	if (nosv) ev[HV_R_OVNI_MODEL_BODY_PARALLEL]++;
	if (st == B_DEAD) ev[HV_R_OVNI_MODEL_BODY_RERUN]++;
	ev[HV_R_OVNI_MODEL_BODY_STATE]++;
	if (th->nb) ev[HV_R_OVNI_MODEL_BODY_NEST]++;
	if (!known) {
		*bd = (mbody){.task = tix, .id = 1, .thread = -1};
		t->nbodies++;
	}
	th->bodies[th->nb++] = MODEL_BODY1 | tix;
	bd->state = B_RUNNING;
	bd->thread = (int32_t)ti;
	note(&bd->last, e);
	uint8_t key[3] = {m, 'T', 'x'};
	model_stack_push_fast(L, ti, nosv ? CH_NOSV_SS : CH_N6_SS, key, e);
	return;
slow:
	model_h_task(L, ti, e, o);
}

void model_h_task_e(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	mthread *th = &L->th[ti];
	uint8_t m = e->p[1];
	bool nosv = m == 'V';
	if (!o->act || !model_runtime_pass(th, o->act) || e->jumbo || e->plen < (nosv ? 8u : 4u) || !th->nb) goto slow;
	uint32_t id = hv_le32(e->payload);
	if (nosv && hv_le32(e->payload + 4) != 0) goto slow;
	uint32_t b = th->bodies[th->nb - 1];
	if (!(b & MODEL_BODY1)) goto slow;
	mtask *t = model_task_at(L, b & ~MODEL_BODY1);
	mbody *bd = &t->b1;
	if (t->id != id || t->model != m || bd->id != 1 || (nosv && (t->flags & F_PARALLEL))) goto slow;
	if (bd->state != B_RUNNING || bd->thread != (int32_t)ti) goto slow;
	uint64_t *ev = L->r->evaluated;
	model_runtime_count(L, o->act);
	ev[HV_R_OVNI_MODEL_TASK_UNKNOWN] += 2;
	if (nosv) ev[HV_R_OVNI_MODEL_BODY_PARALLEL]++;
	ev[HV_R_OVNI_MODEL_BODY_STATE]++;
	bd->state = B_DEAD;
	bd->thread = -1;
	th->nb--;
	note(&bd->last, e);
	uint8_t key[3] = {m, 'T', 'x'};
	model_stack_pop_fast(L, ti, nosv ? CH_NOSV_SS : CH_N6_SS, key, e);
	return;
slow:
	model_h_task(L, ti, e, o);
}

_Static_assert(sizeof(mtask) == 64, "a task record is one cache line");
