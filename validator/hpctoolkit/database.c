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

#include "core/alloc.h"
#include "core/hv_int.h"
#include "core/units.h"
#include "core/zmem.h"
#include "hpctoolkit/cctdb/cctdb.h"
#include "hpctoolkit/crossdb/crossdb.h"
#include "hpctoolkit.h"
#include "hpctoolkit/profiledb/profiledb.h"
#include "hpctoolkit/taxonomy/taxonomy.h"
#include "hpctoolkit/tracedb/tracedb.h"

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

/* metrics/NAME.yaml (the metric taxonomy) belongs to the database too. */
static bool hpctoolkit_claims(hv_blob *b) { return role_of(b) >= 0 || hpctk_is_taxonomy_name(b->name); }

static const char *edition_name(enum hv_edition e)
{
	return e == HV_EDITION_DRAFT ? "draft" : e == HV_EDITION_RELEASE ? "release" : "";
}

static void warn_missing(hv_report *r, int rule, const char *what)
{
	hv_eval(r, rule, false);
	hv_emit(r, rule, r->input_path, 0, 0, "", "%s", what);
}

static void check_missing(hv_report *r, hv_blob *const role[ROLE_COUNT], bool has_default_taxonomy)
{
	/* A whole database (meta.db with its data) without the taxonomy: the
	 * reference reader refuses it. A partial set says nothing about it. */
	bool whole = role[ROLE_META] && (role[ROLE_PROF] || role[ROLE_CCT]);
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_MISSING, !whole || has_default_taxonomy))
		warn_missing(r, HV_R_HPCTKDB_TAXONOMY_MISSING,
			     "no metrics/default.yaml in the database: hpcprof writes this metric taxonomy into every "
			     "database, and hpcviewer opens no database without it (hatchet refuses it too)");
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

/* The data files' walks as units of work (core/units.h): ranges of
 * profile.db's profiles, then ranges of cct.db's contexts, then ranges of
 * trace.db's lines. What every unit needs is read first, by every process:
 * each file's headers, profile.db's identifier tuples and every {PI} and
 * {CI} block's layout (the overlap sweeps), trace.db's line headers. Each
 * unit writes its own report and cross-file state (hpctk_xfile: transpose
 * digests, elided contexts, the summary statistics' differences; a trace
 * range's first/last timestamps); all else is read-only. After the units,
 * reports and states are merged in unit order, as one walk of each file
 * would have produced them. */
typedef struct range_unit {
	int which;                          /* HPCTK_XPROF, HPCTK_XCCT, HPCTK_XTRACE */
	uint32_t from, to;                  /* profiles, contexts or lines */
	uint64_t bytes;
	hv_report rep;
	hpctk_xfile f;
	bool complete;                      /* profile.db / cct.db: every value of the range was visited */
	bool seen;
	uint64_t seen_min, seen_max;
} range_unit;

typedef struct walk_set {
	hpctk_xdb x;
	hpctk_profiledb *prof;
	hpctk_cctdb *cct;
	hpctk_tracedb *trace;
	hpctk_xfile f[HPCTK_XFILES];        /* each file's merged state */
	hv_report sub[HPCTK_XFILES];        /* each file's prepare */
	hpctk_prof_walk pw;
	hpctk_cct_walk cw;
	bool pw_ok, cw_ok;
	hpctk_trace_plan plan;
	range_unit *u;
	size_t nu, cap;
	hv_window sw;                       /* reads the blocks' sizes while planning */
	hpctk_digest *prof_digs;            /* the profile.db units' digests, one table (or NULL) */
	size_t prof_digs_len;
} walk_set;

/* profile.db's units each hold a digest per cct.db context, all alive
 * until the merge: one zeroed table for them all (huge pages where
 * offered), not a calloc each, whose first touches were thousands of
 * page faults. NULL (each its own) when there is none or no memory. */
static void prof_digests(walk_set *w)
{
	size_t np = 0;
	for (size_t k = 0; k < w->nu; k++) np += w->u[k].which == HPCTK_XPROF;
	if (!w->x.transpose || np < 2) return;
	size_t per = w->x.cct->ci.n; /* bounded by cct.db's {CI} bytes; np by the digest budget */
	if (per == 0 || np > SIZE_MAX / sizeof *w->prof_digs / per) return;
	w->prof_digs_len = np * per * sizeof *w->prof_digs;
	w->prof_digs = hv_zalloc_big(w->prof_digs_len);
}

static void walk_task(void *ctx, size_t i)
{
	walk_set *w = ctx;
	range_unit *u = &w->u[i];
	hpctk_xfile_unit_begin(&u->f);
	if (u->which == HPCTK_XTRACE) {
		/* a copy: the walk records the timestamps it saw in it */
		hpctk_tracedb t = *w->trace;
		t.seen = false;
		hpctk_trace_visitor v = hpctk_xfile_trace_visitor(&u->f);
		hpctk_tracedb_lines(&t, &w->plan, &u->rep, &v, u->from, u->to);
		u->seen = t.seen;
		u->seen_min = t.seen_min;
		u->seen_max = t.seen_max;
	} else if (u->which == HPCTK_XPROF) {
		hpctk_prof_visitor v = hpctk_xfile_prof_visitor(&u->f);
		u->complete = hpctk_profiledb_range(w->prof, &w->pw, &u->rep, &v, u->from, u->to);
		hpctk_xfile_prof_done(&u->f);
	} else {
		hpctk_cct_visitor v = hpctk_xfile_cct_visitor(&u->f);
		u->complete = hpctk_cctdb_range(w->cct, &w->cw, &u->rep, &v, u->from, u->to);
	}
	hpctk_xfile_unit_done(&u->f);
}

static hv_report *walk_report(void *ctx, size_t i) { return &((walk_set *)ctx)->u[i].rep; }

static hv_blob *walk_blob(void *ctx, size_t i)
{
	walk_set *w = ctx;
	int k = w->u[i].which;
	return k == HPCTK_XTRACE ? w->trace->b : k == HPCTK_XPROF ? w->prof->b : w->cct->b;
}

static uint64_t walk_size(void *ctx, size_t i) { return ((walk_set *)ctx)->u[i].bytes; }

static void walk_save(void *ctx, size_t i, hv_wbuf *wb)
{
	range_unit *u = &((walk_set *)ctx)->u[i];
	if (u->which != HPCTK_XTRACE) {
		hpctk_xfile_save(&u->f, u->complete, wb);
		return;
	}
	hv_put_u64(wb, u->seen);
	hv_put_u64(wb, u->seen_min);
	hv_put_u64(wb, u->seen_max);
}

static bool walk_load(void *ctx, size_t i, hv_rbuf *rb)
{
	range_unit *u = &((walk_set *)ctx)->u[i];
	if (u->which != HPCTK_XTRACE) return hpctk_xfile_load(&u->f, &u->complete, rb);
	u->seen = hv_get_bool(rb);
	u->seen_min = hv_get_u64(rb);
	u->seen_max = hv_get_u64(rb);
	return !rb->failed;
}

/* Split n items of sizes size(i) into ranges of about `per` bytes (a range
 * ends after the item that reaches it), appended as units of `which`. */
static bool plan_ranges(walk_set *w, int which, uint32_t n, uint64_t per, uint64_t (*size)(walk_set *, uint32_t))
{
	uint32_t from = 0;
	uint64_t acc = 0;
	for (uint32_t i = 0; i < n; i++) {
		acc += size(w, i);
		if ((acc < per || i + 1 == n) && i + 1 < n) continue;
		if (!HV_GROW(w->u, w->cap, w->nu + 1, 16)) return false;
		w->u[w->nu++] = (range_unit){.which = which, .from = from, .to = i + 1, .bytes = acc};
		from = i + 1;
		acc = 0;
	}
	return true;
}

static uint64_t trace_size(walk_set *w, uint32_t i) { return w->plan.bytes[i]; }
static uint64_t prof_size(walk_set *w, uint32_t i) { return hpctk_profiledb_block_bytes(w->prof, &w->sw, i); }
static uint64_t cct_size(walk_set *w, uint32_t i) { return hpctk_cctdb_block_bytes(w->cct, &w->sw, i); }

/* Bytes per unit for n items of a file (sizes read once), at most `max` units. */
static uint64_t per_unit(const hv_options *opt, walk_set *w, uint32_t n, uint64_t (*size)(walk_set *, uint32_t),
			 uint64_t max)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < n; i++) total = hv_add_sat(total, size(w, i));
	uint64_t per = hv_unit_bytes(opt, total);
	if (max && total / per >= max) per = total / max + 1;
	return per;
}

/* profile.db's units each hold a digest per cct.db context (the transpose
 * is profile-major there): their number is capped so that those stay
 * within this budget together. */
#define PROF_UNITS_DIGEST_BUDGET (32ull << 20)

static void plan_units(const hv_options *opt, walk_set *w, hv_report *r)
{
	bool ok = true;
	if (w->pw_ok && w->prof->pi.n && hv_window_init(&w->sw, w->prof->b, hpctk_window_cap)) {
		uint64_t dig = (uint64_t)(w->x.transpose ? w->cct->ci.n : 0) * sizeof(hpctk_digest);
		uint64_t max = dig ? PROF_UNITS_DIGEST_BUDGET / dig : 0;
		uint64_t per = per_unit(opt, w, w->prof->pi.n, prof_size, max ? max : 1);
		if (!dig) per = per_unit(opt, w, w->prof->pi.n, prof_size, 0);
		ok = plan_ranges(w, HPCTK_XPROF, w->prof->pi.n, per, prof_size);
		hv_window_free(&w->sw);
	}
	if (ok && w->cw_ok && w->cct->ci.n && hv_window_init(&w->sw, w->cct->b, hpctk_window_cap)) {
		uint64_t per = per_unit(opt, w, w->cct->ci.n, cct_size, 0);
		ok = plan_ranges(w, HPCTK_XCCT, w->cct->ci.n, per, cct_size);
		hv_window_free(&w->sw);
	}
	if (ok && w->trace && w->plan.n) ok = plan_ranges(w, HPCTK_XTRACE, w->plan.n, per_unit(opt, w, w->plan.n, trace_size, 0), trace_size);
	if (!ok) {
		hv_report_internal(r, "out of memory planning the units of work");
		w->nu = 0;
	}
}

static void hpctoolkit_check_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r)
{
	hv_blob *role[ROLE_COUNT] = {0};
	bool has_default_taxonomy = false;
	for (size_t i = 0; i < n; i++) {
		int k = role_of(&files[i]);
		if (k >= 0 && !role[k]) role[k] = &files[i];
		if (k < 0) has_default_taxonomy |= hpctk_is_default_taxonomy(files[i].name);
	}
	snprintf(r->format, sizeof r->format, "hpctoolkit database");
	snprintf(r->version, sizeof r->version, "4.0");
	hpctk_metadb_summary meta = {0};
	uint8_t *hatchet_role = NULL; /* the taxonomy's columns as hatchet reads them */
	if (role[ROLE_META]) hpctk_check_metadb(opt, role[ROLE_META], r, &meta);
	check_missing(r, role, has_default_taxonomy);
	/* The taxonomies, each against meta.db's metrics, in name order. */
	for (size_t i = 0; i < n; i++)
		if (role_of(&files[i]) < 0 && hpctk_is_taxonomy_name(files[i].name)) {
			/* the readers open metrics/default.yaml alone */
			if (hpctk_is_default_taxonomy(files[i].name))
				hpctk_check_taxonomy(opt, &files[i], r, role[ROLE_META] ? &meta : NULL,
						     hatchet_role ? NULL : &hatchet_role);
			else
				hpctk_note_unread_taxonomy(&files[i], r);
		}

	enum hv_edition ev_prof, ev_trace;
	enum hv_edition ed = decide_edition(opt, r, &meta, role, &ev_prof, &ev_trace);
	snprintf(r->edition, sizeof r->edition, "%s", edition_name(ed));
	/* once per database: the readers read the release layout only */
	if (!hv_eval(r, HV_R_HPCTKDB_EDITION_READER_HAZARD_DRAFT, ed != HV_EDITION_DRAFT)) {
		hv_blob *at = role[ROLE_META] ? role[ROLE_META] : role[ROLE_PROF] ? role[ROLE_PROF] : role[ROLE_TRACE] ? role[ROLE_TRACE] : role[ROLE_CCT];
		hv_emit(r, HV_R_HPCTKDB_EDITION_READER_HAZARD_DRAFT, at ? at->name : "", 0, 0, at ? hv_basename(at->name) : "",
			"the database is in the draft edition: hpcviewer 2025.01 (IndexOutOfBoundsException), hatchet 1.4.0 "
			"and pipit 0.1.0 (KeyError) read only the release layout and fail on it; write the release edition "
			"for them");
	}

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
	hpctk_xdb_init(&w.x, ed, role[ROLE_META] ? &meta : NULL, w.prof, w.cct, w.trace, hatchet_role);
	free(hatchet_role);
	for (int i = 0; i < HPCTK_XFILES; i++) {
		hv_report_init(&w.sub[i], r->input_path, r->max_diags);
		hpctk_xfile_init(&w.f[i], &w.x, i, &w.sub[i]);
	}
	/* What every process reads first (into each file's own report), then
	 * the units; each file's own xfile merges the units' summaries. */
	if (w.prof) {
		hpctk_prof_visitor v = hpctk_xfile_prof_visitor(&w.f[HPCTK_XPROF]);
		w.pw_ok = hpctk_profiledb_prepare(w.prof, &w.sub[HPCTK_XPROF], &v, &w.pw);
	}
	if (w.cct) w.cw_ok = hpctk_cctdb_prepare(w.cct, &w.sub[HPCTK_XCCT], &w.cw);
	if (w.trace) {
		hpctk_trace_visitor v = hpctk_xfile_trace_visitor(&w.f[HPCTK_XTRACE]);
		hpctk_tracedb_prepare(w.trace, &w.sub[HPCTK_XTRACE], &v, &w.plan);
	}
	plan_units(opt, &w, r);
	prof_digests(&w);
	for (size_t k = 0, kp = 0; k < w.nu; k++) {
		range_unit *t = &w.u[k];
		hv_report_init(&t->rep, r->input_path, r->max_diags);
		hpctk_digest *dig = NULL;
		if (t->which == HPCTK_XPROF && w.prof_digs) dig = w.prof_digs + (size_t)kp++ * w.x.cct->ci.n;
		hpctk_xfile_init_range_in(&t->f, &w.x, t->which, &t->rep, t->from, t->to - t->from, dig);
	}
	hv_units u = {.n = w.nu, .ctx = &w, .check = walk_task, .report = walk_report, .save = walk_save,
		      .load = walk_load, .blob = walk_blob, .size = walk_size};
	hv_run_units(opt, &u);
	/* In file order, each file's ranges in order: as one walk would. */
	bool complete[HPCTK_XFILES] = {w.pw_ok && w.pw.complete, w.cw_ok && w.cw.complete, true};
	for (int i = 0; i < HPCTK_XFILES; i++) {
		hv_report_merge(r, &w.sub[i]);
		for (size_t k = 0; k < w.nu; k++) {
			range_unit *t = &w.u[k];
			if (t->which != i) continue;
			hv_report_merge(r, &t->rep);
			if (i != HPCTK_XTRACE) {
				hpctk_xfile_merge(&w.f[i], &t->f);
				complete[i] = complete[i] && t->complete;
				continue;
			}
			if (!t->seen) continue;
			trace.seen_min = !trace.seen || t->seen_min < trace.seen_min ? t->seen_min : trace.seen_min;
			trace.seen_max = !trace.seen || t->seen_max > trace.seen_max ? t->seen_max : trace.seen_max;
			trace.seen = true;
		}
	}
	if (w.trace) hpctk_tracedb_finish(w.trace, &w.plan, r);
	hpctk_xdb_finish(&w.x, r, w.f, prof_open && complete[HPCTK_XPROF], cct_open && complete[HPCTK_XCCT]);
	for (int i = 0; i < HPCTK_XFILES; i++) {
		hpctk_xfile_free(&w.f[i]);
		hv_report_free(&w.sub[i]);
	}
	for (size_t k = 0; k < w.nu; k++) {
		hpctk_xfile_free(&w.u[k].f);
		hv_report_free(&w.u[k].rep);
	}
	free(w.u);
	hv_zfree_big(w.prof_digs, w.prof_digs_len);
	hpctk_profiledb_prepared_free(&w.pw);
	hpctk_cctdb_prepared_free(&w.cw);
	hpctk_xdb_free(&w.x);
	hpctk_metadb_summary_free(&meta);
}

const hv_family hv_family_hpctoolkit = {
	.name = "hpctoolkit",
	.claims = hpctoolkit_claims,
	.check_set = hpctoolkit_check_set,
};
