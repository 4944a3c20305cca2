/* clock-offsets.txt (written by ovnisync): a header line, then
 * "rank hostname median mean std" per line. Only the median is used; it is
 * added to the raw clocks of every loom whose hostname matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tree.h"

#define LINE_MAX_BYTES 4096

void ovni_loom_host(const char *loom, char *out, size_t outlen)
{
	size_t n = strcspn(loom, ".");
	if (n + 1 > outlen) n = outlen - 1;
	memcpy(out, loom, n);
	out[n] = '\0';
}

typedef struct entry {
	char host[256];
	int64_t median;
	uint64_t off;
	bool used;
} entry;

static void bad(ovni_trace *t, uint64_t off, uint64_t len, unsigned line, const char *why)
{
	hv_eval(t->r, HV_R_OVNI_TREE_CLOCK_OFFSETS, false);
	hv_emit(t->r, HV_R_OVNI_TREE_CLOCK_OFFSETS, t->clkoff->name, off, len, "clock-offsets.txt", "line %u: %s", line,
		why);
}

/* One entry line: int64 rank, a hostname, three numbers. */
static bool parse_line(const char *s, entry *e)
{
	char *end;
	long long rank = strtoll(s, &end, 10);
	(void)rank;
	if (end == s) return false;
	s = end;
	while (*s == ' ' || *s == '\t') s++;
	size_t hl = strcspn(s, " \t");
	if (hl == 0 || hl >= sizeof e->host) return false;
	memcpy(e->host, s, hl);
	e->host[hl] = '\0';
	s += hl;
	double v[3];
	for (int i = 0; i < 3; i++) {
		v[i] = strtod(s, &end);
		if (end == s) return false;
		s = end;
	}
	if (!(v[0] > -9.2e18 && v[0] < 9.2e18)) return false;
	e->median = (int64_t)v[0];
	return true;
}

void ovni_clock_offsets(ovni_trace *t, int64_t *offsets)
{
	for (size_t i = 0; i < t->ns; i++) offsets[i] = 0;
	if (!t->clkoff) return;
	hv_blob *b = t->clkoff;
	hv_eval(t->r, HV_R_OVNI_TREE_CLOCK_OFFSETS, true);
	/* one short line per node: megabytes are not an offsets file */
	if (b->size > (16u << 20)) {
		bad(t, 0, b->size, 1, "the file is larger than 16 MiB; it holds one short line per node");
		return;
	}
	if (!hv_blob_materialize(b)) return;
	const char *text = (const char *)b->mem;
	size_t n = (size_t)b->size, nent = 0, cap = 0;
	entry *ents = NULL;
	bool ok = true;
	unsigned line = 0;
	for (size_t pos = 0; pos < n && ok;) {
		size_t eol = pos;
		while (eol < n && text[eol] != '\n') eol++;
		line++;
		size_t len = eol - pos;
		char buf[LINE_MAX_BYTES];
		bool blank = true;
		for (size_t k = pos; k < eol; k++) blank &= strchr(" \t\r", text[k]) != NULL && text[k];
		if (line > 1 && !blank) {
			entry e = {0};
			if (len >= sizeof buf || memchr(text + pos, '\0', len)) {
				bad(t, pos, len, line, "line too long or holds a NUL byte");
				ok = false;
				break;
			}
			memcpy(buf, text + pos, len);
			buf[len] = '\0';
			if (!parse_line(buf, &e)) {
				bad(t, pos, len, line, "want 5 fields: rank hostname offset_median offset_mean offset_std");
				ok = false;
				break;
			}
			e.off = pos;
			for (size_t k = 0; k < nent; k++)
				if (strcmp(ents[k].host, e.host) == 0) {
					char why[320];
					snprintf(why, sizeof why, "hostname '%.200s' already has an entry (line of offset 0x%llx)",
						 e.host, (unsigned long long)ents[k].off);
					bad(t, pos, len, line, why);
					ok = false;
				}
			if (!ok) break;
			if (!HV_GROW(ents, cap, nent + 1, 16)) {
				ok = false;
				break;
			}
			ents[nent++] = e;
		}
		pos = eol + 1;
	}
	if (ok && line == 0) {
		bad(t, 0, 0, 1, "missing header line");
		ok = false;
	} else if (ok && nent == 0) {
		bad(t, 0, b->size, line, "no entries after the header line");
		ok = false;
	}
	if (ok) {
		for (size_t i = 0; i < t->ns; i++) {
			if (!t->s[i].loom_ok) continue;
			char host[256];
			ovni_loom_host(t->s[i].loom, host, sizeof host);
			for (size_t k = 0; k < nent; k++)
				if (strcmp(ents[k].host, host) == 0) {
					offsets[i] = ents[k].median;
					ents[k].used = true;
				}
		}
		for (size_t k = 0; k < nent; k++)
			if (!hv_eval(t->r, HV_R_OVNI_TREE_CLOCK_OFFSETS_HOST, ents[k].used))
				hv_emit(t->r, HV_R_OVNI_TREE_CLOCK_OFFSETS_HOST, b->name, ents[k].off, strlen(ents[k].host),
					"clock-offsets.txt", "hostname '%.200s' matches no loom of the trace", ents[k].host);
	}
	free(ents);
}
