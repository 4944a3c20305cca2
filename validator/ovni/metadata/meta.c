/* Metadata documents: parsing with cJSON, and the rules about the document
 * as JSON (syntax, duplicate keys, comments, trailing bytes, the root
 * object, the version). The per-key rules are in keys.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "doc.h"

/* Metadata documents are small (libovni writes a few KiB); a larger one is
 * not read into memory. */
#define JSON_MAX_BYTES (16u * 1024u * 1024u)

static void locate(jctx *c, const char *jpath, uint64_t *off, uint64_t *len)
{
	char buf[HV_PATH_MAX];
	snprintf(buf, sizeof buf, "%s", jpath);
	for (;;) {
		if (ovni_jdoc_find(&c->doc, buf, 0, off, len)) return;
		char *cut = strrchr(buf, '.');
		char *br = strrchr(buf, '[');
		if (br && (!cut || br > cut)) cut = br;
		if (!cut) break;
		*cut = '\0';
	}
	*off = 0;
	*len = c->b->size ? 1 : 0;
}

static void emit_at(jctx *c, int rule, enum hv_sev sev, const char *jpath, uint64_t off, uint64_t len,
		    const char *msg)
{
	unsigned long line, col;
	ovni_jdoc_linecol(&c->doc, off, &line, &col);
	char path[HV_PATH_MAX];
	snprintf(path, sizeof path, "%s%s%s", c->base, jpath[0] ? "/" : "", jpath);
	hv_emit_sev(c->r, rule, sev, c->b->name, off, len, path, "line %lu, column %lu: %s", line, col, msg);
}

void jemit(jctx *c, int rule, enum hv_sev sev, const char *jpath, const char *fmt, ...)
{
	char msg[HV_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	uint64_t off = 0, len = 0;
	/* Past the stored-diagnostic limit only the count matters: skip the
	 * position search, so a document with a million bad entries stays linear. */
	if (c->r->ndiags < c->r->max_diags) locate(c, jpath, &off, &len);
	emit_at(c, rule, sev, jpath, off, len, msg);
}

bool jint(jctx *c, const cJSON *item, const char *jpath, int64_t *v)
{
	if (!cJSON_IsNumber(item)) return false;
	double d = item->valuedouble;
	bool ok = isfinite(d) && d == floor(d) && d >= -2147483648.0 && d <= 2147483647.0;
	if (!hv_eval(c->r, HV_R_OVNI_JSON_NON_INTEGER, ok))
		jemit(c, HV_R_OVNI_JSON_NON_INTEGER, HV_SEV_WARNING, jpath,
		      "%s is %.17g, not an integer in the int range; ovniemu truncates it", jpath, d);
	*v = isfinite(d) && d > -9.2e18 && d < 9.2e18 ? (int64_t)d : 0;
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	return strcmp(x ? x : "", y ? y : "");
}

/* Duplicate keys: cJSON keeps every member, so repeated names appear as
 * siblings. Walk the tree with an explicit stack (nesting comes from the
 * file). */
static void check_duplicates(jctx *c, const cJSON *root)
{
	typedef struct item {
		const cJSON *node;
		char *path;
	} item;
	size_t cap = 64, n = 0;
	item *st = hv_malloc(cap * sizeof *st);
	if (!st) return;
	st[n++] = (item){root, hv_strdup("")};
	while (n > 0) {
		item it = st[--n];
		if (!it.path) continue;
		const cJSON *node = it.node;
		size_t nkids = 0;
		for (const cJSON *k = node->child; k; k = k->next) nkids++;
		if (cJSON_IsObject(node) && nkids > 1) {
			const char **names = hv_malloc(nkids * sizeof *names);
			if (names) {
				size_t i = 0;
				for (const cJSON *k = node->child; k; k = k->next) names[i++] = k->string;
				qsort(names, nkids, sizeof *names, cmp_str);
				for (i = 1; i < nkids; i++) {
					if (cmp_str(&names[i - 1], &names[i]) != 0) continue;
					unsigned nth = 1;
					while (i + 1 < nkids && cmp_str(&names[i], &names[i + 1]) == 0) i++, nth++;
					char jp[HV_PATH_MAX];
					snprintf(jp, sizeof jp, "%s%s%s", it.path, it.path[0] ? "." : "",
						 names[i] ? names[i] : "");
					uint64_t off, len;
					off = len = 0;
					if (c->r->ndiags < c->r->max_diags && !ovni_jdoc_find(&c->doc, jp, 1, &off, &len))
						locate(c, jp, &off, &len);
					hv_eval(c->r, HV_R_OVNI_JSON_DUPLICATE_KEY, false);
					char msg[HV_MSG_MAX];
					snprintf(msg, sizeof msg, "key \"%s\" appears %u times in one object; ovniemu refuses the document",
						 names[i] ? names[i] : "", nth + 1);
					emit_at(c, HV_R_OVNI_JSON_DUPLICATE_KEY, HV_SEV_ERROR, jp, off, len, msg);
				}
				free(names);
			}
		}
		size_t idx = 0;
		for (const cJSON *k = node->child; k; k = k->next, idx++) {
			if (!k->child) continue;
			if (!HV_GROW(st, cap, n + 1, 64)) break;
			char *p = NULL;
			size_t plen = strlen(it.path) + (k->string ? strlen(k->string) : 0) + 32;
			p = hv_malloc(plen);
			if (p) {
				if (cJSON_IsObject(node))
					snprintf(p, plen, "%s%s%s", it.path, it.path[0] ? "." : "", k->string ? k->string : "");
				else
					snprintf(p, plen, "%s[%zu]", it.path, idx);
			}
			st[n++] = (item){k, p};
		}
		free(it.path);
	}
	free(st);
}

static int want_version(ovni_doc_kind k) { return k == OVNI_DOC_STREAM3 ? 3 : 2; }

static void check_version(jctx *c, const cJSON *root)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "version");
	int64_t ver = 0;
	bool num = v && jint(c, v, "version", &ver);
	bool ok = num && (ver == want_version(c->kind) || (c->kind == OVNI_DOC_PROC && ver == 1));
	c->m->version = num ? (int)ver : 0;
	if (!hv_eval(c->r, HV_R_OVNI_JSON_VERSION, ok)) {
		const char *want = c->kind == OVNI_DOC_STREAM3 ? "3" : c->kind == OVNI_DOC_PROC ? "1 or 2" : "2";
		if (!v)
			jemit(c, HV_R_OVNI_JSON_VERSION, HV_SEV_ERROR, "", "missing key \"version\" (want %s)", want);
		else if (!num)
			jemit(c, HV_R_OVNI_JSON_VERSION, HV_SEV_ERROR, "version", "\"version\" is not a number (want %s)", want);
		else
			jemit(c, HV_R_OVNI_JSON_VERSION, HV_SEV_ERROR, "version", "metadata version %lld, want %s",
			      (long long)ver, want);
	}
}

static const char *doc_base(const hv_blob *b, ovni_doc_kind kind)
{
	const char *n = hv_basename(b->name ? b->name : "");
	if (*n) return n;
	return kind == OVNI_DOC_STREAM3 ? "stream.json" : kind == OVNI_DOC_PROC ? "metadata.json" : "thread.json";
}

void ovni_check_json(hv_blob *b, hv_report *r, ovni_doc_kind kind, ovni_meta *out)
{
	memset(out, 0, sizeof *out);
	jctx c = {.b = b, .r = r, .base = doc_base(b, kind), .kind = kind, .m = out};
	if (!hv_eval(r, HV_R_OVNI_JSON_SYNTAX, b->size <= JSON_MAX_BYTES)) {
		hv_emit(r, HV_R_OVNI_JSON_SYNTAX, b->name, 0, b->size, c.base,
			"the metadata document has %llu bytes; more than %u is not metadata", (unsigned long long)b->size,
			JSON_MAX_BYTES);
		return;
	}
	if (!hv_blob_materialize(b)) {
		if (!b->io_failed) hv_report_internal(r, "out of memory reading %s", b->name);
		return;
	}
	if (!ovni_jdoc_init(&c.doc, b->mem, (size_t)b->size)) {
		hv_report_internal(r, "out of memory");
		return;
	}
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(c.doc.clean, c.doc.len, &end, false);
	uint64_t stop = end && end >= c.doc.clean ? (uint64_t)(end - c.doc.clean) : 0;
	if (!hv_eval(r, HV_R_OVNI_JSON_SYNTAX, root != NULL)) {
		char msg[HV_MSG_MAX];
		snprintf(msg, sizeof msg, "not valid JSON: parsing stopped at byte 0x%llx%s", (unsigned long long)stop,
			 stop >= c.doc.len ? " (unexpected end of document)" : "");
		emit_at(&c, HV_R_OVNI_JSON_SYNTAX, HV_SEV_ERROR, "", stop, stop < c.doc.len ? 1 : 0, msg);
		ovni_jdoc_free(&c.doc);
		return;
	}
	ovni_jdoc_scan(&c.doc);
	if (!hv_eval(r, HV_R_OVNI_JSON_COMMENT, !c.doc.has_comment))
		emit_at(&c, HV_R_OVNI_JSON_COMMENT, HV_SEV_WARNING, "", c.doc.comment_off, 2,
			"a comment; JSON has none and libovni never writes them");
	uint64_t tail = stop;
	while (tail < c.doc.len && strchr(" \t\r\n", c.doc.clean[tail]) && c.doc.clean[tail]) tail++;
	if (!hv_eval(r, HV_R_OVNI_JSON_TRAILING_GARBAGE, tail >= c.doc.len)) {
		char msg[HV_MSG_MAX];
		snprintf(msg, sizeof msg,
			 "%llu byte(s) after the top-level value; ovniemu ignores them, strict JSON parsers refuse them",
			 (unsigned long long)(c.doc.len - tail));
		emit_at(&c, HV_R_OVNI_JSON_TRAILING_GARBAGE, HV_SEV_WARNING, "", tail, c.doc.len - tail, msg);
	}
	check_duplicates(&c, root);
	if (!hv_eval(r, HV_R_OVNI_JSON_ROOT_OBJECT, cJSON_IsObject(root))) {
		jemit(&c, HV_R_OVNI_JSON_ROOT_OBJECT, HV_SEV_ERROR, "", "the top-level value is not an object");
	} else {
		out->ok = true;
		check_version(&c, root);
		if (kind == OVNI_DOC_PROC) ovni_json_check_proc(&c, root);
		else ovni_json_check_stream(&c, root);
	}
	cJSON_Delete(root);
	ovni_jdoc_free(&c.doc);
}

void ovni_meta_free(ovni_meta *m)
{
	free(m->cpus);
	free(m->marks);
	m->cpus = NULL;
	m->marks = NULL;
	m->ncpus = m->nmarks = 0;
}

static bool names_key(const uint8_t *buf, size_t n, const char *quoted)
{
	size_t k = strlen(quoted);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(buf + i, quoted, k) == 0) return true;
	return false;
}

/* What the first bytes of a JSON object say: a v3 stream.json or a v2
 * thread.TID.json names an "ovni" object; a v1/v2 process metadata.json
 * has none, but libovni writes its "app_id" and "version" first, and a v1
 * one its "model_version" (unique to ovni). -1: not an ovni document. */
static int sniff_kind(hv_blob *b)
{
	uint8_t buf[512];
	size_t n = b->size < sizeof buf ? (size_t)b->size : sizeof buf;
	if (n == 0 || !hv_blob_read(b, 0, buf, n)) return -1;
	size_t i = 0;
	while (i < n && strchr(" \t\r\n", buf[i]) && buf[i]) i++;
	if (i >= n || buf[i] != '{') return -1;
	if (names_key(buf + i, n - i, "\"ovni\"")) return OVNI_DOC_STREAM3;
	if (names_key(buf + i, n - i, "\"model_version\"") ||
	    (names_key(buf + i, n - i, "\"app_id\"") && names_key(buf + i, n - i, "\"version\"")))
		return OVNI_DOC_PROC;
	return -1;
}

bool ovni_json_sniff(hv_blob *b) { return sniff_kind(b) >= 0; }

static void json_check_file(const hv_options *opt, hv_blob *b, hv_report *r)
{
	(void)opt;
	ovni_meta m;
	const char *base = hv_basename(b->name ? b->name : "");
	/* By the standard names, else by content (a metadata.json renamed). */
	ovni_doc_kind k = strcmp(base, "stream.json") == 0     ? OVNI_DOC_STREAM3
			  : strcmp(base, "metadata.json") == 0 ? OVNI_DOC_PROC
			  : strncmp(base, "thread.", 7) == 0   ? OVNI_DOC_THREAD2
			  : sniff_kind(b) == OVNI_DOC_PROC     ? OVNI_DOC_PROC
							       : OVNI_DOC_STREAM3;
	if (k != OVNI_DOC_STREAM3)
		snprintf(r->format, sizeof r->format, "%s", k == OVNI_DOC_PROC ? "ovni metadata.json" : "ovni thread.json");
	ovni_check_json(b, r, k, &m);
	if (m.ok) snprintf(r->version, sizeof r->version, "%d", m.version);
	ovni_meta_free(&m);
}

const hv_format hv_format_ovni_json = {
	.name = "ovni stream.json",
	.file_name = "stream.json",
	.sniff = ovni_json_sniff,
	.check = json_check_file,
};
