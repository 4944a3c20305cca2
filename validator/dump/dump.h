/* hpcvet dump: the decoded structure of every supported file, item by item
 * with byte offsets (dump.c drives, the per-format dumpers of dumpers.h
 * decode through item.h). Like the
 * checking core it reads blobs only and never opens files; like it, it is
 * safe on any input: every read is bounds-checked, loops are bounded by the
 * bytes present, nothing recurses on file-controlled depth, memory stays
 * bounded whatever the input size.
 *
 * The input is validated first (by the caller) and the dump carries that
 * report: its diagnostics, and per file the offset of its first error, from
 * which on items are marked untrusted (structure past a broken field is
 * decoded as the bytes say, not as the spec guarantees). */
#ifndef HV_DUMP_H
#define HV_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/blob.h"
#include "core/report.h"
#include "out.h"

/* --select: what to dump. Unset parts select everything. */
typedef struct hv_dump_select {
	const char *file;        /* only files whose name contains this */
	bool have_rank;
	uint64_t rank;           /* DUMPI: the rank's .bin; ovni: streams of this process (proc.N) */
	bool have_range;
	uint64_t first, last;    /* records / events / profiles / contexts / traces by index, inclusive */
	bool have_profile;
	uint64_t profile;        /* profile.db: one profile; cct.db: its values; trace.db: its trace */
	bool have_context;
	uint64_t context;        /* meta.db: that context alone; profile.db/cct.db/trace.db: its values */
	bool have_subtree;
	uint64_t subtree;        /* meta.db: that context and every context below it; the other files: their values */
} hv_dump_select;

/* Which selectors matched something in the dump (hv_dump fills it): a
 * selector that matched nothing is reported by the CLI. */
typedef struct hv_dump_hits {
	bool file;               /* file= and rank=: a file was dumped */
	bool range;              /* records=/events=/items=: an item in the range */
	bool profile;            /* profile=: that profile or its trace */
	bool context;            /* context=: that context or one of its values */
	bool subtree;            /* subtree=: the subtree's root was found in meta.db */
	bool cut;                /* the output budget (--max-items) ended the dump: what a
				    selector would have matched later is unknown */
} hv_dump_hits;

typedef struct hv_dump_opts {
	bool json;
	hv_dump_select sel;
	bool strict;
	uint64_t max_items;      /* the output budget in items (0: none; the CLI's default: HV_DUMP_MAX_ITEMS_DEFAULT) */
	/* Called after the files are dumped, before the report is written:
	 * the reader compares the files' identities there (a file changed
	 * while it was dumped makes the report unreadable). NULL: none. */
	void (*before_report)(void *ctx);
	void *before_report_ctx;
} hv_dump_opts;

/* Parse one --select=... value: KEY=VALUE or KEY:VALUE, several joined by
 * ',' ("rank=3", "records:10-20", "records=5", "file=meta.db",
 * "profile:2", "context=ID", "subtree:ID"). False with a message in `why`
 * on a malformed value. */
bool hv_dump_parse_select(const char *s, hv_dump_select *sel, char *why, size_t wlen);

/* Dump `n` blobs forming the input `input` (already validated into `r`);
 * `hits` (may be NULL) says which selectors matched something. */
void hv_dump(FILE *out, const hv_dump_opts *o, const char *input, hv_blob *blobs, size_t n, const hv_report *r,
	     hv_dump_hits *hits);

#endif
