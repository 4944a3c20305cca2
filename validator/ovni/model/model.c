/* The ovni event model: the one-thread replay (the split replay's way back,
 * split.c, and the replay of looms it does not take). Each loom's streams are merged in clock
 * order (clock + the loom's offset from clock-offsets.txt), as the emulator
 * merges them, with a binary heap keyed on (clock, stream order); a loom of
 * one stream is walked straight through without the heap. Each event goes to
 * its model's handler (cpu.c, state.c, task.c). The first
 * error stops the loom's replay, as it stops ovniemu: what follows an
 * impossible state would only be noise. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "core/invariant.h"
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

bool model_read_slow(mreader *th, int64_t offset, mevent *e)
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

/* A key met for the first time (or lost): classified into whichever of its
 * slots holds no key (key 0 marks one; a real key 0 classifies as no model,
 * as an empty slot does), else into its first slot after moving the key
 * there to its other slot if that one is free, else over it (a key lost
 * is classified again when next met: the same op). */
__attribute__((noinline)) const mop *model_op_fill(model_loom *L, const uint8_t *p)
{
	uint32_t key = hv_le32(p);
	mop *a = &L->ops[model_op_slot(key)], *b = &L->ops[model_op_slot2(key)];
	mop *o = a->key == 0 ? a : b->key == 0 ? b : NULL;
	if (!o) {
		unsigned h1 = model_op_slot(a->key), h2 = model_op_slot2(a->key);
		mop *alt = &L->ops[&L->ops[h1] == a ? h2 : h1];
		if (alt != a && alt->key == 0) *alt = *a;
		o = a;
	}
	if (L->split) model_classify_shared(p, o);
	else model_classify(p, o);
	return o;
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
 * stream has no more events. Inline into the merges. */
static inline __attribute__((always_inline)) bool run_stream(model_loom *L, uint32_t cur, mevent *e, int64_t off,
							     int64_t lim, uint32_t lidx)
{
	/* The reader's position, index and pointer in locals (the handlers do
	 * not read them), written back when the window runs out or the run
	 * ends: an event costs no loads and stores of the reader state. */
	mreader *rd = &L->rd[cur];
	const uint8_t *p = rd->rp, *rlim = rd->rlim;
	uint64_t pos = rd->pos, idx = rd->idx;
	for (;;) {
		model_dispatch(L, cur, e);
		pos += e->len;
		idx++;
		if (__builtin_expect(p && rlim - p >= 28 && !(p[0] & 0x10), 1)) {
			p += model_decode(e, p, pos, idx, off);
		} else {
			rd->pos = pos;
			rd->idx = idx;
			if (!model_read_slow(rd, off, e)) return false;
			p = rd->rp;
			rlim = rd->rlim;
		}
		if (L->stop || e->clock > lim || (e->clock == lim && cur > lidx)) {
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

static void merge_small(model_loom *L, const int64_t *offs, mevent *next)
{
	uint32_t id[SMALL_LOOM];
	int64_t clk[SMALL_LOOM];
	size_t k = 0;
	for (uint32_t i = 0; i < L->nth; i++) {
		if (!model_read(&L->rd[i], offs[i], &next[i])) continue;
		int64_t c = next[i].clock;
		size_t j = k++;
		for (; j > 0 && (clk[j - 1] < c || (clk[j - 1] == c && id[j - 1] < i)); j--) {
			clk[j] = clk[j - 1];
			id[j] = id[j - 1];
		}
		clk[j] = c;
		id[j] = i;
	}
	while (k && !L->stop) {
		uint32_t cur = id[--k];
		int64_t lim = k ? clk[k - 1] : INT64_MAX;
		uint32_t lidx = k ? id[k - 1] : UINT32_MAX;
		if (!run_stream(L, cur, &next[cur], offs[cur], lim, lidx)) continue;
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
static bool merge_heap(model_loom *L, const int64_t *offs, mevent *next)
{
	heap h = {hv_malloc(L->nth * sizeof *h.v), 0, hv_malloc(L->nth * sizeof *h.clock)};
	bool ok = h.v && h.clock;
	if (!ok) goto out;
	for (uint32_t i = 0; i < L->nth; i++)
		if (model_read(&L->rd[i], offs[i], &next[i])) {
			h.clock[i] = next[i].clock;
			h.v[h.n++] = i;
		}
	for (size_t i = h.n; i-- > 0;) sift_down(&h, i);
	if (!h.n) goto out;
	/* take the first stream out of the heap */
	uint32_t cur = h.v[0];
	h.v[0] = h.v[--h.n];
	sift_down(&h, 0);
	while (!L->stop) {
		int64_t lim = h.n ? h.clock[h.v[0]] : INT64_MAX;
		uint32_t lidx = h.n ? h.v[0] : UINT32_MAX;
		bool more = run_stream(L, cur, &next[cur], offs[cur], lim, lidx);
		if (L->stop || (!more && !h.n)) break;
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

/* A loom of one stream (the real traces' usual shape): read_event's fast
 * path with the reader's position, index and pointer in locals, written
 * back to the thread only when the window runs out (the handlers do not
 * read them), so an event costs no loads and stores of the reader state. */
static void replay_one(model_loom *L, int64_t off0)
{
	mreader *th = &L->rd[0];
	mevent e;
	while (!L->stop && model_read_slow(th, off0, &e)) {
		model_dispatch(L, 0, &e);
		model_advance(th, &e);
		const uint8_t *p = th->rp, *lim = th->rlim;
		uint64_t pos = th->pos, idx = th->idx;
		while (!L->stop && p && lim - p >= 28 && !(p[0] & 0x10)) {
			uint32_t len = model_decode(&e, p, pos, idx, off0);
			model_dispatch(L, 0, &e);
			pos += len;
			idx++;
			p += len;
		}
		th->pos = pos;
		th->idx = idx;
		th->rp = p;
	}
}

void model_replay(model_loom *L, const int64_t *offs)
{
	if (L->nth == 1) { /* one stream: no merge */
		replay_one(L, offs[0]);
		return;
	}
	/* Each stream's next event stays read: its bytes live in the stream's
	 * own window until that stream is read again. */
	mevent *next = hv_malloc(L->nth * sizeof *next);
	if (!next) L->oom = true;
	else if (L->nth <= SMALL_LOOM) merge_small(L, offs, next);
	else if (!merge_heap(L, offs, next)) L->oom = true;
	free(next);
}
