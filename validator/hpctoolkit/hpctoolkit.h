/* The HPCToolkit family: the four *.db files of a v4 database. */
#ifndef HV_HPCTOOLKIT_H
#define HV_HPCTOOLKIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/validate.h"

/* What meta.db tells the other files of its database (filled by the
 * meta.db check, used by the cross-file checks). */
typedef struct hpctk_metadb_summary {
	bool valid;               /* header usable and sections read */
	enum hv_edition edition;  /* detected or forced */
	uint8_t minor;
} hpctk_metadb_summary;

void hpctk_check_metadb(const hv_options *opt, hv_blob *b, hv_report *r, hpctk_metadb_summary *out);

extern const hv_format hv_format_hpctk_metadb;
extern const hv_family hv_family_hpctoolkit;

#endif
