/* meta.db Performance Metrics section, release edition:
 *   header {pMetrics, nMetrics u32, szMetric u8, szScopeInst u8, szSummary u8,
 *           pScopes @0x10, nScopes u16 @0x18, szScope u8 @0x1a}
 *   {MD}  0x20: pName, pScopeInsts, pSummaries, nScopeInsts u16, nSummaries u16
 *   {PSI} 0x10: pScope, propMetricId u16
 *   {SS}  0x18: pScope, pFormula, combine u8 @0x10, statMetricId u16 @0x12
 *   {PS}  0x10: pScopeName, type u8, propagationIndex u8
 * Strides are checked when first needed (an array kind nobody uses has no
 * meaningful stride); a bad stride stops the walk of what it strides. */
#include <stdio.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "internal.h"

#define SZ_MD 0x20u
#define SZ_PSI 0x10u
#define SZ_SS 0x18u
#define SZ_PS 0x10u

static unsigned long long U(uint64_t v) { return (unsigned long long)v; }


static void check_scopes(md_state *m, uint64_t hdr, bool *ok)
{
	md_array *a = &m->scopes;
	a->base = md_u64(m, hdr + 0x10);
	a->count = md_u16(m, hdr + 0x18);
	a->stride = md_u8(m, hdr + 0x1a);
	a->ok = false;
	if (a->count == 0) {
		a->ok = true;
		a->stride = 1;
		return;
	}
	if (!md_check_stride(m, HV_R_METADB_METRICS_SZSCOPE, hdr + 0x1a, 1, a->stride, SZ_PS,
			     "meta.db/Metrics/szScope", "szScope", "{PS} (release edition)") ||
	    !md_check_array(m, HV_R_METADB_METRICS_SCOPES_CONTAINED, HV_R_METADB_METRICS_ALIGNED, MD_METRICS, hdr + 0x10,
			    a->base, a->count, a->stride, 8, "meta.db/Metrics/pScopes", "pScopes")) {
		*ok = false;
		return;
	}
	a->ok = true;
	m->prop_bits_known = true;
	char path[HV_PATH_MAX];
	for (uint64_t i = 0; i < a->count; i++) {
		uint64_t e = a->base + i * a->stride;
		int len = snprintf(path, sizeof path, "meta.db/Metrics/pScopes[%llu]", U(i));
		snprintf(path + len, sizeof path - (size_t)len, "/pScopeName");
		md_check_string(m, HV_R_METADB_METRICS_SCOPE_NAME_STRING, MD_METRICS, e, md_u64(m, e), path,
				"pScopeName");
		uint8_t type = md_u8(m, e + 8), pidx = md_u8(m, e + 9);
		m->walked++;
		snprintf(path + len, sizeof path - (size_t)len, "/type");
		if (!hv_eval(m->r, HV_R_METADB_METRICS_SCOPE_TYPE_KNOWN, type <= 3))
			hv_emit_sev(m->r, HV_R_METADB_METRICS_SCOPE_TYPE_KNOWN, md_enum_sev(m), m->b->name, e + 8, 1, path,
				    "scope type %u is not 0 (custom), 1 (point), 2 (execution) or 3 (transitive)", type);
		if (type > 3) m->prop_bits_known = false; /* a newer type may use propagation bits too */
		if (type != 3) continue; /* only transitive scopes use the index; 255 elsewhere is normal */
		if (pidx < 16) m->prop_bits |= (uint16_t)(1u << pidx);
		else m->prop_bits_known = false; /* its own rule fires; which bit was meant is unknown */
		snprintf(path + len, sizeof path - (size_t)len, "/propagationIndex");
		if (!hv_eval(m->r, HV_R_METADB_METRICS_PROPAGATION_INDEX, pidx < 16))
			hv_emit(m->r, HV_R_METADB_METRICS_PROPAGATION_INDEX, m->b->name, e + 9, 1, path,
				"transitive scope has propagationIndex %u; the propagation mask has 16 bits (0-15)", pidx);
	}
}

/* The scopes one metric instantiates (its {PSI} pScopes), sorted, so each
 * of its summaries can be looked up in log time. `known` is false when some
 * instance could not be read or named no scope: nothing is concluded then. */
typedef struct scope_set {
	uint64_t *v;
	size_t n, cap;
	bool known;
} scope_set;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void check_psis(md_state *m, uint64_t base, uint64_t n, uint64_t stride, uint64_t mi, uint64_t *budget,
		       scope_set *set)
{
	char path[HV_PATH_MAX];
	set->n = 0;
	set->known = m->scopes.ok;
	/* exactly n (the limit is the need), the bytes overflow-checked */
	if (n > set->cap && (n > SIZE_MAX || !hv_grow_array_upto(&set->v, &set->cap, (size_t)n, sizeof *set->v, 0, (size_t)n))) {
		m->oom = true;
		set->known = false;
		return;
	}
	for (uint64_t j = 0; j < n; j++, --*budget) {
		if (*budget == 0) {
			set->known = false;
			return;
		}
		uint64_t e = base + j * stride;
		snprintf(path, sizeof path, "meta.db/Metrics/pMetrics[%llu]/pScopeInsts[%llu]/pScope", U(mi), U(j));
		if (!md_check_ref(m, HV_R_METADB_METRICS_SCOPE_REF, &m->scopes, e, md_u64(m, e), path, "pScope",
				  "pScopes"))
			set->known = false;
		set->v[set->n++] = md_u64(m, e);
		md_idvec_push(m, &m->prop_ids, md_u16(m, e + 8), e + 8);
		m->walked++;
	}
	qsort(set->v, set->n, sizeof *set->v, cmp_u64);
}

static void check_summaries(md_state *m, uint64_t base, uint64_t n, uint64_t stride, uint64_t mi, uint64_t *budget,
			    const scope_set *set)
{
	char path[HV_PATH_MAX];
	for (uint64_t j = 0; j < n && *budget > 0; j++, --*budget) {
		uint64_t e = base + j * stride;
		int len = snprintf(path, sizeof path, "meta.db/Metrics/pMetrics[%llu]/pSummaries[%llu]", U(mi), U(j));
		snprintf(path + len, sizeof path - (size_t)len, "/pScope");
		uint64_t scope = md_u64(m, e);
		bool ref_ok = md_check_ref(m, HV_R_METADB_METRICS_SCOPE_REF, &m->scopes, e, scope, path, "pScope",
					   "pScopes");
		if (ref_ok && set->known &&
		    !hv_eval(m->r, HV_R_METADB_METRICS_SUMMARY_SCOPE,
			     set->n > 0 && bsearch(&scope, set->v, set->n, sizeof *set->v, cmp_u64) != NULL))
			hv_emit(m->r, HV_R_METADB_METRICS_SUMMARY_SCOPE, m->b->name, e, 8, path,
				"summary of scope 0x%llx, which metric %llu does not instantiate (none of its %zu scope "
				"instances names it): there are no propagated values to summarise",
				U(scope), U(mi), set->n);
		md_check_summary_fields(m, e + 8, e + 0x10, e + 0x12, path, sizeof path, len);
	}
}

void md_check_metrics(md_state *m)
{
	if (!md_check_section_size(m, MD_METRICS, MD_SZ_METRICS_HDR_R)) return;
	uint64_t hdr = m->lo[MD_METRICS];
	bool ok = true;
	check_scopes(m, hdr, &ok);

	uint64_t pmetrics = md_u64(m, hdr);
	uint64_t n = md_u32(m, hdr + 8);
	uint8_t szmetric = md_u8(m, hdr + 0x0c), szpsi = md_u8(m, hdr + 0x0d), szss = md_u8(m, hdr + 0x0e);
	if (n > 0 && (!md_check_stride(m, HV_R_METADB_METRICS_SZMETRIC, hdr + 0x0c, 1, szmetric, SZ_MD,
				       "meta.db/Metrics/szMetric", "szMetric", "{MD} (release edition)") ||
		      !md_check_array(m, HV_R_METADB_METRICS_METRICS_CONTAINED, HV_R_METADB_METRICS_ALIGNED, MD_METRICS,
				      hdr, pmetrics, n, szmetric, 8, "meta.db/Metrics/pMetrics", "pMetrics")))
		n = 0, ok = false;
	int psi_state = -1, ss_state = -1;
	uint64_t psi_budget = md_metric_budget(m), ss_budget = psi_budget;
	scope_set set = {0};
	char path[HV_PATH_MAX];
	for (uint64_t i = 0; i < n; i++) {
		uint64_t e = pmetrics + i * szmetric;
		int len = snprintf(path, sizeof path, "meta.db/Metrics/pMetrics[%llu]", U(i));
		snprintf(path + len, sizeof path - (size_t)len, "/pName");
		md_check_string(m, HV_R_METADB_METRICS_NAME_STRING, MD_METRICS, e, md_u64(m, e), path, "pName");
		uint64_t ppsi = md_u64(m, e + 8), pss = md_u64(m, e + 0x10);
		uint16_t npsi = md_u16(m, e + 0x18), nss = md_u16(m, e + 0x1a);
		set.n = 0;
		set.known = m->scopes.ok;
		if (npsi > 0) {
			snprintf(path + len, sizeof path - (size_t)len, "/pScopeInsts");
			if (md_stride_once(m, &psi_state, HV_R_METADB_METRICS_SZSCOPEINST, hdr + 0x0d, szpsi, SZ_PSI,
					"szScopeInst", "{PSI}") &&
			    md_check_array(m, HV_R_METADB_METRICS_SCOPEINSTS_CONTAINED, HV_R_METADB_METRICS_ALIGNED,
					   MD_METRICS, e + 8, ppsi, npsi, szpsi, 8, path, "pScopeInsts"))
				check_psis(m, ppsi, npsi, szpsi, i, &psi_budget, &set);
			else
				ok = false, set.known = false;
		}
		if (nss > 0) {
			snprintf(path + len, sizeof path - (size_t)len, "/pSummaries");
			if (md_stride_once(m, &ss_state, HV_R_METADB_METRICS_SZSUMMARY, hdr + 0x0e, szss, SZ_SS, "szSummary",
					"{SS} (release edition)") &&
			    md_check_array(m, HV_R_METADB_METRICS_SUMMARIES_CONTAINED, HV_R_METADB_METRICS_ALIGNED,
					   MD_METRICS, e + 0x10, pss, nss, szss, 8, path, "pSummaries"))
				check_summaries(m, pss, nss, szss, i, &ss_budget, &set);
			else
				ok = false;
		}
	}
	free(set.v);
	if (psi_budget == 0 || ss_budget == 0) ok = false;
	md_idvec_check_unique(m, &m->prop_ids, HV_R_METADB_METRICS_PROP_ID_UNIQUE, "meta.db/Metrics/PSI",
			      "propMetricId", 2, "propMetricId");
	md_idvec_check_unique(m, &m->stat_ids, HV_R_METADB_METRICS_STAT_ID_UNIQUE, "meta.db/Metrics/SS",
			      "statMetricId", 2, "statMetricId");
	m->metrics_ok = ok;
}
