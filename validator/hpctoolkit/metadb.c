/* meta.db: the entry point. The sections are checked by metadb_*.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"
#include "fileheader.h"
#include "hpctoolkit.h"

const hpctk_file_desc hpctk_metadb_desc = {
	.file = "meta.db",
	.code = "meta",
	.footer = "_meta.db",
	.nsections = 8,
	.sections = {{"General", 8}, {"IdNames", 8}, {"Metrics", 8}, {"Context", 8},
		     {"Strings", 1}, {"Modules", 8}, {"Files", 8}, {"Functions", 8}},
	.r_magic = HV_R_METADB_HDR_MAGIC,
	.r_major = HV_R_METADB_HDR_MAJOR,
	.r_minor_newer = HV_R_METADB_HDR_MINOR_NEWER,
	.r_truncated = HV_R_METADB_HDR_TRUNCATED,
	.r_footer = HV_R_METADB_HDR_FOOTER,
	.r_sec_contained = HV_R_METADB_SEC_CONTAINED,
	.r_sec_aligned = HV_R_METADB_SEC_ALIGNED,
	.r_sec_overlap = HV_R_METADB_SEC_OVERLAP,
};

static bool metadb_sniff(hv_blob *b) { return hpctk_sniff(b, "meta"); }

void hpctk_check_metadb(const hv_options *opt, hv_blob *b, hv_report *r, hpctk_metadb_summary *out)
{
	(void)opt;
	hpctk_header h;
	if (out) memset(out, 0, sizeof *out);
	snprintf(r->version, sizeof r->version, "4.0");
	if (!hpctk_check_header(&hpctk_metadb_desc, b, r, true, &h)) return;
	snprintf(r->version, sizeof r->version, "%u.%u", h.major, h.minor);
	/* TODO(metadb): section contents, edition detection. */
}

void hpctk_metadb_summary_free(hpctk_metadb_summary *s)
{
	free(s->ctx_ids);
	free(s->prop_metric_ids);
	free(s->stat_metric_ids);
	memset(s, 0, sizeof *s);
}

static void metadb_check_file(const hv_options *opt, hv_blob *b, hv_report *r) { hpctk_check_metadb(opt, b, r, NULL); }

const hv_format hv_format_hpctk_metadb = {
	.name = "hpctoolkit meta.db",
	.file_name = "meta.db",
	.sniff = metadb_sniff,
	.check = metadb_check_file,
};
