#include <inttypes.h>
/* Helpers shared by the CI writers (SARIF, JUnit, GitHub): making strings
 * safe for strict consumers and turning display paths into URIs.
 *
 * Messages and paths can carry bytes copied from hostile input (a JSON key,
 * a file name), so every writer passes them through hv_out_clean first: the
 * result is valid UTF-8 without control characters, which JSON parsers, XML
 * parsers and GitHub's log scanner all accept. */
#include <stdint.h>
#include <string.h>

#include "output.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when s does not start
 * one. Overlong forms, surrogates, values above U+10FFFF and the XML
 * non-characters U+FFFE/U+FFFF are invalid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	if (c < 0x80) return 1;
	size_t n;
	uint32_t cp;
	if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
	else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
	else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
	else return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80) return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (cp < min_for_len[n] || cp > 0x10FFFF) return 0;
	if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
	if (cp == 0xFFFE || cp == 0xFFFF) return 0;
	return n;
}

void hv_out_clean(const char *in, char *out, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	if (cap == 0) return;
	const unsigned char *s = (const unsigned char *)(in ? in : "");
	while (*s) {
		size_t n = utf8_len(s);
		bool printable = n > 1 || (n == 1 && (*s >= 0x20 || *s == '\n' || *s == '\t') && *s != 0x7F);
		if (printable) {
			if (o + n >= cap) break;
			memcpy(out + o, s, n);
			o += n;
			s += n;
		} else {
			/* Shown as the four characters \xNN so the byte stays visible. */
			if (o + 4 >= cap) break;
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[*s >> 4];
			out[o++] = hex[*s & 15];
			s++;
		}
	}
	out[o] = '\0';
}

const char *hv_out_relative(const char *path, const char *base_dir)
{
	if (!path) return "";
	if (base_dir && base_dir[0] == '/') {
		size_t n = strlen(base_dir);
		while (n > 1 && base_dir[n - 1] == '/') n--;
		if (n == 1 && path[0] == '/' && path[1]) return path + 1;
		if (strncmp(path, base_dir, n) == 0 && path[n] == '/' && path[n + 1]) return path + n + 1;
	}
	while (path[0] == '.' && path[1] == '/' && path[2]) path += 2;
	return path;
}

/* RFC 3986 unreserved characters and '/', kept as they are. ':' is escaped
 * too, so a relative path whose first segment holds a colon is never read as
 * a scheme. */
static bool uri_keep(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '.' || c == '_' || c == '~' || c == '/';
}

bool hv_out_uri(const char *path, char *out, size_t cap)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	const unsigned char *s = (const unsigned char *)path;
	if (path[0] == '/') {
		static const char scheme[] = "file://";
		if (cap < sizeof scheme) return false;
		memcpy(out, scheme, sizeof scheme - 1);
		o = sizeof scheme - 1;
	}
	for (; *s; s++) {
		if (uri_keep(*s)) {
			if (o + 1 >= cap) return false;
			out[o++] = (char)*s;
		} else {
			if (o + 3 >= cap) return false;
			out[o++] = '%';
			out[o++] = hex[*s >> 4];
			out[o++] = hex[*s & 15];
		}
	}
	if (cap == 0) return false;
	out[o] = '\0';
	return true;
}

bool hv_diag_whole(const hv_diag *d) { return d && d->offset == 0 && d->length == 0; }

bool hv_more_line(const hv_report *r, int rule, char *out, size_t cap)
{
	uint64_t n = hv_report_hidden(r, rule);
	if (!n) return false;
	const hv_more *m = &r->more[rule];
	const char *in = r->input_path ? r->input_path : "";
	snprintf(out, cap,
		 "%" PRIu64 " more %s diagnostic%s not shown (first at %s:0x%" PRIx64 ", last at %s:0x%" PRIx64
		 "; --max-per-rule=%zu)",
		 n, hv_rules[rule].id, n == 1 ? "" : "s", m->first_file ? m->first_file : in, m->first_off,
		 m->last_file ? m->last_file : in, m->last_off, r->max_per_rule);
	return true;
}
