/* The HPCToolkit family: the four *.db files of a v4 database. */
#ifndef HV_HPCTOOLKIT_H
#define HV_HPCTOOLKIT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/validate.h"

/* A set of 32-bit ids (meta.db's ctxIds): a bitmap when the ids are dense
 * enough for one (its size bounded by the number of ids), else a sorted
 * array. The root, ctxId 0, is a member whether listed or not: every file
 * of a database may name it. */
typedef struct hpctk_idset {
	size_t n;           /* ids listed (0 counted only when listed) */
	uint32_t max;       /* the largest id listed; 0 when none */
	uint8_t *map;       /* bit i: id i is a member (bits 0..max; bit 0 set), or NULL */
	uint32_t *sorted;   /* when map is NULL: the n ids, increasing */
} hpctk_idset;

bool hpctk_idset_has(const hpctk_idset *s, uint32_t id);
void hpctk_idset_free(hpctk_idset *s);

/* What meta.db tells the other files of its database (filled by the
 * meta.db check, used by the cross-file checks). Arrays are owned by the
 * summary; free them with hpctk_metadb_summary_free. */
typedef struct hpctk_metadb_summary {
	bool valid;                 /* header usable; the fields below were read */
	enum hv_edition edition;    /* detected (or forced by --edition) */
	uint8_t minor;
	uint8_t nkinds;             /* Identifier Names: number of id-tuple kinds */
	bool ctx_ok, metrics_ok;    /* the context tree / metrics could be walked */
	hpctk_idset ctx_ids;        /* every ctxId in the context tree */
	uint16_t *prop_metric_ids;  /* every propMetricId (thread profiles, cct.db), sorted, unique */
	size_t n_prop_metric_ids;
	uint16_t *stat_metric_ids;  /* every statMetricId (summary profile), sorted, unique */
	size_t n_stat_metric_ids;
	struct hpctk_vmodel *values;  /* the value checker's model (values.h), or NULL */
} hpctk_metadb_summary;

/* Which of a metric's columns hatchet 1.4.0's v4 reader writes a
 * propMetricId's values into, by its scope's name against the Sum (else "")
 * variant's standard scopes of metrics/default.yaml (taxonomy/readers.c):
 * none (no root it reads), "M (inc)", or "M" as the exclusive scope or as
 * another scope (the column the exclusive scope's values should have alone:
 * crossdb's hpctkdb.metrics.reader-hazard-hatchet-scope). */
enum { HPCTK_HATCHET_NONE, HPCTK_HATCHET_INC, HPCTK_HATCHET_EXC, HPCTK_HATCHET_OTHER };

/* Check meta.db; when `out` is non-NULL fill it for the cross-file checks. */
void hpctk_check_metadb(const hv_options *opt, hv_blob *b, hv_report *r, hpctk_metadb_summary *out);
void hpctk_metadb_summary_free(hpctk_metadb_summary *s);

extern const hv_format hv_format_hpctk_metadb;
extern const hv_family hv_family_hpctoolkit;

#endif
