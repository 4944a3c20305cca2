/* meta.db General Properties and Hierarchical Identifier Names sections.
 * Their strings live inside the section itself, not in the string table. */
#include <stdio.h>

#include "internal.h"

void md_check_general(md_state *m)
{
	if (!md_check_section_size(m, MD_GENERAL, MD_SZ_GENERAL_HDR)) return;
	uint64_t p = m->lo[MD_GENERAL];
	md_check_string(m, HV_R_METADB_GENERAL_TITLE, MD_GENERAL, p, md_u64(m, p), "meta.db/General/pTitle",
			"pTitle");
	md_check_string(m, HV_R_METADB_GENERAL_DESCRIPTION, MD_GENERAL, p + 8, md_u64(m, p + 8),
			"meta.db/General/pDescription", "pDescription");
}

void md_check_idnames(md_state *m)
{
	if (!md_check_section_size(m, MD_IDNAMES, MD_SZ_IDNAMES_HDR)) return;
	uint64_t p = m->lo[MD_IDNAMES];
	uint64_t pp = md_u64(m, p);
	uint8_t n = md_u8(m, p + 8);
	m->nkinds = n;
	if (!md_check_array(m, HV_R_METADB_IDNAMES_NAMES_CONTAINED, HV_R_METADB_IDNAMES_NAMES_ALIGNED, MD_IDNAMES, p,
			    pp, n, 8, 8, "meta.db/IdNames/ppNames", "ppNames"))
		return;
	char path[HV_PATH_MAX];
	for (unsigned k = 0; k < n; k++) {
		uint64_t at = pp + 8u * k;
		snprintf(path, sizeof path, "meta.db/IdNames/ppNames[%u]", k);
		md_check_string(m, HV_R_METADB_IDNAMES_NAME_STRING, MD_IDNAMES, at, md_u64(m, at), path, "ppNames[kind]");
	}
}
