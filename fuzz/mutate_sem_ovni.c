/* Semantic ovni mutations: the events of valid streams reordered, dropped,
 * repeated or moved, with every stream's clocks left non-decreasing, so the
 * structural checks still pass and the event model (validator/ovni/model*.c:
 * thread and CPU states, task life cycles, state stacks) sees a different
 * story: two events' bodies (flags, MCV and payload, equal sizes) swapped
 * with the clocks kept in place; an event dropped; an event repeated with
 * its clock; a task or thread life-cycle event (nOS-V / Nanos6 / ... T
 * category create, execute, pause, resume, end; ovni OH*) moved within its
 * stream, or to another stream of the same loom (a container's streams
 * whose names share the loom.X directory), taking the clock of the event it
 * now follows. */
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "mutator_core.h"

#define OBS_HDR 8u
#define MAX_EVENTS 1024

typedef struct stream_ev {
	size_t off[MAX_EVENTS], len[MAX_EVENTS], n;
} stream_ev;

/* The events of file f (absolute offsets), up to MAX_EVENTS. */
static void walk(const uint8_t *d, const mmember *f, stream_ev *s)
{
	s->n = 0;
	size_t end = f->data_at + f->len;
	for (size_t at = f->data_at + OBS_HDR; at < end && s->n < MAX_EVENTS;) {
		size_t l = ovni_event_len(d + at, end - at);
		if (!l) break;
		s->off[s->n] = at;
		s->len[s->n++] = l;
		at += l;
	}
}

static uint64_t clock_at(const uint8_t *d, size_t ev) { return field_get(d + ev + 4, 8, false); }

/* Task and thread life cycle: any model's T(ask) category create (c),
 * execute (x), pause (p), resume (r), end (e); ovni's thread events (OH*). */
static bool lifecycle(const uint8_t *ev)
{
	if (ev[1] == 'O' && ev[2] == 'H') return true;
	return ev[2] == 'T' && ev[3] && strchr("cxepr", ev[3]) != NULL;
}

static bool is_stream(const uint8_t *d, const mmember *f) { return f->len >= OBS_HDR + 12 && memcmp(d + f->data_at, "ovni", 4) == 0; }

/* The loom directory of a file's name ("loom.X.ovni/..."): its length, 0 if none. */
static size_t loom_len(const uint8_t *d, const mmember *f)
{
	const uint8_t *nm = d + f->name_at;
	if (f->name_len < 6 || memcmp(nm, "loom.", 5) != 0) return 0;
	for (size_t i = 5; i < f->name_len; i++)
		if (nm[i] == '/') return i;
	return 0;
}

/* An event of s: a life-cycle one when `want_life` and s has one. */
static size_t pick_event(const uint8_t *d, const stream_ev *s, mrng *g, bool want_life)
{
	size_t start = mrng_below(g, s->n);
	if (want_life)
		for (size_t i = 0; i < s->n; i++) {
			size_t e = (start + i) % s->n;
			if (lifecycle(d + s->off[e])) return e;
		}
	return start;
}

/* Move event e of file k to before event j of file t (j == count: at the
 * end), its clock set to the one of the event it follows there (or of the
 * event it precedes, at the start). */
static bool move_event(uint8_t *d, size_t *size, size_t max, mmember *m, size_t n, size_t k, const stream_ev *s,
		       size_t e, size_t t, const stream_ev *u, size_t j)
{
	size_t len = s->len[e];
	uint8_t *ev = malloc(len);
	if (!ev) return false;
	memcpy(ev, d + s->off[e], len);
	size_t ins_rel; /* insertion point relative to file t's data, before the removal */
	uint64_t clk;
	if (j > 0) {
		clk = clock_at(d, u->off[j - 1]);
		ins_rel = u->off[j - 1] + u->len[j - 1] - m[t].data_at;
	} else {
		clk = u->n ? clock_at(d, u->off[0]) : clock_at(d, s->off[e]);
		ins_rel = OBS_HDR;
	}
	/* Moving within one stream past e: the insertion point shifts back. */
	if (t == k && ins_rel > s->off[e] - m[k].data_at) ins_rel -= len;
	field_put(ev + 4, 8, false, clk);
	bool ok = mem_splice(d, size, max, m, n, k, s->off[e], len, NULL, 0);
	if (ok && !mem_splice(d, size, max, m, n, t, m[t].data_at + ins_rel, 0, ev, len)) {
		/* cannot happen (the input only shrank), but never leave it half done */
		mem_splice(d, size, max, m, n, k, s->off[e], 0, ev, len);
		ok = false;
	}
	free(ev);
	return ok;
}

/* Mutation `op` on stream k (one of the ns streams): the new size, 0 when
 * it does not apply there. */
static size_t one_op(unsigned op, uint8_t *d, size_t size, size_t max, mmember *m, size_t n, size_t k,
		     const size_t *streams, size_t ns, mrng *g)
{
	static stream_ev s, u; /* 32 KB each: not on a fuzzer's stack */
	walk(d, &m[k], &s);
	if (s.n == 0) return 0;
	switch (op) {
	case 0: { /* swap two equal-sized events' bodies, clocks in place */
		size_t e = mrng_below(g, s.n);
		size_t start = mrng_below(g, s.n);
		for (size_t i = 0; i < s.n; i++) {
			size_t f = (start + i) % s.n;
			if (f == e || s.len[f] != s.len[e] || memcmp(d + s.off[f], d + s.off[e], 4) == 0) continue;
			uint8_t tmp[4];
			uint8_t *a = d + s.off[e], *b = d + s.off[f];
			memcpy(tmp, a, 4), memcpy(a, b, 4), memcpy(b, tmp, 4);
			for (size_t x = 12; x < s.len[e]; x++) {
				uint8_t t = a[x];
				a[x] = b[x];
				b[x] = t;
			}
			return size;
		}
		return 0;
	}
	case 1: { /* drop an event (a life-cycle one half of the time) */
		size_t e = pick_event(d, &s, g, mrng_below(g, 2));
		return mem_splice(d, &size, max, m, n, k, s.off[e], s.len[e], NULL, 0) ? size : 0;
	}
	case 2: { /* repeat an event with its own clock */
		size_t e = pick_event(d, &s, g, mrng_below(g, 2));
		uint8_t *ev = malloc(s.len[e]);
		if (!ev) return 0;
		memcpy(ev, d + s.off[e], s.len[e]);
		bool ok = mem_splice(d, &size, max, m, n, k, s.off[e] + s.len[e], 0, ev, s.len[e]);
		free(ev);
		return ok ? size : 0;
	}
	case 3:
	case 4: { /* a life-cycle event to another place in its stream */
		size_t e = pick_event(d, &s, g, true), j = e;
		for (unsigned tries = 0; tries < 4 && (j == e || j == e + 1); tries++) j = mrng_below(g, s.n + 1);
		if (j == e || j == e + 1) return 0; /* nowhere else to go */
		return move_event(d, &size, max, m, n, k, &s, e, k, &s, j) ? size : 0;
	}
	default: { /* a life-cycle event to another stream of the same loom */
		size_t ll = loom_len(d, &m[k]), start = mrng_below(g, ns), t = SIZE_MAX;
		if (!ll) return 0;
		for (size_t i = 0; i < ns && t == SIZE_MAX; i++) {
			size_t c = streams[(start + i) % ns];
			if (c != k && loom_len(d, &m[c]) == ll && memcmp(d + m[c].name_at, d + m[k].name_at, ll) == 0) t = c;
		}
		if (t == SIZE_MAX) return 0;
		walk(d, &m[t], &u);
		size_t e = pick_event(d, &s, g, true);
		return move_event(d, &size, max, m, n, k, &s, e, t, &u, mrng_below(g, u.n + 1)) ? size : 0;
	}
	}
}

size_t sem_ovni(uint8_t *d, size_t size, size_t max, mmember *m, size_t n, mrng *g)
{
	size_t streams[FUZZ_MAX_FILES], ns = 0;
	for (size_t k = 0; k < n && k < FUZZ_MAX_FILES; k++)
		if (is_stream(d, &m[k])) streams[ns++] = k;
	if (ns == 0) return 0;
	/* a mutation that does not apply (no equal-sized pair, a lone stream
	 * in its loom) gives way to the next one */
	unsigned op = (unsigned)mrng_below(g, 6);
	for (unsigned tries = 0; tries < 6; tries++, op = (op + 1) % 6) {
		size_t got = one_op(op, d, size, max, m, n, streams[mrng_below(g, ns)], streams, ns, g);
		if (got) return got;
	}
	return 0;
}
