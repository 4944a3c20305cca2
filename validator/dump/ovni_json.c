/* ovni metadata documents (stream.json, metadata.json, thread.TID.json):
 * every object member and array element, in document order, with its JSON
 * path, its byte offset (a member's key token, an element's first byte, as
 * the validator's diagnostics point), its type and its value (scalars) or
 * its count (objects and arrays). cJSON gives the values, the validator's
 * position scanner (ovni/metadata/scan.h) the offsets: both see the same text,
 * comments blanked, and list the same values in the same order, so the
 * n-th value of one is the n-th of the other; a member whose key is not
 * at that position as written (a key with escapes) gets its parent's offset.
 * The walk is iterative over an explicit stack: the depth comes from the
 * file (cJSON refuses more than its nesting limit). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "core/validate.h"
#include "ovni/metadata/scan.h"
#include "dumpers.h"

/* As the validator: a bigger document is not metadata and is not read. */
#define DOC_MAX (16u * 1024u * 1024u)
#define STACK_MAX 1100u /* above cJSON's nesting limit (1000) */
#define JPATH_MAX 480u

typedef struct jframe {
	const cJSON *node;   /* the next child to visit */
	size_t plen;         /* the container's path length */
	uint64_t off, len;   /* the container's position */
	uint64_t index;      /* the next element's index (arrays) */
	bool is_array;
} jframe;

static const char *type_of(const cJSON *v)
{
	if (cJSON_IsObject(v)) return "object";
	if (cJSON_IsArray(v)) return "array";
	if (cJSON_IsString(v)) return "string";
	if (cJSON_IsNumber(v)) return "number";
	if (cJSON_IsBool(v)) return "bool";
	return "null";
}

static void value(hv_dump_out *w, const cJSON *v)
{
	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		uint64_t n = 0;
		for (const cJSON *c = v->child; c; c = c->next) n++;
		dw_u64(w, "count", n);
	} else if (cJSON_IsString(v)) {
		size_t len = v->valuestring ? strlen(v->valuestring) : 0;
		dw_strn(w, "value", (const uint8_t *)(v->valuestring ? v->valuestring : ""),
			len > HV_DUMP_STR_MAX ? HV_DUMP_STR_MAX : len);
		if (len > HV_DUMP_STR_MAX) dw_u64(w, "value_length", len);
	} else if (cJSON_IsNumber(v)) {
		double x = v->valuedouble;
		if (x == floor(x) && fabs(x) < 9007199254740992.0) dw_i64(w, "value", (int64_t)x);
		else dw_f64(w, "value", x);
	} else if (cJSON_IsBool(v)) {
		dw_bool(w, "value", cJSON_IsTrue(v));
	} else {
		dw_null(w, "value");
	}
}

/* Append `s` (n bytes) to the path; a path past JPATH_MAX ends in "...". */
static size_t path_add(char *p, size_t len, const char *s, size_t n)
{
	if (len >= JPATH_MAX) return len;
	if (n > JPATH_MAX - len) {
		memcpy(p + len, s, JPATH_MAX - len);
		memcpy(p + JPATH_MAX - 3, "...", 3);
		p[JPATH_MAX] = '\0';
		return JPATH_MAX;
	}
	memcpy(p + len, s, n);
	p[len + n] = '\0';
	return len + n;
}

/* Whether the scanner's position `at` is this value's: a member's key
 * token holds its key, an element's position is one byte. Checked on the
 * document's bytes (O(key length)), not on the scanner's path strings,
 * whose length grows with the depth. */
static bool same_pos(const ovni_jdoc *doc, size_t at, bool element, const char *key, size_t n)
{
	uint64_t off = doc->pos[at].off;
	if (element) return doc->pos[at].len == 1;
	return off < doc->len && doc->len - off >= n + 2 && doc->clean[off] == '"' &&
	       memcmp(doc->clean + off + 1, key, n) == 0 && doc->clean[off + 1 + n] == '"';
}

static void walk(hv_dump_ctx *d, const cJSON *root, const ovni_jdoc *doc, const char *base)
{
	hv_dump_out *w = d->w;
	jframe *st = hv_malloc(STACK_MAX * sizeof *st);
	char *path = hv_malloc(JPATH_MAX + 1);
	if (!st || !path) {
		hv_dump_stop(d, 0, "out of memory");
		free(st);
		free(path);
		return;
	}
	path[0] = '\0';
	size_t depth = 0, plen = 0, at = 0; /* `at`: the scanner's next position */
	uint64_t index = 0;                  /* values in document order */
	st[depth++] = (jframe){root->child, 0, 0, d->b->size, 0, cJSON_IsArray(root)};
	while (depth > 0 && !dw_full(w)) {
		jframe *f = &st[depth - 1];
		const cJSON *v = f->node;
		if (!v) {
			depth--;
			continue;
		}
		f->node = v->next;
		/* this value's path and position */
		char comp[48];
		const char *c = comp;
		size_t cn;
		plen = f->plen;
		path[plen] = '\0';
		if (f->is_array) {
			cn = (size_t)snprintf(comp, sizeof comp, "[%llu]", (unsigned long long)f->index++);
		} else {
			if (plen) plen = path_add(path, plen, ".", 1);
			c = v->string ? v->string : "";
			cn = strlen(c);
		}
		plen = path_add(path, plen, c, cn);
		uint64_t off = f->off, len = f->len ? 1 : 0;
		if (at < doc->npos) {
			if (same_pos(doc, at, f->is_array, c, cn)) off = doc->pos[at].off, len = doc->pos[at].len;
			at++;
		}
		if (hv_dump_in_range(d, index)) {
			char ipath[JPATH_MAX + 64];
			snprintf(ipath, sizeof ipath, "%s/%s", base, path);
			dw_item_begin(w, f->is_array ? "json-element" : "json-member", ipath, off, len);
			dw_u64(w, "index", index);
			dw_str(w, "type", type_of(v));
			value(w, v);
			dw_item_end(w);
		}
		index++;
		if ((cJSON_IsObject(v) || cJSON_IsArray(v)) && v->child) {
			if (depth == STACK_MAX) {
				hv_dump_stop(d, off, "nested deeper than the dump follows");
				break;
			}
			st[depth++] = (jframe){v->child, plen, off, len, 0, cJSON_IsArray(v)};
		}
	}
	free(st);
	free(path);
}

void hv_dump_ovni_json(hv_dump_ctx *d)
{
	hv_blob *b = d->b;
	const char *base = hv_basename(b->name ? b->name : "");
	if (!*base) base = "document.json";
	if (b->size > DOC_MAX) {
		hv_dump_stop(d, 0, "larger than 16 MiB: not a metadata document (ovni.json.syntax), not read");
		return;
	}
	if (!hv_blob_materialize(b)) {
		hv_dump_stop(d, 0, "the document could not be read into memory");
		return;
	}
	ovni_jdoc doc;
	if (!ovni_jdoc_init(&doc, b->mem, (size_t)b->size)) {
		hv_dump_stop(d, 0, "out of memory");
		return;
	}
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(doc.clean, doc.len, &end, false);
	if (!root) {
		uint64_t stop = end && end >= doc.clean ? (uint64_t)(end - doc.clean) : 0;
		hv_dump_stop(d, stop, "not valid JSON from here on (ovni.json.syntax): no values to show");
		ovni_jdoc_free(&doc);
		return;
	}
	ovni_jdoc_scan(&doc);
	dw_item_begin(d->w, "json-document", base, 0, b->size);
	dw_str(d->w, "type", type_of(root));
	value(d->w, root);
	if (doc.has_comment) dw_u64(d->w, "comment_at", doc.comment_off);
	dw_item_end(d->w);
	if (cJSON_IsObject(root) || cJSON_IsArray(root)) walk(d, root, &doc, base);
	cJSON_Delete(root);
	ovni_jdoc_free(&doc);
}
