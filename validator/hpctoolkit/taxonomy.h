/* The metric taxonomy of an HPCToolkit database: metrics/NAME.yaml
 * (specs/hpctoolkit-METRICS.yaml), checked on its own and against meta.db. */
#ifndef HV_HPCTK_TAXONOMY_H
#define HV_HPCTK_TAXONOMY_H

#include <stdbool.h>

#include "hpctoolkit.h"

/* A taxonomy file is one whose parent folder is metrics/ and whose name
 * ends in .yaml (hpcprof writes metrics/default.yaml). */
bool hpctk_is_taxonomy_name(const char *path);

/* Check taxonomy blob b; meta (may be NULL) is meta.db's summary: its value
 * model, when built (release edition), gives the cross-checks. */
void hpctk_check_taxonomy(const hv_options *opt, hv_blob *b, hv_report *r, const hpctk_metadb_summary *meta);

/* The taxonomy's resolved tree for `hpcvet dump`: calls `line` once per
 * metric (depth, name) and per input (depth -1, "metric scope formula
 * combine"), in document order, aliases and merge keys resolved; false when
 * the YAML could not be read (why set). Bounded like the check. */


#endif
