#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fnv.h"
#include "ovni/ovni.h"

/* Nesting deeper than this is not recorded (cJSON itself stops at 1000). */
#define SCAN_MAX_DEPTH 1024

void ovni_linecol(const uint8_t *text, size_t len, uint64_t off, unsigned long *line, unsigned long *col)
{
	unsigned long l = 1, c = 1;
	for (size_t i = 0; i < len && i < off; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* Blank comments outside strings with spaces (newlines kept, so offsets,
 * lines and columns stay those of the original). An unterminated block
 * comment is left alone so that the parser reports it. */
static void blank_comments(ovni_jdoc *d)
{
	char *s = d->clean;
	size_t n = d->len;
	bool in_str = false;
	for (size_t i = 0; i < n; i++) {
		if (in_str) {
			if (s[i] == '\\') i++;
			else if (s[i] == '"') in_str = false;
			continue;
		}
		if (s[i] == '"') {
			in_str = true;
			continue;
		}
		if (s[i] != '/' || i + 1 >= n) continue;
		size_t end;
		if (s[i + 1] == '/') {
			for (end = i; end < n && s[end] != '\n'; end++) {}
		} else if (s[i + 1] == '*') {
			const char *close = NULL;
			for (size_t k = i + 2; k + 1 < n; k++)
				if (s[k] == '*' && s[k + 1] == '/') {
					close = s + k;
					break;
				}
			if (!close) return;
			end = (size_t)(close - s) + 2;
		} else {
			continue;
		}
		if (!d->has_comment) {
			d->has_comment = true;
			d->comment_off = i;
		}
		for (size_t k = i; k < end; k++)
			if (s[k] != '\n') s[k] = ' ';
		i = end - 1;
	}
}

bool ovni_jdoc_init(ovni_jdoc *d, const uint8_t *text, size_t len)
{
	memset(d, 0, sizeof *d);
	d->text = text;
	d->len = len;
	/* len is at most ovni's 16 MiB bound: the product cannot overflow */
	size_t budget = (size_t)OVNI_JSCAN_PATH_BYTES_PER_BYTE * len + OVNI_JSCAN_PATH_BYTES_MIN;
	d->path_budget = budget < OVNI_JSCAN_MAX_PATH_BYTES ? budget : OVNI_JSCAN_MAX_PATH_BYTES;
	d->clean = hv_malloc(len + 1);
	if (!d->clean) return false;
	memcpy(d->clean, text, len);
	d->clean[len] = '\0';
	blank_comments(d);
	return true;
}

void ovni_jdoc_free(ovni_jdoc *d)
{
	for (size_t i = 0; i < d->npos; i++) free(d->pos[i].path);
	free(d->pos);
	free(d->head);
	free(d->next_same);
	free(d->clean);
	free(d->nl);
	memset(d, 0, sizeof *d);
}

static void record(ovni_jdoc *d, const char *path, uint64_t off, uint64_t len)
{
	if (d->oom) return;
	size_t plen = strlen(path) + 1;
	if (d->npos >= OVNI_JSCAN_MAX_POS || plen > d->path_budget - d->path_bytes) {
		d->truncated = true;
		return;
	}
	if (!HV_GROW(d->pos, d->cap, d->npos + 1, 64)) {
		d->oom = true;
		return;
	}
	char *p = hv_malloc(plen);
	if (!p) {
		d->oom = true;
		return;
	}
	memcpy(p, path, plen);
	d->path_bytes += plen;
	d->pos[d->npos++] = (ovni_jpos){p, off, len};
}

/* A growable path buffer. */
typedef struct pbuf {
	char *s;
	size_t len, cap;
	bool oom;
} pbuf;

static void pb_trunc(pbuf *p, size_t len)
{
	p->len = len;
	if (p->s) p->s[len] = '\0';
}

static void pb_add(pbuf *p, const char *s, size_t n)
{
	if (p->oom) return;
	if (n > SIZE_MAX - 1 - p->len || !HV_GROW(p->s, p->cap, p->len + n + 1, 128)) {
		p->oom = true;
		return;
	}
	memcpy(p->s + p->len, s, n);
	p->len += n;
	p->s[p->len] = '\0';
}

typedef struct frame {
	bool is_obj;
	size_t base;      /* path length of the container */
	uint64_t index;   /* next array element index */
	bool want_key;    /* in an object: the next string is a key */
} frame;

static void index_paths(ovni_jdoc *d);

/* Iterative: the nesting depth comes from the file. */
void ovni_jdoc_scan(ovni_jdoc *d)
{
	const char *s = d->clean;
	size_t n = d->len;
	frame *st = hv_malloc(SCAN_MAX_DEPTH * sizeof *st);
	pbuf p = {0};
	if (!st) {
		d->oom = true;
		return;
	}
	pb_add(&p, "", 0);
	size_t depth = 0;
	for (size_t i = 0; i < n && !p.oom && !d->oom; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':') {
			if (c == ',' && depth && st[depth - 1].is_obj) st[depth - 1].want_key = true;
			continue;
		}
		if (c == '}' || c == ']') {
			if (depth) depth--;
			continue;
		}
		frame *top = depth ? &st[depth - 1] : NULL;
		if (top && top->is_obj && top->want_key) {
			if (c != '"') continue; /* malformed: the parser reports it */
			size_t k = i + 1;
			while (k < n && s[k] != '"') k += s[k] == '\\' ? 2 : 1;
			if (k > n) k = n;
			pb_trunc(&p, top->base);
			if (top->base) pb_add(&p, ".", 1);
			pb_add(&p, s + i + 1, k - i - 1);
			if (!p.oom) record(d, p.s, i, k - i + 1);
			top->want_key = false;
			i = k;
			continue;
		}
		/* a value starts here */
		if (top && !top->is_obj) {
			char idx[32];
			int m = snprintf(idx, sizeof idx, "[%llu]", (unsigned long long)top->index++);
			pb_trunc(&p, top->base);
			pb_add(&p, idx, (size_t)m);
			if (!p.oom) record(d, p.s, i, 1);
		}
		if (c == '{' || c == '[') {
			if (depth == SCAN_MAX_DEPTH) break;
			st[depth++] = (frame){c == '{', p.len, 0, c == '{'};
		} else if (c == '"') {
			size_t k = i + 1;
			while (k < n && s[k] != '"') k += s[k] == '\\' ? 2 : 1;
			i = k;
		} else {
			while (i + 1 < n && !strchr(",]} \t\r\n", s[i + 1]) && s[i + 1] != '\0') i++;
		}
	}
	free(st);
	free(p.s);
	if (p.oom) d->oom = true;
	index_paths(d);
}

/* The slot of `path` in d->head: the one that holds its first position, or
 * the empty one where it would go. */
static size_t head_slot(const ovni_jdoc *d, const char *path)
{
	size_t s = (size_t)hv_fnv1a_str(HV_FNV1A_SEED, path) & d->head_mask;
	while (d->head[s] != UINT32_MAX && strcmp(d->pos[d->head[s]].path, path) != 0) s = (s + 1) & d->head_mask;
	return s;
}

/* d->head and d->next_same over the positions recorded (at most
 * OVNI_JSCAN_MAX_POS, so their indices fit in 32 bits and the table in
 * 2^22 slots). Without the memory, none: finds walk the positions. */
static void index_paths(ovni_jdoc *d)
{
	if (!d->npos) return;
	size_t slots = 16;
	while (slots < 2 * d->npos) slots *= 2;
	d->head = hv_malloc_optional(slots * sizeof *d->head);
	d->next_same = hv_malloc_optional(d->npos * sizeof *d->next_same);
	if (!d->head || !d->next_same) {
		free(d->head);
		free(d->next_same);
		d->head = d->next_same = NULL;
		return;
	}
	memset(d->head, 0xff, slots * sizeof *d->head);
	d->head_mask = slots - 1;
	/* backwards, so that each path's chain runs in document order */
	for (size_t i = d->npos; i-- > 0;) {
		size_t s = head_slot(d, d->pos[i].path);
		d->next_same[i] = d->head[s];
		d->head[s] = (uint32_t)i;
	}
}

bool ovni_jdoc_find(const ovni_jdoc *d, const char *path, unsigned nth, uint64_t *off, uint64_t *len)
{
	if (d->head) {
		uint32_t i = d->head[head_slot(d, path)];
		while (i != UINT32_MAX && nth--) i = d->next_same[i];
		if (i == UINT32_MAX) return false;
		*off = d->pos[i].off;
		*len = d->pos[i].len;
		return true;
	}
	for (size_t i = 0; i < d->npos; i++) {
		if (strcmp(d->pos[i].path, path) != 0) continue;
		if (nth--) continue;
		*off = d->pos[i].off;
		*len = d->pos[i].len;
		return true;
	}
	return false;
}

bool ovni_jdoc_find_next(const ovni_jdoc *d, const char *path, size_t *from, uint64_t *off)
{
	for (size_t i = *from; i < d->npos; i++) {
		if (strcmp(d->pos[i].path, path) != 0) continue;
		*off = d->pos[i].off;
		*from = i + 1;
		return true;
	}
	return false;
}

void ovni_jdoc_linecol(ovni_jdoc *d, uint64_t off, unsigned long *line, unsigned long *col)
{
	if (!d->nl_built) {
		d->nl_built = true;
		size_t n = 0;
		for (size_t i = 0; i < d->len; i++) n += d->text[i] == '\n';
		d->nl = hv_malloc((n ? n : 1) * sizeof *d->nl);
		if (d->nl)
			for (size_t i = 0; i < d->len; i++)
				if (d->text[i] == '\n') d->nl[d->nnl++] = i;
	}
	if (!d->nl) {
		ovni_linecol(d->text, d->len, off, line, col);
		return;
	}
	/* number of newlines before off */
	size_t lo = 0, hi = d->nnl;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->nl[mid] < off) lo = mid + 1;
		else hi = mid;
	}
	*line = (unsigned long)lo + 1;
	*col = (unsigned long)(off - (lo ? d->nl[lo - 1] + 1 : 0)) + 1;
}
