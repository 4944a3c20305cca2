/* One large stream.obs checked in chunks (issue 18): the stream is cut
 * into chunks of about the unit size, each checked as a unit of work
 * (core/units.h) on a -j thread or an hpcvet-mpi rank, and the chunks are
 * merged in order into the one walk (obs_walk.h), so the report is the
 * one walk's, byte for byte.
 *
 * Events carry no sync marker, so a chunk finds where its first event
 * starts by itself, speculatively: the first offset from its nominal start
 * at which SYNC_CHAIN events in a row parse as valid ones (flags, a known
 * MCV, the payload its signature wants). The chunk then walks the events
 * that start before the next chunk's nominal start, and records where it
 * stopped. At the merge, a chunk is taken only when it started exactly
 * where the one before it stopped (ovni_obs_absorb); otherwise (a guess
 * that lands inside an event, a damaged region, a chunk that found no
 * start) its events are walked again from the true boundary, in order, on
 * the merging process. A valid stream is thus read once, in parallel; the
 * merge costs a few hundred bytes per chunk. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"
#include "../core/units.h"
#include "obs_walk.h"

/* Chunks smaller than other units: a stream is checked at ~2.5 GB/s per
 * core, so 64 MiB units leave 17 of a 1.1 GB stream to 8 threads (one
 * thread takes 3: 5.7x at best), while a chunk's fixed cost (its report,
 * window and start search) is ~40 us: 16 MiB gives 66 chunks for ~3 ms. */
#define OBS_CHUNK_DEFAULT (16ull << 20)
#define SYNC_CHAIN 16u
#define SYNC_SCAN (1u << 20) /* candidates tried before giving the chunk up to the merge */
#define SYNC_WINDOW 4096u

static bool graph(uint8_t c) { return c >= 0x21 && c <= 0x7e; }

/* The length of the event at off when it would pass every per-event rule
 * that fixes its length, else 0. */
static uint64_t plausible(hv_window *win, uint64_t off, uint64_t size)
{
	uint64_t left = size - off;
	if (left < 12) return 0;
	const uint8_t *p = hv_window_get(win, off, left < 16 ? 12 : 16);
	if (!p || (p[0] & 0xe0u) || !graph(p[1]) || !graph(p[2]) || !graph(p[3])) return 0;
	const ovni_evspec *s = ovni_event_find(p + 1);
	if (!s) return 0;
	unsigned nibble = p[0] & 0x0fu;
	uint64_t len;
	if (p[0] & 0x10u) {
		if (nibble != 3 || left < 16 || s->payload != OVNI_EV_JUMBO_SIG || hv_le32(p + 12) > OVNI_JUMBO_MAX)
			return 0;
		len = 16u + hv_le32(p + 12);
	} else {
		uint64_t payload = nibble ? nibble + 1u : 0u;
		if (s->payload == OVNI_EV_JUMBO_SIG || payload != (uint64_t)s->payload) return 0;
		len = 12u + payload;
	}
	return len <= left ? len : 0;
}

/* The first offset in [from, stop) (at most SYNC_SCAN of them) where a
 * chain of plausible events starts, reaching SYNC_CHAIN events or the
 * stream's end exactly; UINT64_MAX when none. */
static uint64_t find_start(hv_blob *b, uint64_t from, uint64_t stop)
{
	/* A small window: a chain is usually a few hundred bytes, and the
	 * chunk's own walk reads the same bytes again through its window. */
	hv_window win;
	if (!hv_window_init(&win, b, SYNC_WINDOW)) return UINT64_MAX;
	uint64_t found = UINT64_MAX;
	uint64_t last = stop - from > SYNC_SCAN ? from + SYNC_SCAN : stop;
	for (uint64_t c = from; c < last && found == UINT64_MAX && !b->io_failed; c++) {
		uint64_t o = c, len = 0;
		unsigned k = 0;
		while (k < SYNC_CHAIN && o < b->size && (len = plausible(&win, o, b->size)) != 0) {
			o += len;
			k++;
		}
		if (k == SYNC_CHAIN || (k > 0 && o == b->size)) found = c;
	}
	hv_window_free(&win);
	return found;
}

_Atomic uint64_t ovni_obs_chunks_taken, ovni_obs_chunks_redone;

typedef struct chunk {
	uint64_t from, stop;      /* nominal: events that start in [from, stop) */
	bool found;               /* the chunk found its first event and walked */
	ovni_obs_chunk c;
	hv_report rep;
} chunk;

typedef struct split {
	hv_blob *b;
	chunk *v;
	size_t n;
} split;

static void chunk_task(void *ctx, size_t i)
{
	split *s = ctx;
	chunk *k = &s->v[i];
	uint64_t start = i == 0 ? k->from : find_start(s->b, k->from, k->stop);
	k->found = start != UINT64_MAX;
	if (k->found) ovni_obs_chunk_check(s->b, &k->rep, start, k->stop, &k->c);
}

static hv_report *chunk_report(void *ctx, size_t i) { return &((split *)ctx)->v[i].rep; }
static hv_blob *chunk_blob(void *ctx, size_t i)
{
	(void)i;
	return ((split *)ctx)->b;
}
static uint64_t chunk_size(void *ctx, size_t i) { return ((split *)ctx)->v[i].stop - ((split *)ctx)->v[i].from; }

/* The result holds no pointers, and every process runs the same binary. */
static void chunk_save(void *ctx, size_t i, hv_wbuf *w)
{
	chunk *k = &((split *)ctx)->v[i];
	hv_put_u64(w, k->found);
	hv_put_bytes(w, &k->c, sizeof k->c);
}

static bool chunk_load(void *ctx, size_t i, hv_rbuf *r)
{
	chunk *k = &((split *)ctx)->v[i];
	k->found = hv_get_bool(r);
	return hv_get_bytes(r, &k->c, sizeof k->c);
}

void ovni_check_obs_split(const hv_options *opt, hv_blob *b, hv_report *r)
{
	ovni_obs_summary sum;
	ovni_obs_walker *ow = ovni_obs_start(b, r, false, &sum, NULL);
	if (!ow) return;
	uint64_t first = ovni_obs_frontier(ow), len = b->size - first;
	hv_options o = opt ? *opt : (hv_options){0};
	if (!o.unit_bytes) o.unit_bytes = OBS_CHUNK_DEFAULT;
	uint64_t per = hv_unit_bytes(&o, len);
	uint64_t n = len / per + (len % per != 0);
	split s = {.b = b, .n = (size_t)n};
	if (n > 1) s.v = calloc(s.n, sizeof *s.v);
	if (!s.v) { /* one chunk (or no memory for more): the one walk */
		ovni_obs_end(ow);
		return;
	}
	for (size_t i = 0; i < s.n; i++) {
		s.v[i].from = first + i * per;
		s.v[i].stop = i + 1 == s.n ? b->size : first + (i + 1) * per;
		hv_report_init(&s.v[i].rep, r->input_path, r->max_diags);
	}
	hv_units u = {.n = s.n, .ctx = &s, .check = chunk_task, .report = chunk_report, .save = chunk_save,
		      .load = chunk_load, .blob = chunk_blob, .size = chunk_size};
	hv_run_units(opt, &u);
	for (size_t i = 0; i < s.n && !ovni_obs_finished(ow); i++) {
		if (s.v[i].found && ovni_obs_absorb(ow, &s.v[i].c, &s.v[i].rep)) {
			atomic_fetch_add(&ovni_obs_chunks_taken, 1);
			continue;
		}
		atomic_fetch_add(&ovni_obs_chunks_redone, 1);
		ovni_obs_walk_to(ow, s.v[i].stop);
	}
	for (size_t i = 0; i < s.n; i++) hv_report_free(&s.v[i].rep);
	free(s.v);
	ovni_obs_end(ow);
}
