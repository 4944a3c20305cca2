/* One large stream.obs checked in chunks: the stream is cut
 * into chunks of about the unit size, each checked as a unit of work
 * (core/units.h) on a -j thread or an hpcvet-mpi rank, and the chunks are
 * merged in order into the one walk (walk.h), so the report is the
 * one walk's, byte for byte.
 *
 * Events carry no sync marker, so a chunk finds where its first event
 * starts by itself, speculatively: the first offset from its nominal start
 * at which SYNC_CHAIN events in a row parse as valid ones (flags, a known
 * MCV, a payload ovniemu takes: sync.c). The chunk then walks the events
 * that start before the next chunk's nominal start, and records where it
 * stopped. At the merge, a chunk is taken only when it started exactly
 * where the one before it stopped (ovni_obs_absorb); otherwise (a guess
 * that lands inside an event, a damaged region, a chunk that found no
 * start) its events are walked again from the true boundary, in order, on
 * the merging process. A valid stream is thus read once, in parallel; the
 * merge costs a few hundred bytes per chunk. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "core/units.h"
#include "walk.h"

/* Chunks smaller than other units: a stream is checked at ~2.5 GB/s per
 * core, so 64 MiB units leave 17 of a 1.1 GB stream to 8 threads (one
 * thread takes 3: 5.7x at best), while a chunk's fixed cost (its report,
 * window and start search) is ~40 us: 16 MiB gives 66 chunks for ~3 ms. */
#define OBS_CHUNK_DEFAULT (16ull << 20)
#define SYNC_SCAN (1u << 20) /* candidates tried before giving the chunk up to the merge */

/* The first offset in [from, stop) (at most SYNC_SCAN of them) where a
 * chain of plausible events starts (sync.c); UINT64_MAX when none. */
static uint64_t find_start(hv_blob *b, uint64_t from, uint64_t stop)
{
	return ovni_obs_resync(b, from, stop - from > SYNC_SCAN ? from + SYNC_SCAN : stop, NULL);
}

/* One chunk of a stream checked on its own: the events that start in
 * [start, stop), walked from `start` into its own report, with event
 * indices counted from 0 in the chunk. What crosses a cut is left for the
 * merge (absorb): the walk's cut state where it stopped -- the last clock,
 * the first backwards and signed-clock steps, the first sort marker
 * (checked at the merge, with the region state the chunk before leaves) --
 * and the summary notes, whose first_clock is the chunk's first. Holds no
 * pointers: it travels as its bytes between processes. */
typedef struct ovni_obs_chunk {
	uint64_t start, end;      /* walked from; the offset the walk stopped at */
	bool stopped;             /* an event truncated by the stream's end */
	ovni_obs_cut cut;
	ovni_obs_summary sum;
} ovni_obs_chunk;

static void chunk_check(hv_blob *b, hv_report *r, uint64_t start, uint64_t stop, ovni_obs_chunk *c)
{
	memset(c, 0, sizeof *c);
	c->start = c->end = start;
	/* A window no larger than the chunk (and a little beyond: its last
	 * event may end past `stop`): each fill reads the window's size. */
	uint64_t span = stop > start ? stop - start + 4096u : 4096u;
	ovni_obs_walker *ow = ovni_obs_start_at(b, r, &c->sum, start, span < HV_WINDOW_DEFAULT ? (size_t)span : HV_WINDOW_DEFAULT);
	if (!ow) return;
	ovni_obs_walk_to(ow, stop);
	c->end = ow->off;
	c->stopped = ow->stopped;
	c->cut = ow->w.cut;
	ovni_obs_free(ow);
}

/* A chunk's diagnostic, its event index made the stream's: the chunk
 * counted its events from 0. */
static void append_rebased(hv_report *r, const hv_diag *d, uint64_t base)
{
	static const char pre[] = "stream.obs/event[";
	if (base == 0 || strncmp(d->path, pre, sizeof pre - 1) != 0) {
		hv_report_admit(r, d);
		return;
	}
	char *end;
	unsigned long long i = strtoull(d->path + sizeof pre - 1, &end, 10);
	hv_diag c = *d;
	snprintf(c.path, sizeof c.path, "%s%" PRIu64 "%s", pre, base + (uint64_t)i, end);
	hv_report_admit(r, &c);
}

/* The summary notes of a later part of the stream: each first offset is
 * kept from the earlier part when it has one. */
static void absorb_summary(ovni_obs_summary *s, const ovni_obs_summary *c)
{
	for (int m = 0; m < OVNI_NMODELS; m++)
		if ((c->models & (1u << m)) && !(s->models & (1u << m))) s->model_off[m] = c->model_off[m];
	s->models |= c->models;
	for (int t = 0; t < OVNI_MARK_TYPES; t++) {
		uint64_t bit = 1ull << (t % 64);
		if ((c->mark_types[t / 64] & bit) && !(s->mark_types[t / 64] & bit)) s->mark_off[t] = c->mark_off[t];
	}
	s->mark_types[0] |= c->mark_types[0];
	s->mark_types[1] |= c->mark_types[1];
	if (c->mark_bad_type && !s->mark_bad_type) {
		s->mark_bad_type = true;
		s->mark_bad_type_value = c->mark_bad_type_value;
		s->mark_bad_type_off = c->mark_bad_type_off;
	}
}

/* Take chunk c (checked into cr) as the walk's next events, when it starts
 * at the walk's frontier; false (nothing done) when it does not or the walk
 * is finished. Diagnostics, counters and summary then read as if the walk
 * had checked those events itself. */
static bool absorb(ovni_obs_walker *ow, const ovni_obs_chunk *c, const hv_report *cr)
{
	if (ovni_obs_finished(ow) || c->start != ow->off) return false;
	ovni_obs_cut *w = &ow->w.cut;
	const ovni_obs_cut *k = &c->cut;
	hv_report *r = ow->w.r;
	uint64_t base = w->idx;
	bool entry_in = w->in_region;
	/* the clock checks across the cut, then the chunk's own, as one walk
	 * would have met them */
	if (k->idx) {
		uint64_t first_clock = c->sum.first_clock;
		if (base == 0) ow->w.sum->first_clock = first_clock;
		if (base > 0 && first_clock < w->prev_clock && w->back_n++ == 0) {
			w->back_off = c->start;
			w->back_idx = base;
			w->back_prev = w->prev_clock;
			w->back_clock = first_clock;
			w->back_in_region = entry_in && !k->first_closes;
		}
		if (k->back_n && w->back_n == 0) {
			w->back_off = k->back_off;
			w->back_idx = base + k->back_idx;
			w->back_prev = k->back_prev;
			w->back_clock = k->back_clock;
			w->back_in_region = k->back_unknown ? entry_in && k->back_in_region : k->back_in_region;
		}
		w->back_n += k->back_n;
		if (k->signed_n && w->signed_n == 0) {
			w->signed_off = k->signed_off;
			w->signed_idx = base + k->signed_idx;
			w->signed_clock = k->signed_clock;
		}
		w->signed_n += k->signed_n;
		w->prev_clock = k->prev_clock;
	}
	absorb_summary(ow->w.sum, &c->sum);
	/* the chunk's report, with its first sort marker checked in its place:
	 * its failures admitted in their order (stored ones, then the ones
	 * max_diags left unstored), then the rest of its counts */
	size_t at = k->marker && k->marker_at < cr->ndiags ? (size_t)k->marker_at : cr->ndiags;
	size_t gat = k->marker && k->marker_ghosts < cr->nghosts ? (size_t)k->marker_ghosts : cr->nghosts;
	if (k->marker && k->marker_at < cr->ndiags) gat = 0;
	size_t first = at;
#ifdef HV_FUZZ_PLANT_SPLIT_BUG
	/* A planted defect, never in a real build: the merge drops a chunk's
	 * first stored diagnostic. tests/fuzz_diff.test.sh builds it into the
	 * diff_ovni_split target and expects the target to abort. */
	if (first) first--;
#endif
	for (size_t i = 0; i < first; i++) append_rebased(r, &cr->diags[i + at - first], base);
	for (size_t i = 0; i < gat; i++) hv_report_admit_ghost(r, &cr->ghosts[i]);
	if (k->marker) {
		w->idx = base + k->marker_idx;
		ovni_obs_sort_marker(&ow->w, k->marker_off, k->marker_open);
		w->in_region = k->in_region;
		w->region_open_off = k->region_open_off;
	}
	for (size_t i = at; i < cr->ndiags; i++) append_rebased(r, &cr->diags[i], base);
	for (size_t i = gat; i < cr->nghosts; i++) hv_report_admit_ghost(r, &cr->ghosts[i]);
	hv_report_merge_rest(r, cr);
	w->idx = base + k->idx;
	ow->off = c->end;
	ow->stopped = c->stopped;
	return true;
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
	if (k->found) chunk_check(s->b, &k->rep, start, k->stop, &k->c);
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
	uint64_t first = ow->off, len = b->size - first;
	hv_options o = opt ? *opt : (hv_options){0};
	if (!o.unit_bytes) o.unit_bytes = OBS_CHUNK_DEFAULT;
	uint64_t per = hv_unit_bytes(&o, len);
	uint64_t n = len / per + (len % per != 0);
	split s = {.b = b, .n = (size_t)n};
	/* optional: without the chunks' table the one walk checks the same */
	if (n > 1) s.v = hv_calloc_optional(s.n, sizeof *s.v);
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
		if (s.v[i].found && absorb(ow, &s.v[i].c, &s.v[i].rep)) {
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

static void obs_check_file(const hv_options *opt, hv_blob *b, hv_report *r)
{
	snprintf(r->version, sizeof r->version, "1");
	ovni_check_obs_split(opt, b, r);
}

const hv_format hv_format_ovni_stream = {
	.name = "ovni stream",
	.file_name = "stream.obs",
	.sniff = ovni_obs_sniff,
	.check = obs_check_file,
};
