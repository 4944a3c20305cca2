/* hpcvet dump: the decoded structure of every supported file, item by item
 * with byte offsets (dump.c drives, dump_<format>.c decode). Like the
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

#include "../core/blob.h"
#include "../core/report.h"
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

/* ---- for the per-format dumpers ---- */

typedef struct hv_dump_ctx {
	hv_dump_out *w;
	const hv_dump_opts *o;
	hv_blob *b;
	hv_window win;         /* the dumper's own window on b */
	bool draft;            /* HPCToolkit: the validation found the draft edition */
	char path[160];        /* scratch for item paths */
	hv_dump_hits *hits;    /* what the selectors matched (never NULL) */
	const uint64_t *sub;   /* --select=subtree: the subtree's ctxIds, sorted */
	size_t nsub;
	uint64_t values_left;  /* HPCToolkit: the values the file's bytes can hold, less those shown */
} hv_dump_ctx;

/* Bounds-checked big-/little-endian reads through the dumper's window:
 * false when [off, off+n) is outside the file or I/O fails. */
bool hv_dump_be(hv_dump_ctx *d, uint64_t off, unsigned n, uint64_t *v);
bool hv_dump_le(hv_dump_ctx *d, uint64_t off, unsigned n, uint64_t *v);
/* A string of `len` bytes at `off` (at most HV_DUMP_STR_MAX shown, the
 * item then carries "<key>_length"); false when outside the file. */
#define HV_DUMP_STR_MAX 4096u
bool hv_dump_str(hv_dump_ctx *d, const char *key, uint64_t off, uint64_t len);
/* Whether n entries of sz bytes at `at` lie in the file (no overflow). */
bool hv_dump_array_in(const hv_dump_ctx *d, uint64_t at, uint64_t n, uint64_t sz);
/* The shape the binary headers and descriptors share: little-endian
 * unsigned fields at fixed offsets of a structure, each shown under its
 * name. hv_dump_read_fields reads them into v[] (0 where outside the file)
 * and returns how many leading fields were read; hv_dump_put_fields writes
 * them, in table order, into the current item. */
typedef struct hv_dump_field {
	const char *key;
	uint8_t off, size;
} hv_dump_field;
unsigned hv_dump_read_fields(hv_dump_ctx *d, uint64_t at, const hv_dump_field *f, unsigned n, uint64_t *v);
void hv_dump_put_fields(hv_dump_ctx *d, const hv_dump_field *f, unsigned n, const uint64_t *v);
/* dw_item_begin with the path formatted into d->path. */
void hv_dump_item(hv_dump_ctx *d, const char *kind, uint64_t off, uint64_t len, const char *pathfmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Whether item index i is selected by the record range (a hit when it is). */
bool hv_dump_in_range(const hv_dump_ctx *d, uint64_t i);
/* Whether the values of context `id` are selected by context= and
 * subtree= (a hit when a selector is set and it is). */
bool hv_dump_ctx_wanted(const hv_dump_ctx *d, uint64_t id);
/* An item saying decoding stopped at `off`, and why. */
void hv_dump_stop(hv_dump_ctx *d, uint64_t off, const char *why);

void hv_dump_dumpi_bin(hv_dump_ctx *d);
void hv_dump_dumpi_meta(hv_dump_ctx *d);
void hv_dump_ovni_stream(hv_dump_ctx *d);
/* stream.json, metadata.json, thread.TID.json: members and elements. */
void hv_dump_ovni_json(hv_dump_ctx *d);
void hv_dump_hpctk(hv_dump_ctx *d, const char *file_kind);
/* metrics/NAME.yaml: the metric taxonomy's inputs, metrics and variants. */
void hv_dump_taxonomy(hv_dump_ctx *d);
/* meta.db past its header: sizes and pointers of its 8 sections. */
void hv_dump_metadb(hv_dump_ctx *d, const uint64_t sz[8], const uint64_t p[8]);
/* --select=subtree:ID: the ctxIds of ID's subtree in the meta.db d reads
 * (nothing is written), sorted, in *ids (malloc'd; the caller frees); how
 * many. 0 when ID is not in the tree or on any failure. */
size_t hv_dump_metadb_subtree_ids(hv_dump_ctx *d, uint64_t **ids);

#endif
