/* Certificates for programs: `hpcvet certify --format=json` and `hpcvet
 * certify --verify --format=json`, through the CLI's own code (the digests
 * of validator/cli/digest.c, the writer of validator/output/certify.c, the
 * check of validator/cli/verify.c), with the output in memory. Like the
 * CLI, the SHA-256 digests come from libcrypto, opened at the first
 * certificate. */
#include <stdio.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "cli/digest.h"
#include "cli/verify.h"
#include "output/certify.h"
#include "internal.h"

/* A memory stream's text once closed (the stream sets *buf as it closes):
 * NULL when it failed. */
static char *close_text(FILE *f, char **buf, bool ok)
{
	if (fclose(f) != 0) ok = false;
	if (ok) return *buf;
	free(*buf);
	return NULL;
}

char *hpcvet_certify_json(const char *const *paths, size_t n, const hpcvet_options *opt, int *status)
{
	int st = HPCVET_INTERNAL_ERROR;
	char *text = NULL;
	hpcvet_report **reps = paths && n ? hv_calloc(n, sizeof *reps) : NULL;
	hv_report **rp = reps ? hv_calloc(n, sizeof *rp) : NULL;
	hv_digest_set *dgs = rp ? hv_calloc(n, sizeof *dgs) : NULL;
	hv_cert_files *cfs = dgs ? hv_calloc(n, sizeof *cfs) : NULL;
	size_t made = 0;
	bool strict = false;
	if (!cfs) goto out;
	st = HPCVET_CONFORMING;
	for (; made < n; made++) {
		hv_options hopt;
		if (!paths[made] || !(reps[made] = hv_api_report_new(paths[made], opt, &hopt))) {
			st = HPCVET_INTERNAL_ERROR;
			goto out;
		}
		hv_validate_path_digest(paths[made], &hopt, &reps[made]->r, &dgs[made], false);
		rp[made] = &reps[made]->r;
		cfs[made] = dgs[made].out;
		strict = reps[made]->strict != 0;
		int s = hv_report_exit_code(rp[made], strict);
		if (s > st) st = s;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		hv_output_opts oo = {.strict = strict, .cert_files = cfs};
		bool ok = hv_write_certify_json(f, rp, n, &oo);
		text = close_text(f, &buf, ok);
	}
	if (!text) st = HPCVET_INTERNAL_ERROR;
out:
	for (size_t i = 0; dgs && i < made; i++) hv_digest_free(&dgs[i]);
	for (size_t i = 0; reps && i < n; i++) hpcvet_report_free(reps[i]);
	free(cfs);
	free(dgs);
	free(rp);
	free(reps);
	if (status) *status = st;
	return text;
}

int hpcvet_certificate_verify(const char *cert_path, const char *path, const char *base, const hpcvet_options *opt,
			      char **json, char **problem)
{
	if (json) *json = NULL;
	if (problem) *problem = NULL;
	if (!cert_path) return 2;
	hv_options hopt;
	/* the options as every API call reads them (the report itself is unused) */
	hpcvet_report *holder = hv_api_report_new(cert_path, opt, &hopt);
	char *out = NULL, *err = NULL;
	size_t olen = 0, elen = 0;
	FILE *fo = holder ? open_memstream(&out, &olen) : NULL;
	FILE *fe = fo ? open_memstream(&err, &elen) : NULL;
	int st = HPCVET_INTERNAL_ERROR;
	if (fe) st = hv_cmd_verify(fo, fe, false, cert_path, path, base, &hopt, true);
	if (fo) out = close_text(fo, &out, true);
	if (fe) err = close_text(fe, &err, true);
	if ((!fo || !fe) && st != HPCVET_INTERNAL_ERROR) st = HPCVET_INTERNAL_ERROR;
	hpcvet_report_free(holder);
	if (json && out && out[0]) *json = out;
	else free(out);
	if (problem) *problem = err;
	else free(err);
	return st;
}
