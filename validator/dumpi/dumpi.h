/* SST DUMPI traces: one big-endian .bin per rank plus a .meta text file.
 * See ../shared/research/dumpi.md for the layout facts these checks follow. */
#ifndef HV_DUMPI_H
#define HV_DUMPI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hv_int.h"
#include "core/validate.h"

#define DUMPI_NFUNCS 293          /* ids 0..292 can be records; 293 ends the stream */
#define DUMPI_ALL_FUNCTIONS 290   /* footer totals slot, never a record */
#define DUMPI_PCONTROL 128        /* a function id, but never a record (see format/funcs.def) */
#define DUMPI_END_OF_STREAM 293
#define DUMPI_FOOTER_SLOTS 291
#define DUMPI_FOOTER_SIZE (8u + 2u * 4u * DUMPI_FOOTER_SLOTS) /* 2336 */
#define DUMPI_FOOTER_MAGIC 0x00000000f007fee7ull
#define DUMPI_INDEX_SIZE 64u       /* since 0.6.6; older writers: 56 (no sizelbl), 48, 40 */
#define DUMPI_INDEX_MIN_SIZE 40u   /* magic + header, body, footer, keyval */
#define DUMPI_MAX_PERFCTRS 128u
#define DUMPI_MAX_PERFCTR_NAME 80u
#define DUMPI_WRAP_HALF 32768u    /* a step of this many seconds or more is a wrap or ambiguous */

/* The newest DUMPI version this validator knows (SST 13.1). */
#define DUMPI_KNOWN_MAJOR 13
#define DUMPI_KNOWN_SUB 1
#define DUMPI_KNOWN_SUBSUB 0

extern const uint8_t dumpi_head_magic[8];

/* Config-mask bits (dumpi/common/settings.h). */
enum {
	DUMPI_MASK_STATUS = 0x03,
	DUMPI_MASK_CPU = 0x04,
	DUMPI_MASK_WALL = 0x08,
	DUMPI_MASK_RESERVED = 0x30,
	DUMPI_MASK_THREAD = 0x40,
	DUMPI_MASK_PERF = 0x80,
};

/* Index entries in file order after the magic. */
enum dumpi_sec { DS_SIZELBL, DS_ADDRLBL, DS_PERFLBL, DS_HEADER, DS_BODY, DS_FOOTER, DS_KEYVAL, DS_COUNT };
extern const char *const dumpi_sec_names[DS_COUNT];

/* ---- argument layouts (format/layout.c, data in format/funcs.def) ---- */

#define DUMPI_MAX_FIELDS 16
typedef struct dumpi_field {
	char kind;         /* see format/funcs.def */
	bool root_only;    /* present only when commrank == root */
	const char *name;  /* not NUL-terminated: name_len bytes */
	uint8_t name_len;
} dumpi_field;

typedef struct dumpi_layout {
	const char *name;  /* "MPI_Send"; NULL for ids that are no function */
	bool decodable;    /* false for MPI_Pcontrol (no reader) */
	uint8_t nfields;
	dumpi_field fields[DUMPI_MAX_FIELDS];
} dumpi_layout;

/* The layout of function id `fn`, or NULL when fn is not a record id. */
const dumpi_layout *dumpi_layout_of(unsigned fn);
/* The whole table, DUMPI_NFUNCS entries by id (name NULL: no record id):
 * for loops that look up every record. */
const dumpi_layout *dumpi_layout_table(void);
/* "MPI_Send", "Function_enter", "DUMPI_ALL_FUNCTIONS", "END_OF_STREAM", or "unknown". */
const char *dumpi_function_name(unsigned fn);
/* Version a >= b, compared as libundumpi's dumpi_have_version does. */
bool dumpi_version_at_least(const uint8_t v[3], int major, int sub, int subsub);

/* A bounded big-endian reader over a window: reads past `limit` fail.
 * It keeps a view of the window's buffer between reads (the hot path of a
 * 1 GiB stream), so two cursors must not be used interleaved on one window. */
typedef struct dumpi_cur {
	hv_window *w;
	uint64_t pos, limit;
	bool failed;
	const uint8_t *view;   /* bytes [view_at, view_at + view_len), or NULL */
	uint64_t view_at, view_len;
} dumpi_cur;

/* Read an n-byte big-endian field at c->pos and advance. The common case --
 * the bytes are in the cursor's view -- is inline: it runs for every field
 * of every record. dumpi_get_slow handles the rest (refill, end, failure). */
bool dumpi_get_slow(dumpi_cur *c, unsigned n, uint64_t *v);
static inline bool dumpi_get(dumpi_cur *c, unsigned n, uint64_t *v)
{
	uint64_t rel = c->pos - c->view_at;
	if (c->view && !c->failed && c->pos >= c->view_at && rel <= c->view_len && c->view_len - rel >= n &&
	    c->pos <= c->limit && c->limit - c->pos >= n) {
		const uint8_t *p = c->view + rel;
		switch (n) {
		case 1: *v = p[0]; break;
		case 2: *v = hv_be16(p); break;
		case 4: *v = hv_be32(p); break;
		case 8: *v = hv_be64(p); break;
		default: return dumpi_get_slow(c, n, v);
		}
		c->pos += n;
		return true;
	}
	return dumpi_get_slow(c, n, v);
}
bool dumpi_skip(dumpi_cur *c, uint64_t n);

/* Why a record's arguments could not be decoded. */
typedef struct dumpi_argfail {
	const char *field;
	unsigned field_len;
	uint64_t at;       /* offset of the field */
	uint64_t count;    /* the count or length read there, when relevant */
} dumpi_argfail;

/* The decoded arguments of one record, by layout field: a scalar's value
 * (zero-extended), or a counted field's count. A field's file offset is
 * dumpi_arg_at's (array elements follow the 4-byte count): `at` holds it
 * only for a field of no fixed width (counted, status, string, root-only)
 * and any field after one, and for every field of a record the checked
 * walk read. Root-only fields that are absent have
 * present == false. Used by the MPI consistency layer. */
typedef struct dumpi_args {
	uint8_t n;
	/* f[DUMPI_MAX_FIELDS] is never written (absent, at 0, once the args are
	 * zeroed): the MPI layer looks a role a function lacks up there, with
	 * no test of its own. */
	struct { bool present; uint64_t at, v; } f[DUMPI_MAX_FIELDS + 1];
	/* The first row of a 'J' field (Group_range_incl/excl ranges) whose
	 * length is not 3, as libdumpi always writes: row index, offset of its
	 * u32 length, that length. bad_row is false when every row has 3. */
	bool bad_row;
	uint64_t bad_row_index, bad_row_at, bad_row_len;
	/* The record's arguments: its bytes from the first argument on,
	 * [bytes_at, bytes_at + bytes_len), in memory, valid until the next
	 * record (NULL when the walk read it piecewise; bytes_at is set either
	 * way): the MPI layer reads statuses and request arrays from them, not
	 * the file, and dumpi_arg_at counts from bytes_at. */
	const uint8_t *bytes;
	uint64_t bytes_at, bytes_len;
	/* The decoders' state (format/decode.c), kept here so that each takes
	 * only this: the bytes of one status in this version (14, or 10 before
	 * 0.6.3), and whether some f[].present may be false or bad_row true
	 * (the walk, a function with root-only fields): the decoders set them
	 * all true and bad_row false again before a function with no root-only
	 * field, which writes none of them itself. */
	uint8_t status_len;
	bool absent;
} dumpi_args;

/* Where each field of a function lies from its first argument, by id and
 * field index (format/layout.c, made at compile time from funcs.def):
 * the offset of a fixed-width field when only fixed-width fields come
 * before it, else DUMPI_AT_STORED (and for index DUMPI_MAX_FIELDS, the
 * slot of a role a function lacks). */
#define DUMPI_AT_STORED 0xffu
extern const uint8_t dumpi_arg_offsets[DUMPI_NFUNCS][DUMPI_MAX_FIELDS + 1];

/* The file offset of field i of a record of function fn whose arguments
 * are a: its place from the arguments' start, or the offset the decoder
 * stored where that depends on the record. Only a report (or a read of an
 * array or a status) needs it, so the decoders of the common records store
 * none of the offsets known from the layout alone; inline, so that an
 * offset passed to a check is computed only where the check fails. */
static inline uint64_t dumpi_arg_at(const dumpi_args *a, unsigned fn, unsigned i)
{
	unsigned o = dumpi_arg_offsets[fn][i];
	return o != DUMPI_AT_STORED ? a->bytes_at + o : a->f[i].at;
}
/* The same for a field of no fixed width (a counted array, statuses: the
 * kinds I H B C D E J S x y A a) or none (i == DUMPI_MAX_FIELDS: 0), which
 * are always stored: one load, for the readers of a record's request
 * arrays and statuses on their common path. */
static inline uint64_t dumpi_arg_at_var(const dumpi_args *a, unsigned i) { return a->f[i].at; }

/* Walk the arguments of `fn` from c->pos. False (with `why`) when they do
 * not fit before c->limit. */
bool dumpi_decode_args(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
		       dumpi_argfail *why);
/* The same, calling on_field after each field decoded, with the bytes it
 * spans [at, end) (hpcvet dump prints the values from them). */
typedef void (*dumpi_field_fn)(void *ctx, const dumpi_field *f, uint64_t at, uint64_t end);
bool dumpi_decode_args_cb(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
			  dumpi_argfail *why, dumpi_field_fn on_field, void *ctx);

/* Same, filling `out` (may be NULL). */
bool dumpi_decode_args_into(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
			    dumpi_argfail *why, dumpi_args *out);
/* ---- one .bin ---- */

typedef struct dumpi_bin_info {
	bool index_ok;              /* index magic found, offsets read */
	unsigned index_size;        /* 64, or 56/48/40 for a pre-0.6.6 writer */
	uint64_t off[DS_COUNT];     /* 0: absent (or no entry in an older index) */
	bool header_ok;
	uint8_t version[3];
	uint64_t starttime;
	uint32_t cpu_bias, wall_bias;
} dumpi_bin_info;

/* Check one .bin; fills `info` (may be NULL). */
void dumpi_check_bin(const hv_options *opt, hv_blob *b, hv_report *r, dumpi_bin_info *info);
/* Same, handing the rank's MPI summary (mpi/layer.h) to the caller in *mpi
 * (NULL when the stream could not be walked); free it with mpi_rank_free.
 * dumpi_check_bin runs the single-rank part of the cross-rank stage itself. */
struct mpi_rank;
void dumpi_check_bin_mpi(const hv_options *opt, hv_blob *b, hv_report *r, dumpi_bin_info *info,
			 struct mpi_rank **mpi);
bool dumpi_sniff_bin(hv_blob *b);
bool dumpi_sniff_meta(hv_blob *b);

/* ---- the record stream (stream.c) ---- */

typedef struct dumpi_clock { uint16_t sec; uint32_t nsec; } dumpi_clock;

typedef struct dumpi_record {
	uint64_t index;             /* 0-based position in the stream */
	uint64_t offset;
	unsigned fn;
	uint8_t mask;
	uint16_t thread;
	dumpi_clock cpu_start, cpu_stop, wall_start, wall_stop;
	uint8_t perf_count;
	uint64_t length;
} dumpi_record;

/* What the stream walk needs from the other sections. */
typedef struct dumpi_stream_ctx {
	hv_blob *b;
	hv_report *r;
	uint64_t body, limit;       /* stream bytes are [body, limit); limit = header offset */
	uint8_t version[3];
	int32_t perf_labels;        /* -1: no perflbl section */
	uint64_t starttime;
	bool header_ok;
	struct mpi_rank *mpi;       /* the MPI consistency pass of this rank, or NULL */
	/* results */
	bool walked;                /* reached the end label without a decoding failure */
	uint64_t end;               /* offset after the end label, or where the walk stopped */
	uint32_t cpu_bias, wall_bias;
	uint64_t records[DUMPI_NFUNCS];
} dumpi_stream_ctx;

void dumpi_check_stream(dumpi_stream_ctx *s);

/* ---- the hand-off to the MPI layer ----
 *
 * Each record the walk takes goes to the layer (mpi/layer.h) through its
 * function's path, paths[fn](m, rec, args): from a call site of its own in
 * each function's step (format/fast.h), so that the call has one target and
 * is predicted, where one shared dispatch by id missed about once a record
 * on a mix of functions. The layer owns the struct and may change its paths
 * between records (a finalized rank takes no more), so the walk reads them
 * at every record. */
typedef void dumpi_layer_path(struct mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
typedef struct dumpi_layer {
	dumpi_layer_path *const *paths;   /* by function id, every id below DUMPI_NFUNCS */
	struct mpi_rank *m;
} dumpi_layer;
/* No layer: every path does nothing (format/decode.c). */
extern const dumpi_layer dumpi_layer_none;

/* "stream/record[N]" into buf (built only when a diagnostic needs it). */
const char *dumpi_record_path(char *buf, size_t len, uint64_t index);

/* Record iterator (also used by the reference test). */
typedef struct dumpi_iter {
	dumpi_cur cur;
	hv_window win;
	uint8_t version[3];
	int failure;                /* 0, or the rule that stopped the walk */
	dumpi_argfail why;
	bool at_end;                /* the end label was read */
	uint64_t next_index;
	dumpi_args args;            /* the last record's decoded arguments */
	const dumpi_layout *layouts; /* dumpi_layout_of's table, by function id */
	/* The cursor's view from ahead_pos on, up to the limit: [ahead,
	 * ahead_end), valid while cur.pos is ahead_pos (NULL: work it out). */
	const uint8_t *ahead, *ahead_end;
	uint64_t ahead_pos;
} dumpi_iter;

bool dumpi_iter_init(dumpi_iter *it, hv_blob *b, uint64_t body, uint64_t limit, const uint8_t version[3]);
/* Next record into `rec`; false at the end label, at the limit, or on a failure. */
bool dumpi_iter_next(dumpi_iter *it, dumpi_record *rec);
void dumpi_iter_free(dumpi_iter *it);

/* ---- argument shapes libundumpi relies on (format/shapes.c) ---- */

typedef struct dumpi_shapes {
	uint64_t spawn_roots;       /* MPI_Comm_spawn_multiple records with the root's arrays */
	uint64_t argvs_null;        /* of those, written with MPI_ARGVS_NULL */
	uint64_t first_index, first_at, first_len;
} dumpi_shapes;

/* Check one decoded record (range rows, spawn array lengths): only
 * MPI_Group_range_incl/excl and MPI_Comm_spawn_multiple have such shapes. */
static inline bool dumpi_shapes_of(unsigned fn) { return fn == 78 || fn == 79 || fn == 136; }
void dumpi_shapes_record(dumpi_shapes *st, hv_report *r, const char *file, const dumpi_record *rec,
			 const dumpi_args *a);
/* The once-per-file reader-hazard note, after the stream walk. */
void dumpi_shapes_end(const dumpi_shapes *st, hv_report *r, const char *file);

/* ---- timing (format/time.c) ---- */

typedef struct dumpi_timing dumpi_timing;
/* Biases are only added back for messages (times as dumpi2ascii prints them). */
dumpi_timing *dumpi_timing_new(uint32_t cpu_bias, uint32_t wall_bias);
void dumpi_timing_record(dumpi_timing *t, hv_report *r, const char *file, const dumpi_record *rec);
/* The evaluations of the clocks that moved forward as expected, counted
 * once at the end of the walk rather than record by record. */
void dumpi_timing_end(dumpi_timing *t, hv_report *r);
void dumpi_timing_free(dumpi_timing *t);

extern const hv_format hv_format_dumpi_bin;
extern const hv_format hv_format_dumpi_meta;
extern const hv_family hv_family_dumpi;

#endif
