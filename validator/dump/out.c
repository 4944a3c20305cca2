/* See out.h. */
#include "out.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void dw_init(hv_dump_out *w, FILE *f, bool json)
{
	memset(w, 0, sizeof *w);
	w->f = f;
	w->json = json;
}

void dw_set_budget(hv_dump_out *w, uint64_t max) { w->max_items = max; }

/* Inside a dropped item (past the budget): write nothing. */
static bool muted(const hv_dump_out *w) { return w->mute_at > 0 && w->depth >= w->mute_at; }

static void put_string(hv_dump_out *w, const uint8_t *s, size_t len)
{
	FILE *f = w->f;
	if (w->json) fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		uint8_t c = s[i];
		/* the length of a valid UTF-8 sequence starting here, else 0 */
		size_t n = 0;
		if (c >= 0xc2 && c <= 0xdf) n = 2;
		else if (c >= 0xe0 && c <= 0xef) n = 3;
		else if (c >= 0xf0 && c <= 0xf4) n = 4;
		bool ok = n > 0 && len - i >= n;
		for (size_t k = 1; ok && k < n; k++) ok = (s[i + k] & 0xc0) == 0x80;
		if (ok && n == 3) ok = !(c == 0xe0 && s[i + 1] < 0xa0) && !(c == 0xed && s[i + 1] >= 0xa0);
		if (ok && n == 4) ok = !(c == 0xf0 && s[i + 1] < 0x90) && !(c == 0xf4 && s[i + 1] >= 0x90);
		if (ok) {
			fwrite(s + i, 1, n, f);
			i += n - 1;
		} else if (c == '"' && w->json) {
			fputs("\\\"", f);
		} else if (c == '\\') {
			fputs("\\\\", f);
		} else if (c >= 0x20 && c < 0x7f) {
			fputc(c, f);
		} else if (w->json) {
			fprintf(f, "\\u%04x", c);
		} else {
			fprintf(f, "\\x%02x", c);
		}
	}
	if (w->json) fputc('"', f);
}

/* Before a member: the comma, the key; text indents outside items. */
static void member(hv_dump_out *w, const char *key)
{
	FILE *f = w->f;
	int d = w->depth < HV_DUMP_MAX_DEPTH ? w->depth : HV_DUMP_MAX_DEPTH - 1;
	if (w->json) {
		/* compact: a line per item and per top-level member, nothing else */
		if (w->need_comma[d]) fputc(',', f);
		w->need_comma[d] = true;
		if (w->line_break) fputc('\n', f);
		w->line_break = false;
		if (key) {
			put_string(w, (const uint8_t *)key, strlen(key));
			fputc(':', f);
		}
		return;
	}
	if (w->in_item) {
		if (w->need_comma[d]) fputs(key ? " " : ", ", f);
		w->need_comma[d] = true;
		if (key) fprintf(f, "%s=", key);
	} else if (key) {
		for (int i = 1; i < w->depth; i++) fputs("  ", f);
		fprintf(f, "%s: ", key);
	}
}

/* A scalar ends its text line outside items. */
static void after_scalar(hv_dump_out *w)
{
	if (!w->json && !w->in_item) fputc('\n', w->f);
}

static void open_c(hv_dump_out *w, const char *key, char c)
{
	/* text outside items: containers are only structure, not shown */
	if ((w->json || w->in_item) && !muted(w)) {
		member(w, key);
		fputc(c, w->f);
	}
	if (w->depth + 1 < HV_DUMP_MAX_DEPTH) w->need_comma[w->depth + 1] = false;
	w->depth++;
}

static void close_c(hv_dump_out *w, char c)
{
	bool quiet = muted(w);
	w->depth--;
	if (quiet) return;
	if (w->json) {
		fputc(c, w->f);
		if (w->depth <= 3) w->line_break = true;
	} else if (w->in_item) {
		fputc(c, w->f);
	}
}

void dw_obj_begin(hv_dump_out *w, const char *key) { open_c(w, key, '{'); }
void dw_obj_end(hv_dump_out *w) { close_c(w, '}'); }
void dw_arr_begin(hv_dump_out *w, const char *key) { open_c(w, key, '['); }
void dw_arr_end(hv_dump_out *w) { close_c(w, ']'); }

void dw_u64(hv_dump_out *w, const char *key, uint64_t v)
{
	if (muted(w)) return;
	member(w, key);
	fprintf(w->f, "%" PRIu64, v);
	after_scalar(w);
}

void dw_i64(hv_dump_out *w, const char *key, int64_t v)
{
	if (muted(w)) return;
	member(w, key);
	fprintf(w->f, "%" PRId64, v);
	after_scalar(w);
}

void dw_f64(hv_dump_out *w, const char *key, double v)
{
	if (muted(w)) return;
	member(w, key);
	if (v != v || v - v != 0) { /* NaN and infinities have no JSON number */
		if (w->json) fprintf(w->f, "\"%s\"", v != v ? "nan" : v > 0 ? "inf" : "-inf");
		else fputs(v != v ? "nan" : v > 0 ? "inf" : "-inf", w->f);
	} else {
		/* the shortest form that reads back as the same double */
		char buf[40];
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(buf, sizeof buf, "%.*g", prec, v);
			if (strtod(buf, NULL) == v) break;
		}
		fputs(buf, w->f);
	}
	after_scalar(w);
}

void dw_bool(hv_dump_out *w, const char *key, bool v)
{
	if (muted(w)) return;
	member(w, key);
	fputs(v ? "true" : "false", w->f);
	after_scalar(w);
}

void dw_null(hv_dump_out *w, const char *key)
{
	if (muted(w)) return;
	member(w, key);
	fputs("null", w->f);
	after_scalar(w);
}

void dw_strn(hv_dump_out *w, const char *key, const uint8_t *s, size_t len)
{
	if (muted(w)) return;
	member(w, key);
	if (!w->json && w->in_item) fputc('"', w->f);
	put_string(w, s, len);
	if (!w->json && w->in_item) fputc('"', w->f);
	after_scalar(w);
}

void dw_str(hv_dump_out *w, const char *key, const char *s)
{
	dw_strn(w, key, (const uint8_t *)(s ? s : ""), s ? strlen(s) : 0);
}

void dw_num_text(hv_dump_out *w, const char *key, const char *digits)
{
	if (muted(w)) return;
	member(w, key);
	fputs(digits, w->f);
	after_scalar(w);
}

static void item_open(hv_dump_out *w, const char *kind, const char *path, uint64_t offset, uint64_t length);

/* An item past the budget: it and everything in it is not written. */
static void item_drop(hv_dump_out *w)
{
	if (!w->mute_at) w->mute_at = w->depth + 1;
	w->depth++;
	if (!w->json) w->in_item = true;
}

void dw_item_begin(hv_dump_out *w, const char *kind, const char *path, uint64_t offset, uint64_t length)
{
	if (w->max_items && w->items >= w->max_items && !muted(w)) {
		if (!w->full) {
			/* the one item past the budget says where and why the dump stops */
			w->full = true;
			item_open(w, "stop", "", offset, 0);
			char why[160];
			snprintf(why, sizeof why,
				 "output budget: %" PRIu64 " items written (--max-items); the rest of the input is not dumped, --select shows any part",
				 w->max_items);
			dw_str(w, "reason", why);
			dw_item_end(w);
		}
		item_drop(w);
		return;
	}
	item_open(w, kind, path, offset, length);
}

static void item_open(hv_dump_out *w, const char *kind, const char *path, uint64_t offset, uint64_t length)
{
	if (muted(w)) { /* an item inside a dropped one */
		item_drop(w);
		return;
	}
	bool untrusted = w->have_untrusted && offset >= w->untrusted_from;
	w->items++;
	if (w->json) {
		w->line_break = true;
		dw_obj_begin(w, NULL);
		dw_str(w, "kind", kind);
		dw_str(w, "path", path);
		dw_u64(w, "offset", offset);
		dw_u64(w, "length", length);
		if (untrusted) dw_bool(w, "untrusted", true);
		return;
	}
	fprintf(w->f, "0x%08" PRIx64 " +%-6" PRIu64 " %s %s%s", offset, length, kind,
		path ? path : "", untrusted ? " (UNTRUSTED)" : "");
	w->in_item = true;
	w->depth++;
	if (w->depth < HV_DUMP_MAX_DEPTH) w->need_comma[w->depth] = true; /* a space before the first member */
}

void dw_item_end(hv_dump_out *w)
{
	bool quiet = muted(w);
	if (w->json) {
		dw_obj_end(w);
	} else {
		w->depth--;
		w->in_item = false;
		if (!quiet) fputc('\n', w->f);
	}
	if (w->mute_at > 0 && w->depth < w->mute_at) w->mute_at = 0;
}
