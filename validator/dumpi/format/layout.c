/* The argument-layout table (funcs.def) and the checked walk of a
 * record's arguments with it. Records carry no length, so this is
 * what lets the validator find where one record ends and the next begins. */
#include <string.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"

const uint8_t dumpi_head_magic[8] = {0xff, 0xaa, 0xdd, 'D', 'U', 'M', 'P', 'I'};

/* The table, made at compile time from funcs.def (a layout of more than
 * DUMPI_MAX_FIELDS fields does not compile): parsed from a text form at
 * run time it cost ~100 K instructions a process, what the walk of ~1,000
 * records costs, and a once-only start at every look-up. */
enum {
#define DUMPI_F(k, n) + 1
#define DUMPI_R(k, n) + 1
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) dumpi_nfields_##id = 0 fields,
#include "funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#define DUMPI_F(k, n)
#define DUMPI_R(k, n)
#define DUMPI_NO_LAYOUT + 1
#undef DUMPI_FN
#define DUMPI_FN(id, name, fields) dumpi_nolayout_##id = 0 fields,
#include "funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
};
/* A field's kind as a character constant, from its one-letter name. */
enum {
	DUMPI_K_b = 'b', DUMPI_K_h = 'h', DUMPI_K_i = 'i', DUMPI_K_q = 'q', DUMPI_K_r = 'r', DUMPI_K_t = 't',
	DUMPI_K_I = 'I', DUMPI_K_H = 'H', DUMPI_K_B = 'B', DUMPI_K_C = 'C', DUMPI_K_D = 'D', DUMPI_K_E = 'E',
	DUMPI_K_J = 'J', DUMPI_K_S = 'S', DUMPI_K_x = 'x', DUMPI_K_y = 'y', DUMPI_K_A = 'A', DUMPI_K_a = 'a',
};

static const dumpi_layout layouts[DUMPI_NFUNCS] = {
#define DUMPI_F(k, n) {DUMPI_K_##k, false, #n, (uint8_t)(sizeof #n - 1)},
#define DUMPI_R(k, n) {DUMPI_K_##k, true, #n, (uint8_t)(sizeof #n - 1)},
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) [id] = {name, !dumpi_nolayout_##id, dumpi_nfields_##id, {fields}},
#include "funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
};

/* dumpi_arg_offsets: each fixed-width field's offset from the first
 * argument while only fixed-width fields come before it. A field's width
 * here is its bytes for a scalar and DUMPI_OW_VAR for any other (counted,
 * status, string, version fork) and for a root-only field: a sum of widths
 * that reaches it marks a field whose offset the decoders store (decode.c):
 * one of no fixed width, or after one. 16 fields of at most 8 bytes sum to
 * < 256. */
#define DUMPI_OW_VAR 256
enum {
	DUMPI_OW_b = 1, DUMPI_OW_h = 2, DUMPI_OW_i = 4, DUMPI_OW_q = 8, DUMPI_OW_r = 4, DUMPI_OW_t = 4,
	DUMPI_OW_I = DUMPI_OW_VAR, DUMPI_OW_H = DUMPI_OW_VAR, DUMPI_OW_B = DUMPI_OW_VAR, DUMPI_OW_C = DUMPI_OW_VAR,
	DUMPI_OW_D = DUMPI_OW_VAR, DUMPI_OW_E = DUMPI_OW_VAR, DUMPI_OW_J = DUMPI_OW_VAR, DUMPI_OW_S = DUMPI_OW_VAR,
	DUMPI_OW_x = DUMPI_OW_VAR, DUMPI_OW_y = DUMPI_OW_VAR, DUMPI_OW_A = DUMPI_OW_VAR, DUMPI_OW_a = DUMPI_OW_VAR,
};
_Static_assert(DUMPI_MAX_FIELDS * 8 < DUMPI_OW_VAR && DUMPI_AT_STORED >= DUMPI_MAX_FIELDS * 8,
	       "a sum of fixed widths is never taken for DUMPI_OW_VAR nor DUMPI_AT_STORED");
#define DUMPI_O_(before, own) ((before) + (own) >= DUMPI_OW_VAR ? (uint8_t)DUMPI_AT_STORED : (uint8_t)(before))
/* The row of one function from its fields' widths (padded with
 * DUMPI_OW_VAR past its last field): entry j the sum of the first j, or
 * DUMPI_AT_STORED where field j or one before it has no fixed width. */
#define DUMPI_OROW_(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, ...)                                              \
	{                                                                                                             \
		DUMPI_O_(0, a),                                                                                       \
		DUMPI_O_(a, b),                                                                                       \
		DUMPI_O_(a + b, c),                                                                                   \
		DUMPI_O_(a + b + c, d),                                                                               \
		DUMPI_O_(a + b + c + d, e),                                                                           \
		DUMPI_O_(a + b + c + d + e, f),                                                                       \
		DUMPI_O_(a + b + c + d + e + f, g),                                                                   \
		DUMPI_O_(a + b + c + d + e + f + g, h),                                                               \
		DUMPI_O_(a + b + c + d + e + f + g + h, i),                                                           \
		DUMPI_O_(a + b + c + d + e + f + g + h + i, j),                                                       \
		DUMPI_O_(a + b + c + d + e + f + g + h + i + j, k),                                                   \
		DUMPI_O_(a + b + c + d + e + f + g + h + i + j + k, l),                                               \
		DUMPI_O_(a + b + c + d + e + f + g + h + i + j + k + l, m),                                           \
		DUMPI_O_(a + b + c + d + e + f + g + h + i + j + k + l + m, n),                                       \
		DUMPI_O_(a + b + c + d + e + f + g + h + i + j + k + l + m + n, o),                                   \
		DUMPI_O_(a + b + c + d + e + f + g + h + i + j + k + l + m + n + o, p),                               \
		DUMPI_AT_STORED,                                                                                      \
	}
#define DUMPI_OROW(...) DUMPI_OROW_(__VA_ARGS__)
#define DUMPI_PAD_ DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, \
	DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, DUMPI_OW_VAR, \
	DUMPI_OW_VAR
/* An id that is no record: every entry stored (never read). */
#define DUMPI_OROW_NONE                                                                                               \
	{                                                                                                             \
		DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, \
		DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, \
		DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED, DUMPI_AT_STORED                   \
	}

const uint8_t dumpi_arg_offsets[DUMPI_NFUNCS][DUMPI_MAX_FIELDS + 1] = {
#define DUMPI_F(k, n) DUMPI_OW_##k,
#define DUMPI_R(k, n) DUMPI_OW_VAR,
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) [id] = DUMPI_OROW(fields DUMPI_PAD_),
#include "funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
	[DUMPI_ALL_FUNCTIONS] = DUMPI_OROW_NONE,
};

const dumpi_layout *dumpi_layout_of(unsigned fn)
{
	if (fn >= DUMPI_NFUNCS || !layouts[fn].name) return NULL;
	return &layouts[fn];
}

const dumpi_layout *dumpi_layout_table(void)
{
	return layouts;
}

const char *dumpi_function_name(unsigned fn)
{
	if (fn == DUMPI_ALL_FUNCTIONS) return "DUMPI_ALL_FUNCTIONS";
	if (fn == DUMPI_END_OF_STREAM) return "DUMPI_END_OF_STREAM";
	const dumpi_layout *L = dumpi_layout_of(fn);
	return L ? L->name : "unknown";
}

bool dumpi_version_at_least(const uint8_t v[3], int major, int sub, int subsub)
{
	if (v[0] != major) return v[0] > major;
	if (v[1] != sub) return v[1] > sub;
	return v[2] >= subsub;
}

bool dumpi_get_slow(dumpi_cur *c, unsigned n, uint64_t *v)
{
	if (c->failed || c->pos > c->limit || c->limit - c->pos < n) {
		c->failed = true;
		return false;
	}
	const uint8_t *p;
	if (c->view && c->pos >= c->view_at && c->pos - c->view_at <= c->view_len &&
	    c->view_len - (c->pos - c->view_at) >= n) {
		p = c->view + (c->pos - c->view_at);
	} else {
		/* Map as much of the rest as the window holds; a blob in memory maps it all. */
		uint64_t want = c->limit - c->pos;
		if (!c->w->blob->mem && want > c->w->cap) want = c->w->cap;
		c->view = hv_window_get(c->w, c->pos, (size_t)want);
		if (!c->view) {
			c->failed = true;
			return false;
		}
		c->view_at = c->pos;
		c->view_len = want;
		p = c->view;
	}
	uint64_t x = 0;
	for (unsigned i = 0; i < n; i++) x = (x << 8) | p[i];
	*v = x;
	c->pos += n;
	return true;
}

bool dumpi_skip(dumpi_cur *c, uint64_t n)
{
	if (c->failed || c->pos > c->limit || c->limit - c->pos < n) {
		c->failed = true;
		return false;
	}
	c->pos += n;
	return true;
}

/* u32 count, then count items of `width` bytes. */
static bool counted(dumpi_cur *c, uint64_t width, uint64_t *count)
{
	if (!dumpi_get(c, 4, count)) return false;
	return dumpi_skip(c, hv_mul_sat(*count, width));
}

/* u32 count, then count char arrays (each u32 length + bytes). Every item
 * costs at least 4 bytes, so the loop ends at the limit whatever the count. */
static bool char_arrays(dumpi_cur *c, uint64_t *count)
{
	if (!dumpi_get(c, 4, count)) return false;
	for (uint64_t i = 0; i < *count; i++) {
		uint64_t len;
		if (!counted(c, 1, &len)) return false;
	}
	return true;
}

static bool argv_list(dumpi_cur *c, bool duplicate_count, uint64_t *count)
{
	if (!dumpi_get(c, 4, count)) return false;
	uint64_t again;
	if (duplicate_count && !dumpi_get(c, 4, &again)) return false;
	/* The reader reads the strings only for a positive int32 argc. */
	if ((int32_t)(uint32_t)*count <= 0) return true;
	for (uint64_t i = 0; i < *count; i++) {
		uint64_t len;
		if (!counted(c, 1, &len)) return false;
	}
	return true;
}

static bool one_field(const dumpi_field *f, uint8_t mask, const uint8_t ver[3], dumpi_cur *c, uint64_t *count,
		      uint64_t *scalar, dumpi_args *out)
{
	uint64_t v = 0;
	switch (f->kind) {
	case 'b': return dumpi_get(c, 1, scalar);
	case 'h': return dumpi_get(c, 2, scalar);
	case 'i':
	case 'r':
	case 't': return dumpi_get(c, 4, scalar);
	case 'q': return dumpi_get(c, 8, scalar);
	case 'I': return counted(c, 4, count);
	case 'H': return counted(c, 2, count);
	case 'B': return counted(c, 1, count);
	case 'C': return counted(c, 1, count);
	case 'D': return char_arrays(c, count);
	case 'E':
		if (!dumpi_get(c, 4, count)) return false;
		for (uint64_t i = 0; i < *count; i++) {
			uint64_t inner;
			if (!char_arrays(c, &inner)) return false;
		}
		return true;
	case 'J':
		if (!dumpi_get(c, 4, count)) return false;
		for (uint64_t i = 0; i < *count; i++) {
			uint64_t inner, at = c->pos;
			if (!counted(c, 4, &inner)) return false;
			/* libdumpi writes every range row as (first, last, stride) */
			if (inner != 3 && out && !out->bad_row) {
				out->bad_row = true;
				out->bad_row_index = i;
				out->bad_row_at = at;
				out->bad_row_len = inner;
			}
		}
		return true;
	case 'S':
		if (!(mask & DUMPI_MASK_STATUS)) return true;
		return counted(c, dumpi_version_at_least(ver, 0, 6, 3) ? 14 : 10, count);
	case 'x': return dumpi_version_at_least(ver, 0, 6, 9) ? counted(c, 4, count) : dumpi_get(c, 4, &v);
	case 'y': return dumpi_version_at_least(ver, 0, 6, 8) ? counted(c, 4, count) : dumpi_get(c, 4, &v);
	case 'A': return argv_list(c, !dumpi_version_at_least(ver, 0, 6, 2), count);
	case 'a': return argv_list(c, false, count);
	default: c->failed = true; return false;
	}
}

bool dumpi_decode_args(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
		       dumpi_argfail *why)
{
	return dumpi_decode_args_into(L, mask, version, c, why, NULL);
}

static bool decode_args(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
			dumpi_argfail *why, dumpi_args *out, dumpi_field_fn on_field, void *ctx);

bool dumpi_decode_args_into(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
			    dumpi_argfail *why, dumpi_args *out)
{
	return decode_args(L, mask, version, c, why, out, NULL, NULL);
}

bool dumpi_decode_args_cb(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
			  dumpi_argfail *why, dumpi_field_fn on_field, void *ctx)
{
	return decode_args(L, mask, version, c, why, NULL, on_field, ctx);
}

static bool decode_args(const dumpi_layout *L, uint8_t mask, const uint8_t version[3], dumpi_cur *c,
			dumpi_argfail *why, dumpi_args *out, dumpi_field_fn on_field, void *ctx)
{
	if (out) out->n = L->nfields, out->bad_row = false, out->bytes_at = c->pos;
	uint64_t rank = 0, root = 0;
	bool have_rank = false, have_root = false;
	for (unsigned i = 0; i < L->nfields; i++) {
		const dumpi_field *f = &L->fields[i];
		if (out) out->f[i].present = false;
		if (f->root_only && !(have_rank && have_root && rank == root)) continue;
		uint64_t at = c->pos, count = 0, scalar = 0;
		if (!one_field(f, mask, version, c, &count, &scalar, out)) {
			why->field = f->name;
			why->field_len = f->name_len;
			why->at = at;
			why->count = count;
			return false;
		}
		if (on_field) on_field(ctx, f, at, c->pos);
		if (out) {
			out->f[i].present = true;
			out->f[i].at = at;
			out->f[i].v = scalar | count;
		}
		if (f->kind == 'r') rank = scalar, have_rank = true;
		if (f->kind == 't') root = scalar, have_root = true;
	}
	return true;
}
