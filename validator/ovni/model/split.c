/* The ovni event model: the split replay. Most of a runtime's events
 * concern one thread only: its subsystem states, marks, flushes, kernel
 * context switches, and the check that it is active or on its CPU, which
 * reads the lifecycle its own events set. Those checks need no merge: they
 * run stream by stream, in chunks, on any thread (the producers), together
 * with the stream checks when fused. Only what the threads share (the
 * lifecycle and affinity events, which move CPUs, and the task events,
 * whose tasks move between threads) is copied into the chunk as a record
 * and merged by clock on one thread, the merger, which replays it with the
 * one-thread handlers (model_classify_shared).
 *
 * Why the report is the one-thread replay's: every stream's clocks
 * increase (a producer that sees a step back gives up), so the one-thread
 * merge's order restricted to the shared events is the order of their
 * (clock, stream) merge, and a thread's own checks see its own events in
 * stream order either way. The split speculates that nothing fails: a
 * thread's lifecycle as its own events set it is the one the merger keeps
 * only while every lifecycle event succeeds. So the producers' checks only
 * count (their failures are not reported), the merger reports into a
 * report that stores nothing, and any failure anywhere (a diagnostic of
 * either side, a step back, out of memory) stops all sides and has the
 * loom replayed the one-thread way, which finds the first error and writes
 * every message (loom.c). So the split's own allocations are optional
 * (core/alloc.h): one that fails costs the speed, not a check. A clean loom, the common case, adds the
 * sides' counts to the report, which are the one-thread replay's counts:
 * each check is counted by the side that makes it, once.
 *
 * Threads: the first task to start merges and makes any chunk it needs
 * that no one is making; the others make chunks ahead, for the stream the
 * merger will need first, at most SPLIT_AHEAD chunks a stream. No task
 * waits for one that has not started, so the runner may run the tasks one
 * after the other. Memory: SPLIT_AHEAD buffers per stream, each what its
 * stream can fill, capped so that a loom's buffers stay within SPLIT_BUDGET
 * (4 KiB at most at SPLIT_MAX_LANES busy streams, 1,024: a node's
 * threads; lane_sizes), and a lane's fixed part; looms of more
 * than SPLIT_MAX_LANES streams replay the one-thread way. */
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "model.h"

#define SPLIT_CHUNK (256u * 1024u)  /* stream bytes a chunk covers at most */
#define SPLIT_AHEAD 4u              /* chunks per stream made and not yet merged */
#define SPLIT_BUDGET (16u << 20)    /* every chunk buffer of a loom */
#define SPLIT_BUF_MAX (64u * 1024u) /* a chunk's records */
#define SPLIT_BUF_MIN 4096u
#define SPLIT_BUF_FLOOR 1024u       /* a lane's buffers, however short its stream */
#define SPLIT_MAX_LANES 1024u     /* SPLIT_BUDGET / SPLIT_AHEAD / SPLIT_BUF_MIN: the budget holds */
#define REC_HEAD 16u                /* a record: offset and index (u64 each), then the event's bytes */
#define REC_EVENT_MAX (16u + 256u)  /* the most bytes of an event a record keeps (as the replay reads) */

/* Where a lane's copy of the loom starts: after the table of ops, the
 * loom's first member. */
#define LANE_COPY_FROM offsetof(model_loom, t)
_Static_assert(offsetof(model_loom, ops) == 0 && offsetof(model_loom, t) >= sizeof(((model_loom *)0)->ops),
	       "the table of ops comes first in model_loom");

unsigned ovni_split_chunk = 0;
bool ovni_split_on = true;
_Atomic uint64_t ovni_split_runs, ovni_split_chunks, ovni_split_fallbacks;

/* What a thread's own stream checks of an event (the producer's side). */
enum { LK_NONE, LK_OVNI, LK_OH, LK_OF, LK_OM, LK_KERNEL, LK_ACTIVE, LK_PUSH, LK_POP };

/* An event kind as a producer sees it, and how many events of it passed
 * its checks: the checks of a kind count the same evaluations each time
 * they pass (lop_count), and a failure gives the split up, so a lane's
 * counts are added up per kind at the end, not per event. */
typedef struct lop {
	uint32_t key;             /* flags byte and MCV; 0 marks an empty slot */
	uint8_t kind, act, ch, shared;
	uint8_t skey[3], v;       /* v: the lifecycle event's letter */
	uint64_t n;               /* events of the kind that passed (LK_OVNI to LK_POP) */
} lop;

#define LOP_SLOTS 512u

typedef struct schunk {
	uint8_t *buf;
	uint32_t len;
} schunk;

/* One stream (one thread) of the loom. The producer fields are its
 * producer's (one at a time: `busy`), the ring's counters the lock's, the
 * cursor the merger's. */
typedef struct slane {
	model_loom L;             /* a shallow copy of the loom, whose report is `rep` */
	hv_report rep;            /* the stream's own checks' counts (stores nothing), once rep_on */
	const char *path;         /* the input's, for rep */
	bool rep_on;
	lop ops[LOP_SLOTS];
	int state;                /* the thread's lifecycle as its own events set it */
	int64_t prev;             /* the last event's clock */
	bool bad;                 /* a check failed, or a clock stepped back */
	uint32_t bufb;            /* a chunk's records (its buffers have one record's room more) */
	/* under the lock */
	uint32_t live_at;         /* its place in split.live while not ended */
	bool end, busy, held;     /* held: the merger reads chunk rd */
	uint64_t rd, wr;          /* chunks [rd, wr) made and not released */
	int64_t front;            /* the clock the made chunks reach */
	schunk c[SPLIT_AHEAD];
} slane;

/* The merger's place in a lane's chunk. Apart from the lanes, one array:
 * the merge changes lanes every few events, and a lane is tens of KiB (a
 * copy of the loom, a report, a table of event kinds), so a cursor in it
 * was a cache and TLB miss at every change. */
typedef struct mcur {
	const uint8_t *p, *pend;
} mcur;

typedef struct split {
	model_loom *L;
	const int64_t *offs;
	slane *ln;
	size_t n;
	uint64_t inb;             /* stream bytes a chunk covers */
	/* under the lock: the lanes not ended, which a producer picks from:
	 * in a runtime's loom most threads are nearly idle and end with their
	 * first chunk, and a scan of every lane per chunk made (under the
	 * lock, each lane's fields on a page of their own) cost more than a
	 * busy lane's chunk */
	uint32_t *live;
	size_t nlive;
	mcur *cur;                /* the merger's, per lane */
	pthread_mutex_t mu;
	pthread_cond_t merger_cv; /* the merger waits for a chunk being made */
	pthread_cond_t helper_cv; /* helpers wait for a lane with room */
	atomic_bool abort;
	atomic_uint started;
	bool finished;            /* under the lock: the merger is done */
} split;

/* ---- the producer: a thread's own checks, and its shared events copied ---- */

static void lane_classify(const uint8_t p[4], lop *lo)
{
	mop o;
	model_classify(p, &o);
	*lo = (lop){.key = o.key, .kind = LK_NONE, .act = o.act, .ch = o.ch, .v = p[3]};
	memcpy(lo->skey, o.skey, 3);
	model_handler h = o.h;
	if (h == model_h_ovni) lo->kind = LK_OVNI;
	else if (h == model_h_OHx || h == model_h_OHe || h == model_h_OHp || h == model_h_OHr || h == model_h_OHc ||
		 h == model_h_OHw)
		lo->kind = LK_OH, lo->shared = 1;
	else if (h == model_h_OA) lo->kind = LK_OVNI, lo->shared = 1;
	else if (h == model_h_OF) lo->kind = LK_OF;
	else if (h == model_h_OM) lo->kind = LK_OM;
	else if (h == model_h_kernel) lo->kind = LK_KERNEL;
	else if (h == model_h_runtime) lo->kind = LK_ACTIVE;
	else if (h == model_h_push) lo->kind = LK_PUSH;
	else if (h == model_h_pop) lo->kind = LK_POP;
	else if (h == model_h_task || h == model_h_task_x || h == model_h_task_e) {
		/* the body of a nOS-V or Nanos6 task is a state of its
		 * thread's subsystem stack, pushed by its execute, popped by
		 * its end (task.c) */
		lo->shared = 1;
		lo->kind = h == model_h_task_x ? LK_PUSH : h == model_h_task_e ? LK_POP : LK_ACTIVE;
		lo->ch = p[1] == 'V' ? CH_NOSV_SS : CH_N6_SS;
		lo->skey[0] = p[1], lo->skey[1] = 'T', lo->skey[2] = 'x';
	}
}

/* The lane's report, set up at its first use: most of a runtime's lanes
 * never need one (their checks are counted per kind, lop_count, into the
 * loom's report at the end), and setting up 19 KiB for each of 388 lanes,
 * with their merges at the end, was serial work before and after the
 * threads (1-2% of a node's CPU). The lanes are zeroed, so one never set up
 * reads as a report with nothing in it. */
static hv_report *lane_rep(slane *ln)
{
	if (!ln->rep_on) {
		hv_report_init(&ln->rep, ln->path, 0);
		ln->rep_on = true;
	}
	return &ln->rep;
}

static inline unsigned lop_slot(uint32_t key) { return (key * 2654435761u) >> 23; }
static inline unsigned lop_slot2(uint32_t key) { return ((key ^ (key >> 13)) * 0x85ebca6bu) >> 23; }

/* The evaluations `n` passing events of kind o count (what
 * model_need_active, ovni_ok and model_stack_push/pop_fast count when they
 * pass), into r. */
static void lop_count(const lop *o, hv_report *r)
{
	uint64_t n = o->n, *ev = r->evaluated;
	if (!n) return;
	switch (o->kind) {
	case LK_OVNI:
	case LK_OH: ev[HV_R_OVNI_MODEL_OUT_OF_CPU] += n; return;
	case LK_ACTIVE:
	case LK_PUSH:
	case LK_POP:
		if (o->act) {
			ev[HV_R_OVNI_MODEL_THREAD_INACTIVE] += n;
			if (o->act == ACT_ON_CPU) ev[HV_R_OVNI_MODEL_OUT_OF_CPU] += n;
		}
		if (o->kind == LK_PUSH) {
			if (!model_repeat_ok(o->ch)) ev[HV_R_OVNI_MODEL_STATE_REPEATED] += n;
			ev[HV_R_OVNI_MODEL_STATE_DEPTH] += n;
		} else if (o->kind == LK_POP) {
			ev[HV_R_OVNI_MODEL_STATE_POP] += 2 * n;
		}
		return;
	default: return;
	}
}

__attribute__((noinline)) static lop *lane_fill(slane *ln, const uint8_t *p)
{
	uint32_t key = hv_le32(p);
	lop *a = &ln->ops[lop_slot(key)], *b = &ln->ops[lop_slot2(key)];
	lop *o = a->key == 0 ? a : b->key == 0 ? b : a;
	if (o->n) lop_count(o, lane_rep(ln)); /* a kind pushed out keeps its counts */
	lane_classify(p, o);
	return o;
}

static inline lop *lane_op(slane *ln, const uint8_t *p)
{
	uint32_t key = hv_le32(p);
	lop *o = &ln->ops[lop_slot(key)];
	if (__builtin_expect(o->key == key, 1)) return o;
	o = &ln->ops[lop_slot2(key)];
	return o->key == key ? o : lane_fill(ln, p);
}

/* The thread-active check of model_need_active on the lifecycle the
 * thread's own events set (counted per kind). */
static inline bool lane_active(const slane *ln, const mthread *th, int act)
{
	int s = ln->state;
	bool active = s == TH_RUNNING || (act != ACT_RUNNING && (s == TH_COOLING || s == TH_WARMING));
	return active && (act != ACT_ON_CPU || !th->out_of_cpu);
}

/* A state pushes on or pops off the thread's stack, as
 * model_stack_push/pop_fast do when they pass (counted per kind); false
 * when they would not pass. A stack grows here. */
__attribute__((noinline)) static bool lane_grow(mstack *st)
{
	/* by hand, not hv_grow_array: the optional allocation (the split
	 * replay falls back to the serial one), and a uint32_t that cannot
	 * wrap (lane_push grows only below MODEL_STACK_MAX entries) */
	uint32_t nc = st->cap ? st->cap * 2 : 8;
	mstate *nv = hv_realloc_optional(st->v, nc * sizeof *nv);
	if (!nv) return false;
	st->v = nv;
	st->cap = nc;
	return true;
}

static inline bool lane_push(mthread *th, int ch, const uint8_t key[3], const mevent *e)
{
	mstack *st = &th->st[ch];
	uint32_t n = st->n;
	if (n >= MODEL_STACK_MAX || (!model_repeat_ok(ch) && n && memcmp(st->v[n - 1].key, key, 3) == 0)) return false;
	if (__builtin_expect(n == st->cap, 0) && !lane_grow(st)) return false;
	model_state_put(st, key, e);
	return true;
}

static inline bool lane_pop(mthread *th, int ch, const uint8_t key[3])
{
	mstack *st = &th->st[ch];
	uint32_t n = st->n;
	if (!n || memcmp(st->v[n - 1].key, key, 3) != 0) return false;
	st->n = n - 1;
	return true;
}

static int life_after(uint8_t v, int s)
{
	switch (v) {
	case 'x':
	case 'r': return TH_RUNNING;
	case 'e': return TH_DEAD;
	case 'p': return TH_PAUSED;
	case 'c': return TH_COOLING;
	case 'w': return TH_WARMING;
	default: return s;
	}
}

/* The thread's own checks of one event; false when one fails. */
static inline __attribute__((always_inline)) bool lane_event(slane *ln, uint32_t ti, const mevent *e, lop *o)
{
	model_loom *LL = &ln->L;
	mthread *th = &LL->th[ti];
	bool ok;
	switch (o->kind) {
	case LK_NONE: return true;
	case LK_OVNI: ok = !th->out_of_cpu; break;
	case LK_OH:
		ok = !th->out_of_cpu;
		ln->state = life_after(o->v, ln->state);
		break;
	case LK_ACTIVE: ok = lane_active(ln, th, o->act); break;
	case LK_PUSH: ok = (!o->act || lane_active(ln, th, o->act)) && lane_push(th, o->ch, o->skey, e); break;
	case LK_POP: ok = (!o->act || lane_active(ln, th, o->act)) && lane_pop(th, o->ch, o->skey); break;
	/* the rarer kinds through the one-thread handlers, which count */
	case LK_OF: lane_rep(ln), model_h_OF(LL, ti, e, NULL); return !LL->stop;
	case LK_OM: lane_rep(ln), model_h_OM(LL, ti, e, NULL); return !LL->stop;
	case LK_KERNEL: lane_rep(ln), model_h_kernel(LL, ti, e, NULL); return !LL->stop;
	default: return true;
	}
	o->n++;
	return ok;
}

/* A shared event's record: its offset, index and bytes. `room28`: 28
 * bytes can be read at e->p (the fast path's window), so the bytes are
 * copied in fixed-size moves, not a call (the buffer has a record's room
 * past its end). */
static inline __attribute__((always_inline)) uint8_t *put_record(uint8_t *out, const mevent *e, bool room28)
{
	size_t n = (size_t)(e->payload - e->p) + e->plen;
	memcpy(out, &e->off, 8);
	memcpy(out + 8, &e->idx, 8);
	if (room28) memcpy(out + REC_HEAD, e->p, 28);
	else memcpy(out + REC_HEAD, e->p, n);
	return out + REC_HEAD + n;
}

/* One event of lane i: its own checks, and its record when shared. False:
 * the lane gives up (a check failed, or its clock stepped back). */
static inline __attribute__((always_inline)) bool lane_step(slane *ln, uint32_t i, const mevent *e, uint8_t **out,
							    bool room28)
{
	if (__builtin_expect(e->clock < ln->prev, 0)) return false;
	ln->prev = e->clock;
	lop *o = lane_op(ln, e->p);
	if (__builtin_expect(!lane_event(ln, i, e, o), 0)) return false;
	if (o->shared) *out = put_record(*out, e, room28);
	return true;
}

/* Lane i's next chunk into c: at most S->inb bytes of its stream, or as
 * many records as fill the buffer. True: the stream has no more. The
 * reader's position, index and pointer stay in locals while the window
 * holds whole normal events (model.c's replay_one does the same). */
static bool produce(split *S, uint32_t i, schunk *c)
{
	slane *ln = &S->ln[i];
	mreader *rd = &S->L->rd[i];
	int64_t off = S->offs[i];
	uint8_t *out = c->buf, *olim = c->buf + ln->bufb;
	uint64_t stop = rd->pos + S->inb;
	mevent e;
	bool end = false;
	while (rd->pos < stop && out < olim) {
		if (!model_read_slow(rd, off, &e)) {
			end = true;
			break;
		}
		if (!lane_step(ln, i, &e, &out, false)) {
			ln->bad = true;
			break;
		}
#ifdef HV_FUZZ_PLANT_REPLAY_BUG
		/* planted for fuzz/fuzz_diff_ovni_replay.c: each chunk but a
		 * stream's first counts one out-of-CPU check too many */
		if (rd->idx > 0) lane_rep(ln)->evaluated[HV_R_OVNI_MODEL_OUT_OF_CPU]++;
#endif
		model_advance(rd, &e);
		const uint8_t *p = rd->rp, *lim = rd->rlim;
		uint64_t pos = rd->pos, idx = rd->idx;
		/* the last event start the fast path takes: a whole normal event
		 * (at most 28 bytes) in the window, before the chunk's end */
		const uint8_t *last = NULL;
		if (p && lim - p >= 28 && pos < stop && out < olim) {
			last = lim - 28;
			if ((uint64_t)(last - p) >= stop - pos) last = p + (stop - pos - 1);
		}
		while (last && p <= last && !(p[0] & 0x10)) {
			uint32_t len = model_decode(&e, p, pos, idx, off);
			if (!lane_step(ln, i, &e, &out, true)) {
				ln->bad = true;
				break;
			}
			pos += len;
			idx++;
			p += len;
			if (out >= olim) break;
		}
		rd->pos = pos;
		rd->idx = idx;
		rd->rp = p;
		if (ln->bad) break;
	}
	c->len = (uint32_t)(out - c->buf);
	atomic_fetch_add_explicit(&ovni_split_chunks, 1, memory_order_relaxed);
	if (ln->bad) atomic_store(&S->abort, true);
	return end || ln->bad;
}

/* With the lock held: make lane i's next chunk (the lock released meanwhile). */
static void make_chunk(split *S, uint32_t i)
{
	slane *ln = &S->ln[i];
	schunk *c = &ln->c[ln->wr % SPLIT_AHEAD];
	ln->busy = true;
	pthread_mutex_unlock(&S->mu);
	bool end = produce(S, i, c);
	pthread_mutex_lock(&S->mu);
	ln->busy = false;
	ln->front = ln->prev;
	if (end && !ln->end) {
		ln->end = true;
		uint32_t last = S->live[--S->nlive]; /* out of the live lanes */
		S->live[ln->live_at] = last;
		S->ln[last].live_at = ln->live_at;
	}
	ln->wr++;
	/* one wake-up each, not every thread: the merger may wait for this
	 * chunk, a helper for this lane, free again */
	pthread_cond_signal(&S->merger_cv);
	pthread_cond_signal(&S->helper_cv);
}

/* ---- the merger ---- */

/* The lane a producer makes next: one with room, not being made, the one
 * the merger will need first (fewest chunks made ahead, then the earliest
 * clock). UINT32_MAX: none. Under the lock. */
static uint32_t pick(const split *S)
{
	uint32_t best = UINT32_MAX;
	for (size_t k = 0; k < S->nlive; k++) {
		uint32_t i = S->live[k];
		const slane *ln = &S->ln[i];
		if (ln->busy || ln->end || ln->wr - ln->rd >= SPLIT_AHEAD) continue;
		if (best == UINT32_MAX) {
			best = i;
			continue;
		}
		const slane *b = &S->ln[best];
		uint64_t ra = ln->wr - ln->rd, rb = b->wr - b->rd;
		if (ra < rb || (ra == rb && ln->front < b->front)) best = i;
	}
	return best;
}

/* A record back into an event (its clock with the lane's offset). */
static inline const uint8_t *get_record(const uint8_t *p, mevent *e, int64_t off)
{
	memcpy(&e->off, p, 8);
	memcpy(&e->idx, p + 8, 8);
	const uint8_t *q = p + REC_HEAD;
	size_t stored;
	if (q[0] & 0x10) {
		e->len = 16 + (uint64_t)hv_le32(q + 12);
		stored = e->len > REC_EVENT_MAX ? REC_EVENT_MAX : (size_t)e->len;
		e->jumbo = true;
		e->payload = q + 16;
		e->plen = (uint32_t)(stored - 16);
	} else {
		uint32_t plen = (q[0] & 0x0f) ? (uint32_t)(q[0] & 0x0f) + 1 : 0;
		e->len = 12 + plen;
		stored = 12 + plen;
		e->jumbo = false;
		e->payload = q + 12;
		e->plen = plen;
	}
	e->p = q;
	e->clock = (int64_t)hv_le64(q + 4) + off;
	return q + stored;
}

/* Lane i's next chunk for the merger: the one it holds released, the next
 * made one taken, made here when no one is making it. False: the lane has
 * no more (or the split gave up). */
static bool next_chunk(split *S, uint32_t i)
{
	slane *ln = &S->ln[i];
	pthread_mutex_lock(&S->mu);
	if (ln->held) {
		ln->rd++;
		ln->held = false;
		pthread_cond_signal(&S->helper_cv); /* room for a producer */
	}
	bool got = false;
	for (;;) {
		if (atomic_load(&S->abort)) break;
		if (ln->wr > ln->rd) {
			const schunk *c = &ln->c[ln->rd % SPLIT_AHEAD];
			ln->held = got = true;
			S->cur[i] = (mcur){c->buf, c->buf + c->len};
			break;
		}
		if (ln->end) break;
		if (!ln->busy) {
			make_chunk(S, i);
			continue;
		}
		/* being made: make another lane's chunk meanwhile rather than
		 * wait (the merger's share of the making) */
		uint32_t k = pick(S);
		if (k != UINT32_MAX) make_chunk(S, k);
		else pthread_cond_wait(&S->merger_cv, &S->mu);
	}
	pthread_mutex_unlock(&S->mu);
	return got;
}

static inline __attribute__((always_inline)) bool lane_next(split *S, uint32_t i, mevent *e)
{
	mcur *c = &S->cur[i];
	while (c->p == c->pend)
		if (!next_chunk(S, i)) return false;
	c->p = get_record(c->p, e, S->offs[i]);
	return true;
}

/* The merge keeps the lanes in a binary min-heap on (clock of their next
 * shared event, lane): the lane being replayed stays at the root while its
 * next event still comes before both of the root's children (the earliest
 * of the others), then sinks to where its next clock belongs. A lane
 * switch costs one sift of log2(lanes) levels, so the merge's cost per
 * event stays flat however wide the loom (a sorted array, as the lanes
 * went back in at their place, costs a scan of the lanes per switch). */
typedef struct hkey {
	int64_t clk;
	uint32_t id;
} hkey;

static inline bool before(hkey a, hkey b) { return a.clk < b.clk || (a.clk == b.clk && a.id < b.id); }

static inline void sift_down(hkey *h, size_t k, size_t i)
{
	hkey x = h[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= k) break;
		if (c + 1 < k && before(h[c + 1], h[c])) c++;
		if (!before(h[c], x)) break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* The shared events of every lane in (clock, stream) order, to the
 * handlers. */
static void merge(split *S)
{
	model_loom *L = S->L;
	size_t n = S->n, k = 0;
	hkey *h = hv_malloc_optional(n * sizeof *h);
	mevent *next = hv_malloc_optional(n * sizeof *next);
	if (!h || !next) {
		L->oom = true;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++)
		if (lane_next(S, i, &next[i])) h[k++] = (hkey){next[i].clock, i};
	for (size_t i = k / 2; i-- > 0;) sift_down(h, k, i);
	while (k && !L->stop && !atomic_load_explicit(&S->abort, memory_order_relaxed)) {
		uint32_t cur = h[0].id;
		/* the earliest of the other lanes: a child of the root */
		hkey lim = {INT64_MAX, UINT32_MAX};
		if (k > 1) lim = h[1];
		if (k > 2 && before(h[2], lim)) lim = h[2];
		mevent *e = &next[cur];
		bool more;
		for (;;) {
			model_dispatch(L, cur, e);
			more = lane_next(S, cur, e);
			if (!more || L->stop || e->clock > lim.clk || (e->clock == lim.clk && cur > lim.id)) break;
		}
		if (more) h[0].clk = e->clock;
		else h[0] = h[--k];
		sift_down(h, k, 0);
	}
out:
	free(h);
	free(next);
}

/* ---- the tasks ---- */

static void help(split *S)
{
	pthread_mutex_lock(&S->mu);
	while (!S->finished && !atomic_load(&S->abort)) {
		uint32_t i = pick(S);
		if (i == UINT32_MAX) pthread_cond_wait(&S->helper_cv, &S->mu);
		else make_chunk(S, i);
	}
	pthread_mutex_unlock(&S->mu);
}

static void run_merge(split *S)
{
	merge(S);
	pthread_mutex_lock(&S->mu);
	S->finished = true;
	pthread_cond_broadcast(&S->helper_cv);
	pthread_mutex_unlock(&S->mu);
}

static void split_task(void *ctx, size_t i)
{
	(void)i;
	split *S = ctx;
	/* the first task to start merges: a helper never waits for a task
	 * that has not started */
	if (atomic_fetch_add(&S->started, 1) == 0) run_merge(S);
	else help(S);
}

/* The records one chunk of a stream of `size` bytes can make at most: each
 * event (12 bytes or more) a record of REC_HEAD bytes more, over a
 * chunk's stream bytes at most (the buffer's room past its end takes the
 * event that crosses them). */
static uint64_t lane_need(uint64_t size, uint64_t inb)
{
	uint64_t s = size < inb ? size : inb;
	uint64_t need = s + s / 12 * REC_HEAD;
	return need < SPLIT_BUF_FLOOR ? SPLIT_BUF_FLOOR : need;
}

/* Each lane's chunk buffers: what its stream can fill, and the largest cap
 * (from SPLIT_BUF_MIN to SPLIT_BUF_MAX) over those under which the loom's
 * buffers stay within SPLIT_BUDGET. A runtime's loom is a few busy threads
 * and many nearly idle ones: a share of the budget per lane gave the busy
 * ones 10 KiB chunks at 388 streams (a chunk's hand-over, under the lock,
 * per 400 records), where the idle ones need a few hundred bytes once. */
static void lane_sizes(split *S)
{
	const uint64_t room = SPLIT_BUDGET / SPLIT_AHEAD;
	uint32_t lo = SPLIT_BUF_MIN, hi = SPLIT_BUF_MAX; /* lo fits: SPLIT_MAX_LANES lanes of SPLIT_BUF_MIN do */
	while (lo < hi) {
		uint32_t c = lo + (hi - lo + 1) / 2;
		uint64_t sum = 0;
		for (size_t i = 0; i < S->n && sum <= room; i++) {
			uint64_t need = lane_need(S->L->th[i].s->obs->size, S->inb);
			sum += need < c ? need : c;
		}
		if (sum <= room) lo = c;
		else hi = c - 1;
	}
	for (size_t i = 0; i < S->n; i++) {
		uint64_t need = lane_need(S->L->th[i].s->obs->size, S->inb);
		S->ln[i].bufb = (uint32_t)(need < lo ? need : lo);
	}
}

static bool quiet(const hv_report *r)
{
	return !r->count[HV_SEV_ERROR] && !r->count[HV_SEV_WARNING] && !r->count[HV_SEV_NOTE] && !r->internal_error;
}

int model_replay_split(model_loom *L, const int64_t *offs, const hv_options *opt, unsigned threads)
{
	size_t n = L->nth;
	/* A lone stream on one thread has nothing to merge or share: the
	 * one-thread replay walks it straight through, cheaper. */
	if (!ovni_split_on || n == 0 || n > SPLIT_MAX_LANES || (n == 1 && threads <= 1)) return 0;
	split *S = hv_calloc_optional(1, sizeof *S);
	slane *ln = hv_calloc_optional(n, sizeof *ln);
	hv_report scratch, *real = L->r;
	if (!S || !ln) {
		free(S);
		free(ln);
		return 0;
	}
	*S = (split){.L = L, .offs = offs, .ln = ln, .n = n, .inb = ovni_split_chunk ? ovni_split_chunk : SPLIT_CHUNK,
		     .live = hv_malloc_optional(n * sizeof *S->live), .nlive = n, .cur = hv_calloc_optional(n, sizeof *S->cur)};
	lane_sizes(S);
	bool mu = pthread_mutex_init(&S->mu, NULL) == 0;
	bool cv = mu && pthread_cond_init(&S->merger_cv, NULL) == 0;
	bool cv2 = cv && pthread_cond_init(&S->helper_cv, NULL) == 0;
	bool ok = cv2 && S->live && S->cur;
	hv_report_init(&scratch, real->input_path, 0);
	size_t made = 0;
	for (; ok && made < n; made++) {
		slane *l = &ln[made];
		/* the loom's fixed part but its table of ops (24 KiB of the
		 * 25): a producer runs handlers, never the dispatch through the
		 * table, so the lane's stays as calloc left it, its pages never
		 * touched (a loom of 1,024 streams copied 24 MiB of it) */
		memcpy((char *)&l->L + LANE_COPY_FROM, (const char *)L + LANE_COPY_FROM, sizeof *L - LANE_COPY_FROM);
		l->L.r = &l->rep; /* set up at its first use (lane_rep) */
		l->path = real->input_path;
		l->state = TH_UNKNOWN;
		l->prev = INT64_MIN;
		l->front = INT64_MIN;
		l->live_at = (uint32_t)made;
		S->live[made] = (uint32_t)made;
		for (unsigned k = 0; ok && k < SPLIT_AHEAD; k++)
			ok = (l->c[k].buf = hv_malloc_optional(l->bufb + REC_HEAD + REC_EVENT_MAX)) != NULL;
	}
	int done = ok ? -1 : 0;
	if (ok) {
		atomic_init(&S->abort, false);
		atomic_init(&S->started, 0);
		atomic_fetch_add_explicit(&ovni_split_runs, 1, memory_order_relaxed);
		L->r = &scratch;
		L->split = true;
		unsigned tasks = threads < 1 ? 1 : threads;
		if (tasks > n + 1) tasks = (unsigned)n + 1;
		if (opt && opt->runner && tasks > 1) hv_for_each(opt, tasks, split_task, S);
		else run_merge(S);
		L->split = false;
		L->r = real;
		bool clean = !atomic_load(&S->abort) && !L->stop && !L->oom && quiet(&scratch);
		for (size_t i = 0; clean && i < n; i++) clean = !ln[i].bad && !ln[i].L.stop && !ln[i].L.oom && quiet(&ln[i].rep);
		/* a stream check that found an error makes the loom's model
		 * report go unused (fused.c); the caller sees to that either way */
		if (clean) {
			hv_report_merge(real, &scratch);
			for (size_t i = 0; i < n; i++) {
				for (unsigned k = 0; k < LOP_SLOTS; k++) lop_count(&ln[i].ops[k], real);
				if (ln[i].rep_on) hv_report_merge(real, &ln[i].rep);
			}
			done = 1;
		} else {
			atomic_fetch_add_explicit(&ovni_split_fallbacks, 1, memory_order_relaxed);
		}
	}
	for (size_t i = 0; i < made; i++) {
		hv_report_free(&ln[i].rep);
		for (unsigned k = 0; k < SPLIT_AHEAD; k++) free(ln[i].c[k].buf);
	}
	hv_report_free(&scratch);
	if (cv2) pthread_cond_destroy(&S->helper_cv);
	if (cv) pthread_cond_destroy(&S->merger_cv);
	if (mu) pthread_mutex_destroy(&S->mu);
	free(S->live);
	free(S->cur);
	free(ln);
	free(S);
	return done;
}
