/* "ovni.mark": the mark types a thread declares for OM[ OM] OM= events
 * (libovni ovni_mark_type / ovni_mark_label). Each key is a type number in
 * [0, 100) mapping to {title, chan_type "single"|"stack", optional labels
 * {"<int64 value>": "label"}}. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "doc.h"

/* A whole decimal integer string, as ovniemu's strtoll/strtol checks. */
static bool parse_dec(const char *s, int64_t *v)
{
	if (!s || !*s) return false;
	errno = 0;
	char *end;
	long long x = strtoll(s, &end, 10);
	if (errno || *end || end == s) return false;
	*v = x;
	return true;
}

static uint32_t hash_text(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static bool push(jctx *c, size_t *cap, ovni_mark m)
{
	ovni_meta *meta = c->m;
	if (!HV_GROW(meta->marks, *cap, meta->nmarks + 1, 8)) return false;
	meta->marks[meta->nmarks++] = m;
	return true;
}

static void set_text(ovni_mark *m, const char *s)
{
	snprintf(m->text, sizeof m->text, "%s", s);
	m->text_len = strlen(s);
	m->text_hash = hash_text(s);
}

static void bad(jctx *c, const char *jpath, const char *why, const char *what)
{
	hv_eval(c->r, HV_R_OVNI_JSON_MARK, false);
	jemit(c, HV_R_OVNI_JSON_MARK, HV_SEV_ERROR, jpath, "%s: %s%.60s", jpath, why, what ? what : "");
}

/* Positions are searched forward from a cursor (members come in document
 * order), so a document with many labels stays linear; after a miss the
 * remaining entries point at offset 0. */
typedef struct cursor {
	size_t from;
	bool ok;
} cursor;

static uint64_t pos(jctx *c, cursor *k, const char *jpath)
{
	uint64_t off = 0;
	if (k->ok) k->ok = ovni_jdoc_find_next(&c->doc, jpath, &k->from, &off);
	return off;
}

static void check_labels(jctx *c, const cJSON *labels, int64_t type, const char *jbase, size_t *cap, cursor *k)
{
	char jp[HV_PATH_MAX + 16];
	snprintf(jp, sizeof jp, "%s.labels", jbase);
	if (!cJSON_IsObject(labels)) {
		bad(c, jp, "labels must be an object of \"<value>\": \"label\"", NULL);
		return;
	}
	for (const cJSON *l = labels->child; l; l = l->next) {
		char jl[HV_PATH_MAX + 48];
		snprintf(jl, sizeof jl, "%s.%.40s", jp, l->string ? l->string : "");
		int64_t v;
		if (!parse_dec(l->string, &v)) {
			bad(c, jl, "label key is not a decimal integer: ", l->string);
			continue;
		}
		if (!cJSON_IsString(l)) {
			bad(c, jl, "label is not a string", NULL);
			continue;
		}
		ovni_mark m = {.type = type, .value = v, .is_label = true, .off = pos(c, k, jl), .file = c->b->name};
		set_text(&m, l->valuestring);
		if (!push(c, cap, m)) return;
	}
}

void ovni_json_check_mark(jctx *c, const cJSON *mark)
{
	size_t cap = 0;
	cursor k = {0, true};
	hv_eval(c->r, HV_R_OVNI_JSON_MARK, true);
	if (!cJSON_IsObject(mark)) {
		bad(c, "ovni.mark", "must be an object of mark type -> {title, chan_type, labels}", NULL);
		return;
	}
	for (const cJSON *t = mark->child; t; t = t->next) {
		char jp[HV_PATH_MAX];
		snprintf(jp, sizeof jp, "ovni.mark.%.40s", t->string ? t->string : "");
		int64_t type;
		if (!parse_dec(t->string, &type) || type < 0 || type >= OVNI_MARK_TYPES) {
			bad(c, jp, "the mark type must be a decimal number in [0, 100), not ", t->string);
			continue;
		}
		const cJSON *title = cJSON_GetObjectItemCaseSensitive(t, "title");
		const cJSON *ct = cJSON_GetObjectItemCaseSensitive(t, "chan_type");
		if (!cJSON_IsObject(t)) {
			bad(c, jp, "must be an object with title and chan_type", NULL);
			continue;
		}
		if (!cJSON_IsString(title)) {
			bad(c, jp, "title is missing or not a string", NULL);
			continue;
		}
		bool single = cJSON_IsString(ct) && strcmp(ct->valuestring, "single") == 0;
		bool stack = cJSON_IsString(ct) && strcmp(ct->valuestring, "stack") == 0;
		if (!single && !stack) {
			bad(c, jp, "chan_type must be \"single\" or \"stack\", not ",
			    cJSON_IsString(ct) ? ct->valuestring : "a non-string");
			continue;
		}
		ovni_mark m = {.type = type, .stack = stack, .off = pos(c, &k, jp), .file = c->b->name};
		set_text(&m, title->valuestring);
		if (!push(c, &cap, m)) return;
		const cJSON *labels = cJSON_GetObjectItemCaseSensitive(t, "labels");
		if (labels) check_labels(c, labels, type, jp, &cap, &k);
	}
}
