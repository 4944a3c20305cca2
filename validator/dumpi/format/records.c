/* The record walk of a .bin's stream: each record's function id, its
 * thread, clocks and arguments, read through a window so that a stream of
 * any size needs bounded memory; and the structural path every layer names
 * a record by. The checks of the stream (stream.c) and the MPI layer
 * (mpi/) walk and name records with these. */
#include <stdio.h>
#include <string.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"

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

bool dumpi_iter_next(dumpi_iter *it, dumpi_record *rec)
{
	dumpi_cur *c = &it->cur;
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
