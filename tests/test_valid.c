/* Everything the generator writes without --break is conforming: every kind,
 * both editions, minor 0 and newer minors, several seeds and shapes.
 *
 * Conforming means no error and no warning. A newer minor may add only its
 * forward-compatibility warnings (rules named "...minor-newer"), and must
 * add one. Notes are information, never a fault (specs/README.md
 * §Severity), and real files carry some: every release database from
 * hpcprof elides ctxIds (hpctkdb.ctx.elided), a pre-0.6.6 DUMPI writer wrote
 * a shorter index (dumpi.index.legacy-layout). So notes may fire, but only
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
	"dumpi.index.legacy-layout", /* every dumpi-bin-X.Y.Z (pre-0.6.6) rank file */
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
	/* Writer options: tasks created and never run are still a valid ovni trace. */
	gen_params p;
	gen_params_default(&p);
	p.what = "ovni-trace-runtime";
	p.open_tasks = 3000;
	check_valid(&p);
	TAP_DONE();
}
