/* An HPCToolkit database directory: meta.db, profile.db, cct.db, trace.db
 * checked together. Files are assigned their role by content; a file whose
 * content is unrecognisable gets its role from its standard name.
 *
 * Order: meta.db first (its summary feeds the rest, read-only from then
 * on); then every other file is opened (headers, section headers) so that
 * nProfiles and nCtxs are known before any value is read; then profile.db,
 * cct.db and trace.db are walked as three independent tasks (in parallel
 * when the reader supplies a runner), each with visitors carrying the
 * cross-file checks into its own report and state (transpose digests,
 * elided contexts); the reports are merged in that fixed order, and the
 * rules that need all files are decided last. Output is the same for any
 * number of jobs. */
#include <stdio.h>
#include <string.h>

#include "cctdb.h"
#include "crossdb.h"
#include "hpctoolkit.h"
#include "profiledb.h"
#include "tracedb.h"

enum { ROLE_META, ROLE_PROF, ROLE_CCT, ROLE_TRACE, ROLE_COUNT };

static const hv_format *const role_format[ROLE_COUNT] = {&hv_format_hpctk_metadb, &hv_format_hpctk_profiledb,
							  &hv_format_hpctk_cctdb, &hv_format_hpctk_tracedb};

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

static const char *edition_name(enum hv_edition e)
{
	return e == HV_EDITION_DRAFT ? "draft" : e == HV_EDITION_RELEASE ? "release" : "";
}

static void warn_missing(hv_report *r, int rule, const char *what)
{
	hv_eval(r, rule, false);
	hv_emit(r, rule, r->input_path, 0, 0, "", "%s", what);
}

static void check_missing(hv_report *r, hv_blob *const role[ROLE_COUNT])
{
	bool data = role[ROLE_PROF] || role[ROLE_CCT] || role[ROLE_TRACE];
	if (!hv_eval(r, HV_R_HPCTKDB_METADB_MISSING, !data || role[ROLE_META]))
		warn_missing(r, HV_R_HPCTKDB_METADB_MISSING,
			     "no meta.db in the database: context ids, metric ids and identifier kinds of the other "
			     "files cannot be checked");
	if (!hv_eval(r, HV_R_HPCTKDB_PROFILEDB_MISSING, !(role[ROLE_CCT] || role[ROLE_TRACE]) || role[ROLE_PROF]))
		warn_missing(r, HV_R_HPCTKDB_PROFILEDB_MISSING,
			     "no profile.db in the database: cct.db/trace.db profile indices and the cct.db transpose "
			     "cannot be checked");
	if (!hv_eval(r, HV_R_HPCTKDB_CCTDB_MISSING, !role[ROLE_PROF] || role[ROLE_CCT]))
		warn_missing(r, HV_R_HPCTKDB_CCTDB_MISSING,
			     "profile.db without cct.db: hpcprof always writes both; the context-major data is missing");
}

/* The database's edition: forced, else meta.db's, else the first file that
 * shows one. Files whose own structure shows another edition are reported. */
static enum hv_edition decide_edition(const hv_options *opt, hv_report *r, const hpctk_metadb_summary *meta,
				      hv_blob *const role[ROLE_COUNT], enum hv_edition *ev_prof, enum hv_edition *ev_trace)
{
	*ev_prof = role[ROLE_PROF] ? hpctk_profiledb_evidence(role[ROLE_PROF]) : HV_EDITION_AUTO;
	*ev_trace = role[ROLE_TRACE] ? hpctk_tracedb_evidence(role[ROLE_TRACE]) : HV_EDITION_AUTO;
	if (opt->edition != HV_EDITION_AUTO) return opt->edition;
	enum hv_edition ev_meta = meta->valid ? meta->edition : HV_EDITION_AUTO;
	enum hv_edition ed = ev_meta != HV_EDITION_AUTO ? ev_meta : *ev_prof != HV_EDITION_AUTO ? *ev_prof : *ev_trace;
	const char *source = ev_meta != HV_EDITION_AUTO ? "meta.db" : *ev_prof != HV_EDITION_AUTO ? "profile.db" : "trace.db";
	struct {
		enum hv_edition ev;
		hv_blob *b;
		const char *why;
	} files[2] = {{*ev_prof, role[ROLE_PROF], "its szProfile"},
		      {*ev_trace, role[ROLE_TRACE], "its footer and section header size"}};
	for (int i = 0; i < 2; i++) {
		if (files[i].ev == HV_EDITION_AUTO || ed == HV_EDITION_AUTO) continue;
		if (!hv_eval(r, HV_R_HPCTKDB_EDITION_AGREE, files[i].ev == ed))
			hv_emit(r, HV_R_HPCTKDB_EDITION_AGREE, files[i].b->name, 0, 16, hv_basename(files[i].b->name),
				"this file is laid out as the %s edition (from %s) but the database is %s (from %s)",
				edition_name(files[i].ev), files[i].why, edition_name(ed), source);
	}
	return ed;
}

/* The three data files' walks: independent once opened (each writes its
 * own report, file state and visitor state; all else is read-only). */
typedef struct walk_set {
	hpctk_xdb x;
	hpctk_profiledb *prof;
	hpctk_cctdb *cct;
	hpctk_tracedb *trace;
	hpctk_xfile f[HPCTK_XFILES];
	hv_report sub[HPCTK_XFILES];
} walk_set;

static void walk_task(void *ctx, size_t i)
{
	walk_set *w = ctx;
	hpctk_xfile *f = &w->f[i];
	if (i == HPCTK_XPROF && w->prof) {
		hpctk_prof_visitor v = hpctk_xfile_prof_visitor(f);
		hpctk_profiledb_walk(w->prof, f->r, &v);
		hpctk_xfile_prof_done(f);
	} else if (i == HPCTK_XCCT && w->cct) {
		hpctk_cct_visitor v = hpctk_xfile_cct_visitor(f);
		hpctk_cctdb_walk(w->cct, f->r, &v);
	} else if (i == HPCTK_XTRACE && w->trace) {
		hpctk_trace_visitor v = hpctk_xfile_trace_visitor(f);
		hpctk_tracedb_walk(w->trace, f->r, &v);
	}
}

static void hpctoolkit_check_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r)
{
	hv_blob *role[ROLE_COUNT] = {0};
	for (size_t i = 0; i < n; i++) {
		int k = role_of(&files[i]);
		if (k >= 0 && !role[k]) role[k] = &files[i];
	}
	snprintf(r->format, sizeof r->format, "hpctoolkit database");
	snprintf(r->version, sizeof r->version, "4.0");
	hpctk_metadb_summary meta = {0};
	if (role[ROLE_META]) hpctk_check_metadb(opt, role[ROLE_META], r, &meta);
	check_missing(r, role);

	enum hv_edition ev_prof, ev_trace;
	enum hv_edition ed = decide_edition(opt, r, &meta, role, &ev_prof, &ev_trace);
	snprintf(r->edition, sizeof r->edition, "%s", edition_name(ed));

	/* Each file is checked in the edition its own structure shows, else the
	 * database's: a disagreement is reported once (above), not as a cascade. */
	hpctk_profiledb prof;
	hpctk_cctdb cct;
	hpctk_tracedb trace;
	bool prof_open = role[ROLE_PROF] && hpctk_profiledb_open(opt, role[ROLE_PROF], r, ed, &prof);
	bool cct_open = role[ROLE_CCT] && hpctk_cctdb_open(opt, role[ROLE_CCT], r, ed, &cct);
	bool trace_open = role[ROLE_TRACE] && hpctk_tracedb_open(opt, role[ROLE_TRACE], r, ed, &trace);

	walk_set w = {.x = {0}};
	w.prof = prof_open ? &prof : NULL;
	w.cct = cct_open ? &cct : NULL;
	w.trace = trace_open ? &trace : NULL;
	hpctk_xdb_init(&w.x, ed, role[ROLE_META] ? &meta : NULL, w.prof, w.cct, w.trace);
	for (int i = 0; i < HPCTK_XFILES; i++) {
		hv_report_init(&w.sub[i], r->input_path, r->max_diags);
		hpctk_xfile_init(&w.f[i], &w.x, i, &w.sub[i]);
	}
	hv_for_each(opt, HPCTK_XFILES, walk_task, &w);
	for (int i = 0; i < HPCTK_XFILES; i++) hv_report_merge(r, &w.sub[i]);
	hpctk_xdb_finish(&w.x, r, w.f, prof_open && prof.complete, cct_open && cct.complete);
	for (int i = 0; i < HPCTK_XFILES; i++) {
		hpctk_xfile_free(&w.f[i]);
		hv_report_free(&w.sub[i]);
	}
	hpctk_xdb_free(&w.x);
	hpctk_metadb_summary_free(&meta);
}

const hv_family hv_family_hpctoolkit = {
	.name = "hpctoolkit",
	.claims = hpctoolkit_claims,
	.check_set = hpctoolkit_check_set,
};
