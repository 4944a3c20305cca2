/* The HPCToolkit data files as generator kinds: "profiledb", "cctdb",
 * "tracedb" (one file each) and "hpctoolkit-db" (a directory with meta.db
 * from the meta.db writer plus the three files here, all from one model so
 * they agree). `--break` looks the rule up in the break tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "database_break.h"
#include "taxonomy.h"

static const char *const whats[] = {"profiledb", "cctdb", "tracedb", "hpctoolkit-db", NULL};

/* Real release databases carry ctxIds of elided contexts in profile.db and
 * cct.db (hpcprof drops instruction-level "enclosure" contexts from meta.db
 * only; research/hpctoolkit.md §3.2: every sample does). So every valid
 * release output elides some, as hpcprof does; the validator notes it
 * (hpctkdb.ctx.elided), which a valid output may. A --break output elides
 * only for that note's own break, so the broken rule is the only one firing.
 * The draft has no elision: its ctxIds all come from meta.db. */
static bool elides(const gen_params *p, const hk_break *br)
{
	if (p->break_rule) return br && br->elide;
	return p->edition != HV_EDITION_DRAFT;
}

const hk_break *hk_find_break(const char *rule)
{
	const hk_break *const tables[] = {hk_breaks_profiledb, hk_breaks_cctdb, hk_breaks_tracedb, hk_breaks_crossdb};
	for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
		for (const hk_break *b = tables[t]; b->rule; b++)
			if (strcmp(b->rule, rule) == 0) return b;
	return NULL;
}

static bool can_break(const char *what, const char *rule, enum hv_edition edition)
{
	const hk_break *b = hk_find_break(rule);
	if (!b || strcmp(b->kind, what) != 0) return false;
	unsigned ed = edition == HV_EDITION_DRAFT ? HK_DRAFT : HK_RELEASE;
	return (b->eds & ed) != 0;
}

static int make_meta(hk_ctx *c, char *err, size_t errlen)
{
	gen_params mp = *c->gp;
	mp.what = "metadb";
	mp.break_rule = NULL;
	c->meta_out = calloc(1, sizeof *c->meta_out);
	if (!c->meta_out) return -1;
	if (gen_generate(&mp, c->meta_out, err, errlen) != 0) return -1;
	if (c->meta_out->n != 1) {
		snprintf(err, errlen, "meta.db writer produced %zu files", c->meta_out->n);
		return -1;
	}
	c->meta = c->meta_out->files[0].data;
	c->meta_len = c->meta_out->files[0].len;
	return 0;
}

static void take(gen_output *out, const char *name, gen_buf *b)
{
	gen_add_file(out, name, b->data, b->len);
	memset(b, 0, sizeof *b);
}

static void ctx_free(hk_ctx *c)
{
	gen_buf_free(&c->prof);
	gen_buf_free(&c->cct);
	gen_buf_free(&c->trace);
	gen_buf_free(&c->tax);
	pdb_layout_free(&c->pl);
	cdb_layout_free(&c->cl);
	tdb_layout_free(&c->tl);
	if (c->meta_out) {
		gen_output_free(c->meta_out);
		free(c->meta_out);
	}
	hdb_free(&c->d);
}

static int generate(const gen_params *p, gen_output *out, char *err, size_t errlen)
{
	hk_ctx c;
	memset(&c, 0, sizeof c);
	const hk_break *br = p->break_rule ? hk_find_break(p->break_rule) : NULL;
	/* A break's output carries no value the validator cannot check (a
	 * note), except for the break of that note itself; nor scopes whose
	 * values hatchet shows in another's column (the point and lex_aware
	 * scopes keep values of their own here, where hpcprof's equal the
	 * function scope's), except for the break of that note. The two come
	 * together: the lex_aware scope brings both. */
	gen_params gp = *p;
	gp.plain_metrics = p->plain_metrics || (br && strcmp(br->rule, "hpctkdb.values.unverifiable") != 0 &&
						  strcmp(br->rule, "hpctkdb.metrics.reader-hazard-hatchet-scope") != 0);
	p = &gp;
	c.gp = p;
	bool db = strcmp(p->what, "hpctoolkit-db") == 0;
	c.want_meta = db;
	c.want_tax = db; /* hpcprof writes metrics/default.yaml into every database */
	c.want_prof = db || strcmp(p->what, "profiledb") == 0;
	c.want_cct = db || strcmp(p->what, "cctdb") == 0;
	c.want_trace = db || strcmp(p->what, "tracedb") == 0;
	c.elide = elides(p, br);
	int rc = -1;
	if (hdb_build(p, c.elide, &c.d, err, errlen) != 0) goto done;
	if (c.want_cct && c.d.n_prop > 0xffff) {
		snprintf(err, errlen, "%zu propMetricIds do not fit cct.db's u16 nMetrics", c.d.n_prop);
		goto done;
	}
	if (p->measured_bounds) {
		/* The gaps of a real hpcprof database (research/hpctoolkit.md
		 * §3.4): minTimestamp 64.6 ms before the first sample. */
		c.d.k.tdb_min_below = 64600123u;
		c.d.k.tdb_max_above = 1250000u;
	}
	if (br && br->pre) br->pre(&c);
	/* hpcprof writes no trace.db when no thread has samples. */
	if (db && !c.d.has_traces) c.want_trace = false;
	if (c.want_meta && make_meta(&c, err, errlen) != 0) goto done;
	/* Without a break nothing rewrites a file once written: each leaves
	 * (to the sink, when there is one) before the next is made, so a wide
	 * database holds one of its large files in memory at a time. */
	bool early = !br;
	if (early && c.want_meta) {
		gen_add_file(out, "meta.db", c.meta, c.meta_len);
		c.meta_out->n = 0; /* ownership moved */
		c.want_meta = false;
	}
	if (c.want_prof && gen_profiledb_write(&c.d, &c.prof, &c.pl) != 0) goto oom;
	if (early && c.want_prof) {
		if (c.prof.oom) goto oom;
		take(out, "profile.db", &c.prof);
		c.want_prof = false;
	}
	if (c.want_cct && gen_cctdb_write(&c.d, &c.cct, &c.cl) != 0) goto oom;
	if (early && c.want_cct) {
		if (c.cct.oom) goto oom;
		take(out, "cct.db", &c.cct);
		c.want_cct = false;
	}
	if (c.want_trace) {
		/* One break writes trace.db in the other edition's layout. */
		enum hv_edition ed = c.d.edition;
		if (c.d.k.tdb_other_edition)
			c.d.edition = ed == HV_EDITION_DRAFT ? HV_EDITION_RELEASE : HV_EDITION_DRAFT;
		int trc = gen_tracedb_write(&c.d, &c.trace, &c.tl);
		c.d.edition = ed;
		if (trc != 0) goto oom;
	}
	if (c.want_tax) {
		const char *tax_brk = br && strncmp(br->rule, "hpctkdb.taxonomy.", 17) == 0 ? br->rule : NULL;
		const char *why = NULL;
		if (gen_taxonomy_write(&c.d.m, tax_brk, &c.tax, &why) != 0) {
			if (!why) goto oom;
			c.fail = why;
		}
	}
	if (br && br->post) br->post(&c);
	if (c.fail) {
		snprintf(err, errlen, "cannot break %s with this shape: %s", p->break_rule, c.fail);
		goto done;
	}
	if (c.prof.oom || c.cct.oom || c.trace.oom || c.tax.oom) goto oom;
	if (c.want_meta) {
		gen_add_file(out, "meta.db", c.meta, c.meta_len);
		c.meta_out->n = 0; /* ownership moved */
	}
	if (c.want_prof) take(out, "profile.db", &c.prof);
	if (c.want_cct) take(out, "cct.db", &c.cct);
	if (c.want_trace) take(out, "trace.db", &c.trace);
	if (c.want_tax) take(out, "metrics/default.yaml", &c.tax);
	if (br && strcmp(br->rule, "hpctkdb.taxonomy.unread") == 0) {
		/* a taxonomy of other metrics beside default.yaml (as the spec's
		 * example saved there would be): no reader opens it */
		static const char example[] = "version: 0\ninputs:\n  - &a {metric: example, scope: execution, formula: $$, combine: sum}\n"
					      "roots:\n  - name: example\n    variants:\n      Sum:\n        render: [number]\n"
					      "        formula:\n          inclusive: {standard: [2, '*', *a]}\n";
		uint8_t *copy = malloc(sizeof example - 1);
		if (!copy) goto oom;
		memcpy(copy, example, sizeof example - 1);
		gen_add_file(out, "metrics/example.yaml", copy, sizeof example - 1);
	}
	out->is_set = db;
	rc = 0;
	goto done;
oom:
	snprintf(err, errlen, "out of memory");
done:
	ctx_free(&c);
	return rc;
}

const gen_family gen_family_hpctk_data = {"hpctoolkit-data", whats, generate, can_break, false};
