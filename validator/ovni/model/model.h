/* The ovni event model: replays the events of each loom of a v3 trace in
 * clock order (every stream of the loom merged, clock offsets added) and
 * checks what they say against the models of ovni 1.14 (rules.def).
 * Memory is bounded by the live state, never by trace length; per loom:
 *   - per task ever created (each one a create event present in the
 *     input): a 4-byte slot (it exists; created, ended, or set back by a
 *     failed rerun; whether it may run again follows from its model; its
 *     type is checked at the create and not kept), in a dense array by id
 *     made of 16 KiB pages, each made when a task in it is created (ids
 *     within twice the tasks plus 1024 of the first: about 4 bytes a task
 *     for counter ids, at most 8 bytes a task plus a page), or for other ids
 *     a 16-byte slot of the hashed map at a load of 1/4 to 1/2 (at most 64
 *     bytes a task, 96 while the map doubles);
 *   - per live task (running or paused: on a thread's body stack, so at
 *     most the body events present) and per parallel nOS-V task (kept to
 *     the end, as its numbered bodies are): a 56-byte record in an array
 *     that doubles (at most 112 bytes), and per numbered body of a parallel
 *     task a 32-byte mbody and a map slot (at most 128 bytes);
 *   - per task type: a map slot (at most 64 bytes);
 *   - per thread (one per stream): its mthread, a stream window (256 KiB
 *     shared by the loom's threads, 16-64 KiB each), its open states (at
 *     most 512 per stack, as in the emulator, 32 bytes each) and its body
 *     stack; per CPU 8 bytes.
 * The 1 GB runtime-shaped trace (hpcvet-gen --what=ovni-trace-runtime: 4.76
 * M tasks, 0.7% of them parallel, 75.6 M events) peaks at 31 MiB RSS in
 * all, about 5 bytes a task; 1.19 M tasks (256 MiB) at 10 MiB
 * (bench/RESULTS.md).
 *
 * The split replay (split.c) adds, per stream, SPLIT_AHEAD chunk
 * buffers (a loom's within 16 MiB) and about 32 KiB: a copy of the loom's
 * fixed part less its table of ops (left untouched), a report of counts, a
 * table of event kinds; looms of up to 1,024 streams.
 *
 * A whole loom is one unit here (not split into per-stream units of
 * core/units.h), because threads of one loom share CPUs and tasks; within
 * it, each stream's own checks run on any thread and only the events the
 * threads share are merged on one (split.c). */
#ifndef HV_OVNI_MODEL_H
#define HV_OVNI_MODEL_H

#include <stdint.h>
#include <string.h>

#include "core/blob.h"
#include "core/hv_int.h"
#include "ovni/stream/walk.h"
#include "ovni/tree/tree.h"

/* Check every loom of the trace. `offsets`: per-stream clock offsets from
 * clock-offsets.txt (ovni_clock_offsets). Skips itself when the report
 * already holds errors: the events of a malformed trace say nothing. */
void ovni_model_check(ovni_trace *t, const int64_t *offsets);

/* Replay one loom (the streams t->s[idx[0..n)], in stream order) into t->r.
 * `reps`/`sums` NULL: the streams were checked, read them again. Else the
 * stream checks run in the same pass (stream/walk.h), on the bytes the replay
 * reads, into reps[i] and sums[i]: each stream is read once. A stream whose
 * checks find an error ends there for the replay, whose result then stands
 * only if the trace turns out error-free (fused.c). */
/* The streams the model replays (v3 thread streams with a stream.obs), in
 * loom then relative-path order: the emulator's stream order. Returns their
 * number (SIZE_MAX: out of memory); `walked_only`: those whose header was
 * usable. ord has room for t->ns. */
size_t ovni_model_order(const ovni_trace *t, size_t *ord, bool walked_only);

/* The mark types declared trace-wide (-1 undeclared, 0 single, 1 stack):
 * the tree checks made the threads' declarations agree. */
void ovni_model_mark_kinds(const ovni_trace *t, int8_t kind[OVNI_MARK_TYPES]);

/* `opt`, `threads`: the split replay's runner and threads (split.c;
 * NULL, 1: this thread only); the report is the same. */
void ovni_model_loom(ovni_trace *t, const size_t *idx, size_t n, const int64_t *all_offs, hv_report **reps,
		     ovni_obs_summary **sums, const hv_options *opt, unsigned threads);

/* ---- shared by model_*.c ---- */

enum { TH_UNKNOWN, TH_RUNNING, TH_PAUSED, TH_DEAD, TH_COOLING, TH_WARMING };

/* Stacked channels the emulator keeps per thread. */
enum { CH_MPI, CH_N6_SS, CH_N6_TH, CH_NOSV_SS, CH_TAMPI_SS, CH_NODES_SS, CH_OMP_SS, CH_KERNEL, MODEL_NCH };

#define MODEL_STACK_MAX 512u
#define MODEL_NO_CPU INT32_MIN

/* One state on a stack, with the event that pushed it (for messages). */
typedef struct mstate {
	uint8_t key[3];
	int64_t value;            /* mark stacks: the mark value */
	uint64_t off;
	int64_t clock;
} mstate;

typedef struct mstack {
	mstate *v;
	uint32_t n, cap;
} mstack;

/* Where an event happened, for history in messages. */
typedef struct mwhere {
	uint64_t off;
	int64_t clock;
	uint8_t mcv[3];
	bool set;
} mwhere;

typedef struct mthread {
	ovni_stream *s;
	int64_t tid;
	uint32_t proc;            /* process index within the loom */
	int state;
	int32_t cpu;              /* logical index, -1 virtual, MODEL_NO_CPU none */
	mwhere last;              /* last lifecycle event (OH*) */
	bool out_of_cpu;
	mwhere kco;
	mstack st[MODEL_NCH];
	mstack *marks;            /* per mark type (OVNI_MARK_TYPES), allocated at the first mark */
	bool flushing;            /* between OF[ and OF] */
	mwhere flush;
	uint32_t *bodies;         /* body stack (indices into the loom's bodies), top last */
	uint32_t nb, capb;
} mthread;

/* The reader of one thread's stream, apart from the thread's model state
 * (in the split replay, its producers read, whatever thread they run on). */
typedef struct mreader {
	hv_window w;
	uint64_t pos, end;        /* next event offset, end of the walkable (checked) bytes */
	ovni_obs_walker *chk;     /* fused: the stream checks, moving `end` on as the window refills */
	hv_report *chk_rep;
	const uint8_t *rp, *rlim; /* fast path: the event after pos's, and the end of the window's bytes */
	uint64_t idx;
	bool done;
} mreader;

/* The event being replayed. */
typedef struct mevent {
	const uint8_t *p;         /* header (12 bytes) and payload */
	const uint8_t *payload;
	uint32_t plen;            /* normal payload bytes, or jumbo data bytes */
	bool jumbo;
	uint64_t off, len, idx;
	int64_t clock;            /* with the stream's clock offset */
} mevent;

typedef struct mcpu_loom {
	int32_t ncpus;            /* logical indices 0..ncpus-1, and -1 */
	uint32_t *running;        /* running threads per physical CPU */
	uint32_t *owner;          /* thread index + 1 of the last thread that ran there */
} mcpu_loom;

/* Open-addressing map from 64-bit keys to 32-bit values; a key and its
 * value share a slot, so a lookup touches one cache line. */
typedef struct mslot {
	uint64_t key;
	uint32_t val; /* UINT32_MAX: empty */
} mslot;

typedef struct mmap64 {
	mslot *v;
	size_t cap, n;
} mmap64;

/* Every task ever created is one u32 slot, found by (process, model, id):
 * a task that runs or is paused, or a parallel nOS-V task (VTC: its bodies
 * are numbered), has a live record and its slot is MODEL_TASK_LIVE | the
 * record's index; any other task is only a state (MODEL_TS_*): created and
 * never run, ended (whether it may run again follows from its model), or
 * set back to created by a rerun that failed. Its type is checked at the
 * create event and not needed after. Where an ended task was created or
 * ended is not kept: a message that needs it finds the event again in the
 * loom's streams (task.c, task_history).
 *
 * Task ids are counters in practice: a process's slots of one model are
 * kept in a dense array indexed by id from `base` (just below the first id
 * created) while id - base stays below twice the creates seen plus 1024, so
 * the array is bounded by the create events present; other ids go to the
 * hashed map (L->tasks). The array is paged (task.c), so it holds
 * about 4 bytes per task for counter ids. */
typedef struct mdense {
	uint32_t **ix;            /* pages of slots (0: no task), NULL until an id in them is created */
	uint32_t cap, n, base;    /* cap: pages in the page table */
} mdense;

#define MODEL_TASK_LIVE 0x80000000u
enum { MODEL_TS_CREATED = 1, MODEL_TS_DEAD = 2, MODEL_TS_RESET = 3 };

/* Where a task event happened, in 16 bytes: its offset (low 56 bits), the
 * third letter of its MCV (top byte; 0: no event yet) and its clock. The
 * first two letters follow from the task's model (VT, 6T, PP). off_v ==
 * MODEL_WHERE_LOST: an event the record no longer holds (the task ended
 * and its record was freed), found again when a message needs it. */
typedef struct mtwhere {
	uint64_t off_v;
	int64_t clock;
} mtwhere;

#define MODEL_WHERE_LOST UINT64_MAX

typedef struct mbody {
	uint32_t task, id;        /* id 0: body 1 of a task that has not run yet */
	int32_t thread;           /* whose body stack holds it, -1 none */
	int32_t state;
	mtwhere last;
} mbody;

/* A live task: 56 bytes with its first body (body 1, every task's first
 * and, but for nOS-V parallel tasks, its only one). A body is named by a
 * reference: MODEL_BODY1 | record index for body 1, else an index into the
 * loom's other bodies. Records are reused (a free list through `proc`)
 * when their task ends, so they are bounded by the tasks running or paused
 * at once plus the parallel tasks. */
typedef struct mtask {
	uint32_t *slot;           /* the task's slot when in a dense page (pages never move), else NULL */
	uint32_t id, proc;        /* proc: process index in the loom; a free record: the next free one */
	uint8_t model;            /* 'V', '6' or 'P' */
	uint8_t flags;
	mbody b1;
} mtask;

#define MODEL_BODY1 0x80000000u

/* What an event does to the model, classified from its first four bytes
 * (flags and MCV) when the key is first met, then cached per loom in a
 * direct-mapped table (a loom uses a few dozen keys): the replay makes one
 * indirect call per event, to the handler of exactly that kind of event. */
/* What a runtime event needs of its thread (ovniemu 1.14's models): nothing;
 * an active thread (running, cooling or warming: Nanos6); an active thread
 * on its CPU (nOS-V); a running one (MPI, TAMPI, NODES, OpenMP). */
enum { ACT_NONE, ACT_ACTIVE, ACT_ON_CPU, ACT_RUNNING };

typedef struct model_loom model_loom;
typedef struct mop mop;
typedef void model_handler_fn(model_loom *L, uint32_t ti, const mevent *e, const mop *o);
typedef model_handler_fn *model_handler;

struct mop {
	uint32_t key;             /* flags byte and MCV, little-endian */
	uint8_t ch, act;
	uint8_t skey[3];          /* stacked states: the state's begin MCV */
	model_handler h;
};

#define MODEL_OP_SLOTS 1024u

/* Classify one key (state.c); _shared: as the split replay's merge
 * sees it, with the handlers of what the threads share and no thread
 * checks (split.c). */
void model_classify(const uint8_t p[4], mop *o);
void model_classify_shared(const uint8_t p[4], mop *o);

/* The handlers of model_classify's ops: model_h_ovni for ovni events with
 * no state, model_h_runtime the thread check only, model_h_task_x/_e VTx
 * 6Tx and VTe 6Te. */
model_handler_fn model_h_none, model_h_ovni, model_h_OHx, model_h_OHe, model_h_OHp, model_h_OHr, model_h_OHc,
	model_h_OHw, model_h_OA, model_h_OF, model_h_OM, model_h_kernel, model_h_runtime, model_h_push, model_h_pop,
	model_h_task, model_h_task_x, model_h_task_e;
/* The lifecycle and affinity events without their out-of-CPU check, which
 * the split replay makes on the thread's own stream. */
model_handler_fn model_hs_OHx, model_hs_OHe, model_hs_OHp, model_hs_OHr, model_hs_OHc, model_hs_OHw, model_hs_OA;

struct model_loom {
	mop ops[MODEL_OP_SLOTS];
	ovni_trace *t;
	hv_report *r;
	mthread *th;
	mreader *rd;              /* per thread: its stream's reader */
	size_t nth;
	mcpu_loom cpu;
	mmap64 types, tasks, bodymap; /* bodymap: bodies other than body 1 */
	mdense *dense;            /* per process and task model (nth x 3): task slots by small id, else in `tasks` */
	mtask *live;              /* live task records */
	uint32_t nlive, caplive, freelive; /* freelive: first free record + 1, 0 none */
	mbody *body;
	size_t nbody, capbody;
	int8_t mark_kind[OVNI_MARK_TYPES]; /* -1 undeclared, 0 single, 1 stack (ovni.mark) */
	bool split;               /* the split replay's merge: shared events only (split.c) */
	bool stop;                /* an error stopped the replay, as it stops ovniemu */
	bool oom;
};

/* Report helpers: the event's stream, offset and clock come first. */
void model_fail(model_loom *L, int rule, const mthread *th, const mevent *e, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same with the history that made the event wrong: the message, then
 * " " and the earlier event `then` as model_where writes it ("VSh at 0x1e00
 * (clock 88213)"), so fmt ends with the words that lead to it ("pushed
 * by", "since"). One call per rule's report. */
void model_fail_since(model_loom *L, int rule, const mthread *th, const mevent *e, const mwhere *then, const char *fmt,
		      ...) __attribute__((format(printf, 6, 7)));
/* A stacked state as the event that pushed it. */
static inline mwhere model_pushed(const mstate *s)
{
	return (mwhere){.mcv = {s->key[0], s->key[1], s->key[2]}, .off = s->off, .clock = s->clock, .set = true};
}
void model_where(char *out, size_t n, const mwhere *w);
/* The relative path of the thread's stream.obs. */
void model_obs_path(char *out, size_t n, const mthread *th);

/* Push/pop of a stack by the task handlers (task bodies). */
bool model_stack_push(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e);
bool model_stack_pop(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e);
/* End of the loom: threads dead, stacks empty. */
void model_end_checks(model_loom *L);
/* A runtime event needs an active thread that is on its CPU. */
bool model_need_active(model_loom *L, uint32_t ti, const mevent *e, int act);

/* A runtime event's thread must be active (and for nOS-V on its CPU): the
 * common case inline, counted as model_need_active counts it; a failure
 * goes there to be reported. */
/* The common case alone: true (counted) when the thread passes; false
 * says nothing, the caller then asks model_need_active. Kept apart so a
 * handler's fast path makes no call and saves no registers. */
static inline bool model_runtime_pass(const mthread *th, int act)
{
	bool active = th->state == TH_RUNNING || (act != ACT_RUNNING && (th->state == TH_COOLING || th->state == TH_WARMING));
	return active && (act != ACT_ON_CPU || !th->out_of_cpu);
}

/* What model_need_active counts when the thread passes. */
static inline void model_runtime_count(model_loom *L, int act)
{
	L->r->evaluated[HV_R_OVNI_MODEL_THREAD_INACTIVE]++;
	if (act == ACT_ON_CPU) L->r->evaluated[HV_R_OVNI_MODEL_OUT_OF_CPU]++;
}

static inline bool model_runtime_fast(model_loom *L, uint32_t ti, int act)
{
	if (__builtin_expect(model_runtime_pass(&L->th[ti], act), 1)) {
		model_runtime_count(L, act);
		return true;
	}
	return false;
}

static inline bool model_runtime_ok(model_loom *L, uint32_t ti, const mevent *e, int act)
{
	return model_runtime_fast(L, ti, act) || model_need_active(L, ti, e, act);
}

/* nOS-V and OpenMP subsystems accept the same state twice in a row. */
static inline bool model_repeat_ok(int ch) { return ch == CH_NOSV_SS || ch == CH_OMP_SS; }

/* A state on top of the stack (which has room), pushed by event e. */
static inline void model_state_put(mstack *st, const uint8_t key[3], const mevent *e)
{
	mstate *s = &st->v[st->n++];
	memcpy(s->key, key, 3);
	s->off = e->off;
	s->clock = e->clock;
}

/* The push and pop of every state: the common case inline (what the full
 * checks of state.c's *_slow would count and do when they pass),
 * anything else out of line through them, so the hot path keeps no message
 * buffers or frame. */
bool model_stack_push_slow(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e);
bool model_stack_pop_slow(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e);

static inline bool model_stack_push_fast(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e)
{
	mstack *st = &L->th[ti].st[ch];
	uint32_t n = st->n;
	if (__builtin_expect(n < st->cap && n < MODEL_STACK_MAX, 1)) {
		bool rep = model_repeat_ok(ch);
		if (rep || n == 0 || memcmp(st->v[n - 1].key, key, 3) != 0) {
			if (!rep) L->r->evaluated[HV_R_OVNI_MODEL_STATE_REPEATED]++;
			L->r->evaluated[HV_R_OVNI_MODEL_STATE_DEPTH]++;
			model_state_put(st, key, e);
			return true;
		}
	}
	return model_stack_push_slow(L, ti, ch, key, e);
}

static inline bool model_stack_pop_fast(model_loom *L, uint32_t ti, int ch, const uint8_t key[3], const mevent *e)
{
	mstack *st = &L->th[ti].st[ch];
	uint32_t n = st->n;
	if (__builtin_expect(n > 0 && memcmp(st->v[n - 1].key, key, 3) == 0, 1)) {
		L->r->evaluated[HV_R_OVNI_MODEL_STATE_POP] += 2;
		st->n = n - 1;
		return true;
	}
	return model_stack_pop_slow(L, ti, ch, key, e);
}

static inline mtask *model_task_at(const model_loom *L, uint32_t tix) { return &L->live[tix]; }

/* A loom's live task records. */
void model_tasks_free(model_loom *L);

/* map.c */
bool mmap64_get(const mmap64 *m, uint64_t key, uint32_t *val);
bool mmap64_put(mmap64 *m, uint64_t key, uint32_t val);
void mmap64_free(mmap64 *m);

/* model.c: replay the loom set up by loom.c, on this thread. */
void model_replay(model_loom *L, const int64_t *offs);

/* ---- reading and dispatching, shared by model.c and split.c ---- */

/* The slow path of model_read: the event at rd->pos through the window
 * (refilling it, or asking again for the data of a jumbo event, or moving
 * the fused stream checks on), then the fast-path pointers set to what the
 * window holds. False at the end of what can be replayed. */
bool model_read_slow(mreader *rd, int64_t offset, mevent *e);

/* A normal (not jumbo) event at p, the stream's byte pos and event idx,
 * into e; returns its length. */
static inline __attribute__((always_inline)) uint32_t model_decode(mevent *e, const uint8_t *p, uint64_t pos,
								  uint64_t idx, int64_t offset)
{
	uint32_t plen = (p[0] & 0x0f) ? (uint32_t)(p[0] & 0x0f) + 1 : 0;
	e->p = p;
	e->jumbo = false;
	e->payload = p + 12;
	e->plen = plen;
	e->off = pos;
	e->len = 12 + plen;
	e->idx = idx;
	e->clock = (int64_t)hv_le64(p + 4) + offset;
	return 12 + plen;
}

/* The event at rd->pos into e; false at the end. The fast path: a normal
 * event wholly inside the window's bytes, read through rd->rp. */
static inline __attribute__((always_inline)) bool model_read(mreader *rd, int64_t offset, mevent *e)
{
	const uint8_t *p = rd->rp;
	if (!p || rd->rlim - p < 28 || (p[0] & 0x10)) return model_read_slow(rd, offset, e);
	rd->rp = p + model_decode(e, p, rd->pos, rd->idx, offset);
	return true;
}

static inline void model_advance(mreader *rd, const mevent *e)
{
	rd->pos += e->len;
	rd->idx++;
}

/* A key has two slots (two hashes): its op is in one of them, found inline.
 * A loom uses a few dozen keys in MODEL_OP_SLOTS slots, so two keys that
 * share one slot almost never share the other. */
static inline unsigned model_op_slot(uint32_t key) { return (key * 2654435761u) >> 22; }
static inline unsigned model_op_slot2(uint32_t key) { return ((key ^ (key >> 13)) * 0x85ebca6bu) >> 22; }

/* A key met for the first time (or lost), classified into one of its slots. */
const mop *model_op_fill(model_loom *L, const uint8_t *p);

/* Each event to the handler of its kind, through the op of its key. */
static inline void model_dispatch(model_loom *L, uint32_t ti, const mevent *e)
{
	uint32_t key = hv_le32(e->p);
	const mop *o = &L->ops[model_op_slot(key)];
	if (__builtin_expect(o->key != key, 0)) {
		o = &L->ops[model_op_slot2(key)];
		if (o->key != key) o = model_op_fill(L, e->p);
	}
	o->h(L, ti, e, o);
}

/* ---- the split replay (split.c) ---- */

/* Replay the loom as the split replay: each stream's own checks (its
 * thread's states, marks, flushes and the stream checks) run stream by
 * stream, in chunks, on up to `threads` threads through opt's runner (NULL:
 * on this one), and only the events the threads share (lifecycle,
 * affinity, tasks) are merged by clock and replayed. It speculates that the
 * loom is clean. 1: the replay is done (clean, its counts in L->r); -1:
 * something failed, and the caller replays the loom again the one-thread
 * way from a fresh state, for the report's order and first error; 0: not
 * tried (switched off, too many streams, or one stream on one thread), L
 * untouched. */
int model_replay_split(model_loom *L, const int64_t *offs, const hv_options *opt, unsigned threads);
/* Stream bytes a chunk covers (0: the default), for tests and the fuzz
 * differential; set before a check, never during one. */
extern unsigned ovni_split_chunk;
/* Split replays run, chunks made, and replays that gave up, by this
 * process so far. */
extern _Atomic uint64_t ovni_split_runs, ovni_split_chunks, ovni_split_fallbacks;

/* false: every loom replays the one-thread way (model.c), not the split
 * replay (ovni/model/split.c); the report is the same. HPCVET_OVNI_SPLIT=0 in
 * the CLI, for measurements and tests. */
extern bool ovni_split_on;

#endif
