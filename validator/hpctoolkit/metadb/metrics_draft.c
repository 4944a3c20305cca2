/* meta.db Performance Metrics section, draft edition (a tree of arrays):
 *   header {pMetrics, nMetrics u32, szMetric u8, szScope u8, szSummary u8}, END 0x0f
 *   {MD} 0x18: pName, nScopes u16 @0x08, pScopes @0x10
 *   {PS} 0x18: pScope (char*), nSummaries u16 @0x08, propMetricId u16 @0x0a, pSummaries @0x10
 *   {SS} 0x10: pFormula, combine u8 @0x08, statMetricId u16 @0x0a
 * Scopes are per metric here, so nothing refers to a scope by pointer. */
#include <stdio.h>

#include "internal.h"

#define SZ_MD 0x18u
#define SZ_PS 0x18u
#define SZ_SS 0x10u

static unsigned long long U(uint64_t v) { return (unsigned long long)v; }

typedef struct draft_walk {
	uint64_t hdr;
	uint8_t szscope, szss;
	int scope_state, ss_state; /* stride checked: -1 not yet, 0 bad, 1 good */
	uint64_t ps_budget, ss_budget; /* md_metric_budget */
	bool ok;
} draft_walk;


static void check_summaries(md_state *m, draft_walk *w, uint64_t ps, const char *pspath)
{
	uint64_t base = md_u64(m, ps + 0x10);
	uint16_t n = md_u16(m, ps + 8);
	if (n == 0) return;
	char path[HV_PATH_MAX];
	snprintf(path, sizeof path, "%s/pSummaries", pspath);
	if (!md_stride_once(m, &w->ss_state, HV_R_METADB_METRICS_SZSUMMARY, w->hdr + 0x0e, w->szss, SZ_SS, "szSummary",
			 "{SS} (draft edition)") ||
	    !md_check_array(m, HV_R_METADB_METRICS_SUMMARIES_CONTAINED, HV_R_METADB_METRICS_ALIGNED, MD_METRICS,
			    ps + 0x10, base, n, w->szss, 8, path, "pSummaries")) {
		w->ok = false;
		return;
	}
	for (uint64_t k = 0; k < n && w->ss_budget > 0; k++, w->ss_budget--) {
		uint64_t e = base + k * w->szss;
		int len = snprintf(path, sizeof path, "%s/pSummaries[%llu]", pspath, U(k));
		md_check_summary_fields(m, e, e + 8, e + 0x0a, path, sizeof path, len);
	}
}

static void check_scopes(md_state *m, draft_walk *w, uint64_t md, uint64_t mi)
{
	uint64_t base = md_u64(m, md + 0x10);
	uint16_t n = md_u16(m, md + 8);
	if (n == 0) return;
	char path[128]; /* a prefix of longer paths */
	snprintf(path, sizeof path, "meta.db/Metrics/pMetrics[%llu]/pScopes", U(mi));
	if (!md_stride_once(m, &w->scope_state, HV_R_METADB_METRICS_SZSCOPE, w->hdr + 0x0d, w->szscope, SZ_PS, "szScope",
			 "{PS} (draft edition)") ||
	    !md_check_array(m, HV_R_METADB_METRICS_SCOPES_CONTAINED, HV_R_METADB_METRICS_ALIGNED, MD_METRICS, md + 0x10,
			    base, n, w->szscope, 8, path, "pScopes")) {
		w->ok = false;
		return;
	}
	for (uint64_t j = 0; j < n && w->ps_budget > 0; j++, w->ps_budget--) {
		uint64_t e = base + j * w->szscope;
		snprintf(path, sizeof path, "meta.db/Metrics/pMetrics[%llu]/pScopes[%llu]", U(mi), U(j));
		char spath[HV_PATH_MAX];
		snprintf(spath, sizeof spath, "%s/pScope", path);
		md_check_string(m, HV_R_METADB_METRICS_SCOPE_NAME_STRING, MD_METRICS, e, md_u64(m, e), spath, "pScope");
		md_idvec_push(m, &m->prop_ids, md_u16(m, e + 0x0a), e + 0x0a);
		m->walked++;
		check_summaries(m, w, e, path);
	}
}

void md_check_metrics_draft(md_state *m)
{
	if (!md_check_section_size(m, MD_METRICS, MD_SZ_METRICS_HDR_D)) return;
	draft_walk w = {.hdr = m->lo[MD_METRICS], .scope_state = -1, .ss_state = -1, .ok = true};
	m->scopes = (md_array){0};
	w.ps_budget = w.ss_budget = md_metric_budget(m);
	uint64_t pmetrics = md_u64(m, w.hdr);
	uint64_t n = md_u32(m, w.hdr + 8);
	uint8_t szmetric = md_u8(m, w.hdr + 0x0c);
	w.szscope = md_u8(m, w.hdr + 0x0d);
	w.szss = md_u8(m, w.hdr + 0x0e);
	if (n > 0 && (!md_check_stride(m, HV_R_METADB_METRICS_SZMETRIC, w.hdr + 0x0c, 1, szmetric, SZ_MD,
				       "meta.db/Metrics/szMetric", "szMetric", "{MD} (draft edition)") ||
		      !md_check_array(m, HV_R_METADB_METRICS_METRICS_CONTAINED, HV_R_METADB_METRICS_ALIGNED, MD_METRICS,
				      w.hdr, pmetrics, n, szmetric, 8, "meta.db/Metrics/pMetrics", "pMetrics")))
		n = 0, w.ok = false;
	char path[HV_PATH_MAX];
	for (uint64_t i = 0; i < n; i++) {
		uint64_t e = pmetrics + i * szmetric;
		snprintf(path, sizeof path, "meta.db/Metrics/pMetrics[%llu]/pName", U(i));
		md_check_string(m, HV_R_METADB_METRICS_NAME_STRING, MD_METRICS, e, md_u64(m, e), path, "pName");
		check_scopes(m, &w, e, i);
	}
	if (w.ps_budget == 0 || w.ss_budget == 0) w.ok = false;
	md_idvec_check_unique(m, &m->prop_ids, HV_R_METADB_METRICS_PROP_ID_UNIQUE, "meta.db/Metrics/PS",
			      "propMetricId", 2, "propMetricId");
	md_idvec_check_unique(m, &m->stat_ids, HV_R_METADB_METRICS_STAT_ID_UNIQUE, "meta.db/Metrics/SS",
			      "statMetricId", 2, "statMetricId");
	m->metrics_ok = w.ok;
}
