/* trace.db: header (footer in the release edition only), Context Trace
 * Headers section, trace lines streamed element by element. */
#include "tracedb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "core/hv_int.h"
#include "hpctoolkit/format/ranges.h"

#define ELEM 12u

static const hpctk_file_desc tracedb_desc = {
	.file = "trace.db",
	.code = "trce",
	.footer = "trace.db",
	.nsections = 1,
	.sections = {{"CtxTraces", 8}},
	.r_magic = HV_R_TRACEDB_HDR_MAGIC,
	.r_major = HV_R_TRACEDB_HDR_MAJOR,
	.r_minor_newer = HV_R_TRACEDB_HDR_MINOR_NEWER,
	.r_truncated = HV_R_TRACEDB_HDR_TRUNCATED,
	.r_footer = HV_R_TRACEDB_HDR_FOOTER,
	.r_sec_contained = HV_R_TRACEDB_SEC_CONTAINED,
	.r_sec_aligned = HV_R_TRACEDB_SEC_ALIGNED,
	.r_sec_overlap = HV_R_TRACEDB_SEC_CONTAINED, /* one section: never compared */
};

/* The section header's array (format/array.h): section, size field, pointer and stride names, what the
 * array and its body and structure are called, rules: short, aligned, contained, stride. */
static const hpctk_array_desc th_desc = {"trace.db/CtxTraces", "szCtxTraces",
	"pTraces", "szTrace", "trace header array", "the section body", "the trace header structure",
	HV_R_TRACEDB_CTH_SECTION_SHORT, HV_R_TRACEDB_CTH_ARRAY_ALIGNED,
	HV_R_TRACEDB_CTH_ARRAY_CONTAINED, HV_R_TRACEDB_CTH_STRIDE};

static bool tracedb_sniff(hv_blob *b) { return hpctk_sniff(b, "trce"); }

enum hv_edition hpctk_tracedb_evidence(hv_blob *b)
{
	uint8_t foot[8], hdr[0x20], pt[8];
	if (b->size >= 0x28 && hv_blob_read(b, b->size - 8, foot, 8) && memcmp(foot, "trace.db", 8) == 0)
		return HV_EDITION_RELEASE;
	if (!hv_blob_read(b, 0, hdr, sizeof hdr)) return HV_EDITION_AUTO;
	uint64_t p = hv_le64(hdr + 0x18);
	if (!hv_blob_read(b, p, pt, sizeof pt)) return HV_EDITION_AUTO;
	uint64_t ptraces = hv_le64(pt);
	/* Room for min/maxTimestamp before the array: the release section
	 * header, but only at a known minor. A newer draft minor may widen its
	 * section header as far, so there only the footer (above) tells. */
	if (ptraces >= p && ptraces - p >= HPCTK_TSHDR_RELEASE)
		return hdr[15] > HPCTK_KNOWN_MINOR ? HV_EDITION_AUTO : HV_EDITION_RELEASE;
	return HV_EDITION_DRAFT;
}

bool hpctk_tracedb_open(const hv_options *opt, hv_blob *b, hv_report *r, enum hv_edition ed, hpctk_tracedb *t)
{
	memset(t, 0, sizeof *t);
	t->b = b;
	t->evidence = hpctk_tracedb_evidence(b);
	t->edition = opt->edition != HV_EDITION_AUTO ? opt->edition
		     : t->evidence != HV_EDITION_AUTO ? t->evidence
		     : ed != HV_EDITION_AUTO	      ? ed
						      : HV_EDITION_DRAFT; /* no footer there */
	bool release = t->edition == HV_EDITION_RELEASE;
	if (!hpctk_check_header(&tracedb_desc, b, r, release, &t->h)) return false;
	if (!t->h.sec_ok[0]) return false;
	uint8_t sh[HPCTK_TSHDR_RELEASE];
	if (!hpctk_check_array(&th_desc, b, r, &t->h, release ? HPCTK_TSHDR_RELEASE : HPCTK_TSHDR_DRAFT, sh,
			       HPCTK_CTH_END, release ? " of the release edition" : " of the draft edition", "", &t->th))
		return false;
	if (release) {
		t->tmin = hv_le64(sh + 0x10);
		t->tmax = hv_le64(sh + 0x18);
	}
	return true;
}

/* One window chunk of elements [k0, k0 + cnt) of a line without a call per
 * element: true when every element passes every check (time order,
 * release bounds and blanks, the visitor's ctxId check), with the number of
 * non-zero ctxIds in *nz. False: the caller walks the chunk element by
 * element, which reports in file order (nothing was counted yet). */
static bool fast_elements(const uint8_t *base, uint64_t cnt, bool release, uint64_t tmin, uint64_t tmax,
			  const hpctk_trace_fast *f, uint64_t *prev_ts, uint32_t *prev_ctx, bool first, uint64_t *nz)
{
	uint64_t pts = first ? 0 : *prev_ts, unsorted = 0, blank = 0, span = 0, n = 0, miss = 0;
	uint32_t pctx = first ? 1 : *prev_ctx, cmax = 0;
	const uint8_t *allow = f && f->r_ctx >= 0 ? f->ctx_allow : NULL;
	uint32_t amax = allow ? f->ctx_allow_max : 0;
	for (uint64_t c = 0; c < cnt; c++) {
		const uint8_t *e = base + c * ELEM;
		uint64_t ts = hv_le64(e);
		uint32_t ctx = hv_le32(e + 8);
		unsorted |= (uint64_t)(ts < pts);
		uint64_t sp = ts - tmin; /* within [tmin, tmax]: sp <= tmax - tmin */
		span = sp > span ? sp : span;
		blank |= (uint64_t)((ctx | pctx) == 0);
		n += ctx != 0;
		if (allow) {
			cmax = ctx > cmax ? ctx : cmax;
			uint32_t i = ctx < amax ? ctx : amax; /* in the map; cmax catches the rest */
			miss |= (uint64_t)!hv_bit_get(allow, i);
		}
		pts = ts;
		pctx = ctx;
	}
	bool ok = !unsorted && !miss && cmax <= amax;
	if (release) ok = ok && !blank && tmin <= tmax && span <= tmax - tmin;
	if (!ok) return false;
	*prev_ts = pts;
	*prev_ctx = pctx;
	*nz = n;
	return true;
}

/* Stream the elements of one line [ps, ps + n*12), a window chunk at a
 * time: through fast_elements, or element by element. */
static void walk_elements(hpctk_tracedb *t, hv_report *r, const hpctk_trace_visitor *v, hv_window *w, uint32_t i,
			  uint64_t ps, uint64_t n)
{
	char path[HV_PATH_MAX];
	bool release = t->edition == HV_EDITION_RELEASE;
	uint64_t prev_ts = 0;
	uint32_t prev_ctx = 1;
	/* fast: without a visitor, or with one that gave its check as data */
	const hpctk_trace_fast *f = v && v->elem ? v->fast : NULL;
	bool fast = !(v && v->elem) || f;
	uint64_t per = t->b->mem ? UINT64_MAX : w->cap / ELEM;
	if (per == 0) per = 1;
	uint64_t k = 0;
	const uint8_t *ends = n ? hv_window_get(w, ps, ELEM) : NULL;
	uint64_t first_ts = ends ? hv_le64(ends) : 0;
	ends = n ? hv_window_get(w, ps + (n - 1) * ELEM, ELEM) : NULL;
	if (ends) {
		uint64_t last_ts = hv_le64(ends);
		t->seen_min = !t->seen || first_ts < t->seen_min ? first_ts : t->seen_min;
		t->seen_max = !t->seen || last_ts > t->seen_max ? last_ts : t->seen_max;
		t->seen = true;
	}
	while (k < n) {
		uint64_t cnt = n - k < per ? n - k : per, nz;
		const uint8_t *base = hv_window_get(w, ps + k * ELEM, (size_t)(cnt * ELEM));
		if (!base) return;
		if (fast && fast_elements(base, cnt, release, t->tmin, t->tmax, f, &prev_ts, &prev_ctx, k == 0, &nz)) {
			uint64_t after_first = k == 0 ? cnt - 1 : cnt;
			r->evaluated[HV_R_TRACEDB_LINE_TIME_SORTED] += after_first;
			if (release) {
				r->evaluated[HV_R_TRACEDB_ELEM_WITHIN_BOUNDS] += cnt;
				r->evaluated[HV_R_TRACEDB_ELEM_BLANK_REPEATED] += after_first;
			}
			if (f && f->r_ctx >= 0) r->evaluated[f->r_ctx] += nz;
			k += cnt;
			continue;
		}
		for (uint64_t end = k + cnt; k < end; k++) {
			uint64_t off = ps + k * ELEM;
			const uint8_t *e = hv_window_get(w, off, ELEM);
			if (!e) return;
			uint64_t ts = hv_le64(e);
			uint32_t ctx = hv_le32(e + 8);
			if (k > 0 && !hv_eval(r, HV_R_TRACEDB_LINE_TIME_SORTED, ts >= prev_ts)) {
				snprintf(path, sizeof path, "trace.db/trace[%u]/elem[%llu]/timestamp", i, (unsigned long long)k);
				hv_emit(r, HV_R_TRACEDB_LINE_TIME_SORTED, t->b->name, off, 8, path,
					"timestamp %llu is smaller than the previous element's %llu; a line is sorted by time",
					(unsigned long long)ts, (unsigned long long)prev_ts);
			}
			if (release) {
				if (!hv_eval(r, HV_R_TRACEDB_ELEM_WITHIN_BOUNDS, ts >= t->tmin && ts <= t->tmax)) {
					snprintf(path, sizeof path, "trace.db/trace[%u]/elem[%llu]/timestamp", i,
						 (unsigned long long)k);
					hv_emit(r, HV_R_TRACEDB_ELEM_WITHIN_BOUNDS, t->b->name, off, 8, path,
						"timestamp %llu is outside [minTimestamp %llu, maxTimestamp %llu]",
						(unsigned long long)ts, (unsigned long long)t->tmin, (unsigned long long)t->tmax);
				}
				if (k > 0 && !hv_eval(r, HV_R_TRACEDB_ELEM_BLANK_REPEATED, ctx != 0 || prev_ctx != 0)) {
					snprintf(path, sizeof path, "trace.db/trace[%u]/elem[%llu]/ctxId", i,
						 (unsigned long long)k);
					hv_emit(r, HV_R_TRACEDB_ELEM_BLANK_REPEATED, t->b->name, off + 8, 4, path,
						"ctxId 0 follows another ctxId 0; consecutive elements cannot both be blank");
				}
			}
			if (v && v->elem) v->elem(v->arg, i, ctx, off + 8);
			prev_ts = ts;
			prev_ctx = ctx;
		}
	}
}

/* The line's placement; true when its elements can be walked. */
static bool check_line(hpctk_tracedb *t, hv_report *r, uint32_t i, uint64_t at, uint64_t ps, uint64_t pe,
		       hpctk_ranges *lines)
{
	char path[HV_PATH_MAX];
	hv_blob *b = t->b;
	/* paths are formatted only for a diagnostic that is stored: a line per profile */
#define START_PATH() (snprintf(path, sizeof path, "trace.db/trace[%u]/pStart", i), path)
#define LINE_PATH() (snprintf(path, sizeof path, "trace.db/trace[%u]", i), path)
	if (!hv_eval(r, HV_R_TRACEDB_LINE_START_ALIGNED, hv_aligned(ps, 8)))
		hv_emit(r, HV_R_TRACEDB_LINE_START_ALIGNED, b->name, at + 8, 8, START_PATH(), "pStart = 0x%llx is not 8-byte aligned",
			(unsigned long long)ps);
	bool inside = ps <= pe && pe <= t->h.body_end;
	if (!hv_eval(r, HV_R_TRACEDB_LINE_CONTAINED, inside)) {
		hv_emit(r, HV_R_TRACEDB_LINE_CONTAINED, b->name, at + 8, 16, LINE_PATH(),
			"line [pStart 0x%llx, pEnd 0x%llx) is %s the file body, which ends at 0x%llx",
			(unsigned long long)ps, (unsigned long long)pe, ps > pe ? "reversed: pEnd before pStart, in" : "not inside",
			(unsigned long long)t->h.body_end);
		return false;
	}
	uint64_t len = pe - ps;
	if (!hv_eval(r, HV_R_TRACEDB_LINE_WHOLE_ELEMENTS, len % ELEM == 0))
		hv_emit(r, HV_R_TRACEDB_LINE_WHOLE_ELEMENTS, b->name, at + 0x10, 8, LINE_PATH(),
			"pEnd - pStart = %llu bytes is not a whole number of 12-byte elements", (unsigned long long)len);
	bool clear = !hv_ranges_overlap(ps, len, 0, hpctk_header_size(&tracedb_desc)) &&
		     !hv_ranges_overlap(ps, len, t->h.p[0], t->h.sz[0]);
	if (!hv_eval(r, HV_R_TRACEDB_LINE_OUTSIDE_SECTIONS, clear))
		hv_emit(r, HV_R_TRACEDB_LINE_OUTSIDE_SECTIONS, b->name, at + 8, 16, LINE_PATH(),
			"line [0x%llx, 0x%llx) overlaps the file header or the trace header section [0x%llx, +0x%llx)",
			(unsigned long long)ps, (unsigned long long)pe, (unsigned long long)t->h.p[0],
			(unsigned long long)t->h.sz[0]);
	if (len > 0) hpctk_ranges_add(lines, ps, len, i, at);
	return true;
#undef START_PATH
#undef LINE_PATH
}

typedef struct overlap_ctx {
	hpctk_tracedb *t;
	hv_report *r;
	uint8_t *walk; /* per line: elements to be walked */
} overlap_ctx;

static void report_overlap(void *arg, const hpctk_range *a, const hpctk_range *bb)
{
	overlap_ctx *o = arg;
	char path[HV_PATH_MAX];
	/* Not walked: N lines sharing bytes must not cost N walks of them. */
	hv_bit_clear(o->walk, bb->owner);
	snprintf(path, sizeof path, "trace.db/trace[%u]", bb->owner);
	hv_eval(o->r, HV_R_TRACEDB_LINE_OVERLAP, false);
	hv_emit(o->r, HV_R_TRACEDB_LINE_OVERLAP, o->t->b->name, bb->where + 8, 16, path,
		"line of trace %u [0x%llx, +0x%llx) overlaps the line of trace %u [0x%llx, +0x%llx)", bb->owner,
		(unsigned long long)bb->start, (unsigned long long)bb->len, a->owner, (unsigned long long)a->start,
		(unsigned long long)a->len);
}

/* profIndex repeated: sort (profIndex, trace) pairs and compare neighbours. */
static int by_prof(const void *x, const void *y)
{
	const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

static void check_unique(hpctk_tracedb *t, hv_report *r, uint64_t *pairs, uint32_t n)
{
	char path[HV_PATH_MAX];
	qsort(pairs, n, sizeof *pairs, by_prof);
	for (uint32_t k = 1; k < n; k++) {
		uint32_t prof = (uint32_t)(pairs[k] >> 32), line = (uint32_t)pairs[k];
		bool dup = prof == (uint32_t)(pairs[k - 1] >> 32);
		if (hv_eval(r, HV_R_TRACEDB_LINE_PROF_UNIQUE, !dup)) continue;
		snprintf(path, sizeof path, "trace.db/trace[%u]/profIndex", line);
		hv_emit(r, HV_R_TRACEDB_LINE_PROF_UNIQUE, t->b->name, t->th.p + (uint64_t)line * t->th.sz, 4, path,
			"profIndex %u is also named by trace %u; a profile has at most one trace line", prof,
			(uint32_t)pairs[k - 1]);
	}
}

bool hpctk_tracedb_prepare(hpctk_tracedb *t, hv_report *r, const hpctk_trace_visitor *v, hpctk_trace_plan *p)
{
	memset(p, 0, sizeof *p);
	if (!t->h.usable || !t->th.ok) return false;
	hv_window wh;
	bool wh_ok = hv_window_init(&wh, t->b, hpctk_window_cap);
	/* One pair, one bit and one length per trace header that exists in
	 * the section: bounded by its size. */
	p->pairs = hv_malloc(((size_t)t->th.n + 1) * sizeof *p->pairs);
	p->walk = hv_calloc((size_t)t->th.n / 8 + 1, 1);
	p->bytes = hv_calloc((size_t)t->th.n + 1, sizeof *p->bytes);
	hpctk_ranges lines = {0};
	char path[HV_PATH_MAX];
	bool ok = wh_ok && p->pairs && p->walk && p->bytes;
	/* Headers and line placement; then the overlap sweep. */
	uint32_t empty = 0, first_empty = 0;
	for (uint32_t i = 0; ok && i < t->th.n; i++) {
		uint64_t at = t->th.p + (uint64_t)i * t->th.sz;
		const uint8_t *h = hv_window_get(&wh, at, HPCTK_CTH_END);
		if (!h) break;
		uint32_t prof = hv_le32(h);
		snprintf(path, sizeof path, "trace.db/trace[%u]/profIndex", i);
		if (!hv_eval(r, HV_R_TRACEDB_LINE_PROF_NOT_SUMMARY, prof != 0))
			hv_emit(r, HV_R_TRACEDB_LINE_PROF_NOT_SUMMARY, t->b->name, at, 4, path,
				"profIndex 0 is the summary profile, which has no trace");
		p->pairs[p->n++] = ((uint64_t)prof << 32) | i;
		if (v && v->line) v->line(v->arg, i, prof, at);
		uint64_t ps = hv_le64(h + 8), pe = hv_le64(h + 0x10);
		if (check_line(t, r, i, at, ps, pe, &lines)) {
			hv_bit_set(p->walk, i);
			p->bytes[i] = pe - ps;
			if (ps == pe && !empty++) first_empty = i;
		}
	}
	if (ok && p->n && !hv_eval(r, HV_R_TRACEDB_LINE_READER_HAZARD_EMPTY, empty == 0)) {
		/* once per trace.db: the count, pointing at the first empty line's pStart/pEnd */
		snprintf(path, sizeof path, "trace.db/trace[%u]", first_empty);
		hv_emit(r, HV_R_TRACEDB_LINE_READER_HAZARD_EMPTY, t->b->name,
			t->th.p + (uint64_t)first_empty * t->th.sz + 8, 16, path,
			"%u of %u trace lines have no samples (pStart == pEnd), the first trace %u: valid hpcprof "
			"output, but hpcviewer's sequential trace reader (hpcdata 8.4.4) recurses on an empty line until "
			"its stack overflows (it expects at least one 12-byte sample per line)",
			empty, p->n, first_empty);
	}
	overlap_ctx o = {t, r, p->walk};
	hv_eval(r, HV_R_TRACEDB_LINE_OVERLAP, true);
	if (ok) hpctk_ranges_sweep(&lines, report_overlap, &o);
	for (uint32_t i = 0; ok && i < p->n; i++)
		if (!hv_bit_get(p->walk, i)) p->bytes[i] = 0;
	hpctk_ranges_free(&lines);
	hv_window_free(&wh);
	p->ok = ok;
	return ok;
}

void hpctk_tracedb_lines(hpctk_tracedb *t, const hpctk_trace_plan *p, hv_report *r, const hpctk_trace_visitor *v,
			 uint32_t from, uint32_t to)
{
	if (!p->ok) return;
	hv_window wh, we;
	bool wh_ok = hv_window_init(&wh, t->b, hpctk_window_cap);
	bool we_ok = hv_window_init(&we, t->b, hpctk_window_cap);
	for (uint32_t i = from; wh_ok && we_ok && i < to && i < p->n; i++) {
		if (!hv_bit_get(p->walk, i)) continue;
		const uint8_t *h = hv_window_get(&wh, t->th.p + (uint64_t)i * t->th.sz, HPCTK_CTH_END);
		if (!h) break;
		uint64_t ps = hv_le64(h + 8), pe = hv_le64(h + 0x10);
		walk_elements(t, r, v, &we, i, ps, (pe - ps) / ELEM);
	}
	hv_window_free(&wh);
	hv_window_free(&we);
}

void hpctk_tracedb_finish(hpctk_tracedb *t, hpctk_trace_plan *p, hv_report *r)
{
	if (p->ok) check_unique(t, r, p->pairs, p->n);
	free(p->pairs);
	free(p->walk);
	free(p->bytes);
	memset(p, 0, sizeof *p);
}

void hpctk_tracedb_walk(hpctk_tracedb *t, hv_report *r, const hpctk_trace_visitor *v)
{
	hpctk_trace_plan p;
	hpctk_tracedb_prepare(t, r, v, &p);
	hpctk_tracedb_lines(t, &p, r, v, 0, p.n);
	hpctk_tracedb_finish(t, &p, r);
}

static void tracedb_check_file(const hv_options *opt, hv_blob *b, hv_report *r)
{
	hpctk_tracedb t;
	bool ok = hpctk_tracedb_open(opt, b, r, HV_EDITION_AUTO, &t);
	hpctk_name_file(r, &t.h, opt->edition != HV_EDITION_AUTO ? opt->edition : t.evidence);
	if (ok) hpctk_tracedb_walk(&t, r, NULL);
}

const hv_format hv_format_hpctk_tracedb = {.name = "hpctoolkit trace.db", .file_name = "trace.db",
					.sniff = tracedb_sniff, .check = tracedb_check_file};
