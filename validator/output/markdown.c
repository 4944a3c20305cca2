/* docs/RULES.md, generated from the rule table (`hpcvet rules --format=markdown`). */
#include <string.h>

#include "output.h"

/* Table cells cannot hold a bare '|'. */
static void cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|') fputs("\\|", out);
		else fputc(*s, out);
	}
}

static void anchor(FILE *out, const char *id)
{
	for (; *id; id++)
		if (*id != '.') fputc(*id, out);
}

void hv_write_rules_markdown(FILE *out)
{
	fputs("# hpcvet rules\n\n"
	      "Generated from the rule table (`validator/**/*_rules.def`) by `make docs`; do not edit.\n"
	      "Rule IDs are stable: they are never renamed or reused.\n\n"
	      "Severities: *error* — the file breaks the spec or the reference reader would refuse or\n"
	      "misread it; *warning* — legal but suspicious, or not checkable (newer minor version);\n"
	      "*note* — information. An input is conforming when it has no error.\n\n",
	      out);
	/* What the clause column's codes stand for: every code used in a
	 * *_rules.def clause must be here (tests/docs.test.sh). */
	fputs("Clauses name where a rule comes from, in these codes:\n\n"
	      "| code | source |\n|---|---|\n"
	      "| `R` | HPCToolkit: FORMATS.md as released with HPCToolkit (2022.10 on), the layout hpcprof "
	      "writes; `§` names its section |\n"
	      "| `D` | HPCToolkit: the early draft of FORMATS.md v4.0 (the draft edition); `R,D`: both texts |\n"
	      "| `METRICS` | HPCToolkit: its metric taxonomy specified by example (`doc/METRICS.yaml`), with the "
	      "keys concerned |\n"
	      "| `YAML 1.2 §n` | the YAML specification, version 1.2 |\n"
	      "| `S3`, `S1` | ovni's trace specification, version 3 (ovni `doc/user/runtime/trace_spec.md`) "
	      "and version 1 (v1/v2 trees) |\n"
	      "| `EV` | ovni 1.14's table of emulator events (ovni `doc/user/emulation/events.md`), with the "
	      "events concerned as model, category and value letters (`OHx`) |\n"
	      "| `MV` | ovni 1.14's model versions (ovni `doc/user/emulation/versions.md`) |\n"
	      "| `T.n` | sst-dumpi's notes on the `.bin` layout (`docs/traceformat.dox`), part n |\n"
	      "| `MPI-3.1 §n` | the MPI standard, version 3.1 |\n"
	      "| `ovni src/...`, `ovni test/...`, `sst-dumpi ...` | the reference writer's or reader's "
	      "source (ovni 1.14, sst-dumpi a4c8bf5) where the spec is silent or wrong and the rule follows "
	      "what the code does |\n"
	      "| `validator/.../README.md §...` | hpcvet's reading of the spec (an erratum, a tolerance), "
	      "explained in that file of this repository |\n"
	      "| `hpcvet: ...` | hpcvet's own decision |\n\n",
	      out);
	fprintf(out, "%d rules.\n\n", HV_RULE_COUNT);
	const char *fmt = NULL;
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		const hv_rule_info *ri = &hv_rules[i];
		if (!fmt || strcmp(fmt, ri->format) != 0) {
			fmt = ri->format;
			fprintf(out, "\n## %s\n\n| rule | severity | clause | summary |\n|---|---|---|---|\n", fmt);
		}
		fprintf(out, "| [`%s`](#", ri->id);
		anchor(out, ri->id);
		fprintf(out, ") | %s | ", hv_sev_name(ri->severity));
		cell(out, ri->clause);
		fputs(" | ", out);
		cell(out, ri->summary);
		fputs(" |\n", out);
	}
	fputs("\n## Details\n", out);
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		const hv_rule_info *ri = &hv_rules[i];
		fprintf(out, "\n### %s\n\n*%s* · %s · %s\n\n%s.\n\n%s\n", ri->id, hv_sev_name(ri->severity), ri->format,
			ri->clause, ri->summary, ri->detail);
	}
}
