/* What a per-format dumper works with: the dump context of one file and
 * the bounds-checked primitives that read it and write items (item.c).
 * The per-format dumpers (dumpers.h) use these and nothing of the driver
 * (dump.c), which calls them. */
#ifndef HV_DUMP_ITEM_H
#define HV_DUMP_ITEM_H

#include "dump.h"

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

#endif
