/* Uses only <hpcvet.h>: buffer and multi-buffer validation, options (and an
 * older, shorter options struct), diagnostics, rules, version. Built by
 * tests/api.test.sh against the shared and the static library. Files are
 * given on the command line: GOOD BAD (meta.db files) SET-FILES [-- SET-FILES]... */
#include <hpcvet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h" /* CHECK, TAP_DONE: the suite's closing line */

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *p = malloc(len > 0 ? (size_t)len : 1);
	*n = p && len >= 0 ? fread(p, 1, (size_t)len, f) : 0;
	fclose(f);
	return p;
}

/* Fills the stack below the caller with a non-zero pattern, so an option
 * the library forgets to initialise is garbage (it once left the core's
 * runner pointer unset and called it) instead of a lucky zero. */
static __attribute__((noinline)) void scribble_stack(void)
{
	volatile unsigned char junk[16384];
	for (size_t i = 0; i < sizeof junk; i++) junk[i] = 0xA5;
}

int main(int argc, char **argv)
{
	if (argc < 3) return 2;
	CHECK(strcmp(hpcvet_version(), HPCVET_VERSION_STRING) == 0, "version %s", hpcvet_version());
	hpcvet_options opt;
	hpcvet_options_init(&opt);
	CHECK(opt.struct_size == sizeof opt && opt.max_diagnostics == 100 && !opt.strict, "defaults");

	size_t ng, nb;
	unsigned char *good = slurp(argv[1], &ng), *bad = slurp(argv[2], &nb);
	CHECK(good && bad, "read inputs");

	hpcvet_report *r = hpcvet_validate_buffer("meta.db", good, ng, &opt);
	CHECK(r && hpcvet_report_verdict(r) == HPCVET_CONFORMING, "good buffer conforming");
	CHECK(r && strcmp(hpcvet_report_format(r), "hpctoolkit meta.db") == 0, "format %s", hpcvet_report_format(r));
	CHECK(r && hpcvet_report_rules_checked(r) > 10, "rules checked");
	CHECK(r && hpcvet_report_diagnostic_count(r) == 0, "no diagnostics");
	hpcvet_report_free(r);

	r = hpcvet_validate_buffer("bad/meta.db", bad, nb, NULL);
	free(bad);
	bad = NULL;  /* the report must not point into the buffer */
	CHECK(r && hpcvet_report_verdict(r) == HPCVET_NONCONFORMING, "bad buffer nonconforming");
	hpcvet_diagnostic d;
	CHECK(r && hpcvet_report_diagnostic(r, 0, &d) == 0, "first diagnostic");
	CHECK(r && strcmp(d.rule_id, "metadb.hdr.footer") == 0 && d.severity == HPCVET_SEV_ERROR, "rule %s", d.rule_id);
	CHECK(r && strcmp(d.file, "bad/meta.db") == 0 && strcmp(d.struct_path, "meta.db/footer") == 0 && d.message[0],
	      "where: %s %s", d.file, d.struct_path);
	CHECK(r && hpcvet_report_diagnostic(r, hpcvet_report_diagnostic_count(r), &d) == -1, "out of range");
	CHECK(r && hpcvet_report_count(r, HPCVET_SEV_ERROR) == 1, "error count");
	long k = hpcvet_rule_find("metadb.hdr.footer");
	hpcvet_rule_info ri;
	CHECK(k >= 0 && hpcvet_rule_get((size_t)k, &ri) == 0 && strcmp(ri.id, "metadb.hdr.footer") == 0 &&
		      ri.severity == HPCVET_SEV_ERROR && ri.summary[0] && ri.detail[0],
	      "rule lookup");
	CHECK(hpcvet_rule_find("no.such.rule") == -1, "unknown rule");
	CHECK(hpcvet_rule_get(hpcvet_rule_count(), &ri) == -1, "rule index out of range");
	hpcvet_report_free(r);

	/* max_diagnostics 0: counted, none stored. */
	opt.max_diagnostics = 0;
	size_t n2;
	unsigned char *bad2 = slurp(argv[2], &n2);
	r = hpcvet_validate_buffer("meta.db", bad2, n2, &opt);
	CHECK(r && hpcvet_report_diagnostic_count(r) == 0 && hpcvet_report_suppressed(r) == 1 &&
		      hpcvet_report_verdict(r) == HPCVET_NONCONFORMING,
	      "suppressed");
	hpcvet_report_free(r);

	/* A caller built against an older header whose options ended after
	 * `edition`: the library must use defaults for the rest. */
	hpcvet_options old;
	hpcvet_options_init(&old);
	old.max_diagnostics = 0; /* beyond the old struct: must be ignored */
	old.struct_size = offsetof(hpcvet_options, max_diagnostics);
	r = hpcvet_validate_buffer("meta.db", bad2, n2, &old);
	CHECK(r && hpcvet_report_diagnostic_count(r) == 1, "short options struct keeps defaults");
	hpcvet_report_free(r);
	free(bad2);

	/* Garbage and empty input. */
	r = hpcvet_validate_buffer("x.bin", "\x01\x02\x03", 3, NULL);
	CHECK(r && hpcvet_report_verdict(r) == HPCVET_NONCONFORMING && hpcvet_report_diagnostic(r, 0, &d) == 0 &&
		      strcmp(d.rule_id, "input.unrecognized") == 0,
	      "garbage unrecognised");
	hpcvet_report_free(r);
	r = hpcvet_validate_buffer("empty", NULL, 0, NULL);
	CHECK(r && hpcvet_report_verdict(r) == HPCVET_NONCONFORMING, "empty input");
	hpcvet_report_free(r);

	/* Sets of buffers: the files of a database directory, then (after "--")
	 * those of a DUMPI trace, each must be conforming. */
	for (int at = 3; at < argc;) {
		int end = at;
		while (end < argc && strcmp(argv[end], "--") != 0) end++;
		size_t n = (size_t)(end - at);
		const char **names = calloc(n ? n : 1, sizeof *names);
		const void **data = calloc(n ? n : 1, sizeof *data);
		size_t *sizes = calloc(n ? n : 1, sizeof *sizes);
		for (size_t i = 0; i < n; i++) {
			names[i] = argv[at + (int)i];
			data[i] = slurp(names[i], &sizes[i]);
		}
		scribble_stack();
		r = hpcvet_validate_buffers("set", n, names, data, sizes, NULL);
		CHECK(r && hpcvet_report_verdict(r) == HPCVET_CONFORMING, "set from buffers (%s...): %s %s %s", names[0],
		      r ? hpcvet_verdict_name(hpcvet_report_verdict(r)) : "", r ? hpcvet_report_format(r) : "",
		      r ? hpcvet_report_problem(r) : "");
		hpcvet_report_free(r);
		for (size_t i = 0; i < n; i++) free((void *)data[i]);
		free(names);
		free(data);
		free(sizes);
		at = end + 1;
	}

	r = hpcvet_validate_buffers("db", 2, NULL, NULL, NULL, NULL);
	CHECK(r && hpcvet_report_verdict(r) == HPCVET_INTERNAL_ERROR && hpcvet_report_problem(r)[0],
	      "missing arrays are a caller error, not a crash");
	hpcvet_report_free(r);

	r = hpcvet_validate_path("/nonexistent/hpcvet/path", NULL);
	CHECK(r && hpcvet_report_verdict(r) == HPCVET_UNREADABLE && hpcvet_report_problem(r)[0], "unreadable path");
	hpcvet_report_free(r);
	hpcvet_report_free(NULL);
	CHECK(strcmp(hpcvet_verdict_name(HPCVET_INTERNAL_ERROR), "internal-error") == 0, "verdict names");
	free(good);
	TAP_DONE();
}
