/* The record walk of a .bin's stream: each record's function id, its
 * thread, clocks and arguments, read through a window so that a stream of
 * any size needs bounded memory; and the structural path every layer names
 * a record by. The checks of the stream (stream.c) and the MPI layer
 * (mpi/) walk and name records with these. */
#include <stdio.h>
#include <string.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "dumpi/format/fast.h"

const char *dumpi_record_path(char *buf, size_t len, uint64_t index)
{
	snprintf(buf, len, "stream/record[%llu]", (unsigned long long)index);
	return buf;
}

bool dumpi_iter_init(dumpi_iter *it, hv_blob *b, uint64_t body, uint64_t limit, const uint8_t version[3])
{
	memset(it, 0, sizeof *it);
	if (!hv_window_init(&it->win, b, HV_WINDOW_DEFAULT)) return false;
	it->cur.w = &it->win;
	it->cur.pos = body;
	it->cur.limit = limit;
	memcpy(it->version, version, 3);
	it->layouts = dumpi_layout_table();
	it->args.status_len = dumpi_version_at_least(version, 0, 6, 3) ? 14 : 10;
	it->args.absent = true; /* zeroed: nothing present yet */
	return true;
}

void dumpi_iter_free(dumpi_iter *it) { hv_window_free(&it->win); }

static void get_clock(dumpi_cur *c, dumpi_clock *k)
{
	uint64_t s = 0, n = 0;
	dumpi_get(c, 2, &s);
	dumpi_get(c, 4, &n);
	k->sec = (uint16_t)s;
	k->nsec = (uint32_t)n;
}

static inline void clock_at(const uint8_t *p, dumpi_clock *k)
{
	k->sec = hv_be16(p);
	k->nsec = hv_be32(p + 2);
}

/* The longest record prefix before perf counters: id, mask, thread, two
 * clock pairs, the counters' count. */
#define PREFIX_MAX (2u + 1u + 2u + 24u + 24u + 1u)

/* The view ahead of the cursor, up to the limit, worked out again when
 * something other than the decoders below moved the cursor. */
static bool refresh_ahead(dumpi_iter *it)
{
	dumpi_cur *c = &it->cur;
	it->ahead = NULL;
	if (!c->view || c->failed || c->pos < c->view_at || c->pos > c->limit) return false;
	uint64_t rel = c->pos - c->view_at;
	if (rel > c->view_len) return false;
	uint64_t n = c->view_len - rel;
	if (n > c->limit - c->pos) n = c->limit - c->pos;
	it->ahead = c->view + rel;
	it->ahead_end = it->ahead + n;
	it->ahead_pos = c->pos;
	return true;
}

/* A record whose bytes all lie in the view ahead, of a function that
 * format/decode.c decodes, decoded from memory with any mask: the common one
 * through dumpi_next_common, the rest (no clocks, perf counters) here.
 * False (nothing consumed) sends it through the field-by-field walk below,
 * which also finds out why a record does not fit. */
static bool next_direct(dumpi_iter *it, dumpi_record *rec)
{
	dumpi_cur *c = &it->cur;
	if ((!it->ahead || it->ahead_pos != c->pos) && !refresh_ahead(it)) return false;
	const uint8_t *clk;
	dumpi_ahead a;
	dumpi_ahead_load(&a, it);
	if (dumpi_next_common(&a, it, rec, &clk)) {
		dumpi_ahead_store(&a, it);
		rec->perf_count = 0;
		clock_at(clk, &rec->cpu_start);
		clock_at(clk + 6, &rec->cpu_stop);
		clock_at(clk + 12, &rec->wall_start);
		clock_at(clk + 18, &rec->wall_stop);
		return true;
	}
	const uint8_t *p = it->ahead;
	uint64_t avail = (uint64_t)(it->ahead_end - p);
	if (avail < PREFIX_MAX) return false;
	unsigned fn = hv_be16(p);
	uint8_t mask = p[2];
	size_t k = 3;
	uint16_t thread = 0;
	uint8_t perf_count = 0;
	if (mask & DUMPI_MASK_THREAD) thread = hv_be16(p + 3), k += 2;
	dumpi_clock cpu[2] = {{0, 0}, {0, 0}}, wall[2] = {{0, 0}, {0, 0}};
	if (mask & DUMPI_MASK_CPU) {
		clock_at(p + k, &cpu[0]);
		clock_at(p + k + 6, &cpu[1]);
		k += 12;
	}
	if (mask & DUMPI_MASK_WALL) {
		clock_at(p + k, &wall[0]);
		clock_at(p + k + 6, &wall[1]);
		k += 12;
	}
	if (mask & DUMPI_MASK_PERF) {
		/* a count, then 16 bytes a counter (skipped, as the walk below skips them) */
		perf_count = p[k++];
		if (avail - k < 16u * perf_count) return false;
		k += 16u * perf_count;
	}
	if (fn >= DUMPI_NFUNCS) return false;
	const uint8_t *e = dumpi_decoders[fn](p + k, (size_t)(avail - k), c->pos + k, mask, &it->args);
	if (e == DUMPI_DEC_FAIL) return false;
	rec->index = it->next_index;
	rec->offset = c->pos;
	rec->fn = fn;
	rec->mask = mask;
	rec->thread = thread;
	rec->perf_count = perf_count;
	rec->cpu_start = cpu[0], rec->cpu_stop = cpu[1];
	rec->wall_start = wall[0], rec->wall_stop = wall[1];
	rec->length = (uint64_t)(e - p);
	it->args.bytes = p + k;
	it->args.bytes_at = c->pos + k;
	it->args.bytes_len = rec->length - k;
	c->pos += rec->length;
	it->ahead = p + rec->length;
	it->ahead_pos = c->pos;
	it->next_index++;
	return true;
}

/* The field-by-field walk, for what next_direct leaves (kept out of line,
 * so that the common record pays for none of its registers). */
static __attribute__((noinline)) bool next_walk(dumpi_iter *it, dumpi_record *rec)
{
	dumpi_cur *c = &it->cur;
	it->ahead = NULL; /* the walk may move the view: next_direct works it out again */
	it->args.bytes = NULL;
	it->args.absent = true; /* the walk writes every present flag and bad_row */
	memset(rec, 0, sizeof *rec);
	rec->index = it->next_index;
	rec->offset = c->pos;
	uint64_t v;
	if (c->pos >= c->limit || !dumpi_get(c, 2, &v)) {
		it->failure = HV_R_DUMPI_STREAM_END_LABEL;
		return false;
	}
	rec->fn = (unsigned)v;
	if (rec->fn == DUMPI_END_OF_STREAM) {
		it->at_end = true;
		return false;
	}
	const dumpi_layout *L = dumpi_layout_of(rec->fn);
	if (!L || !L->decodable) {
		it->failure = HV_R_DUMPI_REC_FUNCTION_KNOWN;
		return false;
	}
	memset(&it->why, 0, sizeof it->why);
	if (dumpi_get(c, 1, &v)) rec->mask = (uint8_t)v;
	if ((rec->mask & DUMPI_MASK_THREAD) && dumpi_get(c, 2, &v)) rec->thread = (uint16_t)v;
	if (rec->mask & DUMPI_MASK_CPU) {
		get_clock(c, &rec->cpu_start);
		get_clock(c, &rec->cpu_stop);
	}
	if (rec->mask & DUMPI_MASK_WALL) {
		get_clock(c, &rec->wall_start);
		get_clock(c, &rec->wall_stop);
	}
	if ((rec->mask & DUMPI_MASK_PERF) && dumpi_get(c, 1, &v)) {
		rec->perf_count = (uint8_t)v;
		dumpi_skip(c, 16u * rec->perf_count);
	}
	if (c->failed) {
		it->why.field = "record prefix";
		it->why.field_len = 13;
		it->why.at = rec->offset;
		it->failure = HV_R_DUMPI_REC_CONTAINED;
		return false;
	}
	if (!dumpi_decode_args_into(L, rec->mask, it->version, c, &it->why, &it->args)) {
		it->failure = HV_R_DUMPI_REC_CONTAINED;
		return false;
	}
	rec->length = c->pos - rec->offset;
	it->next_index++;
	return true;
}

bool dumpi_iter_next(dumpi_iter *it, dumpi_record *rec)
{
	if (next_direct(it, rec)) return true;
	return next_walk(it, rec);
}
