/* The metric taxonomy of an HPCToolkit database: metrics/NAME.yaml
 * (specs/hpctoolkit-METRICS.yaml), checked on its own and against meta.db. */
#ifndef HV_HPCTK_TAXONOMY_H
#define HV_HPCTK_TAXONOMY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hv_int.h"
#include "hpctoolkit/hpctoolkit.h"
#include "yamldoc.h"

/* A taxonomy file is one whose parent folder is metrics/ and whose name
 * ends in .yaml (hpcprof writes metrics/default.yaml). */
bool hpctk_is_taxonomy_name(const char *path);

/* Check taxonomy blob b; meta (may be NULL) is meta.db's summary: its value
 * model, when built (release edition), gives the cross-checks. When
 * hatchet_role is not NULL and hatchet 1.4.0 reads the taxonomy without a
 * hpctkdb.taxonomy.hatchet note, *hatchet_role is set to a table of the
 * model's npid bytes (HPCTK_HATCHET_*, crossdb.h: which column hatchet
 * writes each propMetricId into), freed by the caller; else left NULL. */
void hpctk_check_taxonomy(const hv_options *opt, hv_blob *b, hv_report *r, const hpctk_metadb_summary *meta,
			  uint8_t **hatchet_role);

/* A taxonomy file of a database other than metrics/default.yaml: the
 * readers open only that one, so it is noted, not checked. */
bool hpctk_is_default_taxonomy(const char *path);
void hpctk_note_unread_taxonomy(hv_blob *b, hv_report *r);

/* ---- shared by the taxonomy's files (taxonomy*.c) only ---- */

/* yd_node.seen bits */
enum { SEEN_METRIC = 1, SEEN_FORMULA_BAD = 2, SEEN_USED = 4, SEEN_STD_BAD = 8 };

typedef struct tx_input {
	uint32_t node;
	const char *metric, *scope;
	char formula[64];   /* canonical: whitespace removed */
	uint8_t combine;    /* 0 sum, 1 min, 2 max */
	bool ok;            /* well-formed (its own rule passed) */
	bool custom;        /* meta.db says its scope is custom */
	int32_t mi;         /* meta.db metric index, -1 unknown */
	uint32_t viewer_at; /* the key (inclusive:, standard:, ...) where hpcviewer first reads it as a
			     * whole column's formula, YD_NONE */
	uint32_t viewer_metric, viewer_variant; /* that column's metric and variant name */
	uint32_t used_by;   /* the metric whose formula first uses it, YD_NONE */
} tx_input;

typedef struct tx {
	hv_report *r;
	hv_blob *b;
	const char *file;
	yd_doc d;
	tx_input *in;
	uint32_t nin;
	uint32_t *input_of; /* node -> index into in, YD_NONE */
	uint32_t epoch;
	uint64_t steps;
	bool over;          /* step budget spent: the rest is not checked */
	uint32_t *stack;
	uint32_t nstack, stack_cap;
	const struct hpctk_vmodel *vm; /* meta.db's value model (values.h), or NULL */
	uint32_t cur_metric; /* the metric whose formulas are being walked */
	uint32_t cur_variant; /* and the variant's name (a key node) */
	uint8_t **hatchet_role; /* where tx_hatchet puts its column table (NULL: not wanted) */
} tx;

/* Output helpers, the step budget and the walks' stack (taxonomy.c). */
const char *tx_base_name(const char *p);
/* Paths are shortened silently (vsnprintf: no truncation warnings). */
void tx_pathf(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint64_t tx_node_len(const tx *t, uint32_t n);
void tx_emitv(tx *t, int rule, uint32_t n, const char *path, const char *fmt, va_list ap);
/* One evaluation of `rule`; a failure is reported at node n. Past hpcvet's
 * limits (t->over, a merge chain past YD_MERGE_STEPS) neither is counted
 * and it returns false: look-ups may have stopped short, and
 * hpctkdb.taxonomy.limit alone says the rest is not checked. */
bool tx_check(tx *t, int rule, bool ok, uint32_t n, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
const char *tx_type_name(int ty);
const char *tx_text(const tx *t, uint32_t n, char *buf, size_t cap);
bool tx_push(tx *t, uint32_t n);
bool tx_step(tx *t);

/* The checks, in the order hpctk_check_taxonomy runs them. */
void tx_check_inputs(tx *t, uint32_t seq);                              /* inputs.c */
void tx_cross_inputs(tx *t);                                            /* inputs.c */
void tx_check_metrics(tx *t, uint32_t roots);                           /* metrics.c */
void tx_walk_formula(tx *t, uint32_t f, const char *path, bool standard); /* formulas.c */
void tx_notes(tx *t);                                                   /* inputs.c */
/* What the reference readers do with it (readers.c): hpcviewer
 * 2025.01 with a variant's formula: map, hatchet 1.4.0 with roots:. */
void tx_viewer_formula(tx *t, uint32_t vname, uint32_t formula, const char *path);
void tx_hatchet(tx *t, uint32_t roots);

#endif
