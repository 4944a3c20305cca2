/* The dump writer: one stream of calls, two renderings. JSON (the shape
 * docs/dump.schema.json describes) or text, one line per item. Everything
 * is written as it is decoded, so memory stays bounded whatever the input
 * size; nesting comes from the dumpers' code, never from the file. */
#ifndef HV_DUMP_OUT_H
#define HV_DUMP_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define HV_DUMP_MAX_DEPTH 16

typedef struct hv_dump_out {
	FILE *f;
	bool json;
	int depth;
	bool need_comma[HV_DUMP_MAX_DEPTH];
	bool in_item;           /* text: between dw_item_begin and dw_item_end */
	uint64_t untrusted_from; /* items at or after this offset are marked */
	bool have_untrusted;
	uint64_t items;         /* items written */
	bool line_break;        /* JSON: start the next member on a new line */
	uint64_t max_items;     /* the output budget (0: none) */
	bool full;              /* the budget is spent: a "stop" item was written */
	int mute_at;            /* > 0: nothing at this depth or deeper is written */
} hv_dump_out;

void dw_init(hv_dump_out *w, FILE *f, bool json);

/* The output budget: after `max` items (0: no limit) the next item is
 * replaced by one "stop" item saying so, and every later item is dropped
 * (the containers around them still close, so the JSON stays whole).
 * Dumpers ask dw_full to stop decoding early. */
#define HV_DUMP_MAX_ITEMS_DEFAULT 1000000u
void dw_set_budget(hv_dump_out *w, uint64_t max);
static inline bool dw_full(const hv_dump_out *w) { return w->full; }

/* Containers; `key` is NULL inside arrays (and at the top). */
void dw_obj_begin(hv_dump_out *w, const char *key);
void dw_obj_end(hv_dump_out *w);
void dw_arr_begin(hv_dump_out *w, const char *key);
void dw_arr_end(hv_dump_out *w);

/* Scalars. Strings may hold any bytes: they are written as valid UTF-8
 * (other bytes as \u00XX escapes in JSON, \xNN in text). */
void dw_u64(hv_dump_out *w, const char *key, uint64_t v);
void dw_i64(hv_dump_out *w, const char *key, int64_t v);
void dw_bool(hv_dump_out *w, const char *key, bool v);
void dw_null(hv_dump_out *w, const char *key);
void dw_str(hv_dump_out *w, const char *key, const char *s);
void dw_strn(hv_dump_out *w, const char *key, const uint8_t *s, size_t len);
/* A decimal number written exactly as given ("1296777956.737669000"). */
void dw_num_text(hv_dump_out *w, const char *key, const char *digits);
void dw_f64(hv_dump_out *w, const char *key, double v);

/* An item of the decoded structure: {"kind", "path", "offset", "length",
 * ...}; text: "0xOFFSET +LENGTH PATH KIND" then key=value pairs. Items
 * are written inside the current array. */
void dw_item_begin(hv_dump_out *w, const char *kind, const char *path, uint64_t offset, uint64_t length);
void dw_item_end(hv_dump_out *w);

#endif
