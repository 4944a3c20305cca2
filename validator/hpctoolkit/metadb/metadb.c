/* meta.db: the entry point. The sections are checked by metadb_*.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "hpctoolkit/format/fileheader.h"
#include "hpctoolkit/hpctoolkit.h"
#include "internal.h"
#include "hpctoolkit/values/values.h"

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

/* Which sections can be looked into: inside the body (fileheader.c), aligned,
 * and sharing no byte with another section. A section failing any of these
 * has its own diagnostic already; looking inside would only add noise. */
static void prepare_sections(md_state *m, const hpctk_header *h)
{
	for (int i = 0; i < MD_NSEC; i++) {
		m->lo[i] = h->p[i];
		m->len[i] = h->sz[i];
		m->usable[i] = h->sec_ok[i] && hv_aligned(h->p[i], hpctk_metadb_desc.sections[i].align);
	}
	for (int i = 0; i < MD_NSEC; i++)
		for (int j = i + 1; j < MD_NSEC; j++)
			if (h->sec_ok[i] && h->sec_ok[j] && hv_ranges_overlap(h->p[i], h->sz[i], h->p[j], h->sz[j]))
				m->usable[i] = m->usable[j] = false;
	for (int i = 0; i < MD_NSEC; i++) {
		m->has_nul[i] = false;
		if (!m->usable[i]) continue;
		for (uint64_t k = m->len[i]; k > 0; k--)
			if (m->mem[m->lo[i] + k - 1] == 0) {
				m->has_nul[i] = true;
				m->last_nul[i] = m->lo[i] + k - 1;
				break;
			}
	}
}

/* The two sections whose layout differs between the editions. */
static void check_edition_part(md_state *m, bool release)
{
	bool um = m->usable[MD_METRICS], uc = m->usable[MD_CONTEXT];
	m->release = release;
	hpctk_idset_free(&m->ctx_ids);
	md_idvec_free(&m->prop_ids);
	md_idvec_free(&m->stat_ids);
	m->scopes = (md_array){0};
	m->prop_bits = 0;
	m->prop_bits_known = false;
	m->ctx_ok = m->metrics_ok = false;
	if (m->usable[MD_METRICS]) (release ? md_check_metrics : md_check_metrics_draft)(m);
	if (m->usable[MD_CONTEXT]) md_check_context(m);
	m->usable[MD_METRICS] = um; /* restored: "too small" depends on the edition tried */
	m->usable[MD_CONTEXT] = uc;
}

/* How well the file reads as one edition. Checked into a scratch report
 * that counts and stores nothing. */
typedef struct md_fit {
	int64_t score;    /* structures walked minus the number of distinct rules failed */
	int64_t rules;    /* distinct error rules failed */
	uint64_t errors;  /* error instances: the tie-breaker */
} md_fit;

static md_fit fit_as(md_state *m, bool release)
{
	md_fit f = {0, 0, 0};
	hv_report *scratch = hv_malloc(sizeof *scratch);
	if (!scratch) {
		m->oom = true;
		return f;
	}
	hv_report *real = m->r;
	hv_report_init(scratch, real->input_path, 0);
	m->r = scratch;
	m->walked = 0;
	m->detecting = true;
	check_edition_part(m, release);
	m->detecting = false;
	int64_t rules = 0;
	for (int j = 0; j < HV_RULE_COUNT; j++) rules += scratch->failed[j] > 0 && hv_rules[j].severity == HV_SEV_ERROR;
	f.errors = scratch->count[HV_SEV_ERROR];
	f.rules = rules;
	m->r = real;
	hv_report_free(scratch);
	free(scratch);
	f.score = (int64_t)(m->walked > INT64_MAX / 2 ? INT64_MAX / 2 : m->walked) - rules;
	return f;
}

/* Edition detection. Both editions say 4.0; they differ in the Metrics and
 * Context Tree layouts, so both layouts are tried and the one that fits
 * better wins. fit = structures walked whose layout differs between the
 * editions (scopes, scope instances, summaries, entry points, contexts;
 * not {MD}, whose first field reads alike in both) minus the number of
 * distinct rules that fail; fewer error instances break a tie. No single
 * field decides, because any single field may be the broken one: a file
 * read in the wrong layout fails several independent checks at once
 * (strides below the structure sizes, the Context header's pointer in the
 * wrong word, header sizes) and walks next to nothing, while a defect
 * costs the right layout one rule and at most the subtree behind it.
 * Distinct rules rather than instances, so that one wrong count that makes
 * the right layout parse garbage (thousands of errors of a few rules)
 * does not tip the balance. On a full tie (typically no metrics and an
 * empty tree) the release edition, which hpcprof writes, is used and a
 * note says so. */
static bool detect_release(md_state *m, const hv_options *opt)
{
	if (opt->edition == HV_EDITION_RELEASE) return true;
	if (opt->edition == HV_EDITION_DRAFT) return false;
	md_fit fr = fit_as(m, true), fd = fit_as(m, false);
	bool tie = fr.score == fd.score && fr.errors == fd.errors;
	bool release = fr.score != fd.score ? fr.score > fd.score : fr.errors <= fd.errors;
	/* Neither layout fits and they are within two structures of each
	 * other: the choice is a guess worth saying. */
	int64_t margin = fr.score > fd.score ? fr.score - fd.score : fd.score - fr.score;
	bool close = fr.rules > 0 && fd.rules > 0 && margin <= 2;
	/* With either section unusable its own rule has fired already, and
	 * there is too little left to call the file ambiguous. */
	bool both = m->usable[MD_METRICS] && m->usable[MD_CONTEXT];
	if (both && !hv_eval(m->r, HV_R_METADB_EDITION_AMBIGUOUS, !tie && !close)) {
		if (tie)
			hv_emit(m->r, HV_R_METADB_EDITION_AMBIGUOUS, m->b->name, m->lo[MD_METRICS], 0, "meta.db",
				"the Metrics and Context Tree sections fit the draft and the release layouts equally "
				"well; validated as the release edition (use --edition to force one)");
		else
			hv_emit(m->r, HV_R_METADB_EDITION_AMBIGUOUS, m->b->name, m->lo[MD_METRICS], 0, "meta.db",
				"neither layout fits the Metrics and Context Tree sections (%lld rule(s) fail as "
				"release, %lld as draft) and both walk about as many structures; validated as the %s "
				"edition (use --edition to force one)",
				(long long)fr.rules, (long long)fd.rules, release ? "release" : "draft");
	}
	return release;
}

/* Sorted, unique copies of the collected metric ids for the cross-file
 * checks. */
static bool fill_ids16(const md_idvec *v, uint16_t **out, size_t *n)
{
	*n = 0;
	*out = hv_malloc((v->n ? v->n : 1) * sizeof **out);
	if (!*out) return false;
	for (size_t i = 0; i < v->n; i++)
		if (*n == 0 || (*out)[*n - 1] != v->v[i].id) (*out)[(*n)++] = (uint16_t)v->v[i].id;
	return true;
}

void hpctk_check_metadb(const hv_options *opt, hv_blob *b, hv_report *r, hpctk_metadb_summary *out)
{
	hpctk_header h;
	if (out) memset(out, 0, sizeof *out);
	snprintf(r->version, sizeof r->version, "4.0");
	if (!hpctk_check_header(&hpctk_metadb_desc, b, r, true, &h)) return;
	snprintf(r->version, sizeof r->version, "%u.%u", h.major, h.minor);
	/* The checks address meta.db at random, so it is held in memory, but only
	 * up to the end of the last section that lies inside the file: every
	 * pointer is followed only after it is proven to lie in a section. A
	 * hostile multi-GB file whose header describes no usable section costs
	 * no more than its header. */
	uint64_t end = hpctk_header_size(&hpctk_metadb_desc);
	for (unsigned i = 0; i < hpctk_metadb_desc.nsections; i++)
		if (h.sec_ok[i] && h.p[i] + h.sz[i] > end) end = h.p[i] + h.sz[i]; /* sec_ok: no overflow */
	uint8_t *held = NULL;
	const uint8_t *mem = b->mem;
	if (!mem) {
		held = end <= SIZE_MAX ? hv_malloc((size_t)end) : NULL;
		if (!held || !hv_blob_read(b, 0, held, (size_t)end)) {
			free(held);
			if (!b->io_failed)
				hv_report_internal(r, "%s: cannot hold %llu bytes of meta.db in memory", b->name,
						   (unsigned long long)end);
			return;
		}
		mem = held;
	}
	md_state m = {.b = b, .mem = mem, .r = r, .newer_minor = h.newer_minor, .minor = h.minor};
	prepare_sections(&m, &h);
	/* Sections the context tree and functions point into come first. */
	if (m.usable[MD_GENERAL]) md_check_general(&m);
	if (m.usable[MD_IDNAMES]) md_check_idnames(&m);
	if (m.usable[MD_MODULES]) md_check_modules(&m);
	if (m.usable[MD_FILES]) md_check_files(&m);
	if (m.usable[MD_FUNCTIONS]) md_check_functions(&m);
	bool release = detect_release(&m, opt);
	snprintf(r->edition, sizeof r->edition, "%s", release ? "release" : "draft");
	check_edition_part(&m, release);
	if (out && !m.oom) {
		out->valid = true;
		out->edition = release ? HV_EDITION_RELEASE : HV_EDITION_DRAFT;
		out->minor = h.minor;
		out->nkinds = m.nkinds;
		out->ctx_ok = m.ctx_ok;
		out->metrics_ok = m.metrics_ok;
		out->ctx_ids = m.ctx_ids; /* handed over */
		m.ctx_ids = (hpctk_idset){0};
		/* md_idvec_check_unique left the vectors sorted by id. */
		out->values = md_values_build(&m);
		if (!fill_ids16(&m.prop_ids, &out->prop_metric_ids, &out->n_prop_metric_ids) ||
		    !fill_ids16(&m.stat_ids, &out->stat_metric_ids, &out->n_stat_metric_ids))
			m.oom = true;
	}
	if (m.oom) hv_report_internal(r, "%s: out of memory while checking meta.db", b->name);
	hpctk_idset_free(&m.ctx_ids);
	md_idvec_free(&m.prop_ids);
	md_idvec_free(&m.stat_ids);
	for (int i = 0; i < MD_NSEC; i++) free(m.utf8_seen[i]);
	free(held);
}

void hpctk_metadb_summary_free(hpctk_metadb_summary *s)
{
	hpctk_idset_free(&s->ctx_ids);
	hpctk_vmodel_free(s->values);
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
