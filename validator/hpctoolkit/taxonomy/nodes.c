/* What every part of the taxonomy check shares (taxonomy.h): a node's
 * text, type name and length, structural paths, reporting at a node, and
 * the explicit-stack walk with its step budget, which bounds all walks of
 * one document together. */
#include "taxonomy.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"

#define TX_MAX_STEPS (64ull << 20)

const char *tx_base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

bool hpctk_is_taxonomy_name(const char *path)
{
	if (!path) return false;
	size_t n = strlen(path);
	if (n < 5 || strcmp(path + n - 5, ".yaml") != 0) return false;
	const char *slash = strrchr(path, '/');
	if (!slash) return false;
	size_t dir_end = (size_t)(slash - path);
	const char *dir = path;
	for (size_t i = 0; i < dir_end; i++)
		if (path[i] == '/') dir = path + i + 1;
	return (size_t)(slash - dir) == 7 && strncmp(dir, "metrics", 7) == 0;
}

bool hpctk_is_default_taxonomy(const char *path)
{
	return hpctk_is_taxonomy_name(path) && strcmp(tx_base_name(path), "default.yaml") == 0;
}

void hpctk_note_unread_taxonomy(hv_blob *b, hv_report *r)
{
	const char *file = b->name ? b->name : "metrics/other.yaml";
	hv_eval(r, HV_R_HPCTKDB_TAXONOMY_UNREAD, false);
	hv_emit(r, HV_R_HPCTKDB_TAXONOMY_UNREAD, file, 0, 0, tx_base_name(file),
		"not metrics/default.yaml: hpcviewer 2025.01 and hatchet 1.4.0 open only that file, so this one is "
		"not read, and not checked");
}

/* Paths are shortened silently (vsnprintf: no truncation warnings). */
void tx_pathf(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, cap, fmt, ap);
	va_end(ap);
}

uint64_t tx_node_len(const tx *t, uint32_t n)
{
	const yd_node *x = yd_at(&t->d, n);
	if (!x) return 0;
	if (x->kind == YD_SCALAR && x->len) return yd_byte_len(&t->d, x->off, yd_str(&t->d, x), x->len);
	return yd_byte_len(&t->d, x->off, NULL, 1);
}

/* Past hpcvet's limits (a merge-key chain longer than YD_MERGE_STEPS, the
 * walk's step budget) a look-up stops short and says "absent": what is
 * found after that (an input "without" the metric: its merge chain holds)
 * is no finding of the file. hpctkdb.taxonomy.limit says, alone, that the
 * rest was not checked. */
static bool past_limit(const tx *t) { return t->over || t->d.merge_overflow; }

void tx_emitv(tx *t, int rule, uint32_t n, const char *path, const char *fmt, va_list ap)
{
	if (past_limit(t)) return;
	char msg[768];
	vsnprintf(msg, sizeof msg, fmt, ap);
	const yd_node *x = yd_at(&t->d, n);
	if (x)
		hv_emit(t->r, rule, t->file, yd_byte_offset(&t->d, x->off), tx_node_len(t, n), path, "line %u column %u: %s",
			x->line, x->col, msg);
	else
		hv_emit(t->r, rule, t->file, 0, 0, path, "%s", msg);
}

bool tx_check(tx *t, int rule, bool ok, uint32_t n, const char *path, const char *fmt, ...)
{
	/* neither a pass nor a failure: the caller stops as for a failure */
	if (past_limit(t)) return false;
	if (hv_eval(t->r, rule, ok)) return true;
	va_list ap;
	va_start(ap, fmt);
	tx_emitv(t, rule, n, path, fmt, ap);
	va_end(ap);
	return false;
}

const char *tx_type_name(int ty)
{
	static const char *const names[] = {"null", "boolean", "integer", "float", "string", "sequence", "map"};
	return ty >= 0 && ty <= YD_T_MAP ? names[ty] : "?";
}

/* A scalar's text, shortened for messages. */
const char *tx_text(const tx *t, uint32_t n, char *buf, size_t cap)
{
	const yd_node *x = yd_at(&t->d, n);
	if (!x) return "(absent)";
	if (x->kind != YD_SCALAR) return x->kind == YD_SEQ ? "(a sequence)" : "(a map)";
	snprintf(buf, cap, "'%.*s%s'", x->len > 48 ? 48 : (int)x->len, yd_str(&t->d, x), x->len > 48 ? "..." : "");
	return buf;
}

bool tx_push(tx *t, uint32_t n)
{
	if (t->nstack == t->stack_cap) {
		size_t cap = t->stack_cap; /* a uint32_t: it stops at UINT32_MAX */
		if (!HV_GROW_UPTO(t->stack, cap, (size_t)t->nstack + 1, 256, UINT32_MAX)) return false;
		t->stack_cap = (uint32_t)cap;
	}
	t->stack[t->nstack++] = n;
	return true;
}

bool tx_step(tx *t)
{
	if (++t->steps <= TX_MAX_STEPS) return true;
	t->over = true;
	return false;
}

/* ---- the document ---- */

/* Where an alias bomb is: from the top, the value (or element) that
 * expands most, a few levels down; and which reader it stops. hpcviewer
 * 2025.01 hashes each input map and each formula map it reads
 * (LinkedHashMap.hashCode walks the expansion) and walks children:;
 * neither it nor hatchet 1.4.0 walks other keys, and both keep aliases as
 * references. Returns the node to point at. */
