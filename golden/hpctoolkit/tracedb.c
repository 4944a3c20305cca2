/* trace.db writer, laid out like hpcprof's trace sink: header, Context
 * Trace Headers section (release: 0x20-byte section header with
 * min/maxTimestamp; draft: 0x0d bytes), one header per thread profile, then
 * each line in a reservation rounded up to 8 bytes (lines in reverse order
 * for some seeds, unused slack zero-filled), and in the release edition the
 * footer after the last reservation. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "database_files.h"

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void tdb_layout_free(tdb_layout *l)
{
	free(l->t);
	memset(l, 0, sizeof *l);
}

int gen_tracedb_write(const hdb *d, gen_buf *b, tdb_layout *l)
{
	memset(l, 0, sizeof *l);
	bool release = d->edition == HV_EDITION_RELEASE;
	l->footer = release;
	/* hpcprof gives every thread profile a header, also one without trace
	 * samples (an empty line, pStart == pEnd); hpcviewer's trace reader
	 * trips on those (tracedb.line.reader-hazard-empty), so this writer
	 * gives headers only to profiles with samples, and the rule's --break
	 * empties a line. */
	l->ntraces = 0;
	for (unsigned p = 1; p < d->nprof; p++) l->ntraces += d->prof[p].trace_len > 0;
	l->t = calloc(l->ntraces ? l->ntraces : 1, sizeof *l->t);
	if (!l->t) return -1;
	for (unsigned p = 1, i = 0; p < d->nprof; p++)
		if (d->prof[p].trace_len > 0) l->t[i++].prof = p;
	l->sztrace = 0x18u + (d->minor ? 8u * (1 + d->minor % 2) : 0u);
	/* A newer minor's section header may be longer: an odd draft minor's
	 * as long as the release one (room for min/maxTimestamp, junk there). */
	uint64_t th_hdr = release ? 0x20u + (d->minor ? 8u : 0u) : 0x0du + (d->minor ? 8u * (1 + 2 * (d->minor % 2)) : 0u);
	/* A newer minor may list a second section this reader does not know:
	 * its {sz,p} pair extends the header, its bytes follow the headers. */
	bool extra_sec = d->minor > 0 && d->seed % 2 == 0;
	uint64_t extra_at = 0, extra_sz = 40;
	l->th_sec = (extra_sec ? 0x30u : 0x20u) + d->k.tdb_sec_shift;
	l->th_arr = align_up(l->th_sec + th_hdr, 8) + d->k.tdb_arr_shift;
	l->th_sz = (l->th_arr - l->th_sec) + (uint64_t)l->ntraces * l->sztrace;
	l->lines = align_up(l->th_sec + l->th_sz, 8);
	if (extra_sec) {
		extra_at = l->lines;
		l->lines += extra_sz;
	}
	bool reverse = d->seed % 2 == 1;
	uint64_t cur = l->lines;
	for (uint32_t k = 0; k < l->ntraces; k++) {
		uint32_t i = reverse ? l->ntraces - 1 - k : k;
		tdb_line_layout *t = &l->t[i];
		const hdb_prof *p = &d->prof[t->prof];
		t->th = l->th_arr + (uint64_t)i * l->sztrace;
		t->start = cur + (i == 0 ? d->k.tdb_line0_shift : 0);
		t->end = t->start + 12 * p->trace_len;
		t->reserved_end = align_up(t->start + 12 * p->trace_cap, 8);
		cur = t->reserved_end;
	}
	l->lines_end = cur;
	uint64_t total = cur + (release ? 8 : 0);
	if (!gen_buf_presize(b, total)) return -1;
	uint8_t *f = b->data;
	const uint64_t pairs[] = {l->th_sz, l->th_sec};
	gen_put_file_header(b, d, "trce", pairs, 1, extra_sec ? extra_sz : 0, extra_at);
	uint8_t *s = f + l->th_sec;
	gen_put_array_header(s, l->th_arr, l->ntraces, l->sztrace);
	if (release) {
		gen_fill_gap(b, d, l->th_sec + 0xd, 3);
		hv_put_le64(s + 0x10, hdb_min_ts(d));
		hv_put_le64(s + 0x18, hdb_max_ts(d));
	}
	uint64_t known = release ? 0x20u : 0x0du;
	gen_fill_gap(b, d, l->th_sec + known, l->th_arr - l->th_sec - known);
	for (uint32_t i = 0; i < l->ntraces; i++) {
		tdb_line_layout *t = &l->t[i];
		uint8_t *h = f + t->th;
		hv_put_le32(h, t->prof);
		gen_fill_gap(b, d, t->th + 4, 4);
		hv_put_le64(h + 0x08, t->start);
		hv_put_le64(h + 0x10, t->end);
		gen_fill_gap(b, d, t->th + 0x18, l->sztrace - 0x18);
		uint64_t n = (t->end - t->start) / 12, k = 0;
		hpctk_trace_iter it;
		hpctk_trace_begin(&d->m, t->prof, &it);
		uint64_t ts;
		uint32_t ctx;
		while (k < n && hpctk_trace_next(&it, &ts, &ctx)) {
			hv_put_le64(f + t->start + 12 * k, ts);
			hv_put_le32(f + t->start + 12 * k + 8, ctx);
			k++;
		}
	}
	if (release) memcpy(f + total - 8, "trace.db", 8);
	return 0;
}
