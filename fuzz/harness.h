/* What every fuzz target shares: the options it validates with, and the
 * self-checks on the report that turn a validator bug into a crash the
 * fuzzer records (an input can make the result nonconforming, never make the
 * validator fail). Header-only: each target is one small translation unit. */
#ifndef HV_FUZZ_HARNESS_H
#define HV_FUZZ_HARNESS_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "core/hv_int.h"
#include "core/validate.h"
#include "output/certify.h"
#include "output/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small diagnostic cap: storage is bounded, counting is not, so the checks
 * run in full while the fuzz loop does not spend its time formatting. */
#define FUZZ_MAX_DIAGS 50

/* Files over 16 MiB reach the checks as windowed blobs (b->mem == NULL, read
 * through fetch): different code paths (hv_window refills, materialisation).
 * Odd-sized inputs take that path here, served from the input's memory, so
 * both paths are fuzzed without any file. */
typedef struct fuzz_mem_io {
	const uint8_t *data;
	uint64_t size;
} fuzz_mem_io;

static inline bool fuzz_mem_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	const fuzz_mem_io *m = io;
	if (!hv_range_in(off, len, m->size)) return false;
	if (len) memcpy(dst, m->data + off, len);
	return true;
}

static inline hv_blob fuzz_blob(const char *name, const uint8_t *data, size_t size, fuzz_mem_io *io)
{
	hv_blob b = hv_blob_from_memory(name, data, size);
	if (size & 1) {
		io->data = data;
		io->size = size;
		b.mem = NULL;
		b.fetch = fuzz_mem_fetch;
		b.io = io;
	}
	return b;
}

static inline void fuzz_check_report(const hv_report *r)
{
	/* An internal error means the validator contradicted itself (HV_INVARIANT
	 * in production mode, or an explicit hv_report_internal): a bug. */
	if (r->internal_error) {
		fprintf(stderr, "fuzz: internal error: %s\n", r->problem);
		abort();
	}
	if (r->ndiags > r->max_diags || r->ndiags > r->count[0] + r->count[1] + r->count[2]) {
		fprintf(stderr, "fuzz: report holds %zu diagnostics for %llu failures (cap %zu)\n", r->ndiags,
			(unsigned long long)(r->count[0] + r->count[1] + r->count[2]), r->max_diags);
		abort();
	}
	/* Statistics must not lie: no rule failed more often than it was
	 * evaluated (bulk-counted loops settle their counts by the end). */
	if (!hv_report_counts_consistent(r)) {
		for (int i = 0; i < HV_RULE_COUNT; i++)
			if (r->failed[i] > r->evaluated[i])
				fprintf(stderr, "fuzz: rule %s failed %llu times, evaluated %llu times\n", hv_rules[i].id,
					(unsigned long long)r->failed[i], (unsigned long long)r->evaluated[i]);
		abort();
	}
}

/* The `single` and `set` targets also render the report with every writer
 * the CLI has (text plain and with colour and the hex view of the offending
 * bytes, JSON, SARIF, JUnit XML, GitHub annotations, the HTML page with
 * each row's bytes, the certificate as text and JSON): diagnostics quote bytes of the input (names, keys, strings), so
 * the writers' escaping is attack surface too. The hex view reads the
 * offending bytes from the input's blobs in memory (never from a file).
 * Output goes to /dev/null, opened once (no file system work per input). */
typedef struct fuzz_sources {
	hv_blob *blobs;
	size_t n;
} fuzz_sources;

static inline size_t fuzz_read_bytes(void *ctx, const char *file, uint64_t off, uint8_t *dst, size_t len)
{
	fuzz_sources *src = ctx;
	for (size_t i = 0; i < src->n; i++) {
		hv_blob *b = &src->blobs[i];
		if (strcmp(b->name, file) != 0) continue;
		if (off >= b->size) return 0;
		if (len > b->size - off) len = (size_t)(b->size - off);
		return hv_blob_read(b, off, dst, len) ? len : 0;
	}
	return 0;
}

/* The writers that list the whole rule table (SARIF's rule descriptors, the
 * certificate's per-rule results, JUnit's test case per rule) cost far more
 * than the checks of a small input, and the table is the same every time:
 * rendered for every input they cut `set` from ~2,500 to ~36 executions per
 * second. They run for one input size in 32 (`full`), so the fuzzer still
 * reaches them with every kind of diagnostic; text and JSON run always. */
static inline void fuzz_render(hv_report *r, hv_blob *blobs, size_t n, bool full)
{
	static FILE *sink;
	if (!sink) sink = fopen("/dev/null", "w");
	if (!sink) return;
	hv_report *reps[1] = {r};
	fuzz_sources src = {blobs, n};
	hv_output_opts plain = {.quiet = false, .strict = false};
	hv_output_opts rich = {.strict = true, .color = true, .context = true, .read_bytes = fuzz_read_bytes,
			       .read_ctx = &src, .base_dir = "/fuzz"};
	hv_write_text(sink, reps, 1, &plain);
	hv_write_text(sink, reps, 1, &rich);
	hv_write_github(sink, reps, 1, &rich);
	bool built = hv_write_json(sink, reps, 1, &plain);
	if (full) {
		hv_write_junit(sink, reps, 1, &plain);
		hv_write_certify_text(sink, reps, 1, &plain);
		built = built && hv_write_sarif(sink, reps, 1, &rich) && hv_write_certify_json(sink, reps, 1, &rich) &&
			hv_write_html(sink, reps, 1, &rich);
	}
	if (!built) {
		fprintf(stderr, "fuzz: a JSON report could not be built\n");
		abort();
	}
}

/* The public API's view of a report (what a program linking libhpcvet
 * reads) must agree with the report itself. */
static inline void fuzz_check_api_view(const hpcvet_report *rep)
{
	const hv_report *r = &rep->r;
	size_t n = hpcvet_report_diagnostic_count(rep);
	if (n != r->ndiags) {
		fprintf(stderr, "fuzz: the API shows %zu diagnostics, the report holds %zu\n", n, r->ndiags);
		abort();
	}
	for (size_t i = 0; i <= n; i++) {
		hpcvet_diagnostic d;
		int rc = hpcvet_report_diagnostic(rep, i, &d);
		if (i == n ? rc != -1 : (rc != 0 || hpcvet_rule_find(d.rule_id) < 0 || !d.file || !d.message)) {
			fprintf(stderr, "fuzz: API diagnostic %zu of %zu is wrong (rc %d)\n", i, n, rc);
			abort();
		}
	}
	uint64_t total = 0;
	for (int sev = HPCVET_SEV_NOTE; sev <= HPCVET_SEV_ERROR; sev++) total += hpcvet_report_count(rep, sev);
	if (total < n || hpcvet_report_suppressed(rep) > total) {
		fprintf(stderr, "fuzz: API counts %llu failures for %zu diagnostics\n", (unsigned long long)total, n);
		abort();
	}
	/* the API's own renderings (what the Python package shows): a JSON
	 * document a strict parser reads, and the text report */
	const hpcvet_report *one[1] = {rep};
	char *json = hpcvet_reports_json(one, 1), *text = hpcvet_reports_text(one, 1, 0);
	cJSON *doc = json ? cJSON_Parse(json) : NULL;
	if (!doc || !text) {
		fprintf(stderr, "fuzz: the API's JSON report (%s) or text report (%s) failed\n", json ? "not JSON" : "NULL",
			text ? "made" : "NULL");
		abort();
	}
	cJSON_Delete(doc);
	hpcvet_string_free(json);
	hpcvet_string_free(text);
	(void)hpcvet_verdict_name(hpcvet_report_verdict(rep));
	(void)hpcvet_report_format(rep);
	(void)hpcvet_report_edition(rep);
	(void)hpcvet_report_format_version(rep);
	(void)hpcvet_report_rules_checked(rep);
}

static inline const hv_format *fuzz_format_named(const char *name)
{
	for (size_t i = 0; hv_formats[i]; i++)
		if (strcmp(hv_formats[i]->name, name) == 0) return hv_formats[i];
	fprintf(stderr, "fuzz: no format named \"%s\" in the registry\n", name);
	abort();
}

#endif
