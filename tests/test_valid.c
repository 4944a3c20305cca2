/* Everything the generator writes without --break is conforming: every kind,
 * both editions, minor 0 and newer minors, several seeds and shapes.
 *
 * Conforming means no error and no warning. A newer minor may add only its
 * forward-compatibility warnings (rules named "...minor-newer"), and must
 * add one. Notes are information, never a fault (specs/README.md
 * §Severity), and real files carry some: every release database from
 * hpcprof elides ctxIds (hpctkdb.ctx.elided), a pre-0.6.6 DUMPI writer wrote
 * a shorter index (dumpi.index.legacy-layout); the layouts the readers
 * cannot read get their hazard notes (hpctkdb.edition.reader-hazard-draft,
 * ovni.tree.reader-hazard-legacy). So notes may fire, but only
 * the ones listed below, and the realistic ones must: a valid release
 * database that does not elide, or a legacy rank file read as modern, fails. */
#include "tap.h"
#include "testlib.h"

static bool is_minor_newer_rule(int rule) { return strstr(hv_rules[rule].id, "minor-newer") != NULL; }

static bool is_legacy_dumpi(const char *what) { return strncmp(what, "dumpi-bin-", 10) == 0; }

/* The notes a valid output may carry; the realistic ones are also required
 * where they apply (check_valid). */
static const char *const allowed_notes[] = {
	"hpctkdb.ctx.elided",        /* every valid release database */
	"hpctkdb.values.unverifiable", /* hpcprof's custom "lex_aware" scope (every real database) */
	"hpctkdb.metrics.reader-hazard-hatchet-scope", /* the writer's point and lex_aware values differ from the function scope's */
	"dumpi.index.legacy-layout", /* every dumpi-bin-X.Y.Z (pre-0.6.6) rank file */
	"hpctkdb.edition.reader-hazard-draft", /* every draft database: the readers read the release layout */
	"ovni.tree.reader-hazard-legacy", /* every v1/v2 tree: ovni 1.14 reads v3 only */
	NULL,
};

static bool note_allowed(int rule)
{
	for (size_t i = 0; allowed_notes[i]; i++)
		if (strcmp(hv_rules[rule].id, allowed_notes[i]) == 0) return true;
	return false;
}

static int rule_index(const char *id)
{
	int k = hv_rule_find(id);
	CHECK(k >= 0, "rule %s exists", id);
	return k;
}

static void check_valid(const gen_params *p)
{
	gen_output out;
	char err[256] = "";
	int rc = gen_generate(p, &out, err, sizeof err);
	CHECK(rc == 0, "%s (%s, minor %u, seed %llu): generator failed: %s", p->what, tl_edition_name(p->edition),
	      p->minor, (unsigned long long)p->seed, err);
	if (rc != 0) return;
	const enum hv_edition modes[] = {HV_EDITION_AUTO, p->edition};
	for (size_t m = 0; m < 2; m++) {
		hv_options opt = {.edition = modes[m], .max_diags = 1000};
		hv_report r;
		tl_validate(&out, &opt, &r);
		int bad = 0;
		for (int j = 0; j < HV_RULE_COUNT; j++) {
			if (r.failed[j] == 0) continue;
			if (p->minor > 0 && is_minor_newer_rule(j)) continue;
			if (hv_rules[j].severity == HV_SEV_NOTE && note_allowed(j)) continue;
			bad++;
		}
		/* At minor 0 even --strict (warnings fail) accepts: notes never fail. */
		CHECK(bad == 0 && hv_report_exit_code(&r, false) == 0 && (p->minor > 0 || hv_report_exit_code(&r, true) == 0),
		      "%s (%s, minor %u, seed %llu, contexts %u, validated as %s): %d rule(s) fired", p->what,
		      tl_edition_name(p->edition), p->minor, (unsigned long long)p->seed, p->contexts,
		      tl_edition_name(modes[m]), bad);
		if (bad) tl_dump(&r);
		/* The checks really ran: a valid output passes many rules, not none. */
		CHECK(hv_report_rules_checked(&r) >= 10, "%s: only %zu rules evaluated", p->what,
		      hv_report_rules_checked(&r));
		if (p->minor > 0 && m == 0) {
			bool warned = false;
			for (int j = 0; j < HV_RULE_COUNT; j++) warned |= is_minor_newer_rule(j) && r.failed[j] > 0;
			CHECK(warned, "%s minor %u: no minor-newer warning", p->what, p->minor);
		}
		/* Realism: hpcprof's release databases always elide ctxIds; the
		 * draft has no elision. */
		if (strcmp(p->what, "hpctoolkit-db") == 0) {
			bool release = p->edition != HV_EDITION_DRAFT;
			int k = rule_index("hpctkdb.ctx.elided");
			CHECK((r.failed[k] > 0) == release, "%s (%s, seed %llu): elided ctxIds %s", p->what,
			      tl_edition_name(p->edition), (unsigned long long)p->seed,
			      release ? "missing (hpcprof always elides some)" : "noted in the draft edition");
		}
		/* The readers' hazard notes on the layouts they cannot read, and
		 * only there (a draft database read as the draft). */
		if (strcmp(p->what, "hpctoolkit-db") == 0) {
			bool draft = r.edition[0] && strcmp(r.edition, "draft") == 0;
			int k = rule_index("hpctkdb.edition.reader-hazard-draft");
			CHECK((r.failed[k] > 0) == draft, "%s (%s, seed %llu): draft reader-hazard note %s", p->what,
			      tl_edition_name(p->edition), (unsigned long long)p->seed, draft ? "missing" : "on a release database");
		}
		if (strncmp(p->what, "ovni-trace", 10) == 0) {
			bool legacy = strcmp(p->what, "ovni-trace-v1") == 0 || strcmp(p->what, "ovni-trace-v2") == 0;
			int k = rule_index("ovni.tree.reader-hazard-legacy");
			CHECK((r.failed[k] > 0) == legacy, "%s: legacy-tree reader-hazard note %s", p->what,
			      legacy ? "missing" : "on a v3 tree");
		}
		if (strncmp(p->what, "dumpi-bin", 9) == 0) {
			int k = rule_index("dumpi.index.legacy-layout");
			CHECK((r.failed[k] > 0) == is_legacy_dumpi(p->what), "%s: legacy index note %s", p->what,
			      is_legacy_dumpi(p->what) ? "missing" : "on a 0.6.6+ file");
		}
		if (p->edition != HV_EDITION_AUTO && r.edition[0] && m == 0)
			CHECK(strcmp(r.edition, tl_edition_name(p->edition)) == 0, "%s: detected edition %s, wrote %s",
			      p->what, r.edition, tl_edition_name(p->edition));
		hv_report_free(&r);
	}
	gen_output_free(&out);
}

/* A sink of file names and sizes: files arrive one at a time, in order. */
typedef struct sink_count {
	size_t files, bins, bytes;
	bool ordered;
	char last[128];
} sink_count;

static int count_file(void *ctx, const char *name, const uint8_t *data, size_t len)
{
	sink_count *c = ctx;
	(void)data;
	c->files++;
	c->bytes += len;
	if (strstr(name, ".bin")) {
		if (c->bins && strcmp(c->last, name) >= 0) c->ordered = false;
		snprintf(c->last, sizeof c->last, "%s", name);
		c->bins++;
	}
	return 0;
}

/* Past GEN_MAX_FILES files a trace needs a sink: gen_generate refuses it,
 * gen_generate_to hands every file over and keeps none. */
static void check_wide(void)
{
	gen_params p;
	gen_params_default(&p);
	p.what = "dumpi-trace";
	p.pattern = GEN_PATTERN_STENCIL3D;
	p.profiles = 1000;
	gen_output out;
	char err[256] = "";
	CHECK(gen_generate(&p, &out, err, sizeof err) != 0 && strstr(err, "at most 63"), "1000 ranks in memory: %s", err);
	sink_count c = {.ordered = true};
	int rc = gen_generate_to(&p, &out, count_file, &c, err, sizeof err);
	CHECK(rc == 0 && c.files == 1001 && c.bins == 1000 && c.ordered && out.n == 0 && out.sunk == 1001 && out.is_set,
	      "1000 ranks to a sink: rc %d, %zu files, %zu rank files, kept %zu (%s)", rc, c.files, c.bins, out.n, err);
	gen_output_free(&out);
	/* the program alone: no break, no other writer option */
	p.profiles = 8;
	p.in_flight = 2;
	CHECK(gen_generate(&p, &out, err, sizeof err) != 0, "stencil3d with --in-flight refused");
}

int main(void)
{
	const enum hv_edition eds[] = {HV_EDITION_RELEASE, HV_EDITION_DRAFT};
	const unsigned minors[] = {0, 1, 7};
	const unsigned shapes[][2] = {{0, 0}, {1, 1}, {200, 12}}; /* contexts, depth (0 = default) */
	for (size_t f = 0; gen_families[f]; f++) {
		if (gen_families[f]->never_valid) continue;
		for (size_t k = 0; gen_families[f]->whats[k]; k++)
			for (size_t e = 0; e < 2; e++)
				for (size_t m = 0; m < 3; m++)
					for (uint64_t seed = 1; seed <= 3; seed++) {
						gen_params p;
						gen_params_default(&p);
						p.what = gen_families[f]->whats[k];
						/* a legacy DUMPI kind writes one old version: no newer minor */
						if (is_legacy_dumpi(p.what) && minors[m] > 0) continue;
						p.edition = eds[e];
						p.minor = minors[m];
						p.seed = seed;
						p.contexts = shapes[seed - 1][0];
						p.depth = shapes[seed - 1][1];
						check_valid(&p);
					}
	}
	/* --pattern=stencil3d at widths with one, two and three dimensions
	 * (prime, 2 x 2 x 3, 3 x 3 x 3, 4 x 4 x 4), one iteration and several. */
	const unsigned widths[] = {1, 2, 7, 12, 27, 63};
	for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
		for (unsigned records = 0; records <= 100; records += 100) {
			gen_params q;
			gen_params_default(&q);
			q.what = "dumpi-trace";
			q.pattern = GEN_PATTERN_STENCIL3D;
			q.profiles = widths[w];
			q.contexts = records;
			q.seed = 1 + w;
			check_valid(&q);
		}
	check_wide();
	/* Writer options: tasks created and never run are still a valid ovni trace. */
	gen_params p;
	gen_params_default(&p);
	p.what = "ovni-trace-runtime";
	p.open_tasks = 3000;
	check_valid(&p);
	/* At width: two looms of 16 streams (64 files, all gen_generate holds),
	 * and one of 32 streams, where a node runs 4 processes. */
	gen_params_default(&p);
	p.what = "ovni-trace-runtime";
	p.profiles = 16;
	p.looms = 2;
	p.trace_len = 300;
	check_valid(&p);
	p.profiles = 32;
	p.looms = 1;
	check_valid(&p);
	TAP_DONE();
}
