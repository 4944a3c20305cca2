/* An HPCToolkit database directory: meta.db, profile.db, cct.db, trace.db
 * checked together. Files are assigned their role by content; a file whose
 * content is unrecognisable gets its role from its standard name. */
#include <stdio.h>
#include <string.h>

#include "hpctoolkit.h"

enum { ROLE_META, ROLE_COUNT };

static const hv_format *const role_format[ROLE_COUNT] = {&hv_format_hpctk_metadb};

static int role_of(hv_blob *b)
{
	for (int i = 0; i < ROLE_COUNT; i++)
		if (role_format[i]->sniff(b)) return i;
	const char *base = hv_basename(b->name ? b->name : "");
	for (int i = 0; i < ROLE_COUNT; i++)
		if (strcmp(base, role_format[i]->file_name) == 0) return i;
	return -1;
}

static bool hpctoolkit_claims(hv_blob *b) { return role_of(b) >= 0; }

static void hpctoolkit_check_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r)
{
	hv_blob *role[ROLE_COUNT] = {0};
	for (size_t i = 0; i < n; i++) {
		int k = role_of(&files[i]);
		if (k >= 0 && !role[k]) role[k] = &files[i];
	}
	snprintf(r->format, sizeof r->format, "hpctoolkit database");
	hpctk_metadb_summary meta = {0};
	if (role[ROLE_META]) hpctk_check_metadb(opt, role[ROLE_META], r, &meta);
	hpctk_metadb_summary_free(&meta);
}

const hv_family hv_family_hpctoolkit = {
	.name = "hpctoolkit",
	.claims = hpctoolkit_claims,
	.check_set = hpctoolkit_check_set,
};
