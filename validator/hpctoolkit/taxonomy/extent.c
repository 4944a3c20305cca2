/* How much of a YAML stream SnakeYAML has read when it last checks its
 * codePointLimit (see yamldoc.h, yd_extent_of).
 *
 * SnakeYAML (1.32 on) compares the characters it has read with the limit
 * each time it starts to scan a token. The last such start is the scan for
 * the end of the stream, which begins where the last token's scan stopped:
 * what follows (blanks, comments, line breaks) is read after the last check.
 * libyaml and SnakeYAML tokenise alike (both follow PyYAML's scanner), so
 * libyaml's tokens give that place as a character index; only a plain
 * scalar's scan reads past its token's end mark (the blanks after it, a line
 * break, then spaces and line breaks up to a comment or the end), which is
 * followed here on the bytes. Characters are Unicode code points of the
 * stream as both readers decode it: UTF-8, or UTF-16 after a byte order mark;
 * the mark itself is not counted. Nothing is allocated: the bytes are read
 * through a fixed window. */
#include "yamldoc.h"

#include <string.h>
#include <yaml.h>

/* Where the last token's scan stops, as libyaml's character index, and
 * whether that token is a plain scalar. False when libyaml fails (memory,
 * I/O; the document itself was parsed already). */
static bool last_token(hv_blob *b, uint64_t *end, bool *plain)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) return false;
	yd_blob_input in = {b, 0};
	if (b->mem)
		yaml_parser_set_input_string(&p, b->mem, (size_t)b->size);
	else
		yaml_parser_set_input(&p, yd_read_blob, &in);
	bool ok = false;
	*end = 0;
	*plain = false;
	for (;;) {
		yaml_token_t tok;
		if (!yaml_parser_scan(&p, &tok)) break;
		yaml_token_type_t type = tok.type;
		/* block ends carry the place of the next token (after the comments);
		 * every other token is text of its own */
		if (type != YAML_BLOCK_END_TOKEN && type != YAML_STREAM_END_TOKEN && type != YAML_NO_TOKEN) {
			*end = tok.end_mark.index;
			*plain = type == YAML_SCALAR_TOKEN && tok.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		}
		yaml_token_delete(&tok);
		if (type == YAML_STREAM_END_TOKEN) {
			ok = true;
			break;
		}
		if (type == YAML_NO_TOKEN) break;
	}
	yaml_parser_delete(&p);
	return ok;
}

enum { ENC_UTF8, ENC_UTF16LE, ENC_UTF16BE };

/* The file's bytes through a fixed window. */
typedef struct bytes {
	hv_blob *b;
	uint64_t base;
	size_t len;
	bool failed;
	uint8_t buf[16384];
} bytes;

static int byte_at(bytes *w, uint64_t off)
{
	if (off >= w->b->size) return -1;
	if (w->b->mem) return w->b->mem[off];
	if (off < w->base || off - w->base >= w->len) {
		uint64_t left = w->b->size - off;
		size_t n = left < sizeof w->buf ? (size_t)left : sizeof w->buf;
		if (!hv_blob_read(w->b, off, w->buf, n)) {
			w->failed = true;
			return -1;
		}
		w->base = off;
		w->len = n;
	}
	return w->buf[off - w->base];
}

/* The character at *off (advanced past it); -1 at the end. Only the
 * characters the plain-scalar tail is made of need their value: anything
 * else comes back as some other code point. */
static int32_t next_char(bytes *w, int enc, uint64_t *off)
{
	int c0 = byte_at(w, *off);
	if (c0 < 0) return -1;
	if (enc == ENC_UTF8) {
		/* the document is valid UTF-8 (libyaml read it): the length follows
		 * from the first byte */
		unsigned n = c0 < 0x80 ? 1 : c0 < 0xe0 ? 2 : c0 < 0xf0 ? 3 : 4;
		int32_t cp = c0 < 0x80 ? c0 : c0 < 0xe0 ? (c0 & 0x1f) : c0 < 0xf0 ? (c0 & 0x0f) : (c0 & 0x07);
		for (unsigned i = 1; i < n; i++) {
			int c = byte_at(w, *off + i);
			if (c < 0) break;
			cp = (cp << 6) | (c & 0x3f);
		}
		*off += n;
		return cp;
	}
	int c1 = byte_at(w, *off + 1);
	if (c1 < 0) return -1;
	int32_t u = enc == ENC_UTF16LE ? (c1 << 8 | c0) : (c0 << 8 | c1);
	*off += 2;
	if (u >= 0xd800 && u < 0xdc00) *off += 2; /* and its low surrogate: one character */
	return u;
}

static bool is_break(int32_t c) { return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029; }

bool yd_extent_of(hv_blob *b, uint64_t cap, yd_extent *e)
{
	memset(e, 0, sizeof *e);
	uint64_t end;
	bool plain;
	if (!last_token(b, &end, &plain)) return false;
	bytes w = {.b = b};
	int b0 = byte_at(&w, 0), b1 = byte_at(&w, 1), b2 = byte_at(&w, 2);
	int enc = ENC_UTF8;
	uint64_t off = 0;
	if (b0 == 0xff && b1 == 0xfe) enc = ENC_UTF16LE, off = 2;
	else if (b0 == 0xfe && b1 == 0xff) enc = ENC_UTF16BE, off = 2;
	else if (b0 == 0xef && b1 == 0xbb && b2 == 0xbf) off = 3;
	e->over_off = UINT64_MAX;
	uint64_t idx = 0;
	/* to the end of the last token */
	while (idx < end) {
		if (idx == cap) e->over_off = off;
		if (next_char(&w, enc, &off) < 0) break;
		idx++;
	}
	/* a plain scalar's scan goes on over blanks, one line break, then spaces
	 * and line breaks (SnakeYAML's scanPlainSpaces) */
	bool after_break = false;
	while (plain) {
		uint64_t at = off;
		int32_t c = next_char(&w, enc, &off);
		if (c < 0) break;
		bool more = is_break(c) || c == ' ' || (c == '\t' && !after_break);
		if (!more) {
			off = at;
			break;
		}
		after_break |= is_break(c);
		if (idx == cap) e->over_off = at;
		idx++;
	}
	if (w.failed) return false;
	e->chars = idx;
	e->end_off = off;
	if (e->over_off == UINT64_MAX) e->over_off = off;
	return true;
}
