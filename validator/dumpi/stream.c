/* The record stream of a .bin: two bias words at `body`, then records until
 * the DUMPI_END_OF_STREAM label, which must sit just before the header.
 * Streamed through a window, so a trace of any size needs bounded memory. */
#include <stdio.h>
#include <string.h>

#include "core/hv_int.h"
#include "dumpi.h"
#include "dumpi/format/fast.h"
#include "dumpi/mpi/layer.h"

static void report_failure(dumpi_stream_ctx *s, dumpi_iter *it, const dumpi_record *rec)
{
	char path[48];
	dumpi_record_path(path, sizeof path, rec->index);
	hv_report *r = s->r;
	const char *file = s->b->name;
	int rule = it->failure;
	hv_eval(r, rule, false);
	if (rule == HV_R_DUMPI_STREAM_END_LABEL) {
		hv_emit(r, rule, file, rec->offset, 0, "stream",
			"the stream reaches the header at 0x%llx without the DUMPI_END_OF_STREAM label (293)",
			(unsigned long long)s->limit);
	} else if (rule == HV_R_DUMPI_REC_FUNCTION_KNOWN && rec->fn == DUMPI_PCONTROL) {
		hv_emit(r, rule, file, rec->offset, 2, path,
			"function id 128 (MPI_Pcontrol) has no record layout: libdumpi never writes one (it records "
			"MPI_Pcontrol(2/3) annotations as Function_enter/Function_exit records, ids 291/292) and libundumpi "
			"has no reader for it (it asserts); the rest of the stream is not checked");
	} else if (rule == HV_R_DUMPI_REC_FUNCTION_KNOWN) {
		hv_emit(r, rule, file, rec->offset, 2, path,
			"function id %u (%s) is no record DUMPI can decode (ids 0-289 except 128 and 291-292; 293 ends "
			"the stream); the rest of the stream is not checked",
			rec->fn, dumpi_function_name(rec->fn));
	} else {
		hv_emit(r, rule, file, it->why.at, 0, path,
			"%s record at 0x%llx: field '%.*s' (count/length %llu) runs past the end of the stream at "
			"0x%llx (the header); the rest of the stream is not checked",
			dumpi_function_name(rec->fn), (unsigned long long)rec->offset, (int)it->why.field_len,
			it->why.field, (unsigned long long)it->why.count, (unsigned long long)s->limit);
	}
}

static void check_record(dumpi_stream_ctx *s, const dumpi_record *rec)
{
	char path[48];
	hv_report *r = s->r;
	const char *file = s->b->name;
	if (!hv_eval(r, HV_R_DUMPI_REC_MASK_RESERVED, !(rec->mask & DUMPI_MASK_RESERVED)))
		hv_emit(r, HV_R_DUMPI_REC_MASK_RESERVED, file, rec->offset + 2, 1,
			dumpi_record_path(path, sizeof path, rec->index),
			"%s record: config mask 0x%02x has reserved bits 4-5 set", dumpi_function_name(rec->fn),
			rec->mask);
	if (rec->mask & DUMPI_MASK_PERF) {
		bool ok = s->perf_labels > 0 && rec->perf_count == (uint32_t)s->perf_labels;
		if (!hv_eval(r, HV_R_DUMPI_REC_PERF_LABELS, ok))
			hv_emit(r, HV_R_DUMPI_REC_PERF_LABELS, file, rec->offset, rec->length,
				dumpi_record_path(path, sizeof path, rec->index),
				"%s record: %u perf counters, but the perflbl section has %d label(s) (want equal, "
				"and > 0)",
				dumpi_function_name(rec->fn), rec->perf_count, s->perf_labels < 0 ? 0 : s->perf_labels);
	}
}

static uintptr_t dumpi_last_of(const uint8_t *end)
{
	return (uintptr_t)end >= 37u ? (uintptr_t)end - 37u : 0;
}

void dumpi_check_stream(dumpi_stream_ctx *s)
{
	hv_report *r = s->r;
	const char *file = s->b->name;
	s->walked = false;
	s->end = s->body;
	memset(s->records, 0, sizeof s->records);
	dumpi_iter it;
	if (!dumpi_iter_init(&it, s->b, s->body, s->limit, s->version)) {
		hv_report_internal(r, "out of memory");
		return;
	}
	uint64_t bias;
	if (!dumpi_get(&it.cur, 4, &bias)) {
		hv_eval(r, HV_R_DUMPI_REC_CONTAINED, false);
		hv_emit(r, HV_R_DUMPI_REC_CONTAINED, file, s->body, 8, "stream/bias",
			"the stream at 0x%llx has no room for its two 4-byte time biases before the header at 0x%llx",
			(unsigned long long)s->body, (unsigned long long)s->limit);
		dumpi_iter_free(&it);
		return;
	}
	s->cpu_bias = (uint32_t)bias;
	if (dumpi_get(&it.cur, 4, &bias)) s->wall_bias = (uint32_t)bias;

	dumpi_timing *t = dumpi_timing_new(s->cpu_bias, s->wall_bias);
	if (!t) {
		hv_report_internal(r, "out of memory");
		dumpi_iter_free(&it);
		return;
	}
	const dumpi_layer *layer = s->mpi ? mpi_rank_layer(s->mpi) : &dumpi_layer_none;
	/* large (the records by function, the arguments): no initializer, so
	 * that its bytes are not zeroed twice */
	dumpi_hot h;
	memset(&h, 0, sizeof h);
	h.t = t, h.r = r, h.file = file, h.layer = layer;
	h.args = it.args;
	dumpi_args_present(&h.args);
	dumpi_record *rec = &h.rec;
	char path[48];
	dumpi_shapes shapes;
	memset(&shapes, 0, sizeof shapes);
	/* The common record through its function's step (format/fast.h), the
	 * cursor in p and end; any other through dumpi_iter_next and the checks
	 * below. */
	uint64_t others = 0; /* records of dumpi_iter_next */
	dumpi_ahead a;
	dumpi_ahead_load(&a, &it);
	const uint8_t *p = a.p, *end = a.end;
	h.delta = a.pos - (uint64_t)(uintptr_t)p;
	h.next = p;
	h.rec.index = a.index - 1;
	h.keys = dumpi_timing_keys(t);
	h.nthreads = t->nthreads;
	if (it.args.absent) dumpi_args_present(&it.args);
	/* The last record handed to the layer, which the walk's next record
	 * overwrites in *rec: the layer learns it at the end, not at every
	 * record (mpi_rank_walked). */
	uint64_t last_off = 0;
	unsigned last_fn = 0;
	/* p's last place with a view of 37 bytes (a common record's least:
	 * 29 bytes of header, 8 of arguments) from it, as a number (end - 37
	 * may lie before the view), so that the test of each record is one
	 * compare; 0 when no place has (p is never 0) */
	uintptr_t last = dumpi_last_of(end);
	for (;;) {
		if ((uintptr_t)p <= last) {
			uint32_t step = dumpi_step_of(p);
			/* the step hands the record to the layer itself; h.next is
			 * p here (set below, or by the step before) */
			if (step < DUMPI_NSTEPS) {
				dumpi_steps[step](&h, p, end);
				if (h.next != p) {
					p = h.next;
					continue;
				}
			}
		}
		last_off = rec->offset;
		last_fn = rec->fn;
		a.p = p;
		a.pos = dumpi_hot_pos(&h, p);
		a.index = h.rec.index + 1;
		dumpi_ahead_store(&a, &it);
		bool more = dumpi_iter_next(&it, rec);
		dumpi_ahead_load(&a, &it);
		p = a.p, end = a.end;
		last = dumpi_last_of(end);
		h.delta = a.pos - (uint64_t)(uintptr_t)p;
		h.next = p;
		if (!more) break;
		others++;
		s->records[rec->fn]++;
		check_record(s, rec);
		if (dumpi_shapes_of(rec->fn)) dumpi_shapes_record(&shapes, r, file, rec, &it.args);
		dumpi_timing_record(t, r, file, rec);
		h.keys = dumpi_timing_keys(t);
		h.nthreads = t->nthreads;
		layer->paths[rec->fn](layer->m, rec, &it.args);
		if (it.args.absent) dumpi_args_present(&it.args);
	}
	if (s->mpi && it.next_index)
		mpi_rank_walked(s->mpi, &(dumpi_record){.index = it.next_index - 1, .offset = last_off, .fn = last_fn});
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) s->records[fn] += h.records[fn];
	s->end = it.cur.pos;
	uint64_t common = it.next_index - others;
	hv_eval_n(r, HV_R_DUMPI_REC_MASK_RESERVED, common); /* check_record's only evaluation for them */
	t->quick += 2 * common;
	dumpi_timing_end(t, r);
	dumpi_shapes_end(&shapes, r, file);
	if (it.at_end) {
		bool ok = it.cur.pos == s->limit;
		if (!hv_eval(r, HV_R_DUMPI_STREAM_END_LABEL, ok))
			hv_emit(r, HV_R_DUMPI_STREAM_END_LABEL, file, rec->offset, 2,
				dumpi_record_path(path, sizeof path, rec->index),
				"DUMPI_END_OF_STREAM at 0x%llx is not just before the header at 0x%llx", 
				(unsigned long long)rec->offset, (unsigned long long)s->limit);
		s->walked = ok;
		mpi_rank_end(s->mpi, ok);
	} else if (!it.win.blob->io_failed) {
		report_failure(s, &it, rec);
	}
	dumpi_timing_free(t);
	dumpi_iter_free(&it);
}
