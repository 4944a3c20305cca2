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
 * "task body" state on the thread's subsystem stack.
 *
 * Storage (model.h): a u32 slot per task ever created, a 56-byte record per
 * task that runs or is paused (and per parallel task). A task's record is
 * made when its body starts and freed when it ends; everything a later event
 * can ask of an ended task (that it exists, that it ended, whether its model
 * lets it run again) is in the slot. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "model.h"

enum { F_PARALLEL = 1, F_RESURRECT = 2, F_PAUSE = 4, F_RELAX = 8 };
enum { B_CREATED, B_RUNNING, B_PAUSED, B_DEAD };
static const char *const bstate[] = {"created", "running", "paused", "dead"};

/* What a task of the model may do (parallel nOS-V tasks: F_PARALLEL alone). */
static inline uint8_t model_flags(uint8_t m)
{
	return m == 'V' ? F_RESURRECT | F_PAUSE : m == '6' ? F_PAUSE | F_RELAX : F_RELAX | F_RESURRECT;
}

static uint64_t pkey(uint32_t proc, uint8_t model, uint32_t id)
{
	return ((uint64_t)proc << 40) | ((uint64_t)model << 32) | id;
}

static inline mdense *dense_at(const model_loom *L, uint32_t proc, uint8_t model)
{
	if (!L->dense) return NULL;
	return &L->dense[(size_t)proc * 3 + (model == 'V' ? 0 : model == '6' ? 1 : 2)];
}

static inline mdense *dense_of(const model_loom *L, const mthread *th, uint8_t model)
{
	return dense_at(L, th->proc, model);
}

/* Dense slots in pages of DENSE_PAGE (16 KiB), each made when an id in it
 * is first created: a page holds its slots whether or not the ids between
 * are used, and no slot is written but a created task's (no array of twice
 * the tasks cleared at each doubling). */
#define DENSE_SHIFT 12u
#define DENSE_PAGE (1u << DENSE_SHIFT)

/* Where id's slot is in the dense array, or NULL (not in it: then in the
 * map, if the task exists). */
static inline uint32_t *dense_slot(const mdense *d, uint32_t id)
{
	if (!d) return NULL;
	uint32_t i = id - d->base; /* wraps far above for ids below base */
	if ((i >> DENSE_SHIFT) >= d->cap) return NULL;
	uint32_t *pg = d->ix[i >> DENSE_SHIFT];
	return pg ? &pg[i & (DENSE_PAGE - 1)] : NULL;
}

/* The slot of a task (nonzero), or false. */
static inline bool find_task(const model_loom *L, const mthread *th, uint8_t model, uint32_t id, uint32_t *slot)
{
	const uint32_t *p = dense_slot(dense_of(L, th, model), id);
	if (p && *p) {
		*slot = *p;
		return true;
	}
	return mmap64_get(&L->tasks, pkey(th->proc, model, id), slot);
}

/* Record a new task's slot; false when memory fails. */
static bool add_task(model_loom *L, const mthread *th, uint8_t model, uint32_t id, uint32_t slot)
{
	if (!L->dense && !(L->dense = hv_calloc(L->nth * 3, sizeof *L->dense))) return false;
	mdense *d = dense_of(L, th, model);
	if (!d->cap) d->base = id > 64 ? id - 64 : 0;
	uint64_t limit = 2 * (uint64_t)d->n + 1024;
	uint32_t i = id - d->base;
	if (id < d->base || i >= limit) return mmap64_put(&L->tasks, pkey(th->proc, model, id), slot);
	/* the page table: pointers for ids below the limit, doubled */
	uint32_t want = (i >> DENSE_SHIFT) + 1; /* at most 2^20 pages */
	if (want > d->cap) {
		size_t cap = d->cap; /* a uint32_t: at most twice 2^20 */
		if (!HV_GROW_ZEROED(d->ix, cap, want, 1)) return false;
		d->cap = (uint32_t)cap;
	}
	uint32_t **pg = &d->ix[i >> DENSE_SHIFT];
	if (!*pg && !(*pg = hv_calloc(DENSE_PAGE, sizeof **pg))) return false;
	(*pg)[i & (DENSE_PAGE - 1)] = slot;
	d->n++;
	return true;
}

/* Change an existing task's slot (it is where add_task put it: in the
 * dense array when nonzero there, else in the map). */
static void set_slot(model_loom *L, uint32_t proc, uint8_t model, uint32_t id, uint32_t slot)
{
	uint32_t *p = dense_slot(dense_at(L, proc, model), id);
	if (p && *p) *p = slot;
	else if (!mmap64_put(&L->tasks, pkey(proc, model, id), slot)) L->oom = L->stop = true;
}

/* A free live record (its index), or UINT32_MAX when memory fails. The
 * array may move: callers hold indices, never addresses, across it. */
static uint32_t live_grow(model_loom *L);

static inline uint32_t live_new(model_loom *L)
{
	if (__builtin_expect(L->freelive != 0, 1)) {
		uint32_t tix = L->freelive - 1;
		L->freelive = L->live[tix].proc;
		return tix;
	}
	return live_grow(L);
}

__attribute__((noinline)) static uint32_t live_grow(model_loom *L)
{
	if (L->nlive == L->caplive) {
		/* a uint32_t: a record's index is below MODEL_BODY1 (a body's
		 * reference holds it), and so is the capacity */
		size_t cap = L->caplive;
		if (!HV_GROW_UPTO(L->live, cap, (size_t)L->nlive + 1, 64, MODEL_BODY1 - 1)) return UINT32_MAX;
		L->caplive = (uint32_t)cap;
	}
	return L->nlive++;
}

static inline void live_free(model_loom *L, uint32_t tix)
{
	L->live[tix].proc = L->freelive;
	L->freelive = tix + 1;
}

/* Frees the dense slots too (L->dense NULL after). */
void model_tasks_free(model_loom *L)
{
	for (size_t k = 0; L->dense && k < L->nth * 3; k++) {
		mdense *d = &L->dense[k];
		for (uint32_t p = 0; p < d->cap; p++) free(d->ix[p]);
		free(d->ix);
	}
	free(L->dense);
	L->dense = NULL;
	free(L->live);
	L->live = NULL;
	L->nlive = L->caplive = L->freelive = 0;
}

/* The live record of the task with `slot`, made from the slot when it has
 * none (its history then lost: found again by task_history if a message
 * needs it); UINT32_MAX when memory fails. */
static uint32_t materialize(model_loom *L, const mthread *th, uint8_t m, uint32_t id, uint32_t slot)
{
	if (slot & MODEL_TASK_LIVE) return slot & ~MODEL_TASK_LIVE;
	uint32_t tix = live_new(L);
	if (tix == UINT32_MAX) {
		L->oom = L->stop = true;
		return tix;
	}
	bool ran = slot != MODEL_TS_CREATED;
	uint32_t *sp = dense_slot(dense_of(L, th, m), id);
	if (sp && !*sp) sp = NULL; /* in the map */
	L->live[tix] = (mtask){.slot = sp, .id = id, .proc = th->proc, .model = m, .flags = model_flags(m),
			       .b1 = {.task = tix, .id = ran ? 1 : 0, .thread = -1,
				      .state = slot == MODEL_TS_DEAD ? B_DEAD : B_CREATED,
				      .last = {.off_v = ran ? MODEL_WHERE_LOST : 0}}};
	if (sp) *sp = MODEL_TASK_LIVE | tix;
	else set_slot(L, th->proc, m, id, MODEL_TASK_LIVE | tix);
	return tix;
}

/* A non-parallel task whose body is on no stack and neither running nor
 * paused keeps only its state: the record goes back to the free list. */
static void settle(model_loom *L, uint32_t tix)
{
	const mtask *t = &L->live[tix];
	const mbody *b = &t->b1;
	if ((t->flags & F_PARALLEL) || b->thread >= 0 || b->state == B_RUNNING || b->state == B_PAUSED) return;
	uint32_t slot = b->id == 0 ? MODEL_TS_CREATED : b->state == B_DEAD ? MODEL_TS_DEAD : MODEL_TS_RESET;
	if (t->slot) *t->slot = slot;
	else set_slot(L, t->proc, t->model, t->id, slot);
	live_free(L, tix);
}

static inline void note(mtwhere *w, const mevent *e)
{
	w->off_v = (e->off & ((1ull << 56) - 1)) | (uint64_t)e->p[3] << 56;
	w->clock = e->clock;
}

/* Is the event at p (plen payload bytes, not jumbo) one of task `id` of
 * model m: its create (`create`), else one that acts on its body 1? */
static bool history_match(const uint8_t *p, uint32_t plen, uint8_t m, uint32_t id, bool create)
{
	uint8_t c = p[2], v = p[3];
	if (p[1] != m || c != (m == 'P' ? 'P' : 'T')) return false;
	if (create) {
		if (!(v == 'c' || (m == 'V' && v == 'C')) || plen < 8) return false;
	} else {
		if (!(v == 'x' || v == 'e' || (m != 'P' && (v == 'p' || v == 'r')))) return false;
		if (plen < (m == 'V' ? 8u : 4u) || (m == 'V' && hv_le32(p + 16) != 0)) return false;
	}
	return hv_le32(p + 12) == id;
}

/* An event of a task that its record no longer holds (the task ended and
 * its record went back to the free list), for a message that is stored:
 * found again among the events of the task's process that the replay has
 * passed, those before e in the merge's order (clock, then stream order,
 * then offset: every stream's clocks increase, or the model would not run).
 * The streams of a loom share one clock offset (clock-offsets.txt names
 * hosts), so their raw clocks compare as the replay's do. `create`: the
 * create event (the only one that succeeded); else the last event that
 * acted on body 1, which for a task without a record is its end. The first
 * error stops the replay, so this reads a loom's streams once at most. */
static mwhere task_history(model_loom *L, uint32_t ti, const mevent *e, uint32_t proc, uint8_t m, uint32_t id,
			   bool create, int rule)
{
	mwhere best = {0};
	if (!hv_stores(L->r, rule)) return best;
	int64_t cur = (int64_t)hv_le64(e->p + 4), shift = e->clock - cur;
	for (uint32_t j = 0; j < L->nth; j++) {
		mthread *th = &L->th[j];
		hv_window w;
		if (th->proc != proc) continue;
		if (!hv_window_init(&w, th->s->obs, 65536)) {
			L->oom = L->stop = true;
			break;
		}
		uint64_t pos = 8, size = th->s->obs->size;
		while (pos < size && size - pos >= 12) {
			uint64_t left = size - pos, len;
			const uint8_t *p = hv_window_get(&w, pos, left < 28 ? (size_t)left : 28);
			if (!p) break;
			int64_t clk = (int64_t)hv_le64(p + 4);
			if (j == ti ? pos >= e->off : clk > cur || (clk == cur && j > ti)) break;
			if (p[0] & 0x10) { /* jumbo: no task event the model acts on */
				if (left < 16) break;
				len = 16 + (uint64_t)hv_le32(p + 12);
			} else {
				uint32_t plen = (p[0] & 0x0f) ? (uint32_t)(p[0] & 0x0f) + 1 : 0;
				len = 12 + (uint64_t)plen;
				if (len > left) break;
				/* the first create; the last body event (later ones come later in the scan
				 * of a stream, and across streams win at equal clocks by stream order) */
				if (history_match(p, plen, m, id, create) &&
				    (!best.set || (create ? clk < best.clock - shift : clk >= best.clock - shift)))
					best = (mwhere){.mcv = {p[1], p[2], p[3]}, .off = pos, .clock = clk + shift, .set = true};
			}
			pos += len;
		}
		hv_window_free(&w);
	}
	return best;
}

/* A task event's place as messages show it. */
static mwhere where_of(const mtask *t, const mtwhere *w)
{
	uint8_t v = (uint8_t)(w->off_v >> 56);
	return (mwhere){.off = w->off_v & ((1ull << 56) - 1), .clock = w->clock,
			.mcv = {t->model, t->model == 'P' ? 'P' : 'T', v}, .set = v != 0};
}

/* The last event that acted on a body, for a message of `rule` about event e. */
static mwhere body_where(model_loom *L, uint32_t ti, const mevent *e, const mbody *bd, int rule)
{
	const mtask *t = model_task_at(L, bd->task);
	if (bd->last.off_v == MODEL_WHERE_LOST) return task_history(L, ti, e, t->proc, t->model, t->id, false, rule);
	return where_of(t, &bd->last);
}
#define BODY_WHERE(L, ti, e, bd, rule) ((const mwhere[1]){body_where(L, ti, e, bd, rule)})

/* Task events too short for their arguments: see cpu.c payload_ok. */
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
	uint64_t k = pkey(th->proc, e->p[1], id);
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_DUPLICATE, !mmap64_get(&L->types, k, &prev))) {
		model_fail(L, HV_R_OVNI_MODEL_TASK_DUPLICATE, th, e,
			   "process %" PRId64 " declares task type %" PRIu32 " again", th->s->pid, id);
		return;
	}
	if (!mmap64_put(&L->types, k, 0)) L->oom = L->stop = true;
}

static void create_event(model_loom *L, uint32_t ti, const mevent *e, uint8_t flags)
{
	mthread *th = &L->th[ti];
	if (!payload_ok(e, !e->jumbo && e->plen >= 8)) return;
	uint32_t id = hv_le32(e->payload), type = hv_le32(e->payload + 4), x;
	uint8_t m = e->p[1];
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_DUPLICATE, !find_task(L, th, m, id, &x))) {
		mwhere then = task_history(L, ti, e, th->proc, m, id, true, HV_R_OVNI_MODEL_TASK_DUPLICATE);
		model_fail_since(L, HV_R_OVNI_MODEL_TASK_DUPLICATE, th, e, &then,
				 "process %" PRId64 " creates task %" PRIu32 " again; it was created by", th->s->pid, id);
		return;
	}
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_UNKNOWN, mmap64_get(&L->types, pkey(th->proc, m, type), &x))) {
		model_fail(L, HV_R_OVNI_MODEL_TASK_UNKNOWN, th, e,
			   "task %" PRIu32 " is created with type %" PRIu32 ", which process %" PRId64
			   " has not declared (%cYc/POc) before", id, type, th->s->pid, m == 'P' ? 'P' : m);
		return;
	}
	uint32_t slot = MODEL_TS_CREATED;
	if (flags & F_PARALLEL) {
		/* a parallel task's bodies are numbered, kept by its record's
		 * index: the record lives as long as the loom */
		uint32_t tix = live_new(L);
		if (tix == UINT32_MAX) {
			L->oom = L->stop = true;
			return;
		}
		L->live[tix] = (mtask){.id = id, .proc = th->proc, .model = m, .flags = flags,
				       .b1 = {.task = tix, .thread = -1}};
		slot = MODEL_TASK_LIVE | tix;
	}
	if (!add_task(L, th, m, id, slot)) L->oom = L->stop = true;
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
	const int rule = HV_R_OVNI_MODEL_BODY_STATE;
	mthread *th = &L->th[ti];
	mbody *bd = body_at(L, b);
	mtask *t = model_task_at(L, bd->task);
	const char *why = NULL;
	if (bd->state != want) why = "state";
	else if (bd->thread != (int32_t)ti) why = "thread";
	else if (!top_is(th, b)) why = "top";
	if (hv_eval(L->r, rule, why == NULL)) return true;
	if (why[0] == 's')
		model_fail_since(L, rule, th, e, BODY_WHERE(L, ti, e, bd, rule),
				 "thread %" PRId64 " %s body %" PRIu32 " of task %" PRIu32 ", which must be %s but is %s since",
				 th->tid, what, bd->id, t->id, bstate[want], bstate[bd->state]);
	else if (why[0] == 't' && why[1] == 'h')
		model_fail_since(L, rule, th, e, BODY_WHERE(L, ti, e, bd, rule),
				 "thread %" PRId64 " %s body %" PRIu32 " of task %" PRIu32 ", which runs on thread %" PRId64 " since",
				 th->tid, what, bd->id, t->id, bd->thread >= 0 ? L->th[bd->thread].tid : -1);
	else {
		const mbody *top = body_at(L, th->bodies[th->nb - 1]);
		model_fail_since(L, rule, th, e, BODY_WHERE(L, ti, e, top, rule),
				 "thread %" PRId64 " %s body %" PRIu32 " of task %" PRIu32 ", which is not the top of its body stack: "
				 "the top is body %" PRIu32 " of task %" PRIu32 ", there since",
				 th->tid, what, bd->id, t->id, top->id, model_task_at(L, top->task)->id);
	}
	return false;
}

static bool push_body(model_loom *L, mthread *th, uint32_t b)
{
	if (th->nb == th->capb) {
		size_t cap = th->capb; /* a uint32_t: grown to UINT32_MAX at most */
		if (!HV_GROW_UPTO(th->bodies, cap, (size_t)th->nb + 1, 4, UINT32_MAX)) {
			L->oom = L->stop = true;
			return false;
		}
		th->capb = (uint32_t)cap;
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
		if (!known) t->b1 = (mbody){.task = tix, .id = 1, .state = B_CREATED, .thread = -1};
	} else if (!known) {
		/* a body's index is below MODEL_BODY1 (its reference's flag) */
		if (!HV_GROW_UPTO(L->body, L->capbody, L->nbody + 1, 64, MODEL_BODY1)) {
			L->oom = L->stop = true;
			return false;
		}
		b = (uint32_t)L->nbody;
		L->body[b] = (mbody){.task = tix, .id = bid, .state = B_CREATED, .thread = -1};
		if (!mmap64_put(&L->bodymap, k, b)) {
			L->oom = L->stop = true;
			return false;
		}
		L->nbody++;
	}
	mbody *bd = body_at(L, b);
	if (bd->state == B_DEAD) {
		if (!hv_eval(L->r, HV_R_OVNI_MODEL_BODY_RERUN, t->flags & F_RESURRECT)) {
			model_fail_since(L, HV_R_OVNI_MODEL_BODY_RERUN, th, e,
					 BODY_WHERE(L, ti, e, bd, HV_R_OVNI_MODEL_BODY_RERUN),
					 "body %" PRIu32 " of task %" PRIu32 " may not run again: it ended by", bid, t->id);
			return false;
		}
		bd->state = B_CREATED;
	}
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_BODY_STATE, bd->state == B_CREATED)) {
		model_fail_since(L, HV_R_OVNI_MODEL_BODY_STATE, th, e, BODY_WHERE(L, ti, e, bd, HV_R_OVNI_MODEL_BODY_STATE),
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
			model_fail_since(L, rule, th, e, BODY_WHERE(L, ti, e, top, rule),
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

/* The event's task, made live (*tixp) while the event acts on it. */
static void body_event_on(model_loom *L, uint32_t ti, const mevent *e, uint32_t *tixp)
{
	mthread *th = &L->th[ti];
	uint8_t m = e->p[1], v = e->p[3];
	bool nosv = m == 'V';
	size_t need = nosv ? 8 : 4;
	if (!payload_ok(e, !e->jumbo && e->plen >= need)) return;
	uint32_t id = hv_le32(e->payload), bid = nosv ? hv_le32(e->payload + 4) : 1, tix, b, slot;
	/* Pausing, resuming and ending act on the thread's top body nearly
	 * always: when the event names it, its task and body are known without
	 * the two map lookups (the lookups would find these: a task on a body
	 * stack has its record). */
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
	if (!hv_eval(L->r, HV_R_OVNI_MODEL_TASK_UNKNOWN, cached || find_task(L, th, m, id, &slot))) {
		model_fail(L, HV_R_OVNI_MODEL_TASK_UNKNOWN, th, e, "process %" PRId64 " has no task %" PRIu32
			   " (no %cTc/PPc for it before this event)", th->s->pid, id, m);
		return;
	}
	if (!cached && (tix = materialize(L, th, m, id, slot)) == UINT32_MAX) return;
	*tixp = tix;
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
		if (execute(L, ti, e, tix, bid) && m != 'P' && !L->split) model_stack_push(L, ti, ch, key, e);
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
		if (m != 'P' && !L->split) model_stack_pop(L, ti, ch, key, e);
		return;
	} else {
		return;
	}
	note(&bd->last, e);
}

static void body_event(model_loom *L, uint32_t ti, const mevent *e)
{
	uint32_t tix = UINT32_MAX;
	body_event_on(L, ti, e, &tix);
	if (tix != UINT32_MAX) settle(L, tix);
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
		create_event(L, ti, e, m == 'V' && v == 'C' ? F_PARALLEL : model_flags(m));
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
	if ((o->act && !model_runtime_pass(th, o->act)) || e->jumbo || e->plen < (nosv ? 8u : 4u) || th->nb == th->capb)
		goto slow;
	uint32_t id = hv_le32(e->payload);
	if (nosv && hv_le32(e->payload + 4) != 0) goto slow; /* a parallel task's body, or a wrong one */
	uint32_t *sp = dense_slot(dense_of(L, th, m), id);
	if (!sp) goto slow;
	/* a task without a record (not running, paused or parallel) that may
	 * start: created and never run, or a nOS-V task (VTc) that ended */
	uint32_t slot = *sp;
	bool dead = slot == MODEL_TS_DEAD;
	if (slot != MODEL_TS_CREATED && !(dead && nosv)) goto slow;
	if (th->nb && body_at(L, th->bodies[th->nb - 1])->state == B_RUNNING) goto slow;
	uint32_t tix = live_new(L);
	if (tix == UINT32_MAX) goto slow; /* reported there */
	/* every check passed: count them as model_h_task does */
	uint64_t *ev = L->r->evaluated;
	if (o->act) model_runtime_count(L, o->act);
	ev[HV_R_OVNI_MODEL_TASK_UNKNOWN]++;
	if (nosv) ev[HV_R_OVNI_MODEL_BODY_PARALLEL]++;
	if (dead) ev[HV_R_OVNI_MODEL_BODY_RERUN]++;
	ev[HV_R_OVNI_MODEL_BODY_STATE]++;
	if (th->nb) ev[HV_R_OVNI_MODEL_BODY_NEST]++;
	mtask *t = model_task_at(L, tix);
	*t = (mtask){.slot = sp, .id = id, .proc = th->proc, .model = m, .flags = model_flags(m),
		     .b1 = {.task = tix, .id = 1, .thread = (int32_t)ti, .state = B_RUNNING}};
	note(&t->b1.last, e);
	*sp = MODEL_TASK_LIVE | tix;
	th->bodies[th->nb++] = MODEL_BODY1 | tix;
	uint8_t key[3] = {m, 'T', 'x'};
	if (!L->split) model_stack_push_fast(L, ti, nosv ? CH_NOSV_SS : CH_N6_SS, key, e);
	return;
slow:
	model_h_task(L, ti, e, o);
}

void model_h_task_e(model_loom *L, uint32_t ti, const mevent *e, const mop *o)
{
	mthread *th = &L->th[ti];
	uint8_t m = e->p[1];
	bool nosv = m == 'V';
	if ((o->act && !model_runtime_pass(th, o->act)) || e->jumbo || e->plen < (nosv ? 8u : 4u) || !th->nb) goto slow;
	uint32_t id = hv_le32(e->payload);
	if (nosv && hv_le32(e->payload + 4) != 0) goto slow;
	uint32_t b = th->bodies[th->nb - 1];
	if (!(b & MODEL_BODY1)) goto slow;
	uint32_t tix = b & ~MODEL_BODY1;
	mtask *t = model_task_at(L, tix);
	mbody *bd = &t->b1;
	if (t->id != id || t->model != m || bd->id != 1 || (t->flags & F_PARALLEL)) goto slow;
	if (bd->state != B_RUNNING || bd->thread != (int32_t)ti) goto slow;
	/* the task's slot in a dense page (else settled by the slow path) */
	uint32_t *sp = t->slot;
	if (!sp) goto slow;
	uint64_t *ev = L->r->evaluated;
	if (o->act) model_runtime_count(L, o->act);
	ev[HV_R_OVNI_MODEL_TASK_UNKNOWN] += 2;
	if (nosv) ev[HV_R_OVNI_MODEL_BODY_PARALLEL]++;
	ev[HV_R_OVNI_MODEL_BODY_STATE]++;
	/* ended: the slot keeps the state, the record is free again */
	*sp = MODEL_TS_DEAD;
	live_free(L, tix);
	th->nb--;
	uint8_t key[3] = {m, 'T', 'x'};
	if (!L->split) model_stack_pop_fast(L, ti, nosv ? CH_NOSV_SS : CH_N6_SS, key, e);
	return;
slow:
	model_h_task(L, ti, e, o);
}

/* 64-bit builds; the WebAssembly build has 4-byte pointers */
_Static_assert(sizeof(void *) != 8 || sizeof(mtask) == 56, "a live task record is 56 bytes");
