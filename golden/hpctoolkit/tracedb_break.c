/* --break cases for trace.db rules (a standalone trace.db each). The
 * edition evidence of a lone trace.db (release: footer, or pTraces at
 * least 0x20 into its section) is kept intact by every case. */
#include <string.h>

#include "database_break.h"

static tdb_line_layout *T(hk_ctx *c, uint32_t i) { return &c->tl.t[i]; }
static uint8_t *th(hk_ctx *c, uint32_t i, unsigned off) { return hk_t(c, T(c, i)->th + off); }
static uint8_t *elem(hk_ctx *c, uint32_t i, uint64_t k) { return hk_t(c, T(c, i)->start + 12 * k); }
static uint64_t line_len(hk_ctx *c, uint32_t i) { return (T(c, i)->end - T(c, i)->start) / 12; }

/* The first trace line with at least `n` samples (header 0 always has:
 * profile 1 is never empty and the model gives CPU threads samples). */
static uint32_t line_with(hk_ctx *c, uint64_t n)
{
	for (uint32_t i = 0; i < c->tl.ntraces; i++)
		if (line_len(c, i) >= n) return i;
	c->fail = n > 1 ? "no trace line has two samples" : "every trace line is empty";
	return 0;
}

static void cut_short(hk_ctx *c) { c->trace.len = 0x18; }
static void magic(hk_ctx *c) { *hk_t(c, 10) = 'X'; }
static void major(hk_ctx *c) { *hk_t(c, 14) = 5; }
static void minor(hk_ctx *c) { *hk_t(c, 15) = 1; }
static void footer(hk_ctx *c) { *hk_t(c, c->trace.len - 1) = 'x'; }
static void sec_contained(hk_ctx *c) { hv_put_le64(hk_t(c, 0x10), c->trace.len); }
static void sec_unaligned(hk_ctx *c) { c->d.k.tdb_sec_shift = 4; }
static void cth_short(hk_ctx *c) { hv_put_le64(hk_t(c, 0x10), c->d.edition == HV_EDITION_RELEASE ? 0x18 : 8); }
static void cth_array_contained(hk_ctx *c) { hv_put_le32(hk_t(c, c->tl.th_sec + 8), c->tl.ntraces + 1); }
static void cth_array_unaligned(hk_ctx *c) { c->d.k.tdb_arr_shift = 4; }
static void cth_stride(hk_ctx *c) { *hk_t(c, c->tl.th_sec + 0xc) = 0x10; }

static void line_unaligned(hk_ctx *c) { c->d.k.tdb_line0_shift = 4; }
/* The line that ends last in the file claims whole elements past EOF. */
static void line_contained(hk_ctx *c)
{
	uint32_t last = 0;
	for (uint32_t i = 0; i < c->tl.ntraces; i++)
		if (T(c, i)->start > T(c, last)->start) last = i;
	uint64_t s = T(c, last)->start, n = (c->trace.len - s) / 12 + 2;
	hv_put_le64(th(c, last, 0x10), s + 12 * n);
}
static void whole_elements(hk_ctx *c)
{
	uint32_t i = line_with(c, 1);
	if (!c->fail) hv_put_le64(th(c, i, 0x10), T(c, i)->end - 4);
}
/* The last header's line becomes one element read from inside the trace
 * header section: (release) minTimestamp and the low half of maxTimestamp,
 * a timestamp within bounds; (draft) header 0's pStart. */
static void outside_sections(hk_ctx *c)
{
	uint32_t i = c->tl.ntraces - 1;
	uint64_t s = c->d.edition == HV_EDITION_RELEASE ? c->tl.th_sec + 0x10 : T(c, 0)->th + 8;
	hv_put_le64(th(c, i, 0x08), s);
	hv_put_le64(th(c, i, 0x10), s + 12);
}
static void line_overlap(hk_ctx *c)
{
	uint32_t a = line_with(c, 1);
	for (uint32_t i = 0; !c->fail && i < c->tl.ntraces; i++)
		if (i != a && line_len(c, i) > 0) {
			hv_put_le64(th(c, i, 0x08), T(c, a)->start);
			hv_put_le64(th(c, i, 0x10), T(c, a)->end);
			return;
		}
	c->fail = "fewer than two non-empty trace lines";
}
static void time_sorted(hk_ctx *c)
{
	uint32_t i = line_with(c, 2);
	if (c->fail) return;
	uint64_t a = hv_le64(elem(c, i, 0)), b = hv_le64(elem(c, i, 1));
	hv_put_le64(elem(c, i, 0), b);
	hv_put_le64(elem(c, i, 1), a);
}
static void prof_unique(hk_ctx *c)
{
	if (c->tl.ntraces < 2) c->fail = "fewer than two trace headers";
	else hv_put_le32(th(c, 1, 0), hv_le32(th(c, 0, 0)));
}
static void prof_summary(hk_ctx *c) { hv_put_le32(th(c, 0, 0), 0); }
static void within_bounds(hk_ctx *c)
{
	uint64_t lo = UINT64_MAX;
	for (uint32_t i = 0; i < c->tl.ntraces; i++)
		if (line_len(c, i) && hv_le64(elem(c, i, 0)) < lo) lo = hv_le64(elem(c, i, 0));
	hv_put_le64(hk_t(c, c->tl.th_sec + 0x10), lo + 1);
}
static void blank_repeated(hk_ctx *c)
{
	uint32_t i = line_with(c, 2);
	if (c->fail) return;
	hv_put_le32(elem(c, i, 0) + 8, 0);
	hv_put_le32(elem(c, i, 1) + 8, 0);
}

/* A line of samples loses them all: pEnd = pStart, as hpcprof writes the
 * line of a thread without trace samples. */
static void empty_line(hk_ctx *c)
{
	uint32_t i = line_with(c, 1);
	if (!c->fail) hv_put_le64(th(c, i, 0x10), T(c, i)->start);
}

#define TF "tracedb"
const hk_break hk_breaks_tracedb[] = {
	{"tracedb.hdr.truncated", TF, HK_BOTH, false, NULL, cut_short},
	{"tracedb.hdr.magic", TF, HK_BOTH, false, NULL, magic},
	{"tracedb.hdr.major", TF, HK_BOTH, false, NULL, major},
	{"tracedb.hdr.minor-newer", TF, HK_BOTH, false, NULL, minor},
	{"tracedb.hdr.footer", TF, HK_RELEASE, false, NULL, footer},
	{"tracedb.sec.contained", TF, HK_BOTH, false, NULL, sec_contained},
	{"tracedb.sec.aligned", TF, HK_BOTH, false, sec_unaligned, NULL},
	{"tracedb.cth.section-short", TF, HK_BOTH, false, NULL, cth_short},
	{"tracedb.cth.array-contained", TF, HK_BOTH, false, NULL, cth_array_contained},
	{"tracedb.cth.array-aligned", TF, HK_BOTH, false, cth_array_unaligned, NULL},
	{"tracedb.cth.stride", TF, HK_BOTH, false, NULL, cth_stride},
	{"tracedb.line.start-aligned", TF, HK_BOTH, false, line_unaligned, NULL},
	{"tracedb.line.contained", TF, HK_BOTH, false, NULL, line_contained},
	{"tracedb.line.whole-elements", TF, HK_BOTH, false, NULL, whole_elements},
	{"tracedb.line.outside-sections", TF, HK_BOTH, false, NULL, outside_sections},
	{"tracedb.line.overlap", TF, HK_BOTH, false, NULL, line_overlap},
	{"tracedb.line.time-sorted", TF, HK_BOTH, false, NULL, time_sorted},
	{"tracedb.line.prof-unique", TF, HK_BOTH, false, NULL, prof_unique},
	{"tracedb.line.prof-not-summary", TF, HK_BOTH, false, NULL, prof_summary},
	{"tracedb.elem.within-bounds", TF, HK_RELEASE, false, NULL, within_bounds},
	{"tracedb.elem.blank-repeated", TF, HK_RELEASE, false, NULL, blank_repeated},
	{"tracedb.line.reader-hazard-empty", TF, HK_BOTH, false, NULL, empty_line},
	{NULL, NULL, 0, false, NULL, NULL},
};
