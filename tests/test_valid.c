/* Everything the generator writes without --break is conforming: every kind,
 * both editions, minor 0 and newer minors, several seeds and shapes. A newer
 * minor may only add its forward-compatibility warnings. */
#include "tap.h"
#include "testlib.h"

static bool is_minor_newer_rule(int rule) { return strstr(hv_rules[rule].id, "minor-newer") != NULL; }

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
			bad++;
		}
		CHECK(bad == 0 && hv_report_exit_code(&r, false) == 0,
		      "%s (%s, minor %u, seed %llu, contexts %u, validated as %s): %d rule(s) fired", p->what,
		      tl_edition_name(p->edition), p->minor, (unsigned long long)p->seed, p->contexts,
		      tl_edition_name(modes[m]), bad);
		if (bad) tl_dump(&r);
		if (p->minor > 0 && m == 0) {
			bool warned = false;
			for (int j = 0; j < HV_RULE_COUNT; j++) warned |= is_minor_newer_rule(j) && r.failed[j] > 0;
			CHECK(warned, "%s minor %u: no minor-newer warning", p->what, p->minor);
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
						p.edition = eds[e];
						p.minor = minors[m];
						p.seed = seed;
						p.contexts = shapes[seed - 1][0];
						p.depth = shapes[seed - 1][1];
						check_valid(&p);
					}
	}
	TAP_DONE();
}
