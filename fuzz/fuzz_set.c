/* Fuzz target: any directory input (an HPCToolkit database, an ovni trace
 * tree, a DUMPI trace) packed in the container with the names it carries,
 * validated through the public API (hpcvet_validate_buffers: family
 * detection included, as a program linking libhpcvet does). The report is
 * rendered by every writer (harness.h) and read back through the API's
 * accessors, which must agree with it. */
#include "api/api_internal.h"
#include "container.h"
#include "harness.h"

static void check_api_view(const hpcvet_report *rep)
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
	(void)hpcvet_verdict_name(hpcvet_report_verdict(rep));
	(void)hpcvet_report_format(rep);
	(void)hpcvet_report_edition(rep);
	(void)hpcvet_report_format_version(rep);
	(void)hpcvet_report_rules_checked(rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_files ff;
	fuzz_unpack(data, size, &ff);
	const char *names[FUZZ_MAX_FILES];
	const void *bufs[FUZZ_MAX_FILES];
	size_t sizes[FUZZ_MAX_FILES];
	for (size_t i = 0; i < ff.n; i++) {
		names[i] = ff.blobs[i].name;
		bufs[i] = ff.blobs[i].mem;
		sizes[i] = (size_t)ff.blobs[i].size;
	}
	hpcvet_options opt;
	hpcvet_options_init(&opt);
	opt.max_diagnostics = FUZZ_MAX_DIAGS;
	hpcvet_report *rep = hpcvet_validate_buffers("db", ff.n, names, bufs, sizes, &opt);
	if (!rep) return 0; /* out of memory: the API's documented answer */
	fuzz_check_report(&rep->r);
	fuzz_render(&rep->r, ff.blobs, ff.n);
	check_api_view(rep);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
	hpcvet_report_free(rep);
	return 0;
}
