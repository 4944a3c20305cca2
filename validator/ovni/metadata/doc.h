/* Shared state of one metadata document check (meta.c, keys.c). */
#ifndef HV_OVNI_JSON_DOC_H
#define HV_OVNI_JSON_DOC_H

#include <cjson/cJSON.h>

#include "scan.h"
#include "ovni/ovni.h"

typedef struct jctx {
	hv_blob *b;
	hv_report *r;
	ovni_jdoc doc;
	const char *base;     /* "stream.json", "metadata.json", ... for structural paths */
	ovni_doc_kind kind;
	ovni_meta *m;
} jctx;

/* Emit `rule` at the JSON path `jpath` (the key's position, else the
 * nearest enclosing one), with "line L, column C: " before the message. */
void jemit(jctx *c, int rule, enum hv_sev sev, const char *jpath, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Read an integer-valued number; warns (ovni.json.non-integer) when it has
 * a fraction or is outside the int range, and returns the value truncated
 * as ovniemu does. False when `item` is not a number. */
bool jint(jctx *c, const cJSON *item, const char *jpath, int64_t *v);

/* Per-key rules of the "ovni" object (v3 stream.json, v2 thread.TID.json)
 * and of v1/v2 metadata.json. */
void ovni_json_check_stream(jctx *c, const cJSON *root);
void ovni_json_check_proc(jctx *c, const cJSON *root);
/* `ovni.loom_cpus` / `cpus` arrays into c->m->cpus. */
void ovni_json_check_cpus(jctx *c, const cJSON *arr, const char *jpath);
/* `ovni.mark` types and labels into c->m->marks. */
void ovni_json_check_mark(jctx *c, const cJSON *mark);

#endif
