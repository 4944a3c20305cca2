/* trace.db: open (header, edition, Context Trace Headers section header),
 * then walk every trace header and stream its line of elements. */
#ifndef HV_HPCTK_TRACEDB_H
#define HV_HPCTK_TRACEDB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/report.h"
#include "core/validate.h"
#include "hpctoolkit/format/array.h"
#include "hpctoolkit/format/fileheader.h"

#define HPCTK_CTH_END 0x18u
#define HPCTK_TSHDR_DRAFT 0x0du
#define HPCTK_TSHDR_RELEASE 0x20u

/* The element check of the visitor as data, so that the element loop makes
 * no call per element: `elem` is then called only for the elements of a
 * window chunk in which some element fails a check; for the others it
 * would only have evaluated r_ctx once per non-zero ctxId whose bit is set
 * in ctx_allow (bits 0 .. ctx_allow_max; bit 0 set), counted here instead. */
typedef struct hpctk_trace_fast {
	int r_ctx;                 /* < 0: elem checks nothing */
	const uint8_t *ctx_allow;
	uint32_t ctx_allow_max;
} hpctk_trace_fast;

typedef struct hpctk_trace_visitor {
	void *arg;
	void (*line)(void *arg, uint32_t line, uint32_t prof, uint64_t off);
	void (*elem)(void *arg, uint32_t line, uint32_t ctx, uint64_t off);
	const hpctk_trace_fast *fast; /* NULL: elem for every element */
} hpctk_trace_visitor;

typedef struct hpctk_tracedb {
	hv_blob *b;
	hpctk_header h;
	enum hv_edition evidence; /* footer / section header size; AUTO if unreadable */
	enum hv_edition edition;  /* checked as */
	hpctk_array th;           /* the trace header array: pTraces, nTraces, szTrace */
	uint64_t tmin, tmax;      /* release only */
	/* after walk: the smallest first and largest last timestamp of the
	 * lines walked (lines are sorted: their extremes), when `seen` */
	uint64_t seen_min, seen_max;
	bool seen;
} hpctk_tracedb;

enum hv_edition hpctk_tracedb_evidence(hv_blob *b);
bool hpctk_tracedb_open(const hv_options *opt, hv_blob *b, hv_report *r, enum hv_edition ed, hpctk_tracedb *t);
void hpctk_tracedb_walk(hpctk_tracedb *t, hv_report *r, const hpctk_trace_visitor *v);

/* The walk in three steps, so that ranges of trace lines can be units of
 * work (database.c): prepare reads every trace header (placement, overlap
 * sweep); lines walks the elements of lines [from, to) with its own
 * windows (it writes only `r` and t->seen*, so ranges run in parallel on
 * copies of `t`); finish checks that profIndex is unique and frees the
 * plan. hpctk_tracedb_walk is the three in a row. */
typedef struct hpctk_trace_plan {
	uint64_t *pairs;    /* (profIndex, line) of every trace header read */
	uint8_t *walk;      /* per line: its elements are walked */
	uint64_t *bytes;    /* per line: bytes of elements walked (0: none) */
	uint32_t n;         /* trace headers read */
	bool ok;
} hpctk_trace_plan;
bool hpctk_tracedb_prepare(hpctk_tracedb *t, hv_report *r, const hpctk_trace_visitor *v, hpctk_trace_plan *p);
void hpctk_tracedb_lines(hpctk_tracedb *t, const hpctk_trace_plan *p, hv_report *r, const hpctk_trace_visitor *v,
			 uint32_t from, uint32_t to);
void hpctk_tracedb_finish(hpctk_tracedb *t, hpctk_trace_plan *p, hv_report *r);

extern const hv_format hv_format_hpctk_tracedb;

#endif
