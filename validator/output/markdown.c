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
