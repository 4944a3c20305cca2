/* The HPCToolkit family: the four *.db files of a v4 database. */
#ifndef HV_HPCTOOLKIT_H
#define HV_HPCTOOLKIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/validate.h"

/* What meta.db tells the other files of its database (filled by the
 * meta.db check, used by the cross-file checks). Arrays are owned by the
 * summary; free them with hpctk_metadb_summary_free. */
typedef struct hpctk_metadb_summary {
	bool valid;                 /* header usable; the fields below were read */
	enum hv_edition edition;    /* detected (or forced by --edition) */
	uint8_t minor;
	uint8_t nkinds;             /* Identifier Names: number of id-tuple kinds */
	bool ctx_ok, metrics_ok;    /* the context tree / metrics could be walked */
	uint32_t *ctx_ids;          /* every ctxId in the context tree, sorted, unique */
	size_t n_ctx_ids;
	uint16_t *prop_metric_ids;  /* every propMetricId (thread profiles, cct.db), sorted, unique */
	size_t n_prop_metric_ids;
	uint16_t *stat_metric_ids;  /* every statMetricId (summary profile), sorted, unique */
	size_t n_stat_metric_ids;
} hpctk_metadb_summary;

/* Check meta.db; when `out` is non-NULL fill it for the cross-file checks. */
void hpctk_check_metadb(const hv_options *opt, hv_blob *b, hv_report *r, hpctk_metadb_summary *out);
void hpctk_metadb_summary_free(hpctk_metadb_summary *s);

extern const hv_format hv_format_hpctk_metadb;
extern const hv_family hv_family_hpctoolkit;

#endif
