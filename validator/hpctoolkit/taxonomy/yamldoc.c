/* YAML document graph from libyaml events (see yamldoc.h). */
#include "yamldoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/alloc.h"
#include "core/hv_int.h"

#define YD_MAX_POOL (64u << 20)

typedef struct anchor_tab {
	uint32_t *name; /* pool offsets, 0: empty slot */
	uint32_t *node;
	uint32_t cap, n;
} anchor_tab;

typedef struct frame {
	uint32_t node, base;
} frame;

typedef struct builder {
	yd_doc *d;
	anchor_tab a;
	frame *st;
	uint32_t nst, st_cap;
	uint32_t *pend;
	uint32_t npend, pend_cap;
	uint32_t events;
	int docs;
} builder;

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;
	while (*s) h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/* Room for `need` elements in the array at *p (p: the array pointer's
 * address). Counts and capacities are uint32_t here: the capacity stops at
 * UINT32_MAX (the node budget keeps them far below). */
static bool grow(void *p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap) return true; /* a node at a time: the call only to grow */
	size_t c = *cap;
	if (!hv_grow_array_upto(p, &c, need, elem, 64, UINT32_MAX)) return false;
	*cap = (uint32_t)c;
	return true;
}

static uint32_t pool_add(yd_doc *d, const char *s, size_t len)
{
	if (len > YD_MAX_POOL || d->pool_len + len + 1 > YD_MAX_POOL) {
		d->too_big = true;
		return 0;
	}
	if (!HV_GROW(d->pool, d->pool_cap, d->pool_len + len + 1, 4096)) {
		d->oom = true;
		return 0;
	}
	uint32_t off = (uint32_t)d->pool_len;
	if (len) memcpy(d->pool + off, s, len);
	d->pool[off + len] = '\0';
	d->pool_len += len + 1;
	return off;
}

static bool anchor_put(builder *bd, const char *name, uint32_t node)
{
	anchor_tab *a = &bd->a;
	if ((a->n + 1) * 2 > a->cap) {
		/* a hash table rebuilt, not an array grown; a uint32_t: anchors
		 * are nodes, at most YD_MAX_NODES */
		uint32_t nc = a->cap ? a->cap * 2 : 64;
		uint32_t *nn = hv_calloc(nc, sizeof *nn), *nv = hv_calloc(nc, sizeof *nv);
		if (!nn || !nv) {
			free(nn);
			free(nv);
			return false;
		}
		for (uint32_t i = 0; i < a->cap; i++) {
			if (!a->name[i]) continue;
			uint32_t h = hash_str(bd->d->pool + a->name[i]) & (nc - 1);
			while (nn[h]) h = (h + 1) & (nc - 1);
			nn[h] = a->name[i];
			nv[h] = a->node[i];
		}
		free(a->name);
		free(a->node);
		a->name = nn;
		a->node = nv;
		a->cap = nc;
	}
	uint32_t h = hash_str(name) & (a->cap - 1);
	while (a->name[h]) {
		if (strcmp(bd->d->pool + a->name[h], name) == 0) {
			a->node[h] = node; /* a later anchor of the same name takes over */
			return true;
		}
		h = (h + 1) & (a->cap - 1);
	}
	uint32_t off = pool_add(bd->d, name, strlen(name));
	if (!off) return false;
	a->name[h] = off;
	a->node[h] = node;
	a->n++;
	return true;
}

static uint32_t anchor_get(const builder *bd, const char *name)
{
	const anchor_tab *a = &bd->a;
	if (!a->cap) return YD_NONE;
	uint32_t h = hash_str(name) & (a->cap - 1);
	while (a->name[h]) {
		if (strcmp(bd->d->pool + a->name[h], name) == 0) return a->node[h];
		h = (h + 1) & (a->cap - 1);
	}
	return YD_NONE;
}

static uint32_t new_node(builder *bd, int kind, const yaml_event_t *ev, const yaml_char_t *tag)
{
	yd_doc *d = bd->d;
	if (d->n >= YD_MAX_NODES) {
		d->too_big = true;
		return YD_NONE;
	}
	if (!grow(&d->node, &d->cap, d->n + 1, sizeof *d->node)) {
		d->oom = true;
		return YD_NONE;
	}
	uint32_t i = d->n++;
	yd_node *x = &d->node[i];
	memset(x, 0, sizeof *x);
	x->kind = (uint8_t)kind;
	x->first = 0;
	x->line = (uint32_t)(ev->start_mark.line + 1);
	x->col = (uint32_t)(ev->start_mark.column + 1);
	x->off = ev->start_mark.index;
	x->expanded = 1;
	if (tag) x->tag = pool_add(d, (const char *)tag, strlen((const char *)tag));
	return i;
}

/* Hand node `i` to the node under construction (or make it the root). */
static bool attach(builder *bd, uint32_t i)
{
	if (bd->nst == 0) {
		if (bd->d->root == YD_NONE) bd->d->root = i;
		return true;
	}
	if (!grow(&bd->pend, &bd->pend_cap, bd->npend + 1, sizeof *bd->pend)) return false;
	bd->pend[bd->npend++] = i;
	return true;
}

static bool close_node(builder *bd)
{
	yd_doc *d = bd->d;
	frame f = bd->st[--bd->nst];
	uint32_t k = bd->npend - f.base;
	if (!grow(&d->edge, &d->edge_cap, d->nedge + k, sizeof *d->edge)) return false;
	yd_node *x = &d->node[f.node];
	x->first = d->nedge;
	x->n = k;
	uint64_t e = 1;
	for (uint32_t j = 0; j < k; j++) {
		uint32_t c = bd->pend[f.base + j];
		d->edge[d->nedge++] = c;
		e = hv_add_sat(e, d->node[c].expanded);
	}
	x->expanded = e;
	x->open = 0;
	bd->npend = f.base;
	return attach(bd, f.node);
}

static void syntax_error(yd_doc *d, const yaml_parser_t *p)
{
	d->syntax = true;
	const yaml_mark_t *m = p->problem ? &p->problem_mark : &p->context_mark;
	d->syntax_line = (uint32_t)(m->line + 1);
	d->syntax_col = (uint32_t)(m->column + 1);
	d->syntax_off = m->index;
	snprintf(d->syntax_msg, sizeof d->syntax_msg, "%s%s%s", p->problem ? p->problem : "parse error",
		 p->context ? " " : "", p->context ? p->context : "");
}

int yd_read_blob(void *data, unsigned char *buf, size_t size, size_t *got)
{
	yd_blob_input *in = data;
	uint64_t left = in->b->size - in->off;
	size_t n = left < size ? (size_t)left : size;
	if (n && !hv_blob_read(in->b, in->off, buf, n)) return 0;
	in->off += n;
	*got = n;
	return 1;
}

/* A node past the nesting bound (yamldoc.h): the build stops there. */
static bool too_deep(builder *bd, const yaml_event_t *ev)
{
	yd_doc *d = bd->d;
	d->deep_level = bd->nst + 1;
	d->too_deep = true;
	d->deep_off = ev->start_mark.index;
	d->deep_line = (uint32_t)(ev->start_mark.line + 1);
	d->deep_col = (uint32_t)(ev->start_mark.column + 1);
	return false;
}

static bool on_event(builder *bd, yaml_event_t *ev)
{
	yd_doc *d = bd->d;
	if (++bd->events > 2 * YD_MAX_NODES) {
		d->too_big = true;
		return false;
	}
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++bd->docs > 1) {
			d->extra_doc = true;
			d->extra_off = ev->start_mark.index;
			d->extra_line = (uint32_t)(ev->start_mark.line + 1);
			return false;
		}
		return true;
	case YAML_SCALAR_EVENT: {
		if (bd->nst >= YD_MAX_DEPTH) return too_deep(bd, ev);
		uint32_t i = new_node(bd, YD_SCALAR, ev, ev->data.scalar.tag);
		if (i == YD_NONE) return false;
		yd_node *x = &d->node[i];
		x->style = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? YD_PLAIN : YD_QUOTED;
		x->val = pool_add(d, (const char *)ev->data.scalar.value, ev->data.scalar.length);
		x->len = (uint32_t)ev->data.scalar.length;
		if (d->too_big || d->oom) return false;
		if (ev->data.scalar.anchor && !anchor_put(bd, (const char *)ev->data.scalar.anchor, i)) return false;
		return attach(bd, i);
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
		yaml_char_t *tag = seq ? ev->data.sequence_start.tag : ev->data.mapping_start.tag;
		yaml_char_t *anchor = seq ? ev->data.sequence_start.anchor : ev->data.mapping_start.anchor;
		if (bd->nst >= YD_MAX_DEPTH) return too_deep(bd, ev);
		uint32_t i = new_node(bd, seq ? YD_SEQ : YD_MAP, ev, tag);
		if (i == YD_NONE || d->too_big) return false;
		d->node[i].open = 1;
		if (anchor && !anchor_put(bd, (const char *)anchor, i)) return false;
		if (!grow(&bd->st, &bd->st_cap, bd->nst + 1, sizeof *bd->st)) return false;
		bd->st[bd->nst++] = (frame){i, bd->npend};
		return true;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return bd->nst > 0 && close_node(bd);
	case YAML_ALIAS_EVENT: {
		const char *name = (const char *)ev->data.alias.anchor;
		uint32_t t = anchor_get(bd, name);
		if (t == YD_NONE || d->node[t].open) {
			if (!d->bad_alias++) {
				snprintf(d->bad_alias_name, sizeof d->bad_alias_name, "%s", name);
				d->bad_alias_recursive = t != YD_NONE;
				d->bad_alias_off = ev->start_mark.index;
				d->bad_alias_line = (uint32_t)(ev->start_mark.line + 1);
				d->bad_alias_col = (uint32_t)(ev->start_mark.column + 1);
			}
			/* a null in its place keeps the structure */
			t = new_node(bd, YD_SCALAR, ev, NULL);
			if (t == YD_NONE) return false;
			d->node[t].val = 0;
			d->node[t].input = YD_UNRESOLVED;
		}
		if (d->node[t].kind != YD_SCALAR) d->collection_aliases++;
		return attach(bd, t);
	}
	default:
		return true;
	}
}

static void index_chars(yd_doc *d, hv_blob *b);

void yd_build(yd_doc *d, hv_blob *b)
{
	memset(d, 0, sizeof *d);
	d->root = YD_NONE;
	builder bd = {.d = d};
	pool_add(d, "", 0); /* offset 0: the empty string */
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		d->oom = true;
		return;
	}
	yd_blob_input rd = {b, 0};
	if (b->mem)
		yaml_parser_set_input_string(&p, b->mem, (size_t)b->size);
	else
		yaml_parser_set_input(&p, yd_read_blob, &rd);
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			if (p.error == YAML_MEMORY_ERROR) d->oom = true;
			else if (!b->io_failed) syntax_error(d, &p);
			break;
		}
		bool more = ev.type != YAML_STREAM_END_EVENT && on_event(&bd, &ev);
		yaml_event_delete(&ev);
		if (!more) break;
	}
	yaml_parser_delete(&p);
	d->blob = b;
	index_chars(d, b);
	if (!d->too_big && !d->too_deep && !d->extra_doc && !d->syntax && (bd.nst || bd.npend)) d->oom = true;
	free(bd.a.name);
	free(bd.a.node);
	free(bd.st);
	free(bd.pend);
}

/* The encoding libyaml reads (yaml_parser_determine_encoding): UTF-16 after
 * its byte order mark, UTF-8 otherwise. A leading byte order mark is skipped
 * by libyaml's reader and not counted in its marks; one anywhere else is a
 * character like any other. */
static void find_encoding(yd_doc *d, hv_blob *b)
{
	uint8_t h[3] = {0, 0, 0};
	size_t n = b->size < 3 ? (size_t)b->size : 3;
	if (b->mem) memcpy(h, b->mem, n);
	else if (n && !hv_blob_read(b, 0, h, n)) n = 0;
	d->enc = YD_ENC_UTF8;
	d->bom = 0;
	if (n >= 2 && h[0] == 0xff && h[1] == 0xfe) d->enc = YD_ENC_UTF16LE, d->bom = 2;
	else if (n >= 2 && h[0] == 0xfe && h[1] == 0xff) d->enc = YD_ENC_UTF16BE, d->bom = 2;
	else if (n == 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf) d->bom = 3;
}

/* Whether the byte at p (of the code unit at an even distance from the
 * byte order mark) starts a character: in UTF-8 any byte but 10xxxxxx, in
 * UTF-16 any unit but a low surrogate (the second half of a pair). */
static bool starts_char(const yd_doc *d, const uint8_t *p, size_t i)
{
	if (d->enc == YD_ENC_UTF8) return (p[i] & 0xc0) != 0x80;
	uint8_t hi = d->enc == YD_ENC_UTF16LE ? p[i + 1] : p[i];
	return (hi & 0xfc) != 0xdc;
}

/* One pass over the bytes after the byte order mark: the byte offset of
 * every YD_OFF_STEP-th character. Nothing is kept for an ASCII UTF-8 file
 * (the offset is the index, plus the mark's 3 bytes if any). */
static void index_chars(yd_doc *d, hv_blob *b)
{
	uint8_t buf[65536];
	uint64_t chars = 0;
	size_t cap = 0;
	find_encoding(d, b);
	bool ascii = d->enc == YD_ENC_UTF8;
	size_t unit = d->enc == YD_ENC_UTF8 ? 1 : 2;
	/* a trailing odd byte of UTF-16 is no character (libyaml: an error) */
	uint64_t size = unit == 2 ? b->size - ((b->size - d->bom) & 1) : b->size;
	for (uint64_t off = d->bom; off < size;) {
		size_t n = size - off < sizeof buf ? (size_t)(size - off) : sizeof buf;
		const uint8_t *p = b->mem ? b->mem + off : buf;
		if (!b->mem && !hv_blob_read(b, off, buf, n)) break;
		for (size_t i = 0; i < n; i += unit) {
			if (p[i] >= 0x80) ascii = false;
			if (!starts_char(d, p, i)) continue;
			if (chars % YD_OFF_STEP == 0) {
				if (!HV_GROW(d->char_at, cap, d->nchar_at + 1, 64)) {
					free(d->char_at);
					d->char_at = NULL;
					d->nchar_at = 0;
					return;
				}
				d->char_at[d->nchar_at++] = off + i;
			}
			chars++;
		}
		off += n;
	}
	if (ascii) {
		free(d->char_at);
		d->char_at = NULL;
		d->nchar_at = 0;
	}
}

uint64_t yd_byte_offset(const yd_doc *d, uint64_t idx)
{
	if (!d->blob) return idx;
	if (!d->char_at) return d->enc == YD_ENC_UTF8 ? idx + d->bom : d->bom;
	uint64_t k = idx / YD_OFF_STEP;
	if (k >= d->nchar_at) k = d->nchar_at - 1;
	uint64_t off = d->char_at[k], left = idx - k * YD_OFF_STEP;
	uint8_t buf[4 * YD_OFF_STEP + 4];
	hv_blob *b = d->blob;
	size_t unit = d->enc == YD_ENC_UTF8 ? 1 : 2;
	size_t n = b->size - off < sizeof buf ? (size_t)(b->size - off) : sizeof buf;
	if (unit == 2) n &= ~(size_t)1;
	const uint8_t *p = b->mem ? b->mem + off : buf;
	if (!b->mem && !hv_blob_read(b, off, buf, n)) return off;
	size_t i = 0;
	for (; i < n; i += unit) {
		if (!starts_char(d, p, i)) continue;
		if (left-- == 0) break;
	}
	return off + i;
}

uint64_t yd_byte_len(const yd_doc *d, uint64_t idx, const char *utf8, uint64_t n)
{
	if (d->enc == YD_ENC_UTF8 || !d->blob) return n;
	uint64_t chars = n;
	if (utf8) {
		chars = 0;
		for (uint64_t i = 0; i < n; i++) chars += ((uint8_t)utf8[i] & 0xc0) != 0x80;
	}
	return yd_byte_offset(d, idx + chars) - yd_byte_offset(d, idx);
}

void yd_free(yd_doc *d)
{
	free(d->char_at);
	free(d->node);
	free(d->edge);
	free(d->pool);
	memset(d, 0, sizeof *d);
	d->root = YD_NONE;
}

bool yd_is(const yd_doc *d, uint32_t n, const char *s)
{
	const yd_node *x = yd_at(d, n);
	return x && x->kind == YD_SCALAR && strlen(s) == x->len && memcmp(d->pool + x->val, s, x->len) == 0;
}

static bool is_int(const char *s)
{
	if (*s == '-' || *s == '+') s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'o') && s[2]) {
		bool hex = s[1] == 'x';
		for (s += 2; *s; s++)
			if (!(hex ? strchr("0123456789abcdefABCDEF", *s) : strchr("01234567", *s))) return false;
		return true;
	}
	if (!*s) return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9') return false;
	return true;
}

static bool is_float(const char *s)
{
	if (*s == '-' || *s == '+') s++;
	if (!strcmp(s, ".inf") || !strcmp(s, ".Inf") || !strcmp(s, ".INF")) return true;
	if (!strcmp(s, ".nan") || !strcmp(s, ".NaN") || !strcmp(s, ".NAN")) return true;
	int digits = 0;
	while (*s >= '0' && *s <= '9') s++, digits++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') s++, digits++;
	}
	if (!digits) return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+') s++;
		if (*s < '0' || *s > '9') return false;
		while (*s >= '0' && *s <= '9') s++;
	}
	return *s == '\0';
}

int yd_type(const yd_doc *d, uint32_t n)
{
	const yd_node *x = yd_at(d, n);
	if (!x) return YD_T_NULL;
	if (x->kind == YD_SEQ) return YD_T_SEQ;
	if (x->kind == YD_MAP) return YD_T_MAP;
	const char *v = d->pool + x->val;
	if (x->tag) {
		const char *t = d->pool + x->tag;
		static const struct {
			const char *tag;
			int type;
		} known[] = {{"tag:yaml.org,2002:str", YD_T_STR},   {"tag:yaml.org,2002:int", YD_T_INT},
			     {"tag:yaml.org,2002:float", YD_T_FLOAT}, {"tag:yaml.org,2002:bool", YD_T_BOOL},
			     {"tag:yaml.org,2002:null", YD_T_NULL}};
		for (size_t i = 0; i < sizeof known / sizeof *known; i++)
			if (!strcmp(t, known[i].tag)) return known[i].type;
		if (!strcmp(t, "!")) return YD_T_STR;
	}
	if (x->style == YD_QUOTED) return YD_T_STR;
	if (!*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL")) return YD_T_NULL;
	static const char *const bools[] = {"true", "True", "TRUE", "false", "False", "FALSE"};
	for (size_t i = 0; i < 6; i++)
		if (!strcmp(v, bools[i])) return YD_T_BOOL;
	if (is_int(v)) return YD_T_INT;
	if (is_float(v)) return YD_T_FLOAT;
	return YD_T_STR;
}

static bool is_merge_key(const yd_doc *d, uint32_t k)
{
	const yd_node *x = yd_at(d, k);
	return x && x->kind == YD_SCALAR && x->style == YD_PLAIN && yd_is(d, k, "<<");
}

/* The maps to search after m's own keys, in order: <<'s value, a map or a
 * sequence of maps. */
typedef struct mstack {
	uint32_t v[64];
	int n;
	bool overflow;
} mstack;

static void push_sources(const yd_doc *d, uint32_t m, mstack *s)
{
	const yd_node *x = &d->node[m];
	uint32_t src[64];
	int ns = 0;
	for (uint32_t i = 0; i + 1 < x->n; i += 2) {
		uint32_t k = d->edge[x->first + i], v = d->edge[x->first + i + 1];
		if (!is_merge_key(d, k)) continue;
		const yd_node *vx = &d->node[v];
		if (vx->kind == YD_MAP) {
			if (ns < 64) src[ns++] = v;
			else s->overflow = true;
		} else if (vx->kind == YD_SEQ) {
			for (uint32_t j = 0; j < vx->n; j++) {
				uint32_t e = d->edge[vx->first + j];
				if (d->node[e].kind != YD_MAP) continue;
				if (ns < 64) src[ns++] = e;
				else s->overflow = true;
			}
		}
	}
	for (int i = ns - 1; i >= 0; i--) {
		if (s->n < 64) s->v[s->n++] = src[i];
		else s->overflow = true;
	}
}

uint32_t yd_get(yd_doc *d, uint32_t m, const char *k)
{
	if (!yd_at(d, m) || d->node[m].kind != YD_MAP) return YD_NONE;
	mstack s = {.n = 0};
	s.v[s.n++] = m;
	uint32_t steps = 0;
	while (s.n > 0) {
		const yd_node *x = &d->node[s.v[--s.n]];
		bool merges = false;
		for (uint32_t i = 0; i + 1 < x->n; i += 2) {
			uint32_t key = d->edge[x->first + i];
			if (++steps > YD_MERGE_STEPS) {
				d->merge_overflow = true;
				return YD_NONE;
			}
			if (is_merge_key(d, key)) merges = true;
			else if (yd_is(d, key, k)) return d->edge[x->first + i + 1];
		}
		if (merges) push_sources(d, (uint32_t)(x - d->node), &s);
	}
	d->merge_steps += steps;
	if (s.overflow) d->merge_overflow = true;
	return YD_NONE;
}

bool yd_pairs(yd_doc *d, uint32_t m, uint32_t **keys, uint32_t **vals, uint32_t *n)
{
	*keys = *vals = NULL;
	*n = 0;
	if (!yd_at(d, m) || d->node[m].kind != YD_MAP) return true;
	uint32_t cap = 0, cap2 = 0;
	mstack s = {.n = 0};
	s.v[s.n++] = m;
	uint32_t steps = 0, own = 0;
	bool first = true;
	while (s.n > 0) {
		const yd_node *x = &d->node[s.v[--s.n]];
		bool merges = false;
		for (uint32_t i = 0; i + 1 < x->n; i += 2) {
			uint32_t key = d->edge[x->first + i];
			if (!first && ++steps > YD_MERGE_STEPS) {
				d->merge_overflow = true;
				return true;
			}
			if (is_merge_key(d, key)) {
				merges = true;
				continue;
			}
			bool dup = false;
			/* a merged key already given (by m or an earlier source) is hidden */
			if (!first && *n <= YD_MERGE_STEPS && d->node[key].kind == YD_SCALAR)
				for (uint32_t j = 0; j < *n && !dup; j++)
					dup = d->node[(*keys)[j]].kind == YD_SCALAR && yd_is(d, (*keys)[j], yd_str(d, &d->node[key]));
			if (dup) continue;
			if (!grow(keys, &cap, *n + 1, sizeof **keys) ||
			    !grow(vals, &cap2, *n + 1, sizeof **vals)) {
				free(*keys);
				free(*vals);
				*keys = *vals = NULL;
				*n = 0;
				return false;
			}
			(*keys)[*n] = key;
			(*vals)[*n] = d->edge[x->first + i + 1];
			++*n;
		}
		if (first) own = *n;
		first = false;
		if (merges) push_sources(d, (uint32_t)(x - d->node), &s);
	}
	(void)own;
	if (s.overflow) d->merge_overflow = true;
	return true;
}
