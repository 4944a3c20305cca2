/* A minimal program using the public hpcvet API: validate each path given
 * (a file or a directory), print its diagnostics and verdict, and exit like
 * the hpcvet program does (the highest verdict code wins).
 *
 * Build against an installed hpcvet:
 *     cc validate.c $(pkg-config --cflags --libs hpcvet) -o validate */
#include <hpcvet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *sev_name(hpcvet_severity s)
{
	return s == HPCVET_SEV_ERROR ? "error" : s == HPCVET_SEV_WARNING ? "warning" : "note";
}

int main(int argc, char **argv)
{
	hpcvet_options opt;
	hpcvet_options_init(&opt);
	int first = 1;
	if (argc > 1 && strcmp(argv[1], "--strict") == 0) {
		opt.strict = 1;
		first = 2;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: %s [--strict] PATH...\n(hpcvet %s, %zu rules)\n", argv[0], hpcvet_version(),
			hpcvet_rule_count());
		return 2;
	}
	int status = 0;
	for (int a = first; a < argc; a++) {
		hpcvet_report *r = hpcvet_validate_path(argv[a], &opt);
		if (!r) {
			fprintf(stderr, "%s: out of memory\n", argv[a]);
			return 4;
		}
		hpcvet_diagnostic d;
		for (size_t i = 0; hpcvet_report_diagnostic(r, i, &d) == 0; i++)
			printf("%s:0x%" PRIx64 ": %s[%s]: %s (at %s)\n", d.file, d.offset, sev_name(d.severity), d.rule_id,
			       d.message, d.struct_path);
		hpcvet_verdict v = hpcvet_report_verdict(r);
		printf("%s: %s (%s, %zu rules checked, %" PRIu64 " errors)%s%s\n", argv[a], hpcvet_verdict_name(v),
		       hpcvet_report_format(r), hpcvet_report_rules_checked(r), hpcvet_report_count(r, HPCVET_SEV_ERROR),
		       hpcvet_report_problem(r)[0] ? ": " : "", hpcvet_report_problem(r));
		if ((int)v > status) status = (int)v;
		hpcvet_report_free(r);
	}
	return status;
}
