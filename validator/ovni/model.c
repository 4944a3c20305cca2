/* The ovni event model: the replay. Each loom's streams are merged in clock
 * order (clock + the loom's offset from clock-offsets.txt), as the emulator
 * merges them, with a binary heap keyed on (clock, stream order); a loom of
 * one stream is walked straight through without the heap. Each event goes to
 * its model's handler (model_cpu.c, model_state.c, model_task.c). The first
 * error stops the loom's replay, as it stops ovniemu: what follows an
 * impossible state would only be noise. */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"
#include "../core/invariant.h"
#include "model.h"


void model_where(char *out, size_t n, const mwhere *w)
{
	if (!w->set) {
		snprintf(out, n, "(no earlier event)");
		return;
	}
	snprintf(out, n, "%c%c%c at 0x%" PRIx64 " (clock %" PRId64 ")", w->mcv[0], w->mcv[1], w->mcv[2], w->off,
		 w->clock);
}

void model_obs_path(char *out, size_t n, const mthread *th)
{
	/* rel names the stream's stream.json; the events are in its stream.obs */
	const char *rel = th->s->rel, *slash = strrchr(rel, '/');
	int dl = slash ? (int)(slash - rel) + 1 : 0;
	snprintf(out, n, "%.*sstream.obs", dl > 200 ? 200 : dl, rel);
}

static void fail_msg(model_loom *L, int rule, const mthread *th, const mevent *e, const char *msg)
{
	char path[300], obs[256];
	model_obs_path(obs, sizeof obs, th);
	snprintf(path, sizeof path, "%.200s/event[%" PRIu64 "]", obs, e->idx);
	hv_emit(L->r, rule, th->s->obs->name, e->off, e->len, path, "%s (event %c%c%c at 0x%" PRIx64 ", clock %" PRId64 ")",
		msg, e->p[1], e->p[2], e->p[3], e->off, e->clock);
	if (hv_rules[rule].severity == HV_SEV_ERROR) L->stop = true;
}

void model_fail(model_loom *L, int rule, const mthread *th, const mevent *e, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fail_msg(L, rule, th, e, msg);
}

void model_fail_since(model_loom *L, int rule, const mthread *th, const mevent *e, const mwhere *then, const char *fmt,
		      ...)
{
	char msg[400], w[120];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	model_where(w, sizeof w, then);
	if (n >= 0 && (size_t)n < sizeof msg) snprintf(msg + n, sizeof msg - (size_t)n, " %s", w);
	fail_msg(L, rule, th, e, msg);
}

/* ---- reading one stream ---- */

/* The slow path of read_event: the event at th->pos through the window
 * (refilling it, or asking again for the data of a jumbo event), then the
 * fast-path pointers set to what the window holds. The structural checks
 * passed, so a short read only means the end. */
/* Fused: the replay has read every checked event; refill the shared window
 * from the replay's position and let the stream checks go on over what it
 * now holds. False when nothing more can be replayed: the stream's end, or
 * an error in it (the replay's result is then dropped: fused.c). */
static bool fused_more(mreader *th)
{
	if (ovni_obs_finished(th->chk)) return false;
	uint64_t pos = th->pos, left = th->w.blob->size - pos;
	size_t want = left < th->w.cap ? (size_t)left : th->w.cap;
	if (!hv_window_get(&th->w, pos, want)) return false;
	th->end = ovni_obs_step(th->chk);
	if (th->chk_rep->count[HV_SEV_ERROR] || th->chk_rep->internal_error) {
		th->done = true;
		return false;
	}
	return th->end > pos;
}

static bool read_event_slow(mreader *th, int64_t offset, mevent *e)
{
	uint64_t pos = th->pos;
	th->rp = th->rlim = NULL;
	if (th->done) return false;
	if (th->chk && pos >= th->end && !fused_more(th)) return false;
	if (pos + 12 > th->end) return false;
	/* One window fetch covers any normal event (at most 28 bytes); only a
	 * jumbo event asks again, for up to 256 bytes of its data: the models
	 * read a type id and the start of a label at most. */
	uint64_t left = th->end - pos;
	size_t got = left < 28 ? (size_t)left : 28;
	const uint8_t *p = hv_window_get(&th->w, pos, got);
	if (!p) return false;
	bool jumbo = p[0] & 0x10;
	uint64_t len;
	uint32_t plen;
	if (jumbo) {
		if (got < 16) return false;
		plen = hv_le32(p + 12);
		len = 16 + (uint64_t)plen;
	} else {
		plen = (p[0] & 0x0f) ? (uint32_t)(p[0] & 0x0f) + 1 : 0;
		len = 12 + (uint64_t)plen;
	}
	if (len > left) return false;
	size_t want = len > 16 + 256 ? 16 + 256 : (size_t)len;
	if (want > got && !(p = hv_window_get(&th->w, pos, want))) return false;
	e->p = p;
	e->jumbo = jumbo;
	e->payload = p + (jumbo ? 16 : 12);
	e->plen = jumbo ? (uint32_t)(want - 16) : plen;
	e->off = pos;
	e->len = len;
	e->idx = th->idx;
	e->clock = (int64_t)hv_le64(p + 4) + offset;
	/* what the window holds from here on, up to the walkable end */
	const hv_blob *b = th->w.blob;
	const uint8_t *base = b->mem ? b->mem : th->w.buf;
	uint64_t bstart = b->mem ? 0 : th->w.start, blen = b->mem ? b->size : th->w.len;
	if (bstart + blen > th->end) blen = th->end - bstart;
	th->rp = base + (pos - bstart) + len;
	th->rlim = base + blen;
	return true;
}

/* The event at th->pos into e; false at the end. The fast path: a normal
 * event wholly inside the window's bytes, read through th->rp. Inline: it
 * runs once per event. */
static inline __attribute__((always_inline)) bool read_event(mreader *th, int64_t offset, mevent *e)
{
	const uint8_t *p = th->rp;
	if (!p || th->rlim - p < 28 || (p[0] & 0x10)) return read_event_slow(th, offset, e);
	uint8_t f = p[0];
	uint32_t plen = (f & 0x0f) ? (uint32_t)(f & 0x0f) + 1 : 0;
	e->p = p;
	e->jumbo = false;
	e->payload = p + 12;
	e->plen = plen;
	e->off = th->pos;
	e->len = 12 + plen;
	e->idx = th->idx;
	e->clock = (int64_t)hv_le64(p + 4) + offset;
	th->rp = p + 12 + plen;
	return true;
}

static inline void advance(mreader *th, const mevent *e)
{
	th->pos += e->len;
	th->idx++;
}

/* A key has two slots (two hashes): its op is in one of them, found inline.
 * A loom uses a few dozen keys in MODEL_OP_SLOTS slots, so two keys that
 * share one slot almost never share the other. */
static inline unsigned op_slot(uint32_t key) { return (key * 2654435761u) >> 22; }
static inline unsigned op_slot2(uint32_t key) { return ((key ^ (key >> 13)) * 0x85ebca6bu) >> 22; }

/* A key met for the first time (or lost): classified into whichever of its
 * slots holds no key (key 0 marks one; a real key 0 classifies as no model,
 * as an empty slot does), else into its first slot after moving the key
 * there to its other slot if that one is free, else over it (a key lost
 * is classified again when next met: the same op). */
__attribute__((noinline)) static const mop *op_fill(model_loom *L, const uint8_t *p)
{
	uint32_t key = hv_le32(p);
	mop *a = &L->ops[op_slot(key)], *b = &L->ops[op_slot2(key)];
	mop *o = a->key == 0 ? a : b->key == 0 ? b : NULL;
	if (!o) {
		unsigned h1 = op_slot(a->key), h2 = op_slot2(a->key);
		mop *alt = &L->ops[&L->ops[h1] == a ? h2 : h1];
		if (alt != a && alt->key == 0) *alt = *a;
		o = a;
	}
	model_classify(p, o);
	return o;
}

/* Each event to the handler of its kind, through the op of its key. */
static inline void dispatch(model_loom *L, uint32_t ti, const mevent *e)
{
	uint32_t key = hv_le32(e->p);
	const mop *o = &L->ops[op_slot(key)];
	if (__builtin_expect(o->key != key, 0)) {
		o = &L->ops[op_slot2(key)];
		if (o->key != key) o = op_fill(L, e->p);
	}
	o->h(L, ti, e, o);
}

/* ---- the pipeline ---- */

/* Under -j, a loom's replay runs as two stages on two threads: the reader
 * (every stream's window and stream checks, and the merge in clock order)
 * copies each event it would replay into a batch, and the replayer hands the
 * batches' events to the handlers, in order. A batch holds, per event, its
 * thread's index (u16le) and the event's bytes as the replay reads them (a
 * jumbo event's first 16 + 256 at most); the replayer rebuilds each event's
 * offset, index and clock from its own count of each stream, so a normal
 * event costs the batch 14 to 30 bytes.
 * Memory: ovni_pipe_batches batches (8; MODEL_PIPE_BATCHES_MAX at most) of
 * PIPE_BYTES (64 KiB) per loom, whatever the trace's length, plus three
 * counters per stream: a reader with every batch full waits for the
 * replayer (backpressure). A sleeping side is woken only once half the
 * batches wait (or are free): each sleep and wake-up then covers several
 * batches. The replay is serial and the reader's
 * merge is the one-thread merge, so the model sees the same events in the
 * same order and the report is the same at any -j.
 *
 * The runner may run the two tasks side by side or one after the other (on
 * one thread): the first task that starts reads, the second replays; the
 * reader replays a batch itself when every batch is full and the replayer
 * has not started, and helps replay once it has read everything, so the
 * pipeline finishes on one thread too. */
#define PIPE_BYTES (64u * 1024u)
#define PIPE_EVENT_MAX (16u + 256u) /* the most bytes an event takes in a batch */

unsigned ovni_pipe_batch_events = 0, ovni_pipe_batches = 8;
_Atomic uint64_t ovni_pipe_runs, ovni_pipe_pushed;

typedef struct mbatch {
	uint8_t *buf;
	uint32_t len, nev;
} mbatch;

/* The replayer's count of one stream: its next event's offset and index,
 * and its clock offset. */
typedef struct mcount {
	uint64_t pos, idx;
	int64_t off;
} mcount;

typedef struct mpipe {
	model_loom *L;
	const int64_t *offs;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	mbatch b[MODEL_PIPE_BATCHES_MAX];
	unsigned nb;
	uint64_t rd, wr;          /* filled batches: b[rd % nb] .. b[(wr - 1) % nb], in order */
	bool replaying;           /* a thread replays b[rd % nb] */
	bool done;                /* the reader has pushed its last batch */
	unsigned wake;            /* batches that wake a sleeping replayer, or free ones a waiting reader */
	unsigned rwait;           /* threads asleep in drain */
	bool fwait;               /* the reader asleep for a free batch */
	atomic_bool stop;         /* the replay stopped: reading on is wasted */
	atomic_uint started;      /* tasks started: the first reads */
	/* the reader's */
	mbatch *cur;              /* the batch being filled */
	uint32_t max_ev;
	bool pstop, poom;
	/* the replayer's: each stream's next offset and event index */
	mcount *cs;
} mpipe;

/* Replay one batch's events (the thread holds the replay). The reader
 * wrote each record whole, with a thread index below L->nth; an event takes
 * at most PIPE_EVENT_MAX bytes and the buffer has that much room past
 * PIPE_BYTES, so a record is read whole before it is checked. */
static void replay_batch(mpipe *P, const mbatch *b)
{
	model_loom *L = P->L;
	const uint8_t *p = b->buf, *end = b->buf + b->len;
	mcount *cs = P->cs;
	mevent e;
	while (p < end) {
		uint32_t ti = (uint32_t)p[0] | (uint32_t)p[1] << 8;
		p += 2;
		size_t stored;
		if (p[0] & 0x10) {
			e.len = 16 + (uint64_t)hv_le32(p + 12);
			stored = e.len > PIPE_EVENT_MAX ? PIPE_EVENT_MAX : (size_t)e.len;
			e.jumbo = true;
			e.payload = p + 16;
			e.plen = (uint32_t)(stored - 16);
		} else {
			uint32_t plen = (p[0] & 0x0f) ? (uint32_t)(p[0] & 0x0f) + 1 : 0;
			e.len = 12 + plen;
			stored = 12 + plen;
			e.jumbo = false;
			e.payload = p + 12;
			e.plen = plen;
		}
		if (__builtin_expect(ti >= L->nth || stored > (size_t)(end - p), 0)) break;
		mcount *c = &cs[ti];
		e.p = p;
		e.off = c->pos;
		e.idx = c->idx;
		e.clock = (int64_t)hv_le64(p + 4) + c->off;
		c->pos += e.len;
		c->idx++;
		p += stored;
#ifdef HV_FUZZ_PLANT_REPLAY_BUG
		/* planted for fuzz/fuzz_diff_ovni_replay.c: from the second
		 * batch on, each batch's first event is not replayed */
		if (!(P->rd >= 1 && e.p == b->buf + 2))
#endif
			dispatch(L, ti, &e);
		if (L->stop) return;
	}
	if (!HV_INVARIANT(L->r, p == end)) L->stop = true;
}

/* With P->mu held, a batch waiting and nobody replaying: replay it, the
 * lock released meanwhile. */
static void take_batch(mpipe *P)
{
	mbatch *b = &P->b[P->rd % P->nb];
	P->replaying = true;
	pthread_mutex_unlock(&P->mu);
	if (!P->L->stop) replay_batch(P, b);
	bool stopped = P->L->stop;
	pthread_mutex_lock(&P->mu);
	P->rd++;
	P->replaying = false;
	if (stopped) atomic_store(&P->stop, true);
	/* a reader waiting for room wakes once `wake` batches are free, not at
	 * each one: fewer sleeps and wake-ups (see push_batch) */
	if (stopped || P->done || (P->fwait && P->nb - (P->wr - P->rd) >= P->wake)) pthread_cond_broadcast(&P->cv);
}

/* Replay batches until the reader is done and none is left. */
static void drain(mpipe *P)
{
	pthread_mutex_lock(&P->mu);
	for (;;) {
		if (P->rd < P->wr && !P->replaying) {
			take_batch(P);
			continue;
		}
		if (P->done && P->rd == P->wr) break;
		P->rwait++;
		pthread_cond_wait(&P->cv, &P->mu);
		P->rwait--;
	}
	pthread_mutex_unlock(&P->mu);
}

/* The reader's batch is full: push it, and take the next once one is free.
 * While the replayer's task has not started (the runner may run the tasks
 * one after the other), the reader replays the oldest batch itself. */
static void push_batch(mpipe *P)
{
	atomic_fetch_add_explicit(&ovni_pipe_pushed, 1, memory_order_relaxed);
	pthread_mutex_lock(&P->mu);
	P->wr++;
	/* a sleeping replayer wakes once `wake` batches wait, to replay them
	 * all before it sleeps again */
	if (P->rwait && P->wr - P->rd >= P->wake) pthread_cond_broadcast(&P->cv);
	while (P->wr - P->rd >= P->nb && !atomic_load(&P->stop)) {
		if (!P->replaying && atomic_load(&P->started) < 2) {
			take_batch(P);
		} else {
			P->fwait = true;
			pthread_cond_wait(&P->cv, &P->mu);
			P->fwait = false;
		}
	}
	P->pstop = atomic_load(&P->stop);
	P->cur = &P->b[P->wr % P->nb];
	pthread_mutex_unlock(&P->mu);
	P->cur->len = P->cur->nev = 0;
}

/* An event's n bytes (12 to 28, a normal event's) to d: two overlapping
 * fixed-size copies, no call. */
static inline void copy_small(uint8_t *d, const uint8_t *p, size_t n)
{
	if (n >= 16) {
		memcpy(d, p, 16);
		memcpy(d + n - 16, p + n - 16, 16);
	} else {
		memcpy(d, p, 8);
		memcpy(d + n - 8, p + n - 8, 8);
	}
}

__attribute__((noinline)) static void emit_slow(mpipe *P, uint32_t ti, const mevent *e, size_t n)
{
	if (P->cur->len + 2 + n > PIPE_BYTES || P->cur->nev >= P->max_ev) push_batch(P);
	if (P->pstop) return;
	mbatch *b = P->cur;
	b->buf[b->len] = (uint8_t)ti;
	b->buf[b->len + 1] = (uint8_t)(ti >> 8);
	memcpy(b->buf + b->len + 2, e->p, n);
	b->len += 2 + (uint32_t)n;
	b->nev++;
}

/* An event the replay reads, into the reader's batch: its thread's index
 * (u16le) and its bytes. */
static inline void emit(mpipe *P, uint32_t ti, const mevent *e)
{
	size_t n = (size_t)(e->payload - e->p) + e->plen;
	mbatch *b = P->cur;
	if (__builtin_expect(n <= 28 && b->len + 2 + n <= PIPE_BYTES && b->nev < P->max_ev, 1)) {
		uint8_t *d = b->buf + b->len;
		d[0] = (uint8_t)ti;
		d[1] = (uint8_t)(ti >> 8);
		copy_small(d + 2, e->p, n);
		b->len += 2 + (uint32_t)n;
		b->nev++;
		return;
	}
	emit_slow(P, ti, e, n);
}

/* ---- the merge ---- */

/* Looms of many streams: a binary heap of the streams that wait, keyed on (clock of their next
 * event, stream order); the stream being replayed is held out of it and
 * keeps the lead while its next event still comes first, so the heap is
 * touched once per change of stream, not once per event. */
typedef struct heap {
	uint32_t *v;
	size_t n;
	int64_t *clock; /* per thread: clock of its next event */
} heap;

static inline bool before(const int64_t *clock, uint32_t a, uint32_t b)
{
	return clock[a] < clock[b] || (clock[a] == clock[b] && a < b);
}

static void sift_down(heap *h, size_t i)
{
	const int64_t *clock = h->clock;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < h->n && before(clock, h->v[l], h->v[m])) m = l;
		if (l + 1 < h->n && before(clock, h->v[l + 1], h->v[m])) m = l + 1;
		if (m == i) return;
		uint32_t x = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = x;
		i = m;
	}
}

/* Replay thread `cur` while its next event comes before (lim, lidx): the
 * clock and stream order of the first waiting stream. False when the
 * stream has no more events. P: the pipeline's reader, whose events go to
 * the batches (NULL: to the handlers); `stop`: where the replay says it
 * stopped. Inline into the merges, which are compiled once for each. */
static inline __attribute__((always_inline)) bool run_stream(model_loom *L, mpipe *P, const bool *stop, uint32_t cur,
							     mevent *e, int64_t off, int64_t lim, uint32_t lidx)
{
	/* The reader's position, index and pointer in locals (the handlers do
	 * not read them), written back when the window runs out or the run
	 * ends: an event costs no loads and stores of the reader state. */
	mreader *rd = &L->rd[cur];
	const uint8_t *p = rd->rp, *rlim = rd->rlim;
	uint64_t pos = rd->pos, idx = rd->idx;
	for (;;) {
		if (P) emit(P, cur, e);
		else dispatch(L, cur, e);
		pos += e->len;
		idx++;
		if (__builtin_expect(p && rlim - p >= 28 && !(p[0] & 0x10), 1)) {
			uint32_t plen = (p[0] & 0x0f) ? (uint32_t)(p[0] & 0x0f) + 1 : 0;
			e->p = p;
			e->jumbo = false;
			e->payload = p + 12;
			e->plen = plen;
			e->off = pos;
			e->len = 12 + plen;
			e->idx = idx;
			e->clock = (int64_t)hv_le64(p + 4) + off;
			p += 12 + plen;
		} else {
			rd->pos = pos;
			rd->idx = idx;
			if (!read_event_slow(rd, off, e)) return false;
			p = rd->rp;
			rlim = rd->rlim;
		}
		if (*stop || e->clock > lim || (e->clock == lim && cur > lidx)) {
			rd->pos = pos;
			rd->idx = idx;
			rd->rp = p;
			return true;
		}
	}
}

/* Up to SMALL_LOOM streams, the waiting ones are kept sorted, the first
 * last: a change of stream takes the last one and puts the stream it
 * leaves back where it belongs, scanning from the end (a stream just left
 * usually comes again soon, so the scan is short); a larger loom keeps them
 * in a binary heap. */
#define SMALL_LOOM 16u

static inline __attribute__((always_inline)) void merge_small(model_loom *L, mpipe *P, const bool *stop,
							      const int64_t *offs, mevent *next)
{
	uint32_t id[SMALL_LOOM];
	int64_t clk[SMALL_LOOM];
	size_t k = 0;
	for (uint32_t i = 0; i < L->nth; i++) {
		if (!read_event(&L->rd[i], offs[i], &next[i])) continue;
		int64_t c = next[i].clock;
		size_t j = k++;
		for (; j > 0 && (clk[j - 1] < c || (clk[j - 1] == c && id[j - 1] < i)); j--) {
			clk[j] = clk[j - 1];
			id[j] = id[j - 1];
		}
		clk[j] = c;
		id[j] = i;
	}
	while (k && !*stop) {
		uint32_t cur = id[--k];
		int64_t lim = k ? clk[k - 1] : INT64_MAX;
		uint32_t lidx = k ? id[k - 1] : UINT32_MAX;
		if (!run_stream(L, P, stop, cur, &next[cur], offs[cur], lim, lidx)) continue;
		int64_t c = next[cur].clock;
		size_t j = k++;
		for (; j > 0 && (clk[j - 1] < c || (clk[j - 1] == c && id[j - 1] < cur)); j--) {
			clk[j] = clk[j - 1];
			id[j] = id[j - 1];
		}
		clk[j] = c;
		id[j] = cur;
	}
}

/* False: out of memory. */
static inline __attribute__((always_inline)) bool merge_heap(model_loom *L, mpipe *P, const bool *stop,
							     const int64_t *offs, mevent *next)
{
	heap h = {malloc(L->nth * sizeof *h.v), 0, malloc(L->nth * sizeof *h.clock)};
	bool ok = h.v && h.clock;
	if (!ok) goto out;
	for (uint32_t i = 0; i < L->nth; i++)
		if (read_event(&L->rd[i], offs[i], &next[i])) {
			h.clock[i] = next[i].clock;
			h.v[h.n++] = i;
		}
	for (size_t i = h.n; i-- > 0;) sift_down(&h, i);
	if (!h.n) goto out;
	/* take the first stream out of the heap */
	uint32_t cur = h.v[0];
	h.v[0] = h.v[--h.n];
	sift_down(&h, 0);
	while (!*stop) {
		int64_t lim = h.n ? h.clock[h.v[0]] : INT64_MAX;
		uint32_t lidx = h.n ? h.v[0] : UINT32_MAX;
		bool more = run_stream(L, P, stop, cur, &next[cur], offs[cur], lim, lidx);
		if (*stop || (!more && !h.n)) break;
		uint32_t nx = h.v[0];
		if (more) {
			h.clock[cur] = next[cur].clock;
			h.v[0] = cur;
		} else {
			h.v[0] = h.v[--h.n];
		}
		if (h.n) sift_down(&h, 0);
		cur = nx;
	}
out:
	free(h.v);
	free(h.clock);
	return ok;
}

/* The merges, once with the handlers and once with the pipeline's batches
 * as the events' sink. */
static void merge_small_direct(model_loom *L, const int64_t *offs, mevent *next)
{
	merge_small(L, NULL, &L->stop, offs, next);
}
static bool merge_heap_direct(model_loom *L, const int64_t *offs, mevent *next)
{
	return merge_heap(L, NULL, &L->stop, offs, next);
}
static void merge_small_pipe(mpipe *P, mevent *next) { merge_small(P->L, P, &P->pstop, P->offs, next); }
static bool merge_heap_pipe(mpipe *P, mevent *next) { return merge_heap(P->L, P, &P->pstop, P->offs, next); }

/* A loom of one stream (the real traces' usual shape): read_event's fast
 * path with the reader's position, index and pointer in locals, written
 * back to the thread only when the window runs out (the handlers do not
 * read them), so an event costs no loads and stores of the reader state. */
static void replay_one(model_loom *L, int64_t off0)
{
	mreader *th = &L->rd[0];
	mevent e;
	while (!L->stop && read_event_slow(th, off0, &e)) {
		dispatch(L, 0, &e);
		advance(th, &e);
		const uint8_t *p = th->rp, *lim = th->rlim;
		uint64_t pos = th->pos, idx = th->idx;
		while (!L->stop && p && lim - p >= 28 && !(p[0] & 0x10)) {
			uint32_t plen = (p[0] & 0x0f) ? (uint32_t)(p[0] & 0x0f) + 1 : 0;
			e.p = p;
			e.jumbo = false;
			e.payload = p + 12;
			e.plen = plen;
			e.off = pos;
			e.len = 12 + plen;
			e.idx = idx;
			e.clock = (int64_t)hv_le64(p + 4) + off0;
			dispatch(L, 0, &e);
			pos += 12 + plen;
			idx++;
			p += 12 + plen;
		}
		th->pos = pos;
		th->idx = idx;
		th->rp = p;
	}
}

/* The reader's stage: the merge into batches, then the last batch pushed,
 * then help replay what is left. */
static void pipe_read(mpipe *P)
{
	model_loom *L = P->L;
	mevent *next = malloc(L->nth * sizeof *next);
	if (!next) P->poom = true;
	else if (L->nth <= SMALL_LOOM) merge_small_pipe(P, next);
	else if (!merge_heap_pipe(P, next)) P->poom = true;
	free(next);
	pthread_mutex_lock(&P->mu);
	if (P->cur->len) {
		atomic_fetch_add_explicit(&ovni_pipe_pushed, 1, memory_order_relaxed);
		P->wr++;
	}
	P->done = true;
	pthread_cond_broadcast(&P->cv);
	pthread_mutex_unlock(&P->mu);
	drain(P);
}

static void pipe_task(void *ctx, size_t i)
{
	(void)i;
	mpipe *P = ctx;
	if (atomic_fetch_add(&P->started, 1) == 0) pipe_read(P);
	else drain(P);
}

/* The replay as a pipeline through opt's runner; false when it could not
 * be set up (nothing was read: the caller replays on one thread). */
static bool replay_pipe(model_loom *L, const int64_t *offs, const hv_options *opt)
{
	mpipe *P = calloc(1, sizeof *P);
	if (!P) return false;
	P->L = L;
	P->offs = offs;
	P->nb = ovni_pipe_batches < 2 ? 2 : ovni_pipe_batches > MODEL_PIPE_BATCHES_MAX ? MODEL_PIPE_BATCHES_MAX
											: ovni_pipe_batches;
	P->max_ev = ovni_pipe_batch_events ? ovni_pipe_batch_events : UINT32_MAX;
	P->wake = P->nb / 2;
	P->cs = malloc(L->nth * sizeof *P->cs);
	bool ok = P->cs != NULL;
	for (unsigned k = 0; ok && k < P->nb; k++) ok = (P->b[k].buf = malloc(PIPE_BYTES + PIPE_EVENT_MAX)) != NULL;
	bool mu = ok && pthread_mutex_init(&P->mu, NULL) == 0;
	bool cv = mu && pthread_cond_init(&P->cv, NULL) == 0;
	if (cv) {
		/* every event starts where the replay's reader starts it */
		for (size_t i = 0; i < L->nth; i++) P->cs[i] = (mcount){L->rd[i].pos, L->rd[i].idx, offs[i]};
		atomic_init(&P->stop, false);
		atomic_init(&P->started, 0);
		P->cur = &P->b[0];
		atomic_fetch_add_explicit(&ovni_pipe_runs, 1, memory_order_relaxed);
		hv_for_each(opt, 2, pipe_task, P);
		if (P->poom) L->oom = true;
	}
	if (cv) pthread_cond_destroy(&P->cv);
	if (mu) pthread_mutex_destroy(&P->mu);
	for (unsigned k = 0; k < P->nb; k++) free(P->b[k].buf);
	free(P->cs);
	free(P);
	return cv;
}

void model_replay(model_loom *L, const int64_t *offs, const hv_options *pipe)
{
	if (pipe && L->nth <= 65536 && replay_pipe(L, offs, pipe)) return;
	if (L->nth == 1) { /* one stream: no merge */
		replay_one(L, offs[0]);
		return;
	}
	/* Each stream's next event stays read: its bytes live in the stream's
	 * own window until that stream is read again. */
	mevent *next = malloc(L->nth * sizeof *next);
	if (!next) L->oom = true;
	else if (L->nth <= SMALL_LOOM) merge_small_direct(L, offs, next);
	else if (!merge_heap_direct(L, offs, next)) L->oom = true;
	free(next);
}
