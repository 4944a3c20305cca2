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
#include <stdlib.h>
#include <string.h>

#include "../core/units.h"
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

/* The data files' walks as units of work (core/units.h): unit 0 walks
 * profile.db, unit 1 cct.db, and units 2.. ranges of trace.db's lines
 * (whose headers were read before, by hpctk_tracedb_prepare). Each writes
 * its own report and cross-file state; all else is read-only. Summaries:
 * a file walk's hpctk_xfile and whether it visited every value; a trace
 * range's first/last timestamps (hpctk_tracedb seen*). */
typedef struct trace_unit {
	uint32_t from, to;                  /* lines */
	uint64_t bytes;
	hv_report rep;
	hpctk_xfile f;
	bool seen;
	uint64_t seen_min, seen_max;
} trace_unit;

typedef struct walk_set {
	hpctk_xdb x;
	hpctk_profiledb *prof;
	hpctk_cctdb *cct;
	hpctk_tracedb *trace;
	hpctk_xfile f[HPCTK_XFILES];
	hv_report sub[HPCTK_XFILES];
	bool complete[HPCTK_XFILES];        /* the walk visited every value */
	hpctk_trace_plan plan;
	trace_unit *tu;
	size_t ntu;
} walk_set;

enum { FILE_UNITS = 2 }; /* profile.db, cct.db; then the trace ranges */

static void walk_task(void *ctx, size_t i)
{
	walk_set *w = ctx;
	if (i >= FILE_UNITS) {
		trace_unit *u = &w->tu[i - FILE_UNITS];
		/* a copy: the walk records the timestamps it saw in it */
		hpctk_tracedb t = *w->trace;
		t.seen = false;
		hpctk_trace_visitor v = hpctk_xfile_trace_visitor(&u->f);
		hpctk_tracedb_lines(&t, &w->plan, &u->rep, &v, u->from, u->to);
		u->seen = t.seen;
		u->seen_min = t.seen_min;
		u->seen_max = t.seen_max;
		return;
	}
	hpctk_xfile *f = &w->f[i];
	if (i == HPCTK_XPROF && w->prof) {
		hpctk_prof_visitor v = hpctk_xfile_prof_visitor(f);
		hpctk_profiledb_walk(w->prof, f->r, &v);
		w->complete[i] = w->prof->complete;
		hpctk_xfile_prof_done(f);
	} else if (i == HPCTK_XCCT && w->cct) {
		hpctk_cct_visitor v = hpctk_xfile_cct_visitor(f);
		hpctk_cctdb_walk(w->cct, f->r, &v);
		w->complete[i] = w->cct->complete;
	}
}

static hv_report *walk_report(void *ctx, size_t i)
{
	walk_set *w = ctx;
	return i >= FILE_UNITS ? &w->tu[i - FILE_UNITS].rep : &w->sub[i];
}

static hv_blob *walk_blob(void *ctx, size_t i)
{
	walk_set *w = ctx;
	return i >= FILE_UNITS ? w->trace->b : i == HPCTK_XPROF && w->prof ? w->prof->b
		: i == HPCTK_XCCT && w->cct ? w->cct->b : NULL;
}

static uint64_t walk_size(void *ctx, size_t i)
{
	walk_set *w = ctx;
	if (i >= FILE_UNITS) return w->tu[i - FILE_UNITS].bytes;
	hv_blob *b = walk_blob(ctx, i);
	return b ? b->size : 0;
}

static void walk_save(void *ctx, size_t i, hv_wbuf *wb)
{
	walk_set *w = ctx;
	if (i < FILE_UNITS) {
		hpctk_xfile_save(&w->f[i], w->complete[i], wb);
		return;
	}
	const trace_unit *u = &w->tu[i - FILE_UNITS];
	hv_put_u64(wb, u->seen);
	hv_put_u64(wb, u->seen_min);
	hv_put_u64(wb, u->seen_max);
}

static bool walk_load(void *ctx, size_t i, hv_rbuf *rb)
{
	walk_set *w = ctx;
	if (i < FILE_UNITS) return hpctk_xfile_load(&w->f[i], &w->complete[i], rb);
	trace_unit *u = &w->tu[i - FILE_UNITS];
	u->seen = hv_get_bool(rb);
	u->seen_min = hv_get_u64(rb);
	u->seen_max = hv_get_u64(rb);
	return !rb->failed;
}

/* Consecutive lines of about opt->unit_bytes of elements each (at most
 * HV_UNITS_MAX ranges; a line is never split). */
static void plan_trace_units(const hv_options *opt, walk_set *w, hv_report *r)
{
	const hpctk_trace_plan *p = &w->plan;
	uint64_t total = 0;
	for (uint32_t i = 0; i < p->n; i++) total += p->bytes[i];
	uint64_t per = hv_unit_bytes(opt, total);
	size_t cap = 1;
	for (uint64_t acc = 0, i = 0; i < p->n; i++) {
		acc += p->bytes[i];
		if (acc >= per && i + 1 < p->n) cap++, acc = 0;
	}
	w->tu = calloc(cap, sizeof *w->tu);
	if (!w->tu) {
		hv_report_internal(r, "out of memory planning trace.db's lines");
		return;
	}
	trace_unit *u = &w->tu[0];
	u->from = 0;
	w->ntu = 1;
	for (uint32_t i = 0; i < p->n; i++) {
		u->bytes += p->bytes[i];
		if (u->bytes >= per && i + 1 < p->n && w->ntu < cap) {
			u->to = i + 1;
			u = &w->tu[w->ntu++];
			u->from = i + 1;
		}
	}
	u->to = p->n;
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
	/* trace.db's headers first (every process reads them), then its
	 * lines in ranges; without a plan, no range. */
	if (w.trace) {
		hpctk_trace_visitor v = hpctk_xfile_trace_visitor(&w.f[HPCTK_XTRACE]);
		hpctk_tracedb_prepare(w.trace, &w.sub[HPCTK_XTRACE], &v, &w.plan);
		plan_trace_units(opt, &w, r);
		for (size_t k = 0; k < w.ntu; k++) {
			hv_report_init(&w.tu[k].rep, r->input_path, r->max_diags);
			hpctk_xfile_init(&w.tu[k].f, &w.x, HPCTK_XTRACE, &w.tu[k].rep);
		}
	}
	hv_units u = {.n = FILE_UNITS + w.ntu, .ctx = &w, .check = walk_task, .report = walk_report, .save = walk_save,
		      .load = walk_load, .blob = walk_blob, .size = walk_size};
	hv_run_units(opt, &u);
	/* In file order, trace.db's ranges in line order: as one walk would. */
	for (int i = 0; i < HPCTK_XFILES; i++) hv_report_merge(r, &w.sub[i]);
	for (size_t k = 0; k < w.ntu; k++) {
		trace_unit *t = &w.tu[k];
		hv_report_merge(r, &t->rep);
		if (!t->seen) continue;
		trace.seen_min = !trace.seen || t->seen_min < trace.seen_min ? t->seen_min : trace.seen_min;
		trace.seen_max = !trace.seen || t->seen_max > trace.seen_max ? t->seen_max : trace.seen_max;
		trace.seen = true;
	}
	if (w.trace) hpctk_tracedb_finish(w.trace, &w.plan, r);
	hpctk_xdb_finish(&w.x, r, w.f, prof_open && w.complete[HPCTK_XPROF], cct_open && w.complete[HPCTK_XCCT]);
	for (int i = 0; i < HPCTK_XFILES; i++) {
		hpctk_xfile_free(&w.f[i]);
		hv_report_free(&w.sub[i]);
	}
	for (size_t k = 0; k < w.ntu; k++) {
		hpctk_xfile_free(&w.tu[k].f);
		hv_report_free(&w.tu[k].rep);
	}
	free(w.tu);
	hpctk_xdb_free(&w.x);
	hpctk_metadb_summary_free(&meta);
}

const hv_family hv_family_hpctoolkit = {
	.name = "hpctoolkit",
	.claims = hpctoolkit_claims,
	.check_set = hpctoolkit_check_set,
};
