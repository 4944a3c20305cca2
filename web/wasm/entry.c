/* The web page's entry points: what worker.js calls in the WebAssembly
 * module. The page hands over inputs (a label, then its files), has each
 * validated by the same checking core as the hpcvet program, and asks for
 * the reports in a format by name, written by the same writers (output/).
 * One thread: the core gets no runner and runs its tasks in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/validate.h"
#include "output/certify.h"
#include "output/output.h"
#include "reader.h"

#define EXPORT(name) __attribute__((export_name(name)))

/* The report writers the page offers, by the names of the CLI's --format. */
static bool write_text(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	hv_write_text(out, reps, n, o);
	return true;
}

static bool write_junit(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	hv_write_junit(out, reps, n, o);
	return true;
}

/* A certificate binds the verdict to each file's SHA-256: libcrypto is no
 * part of the wasm build, so the page computes the digests with the
 * browser's WebCrypto and hands them over (hvw_cert_digest). */
static bool write_certificate(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);

/* worker.js writes every format of this table that it knows after each
 * run; the page shows the report of the "html" writer when the table has
 * one (in a sandboxed frame), else the "json" report as a table. */
static const struct {
	const char *name;
	bool (*write)(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);
} writers[] = {
	{"json", hv_write_json},
	{"html", hv_write_html},
	{"sarif", hv_write_sarif},
	{"text", write_text},
	{"junit", write_junit},
	{"certificate", write_certificate},
};

/* The inputs validated since the last hvw_reset, with their reports. */
static struct {
	hvw_input *inputs;
	hv_report *reports;
	size_t n, cap;
	hv_options opt;
	bool strict;
	char *out;       /* the last report written */
	size_t out_len;
} S = {.opt = {.edition = HV_EDITION_AUTO, .max_diags = 100, .jobs = 1}};

EXPORT("hvw_alloc") void *hvw_alloc(size_t n) { return malloc(n ? n : 1); }
EXPORT("hvw_free") void hvw_free(void *p) { free(p); }

EXPORT("hvw_version") const char *hvw_version(void) { return HV_VERSION; }

EXPORT("hvw_rule_table_version") const char *hvw_rule_table_version(void)
{
	static char buf[64];
	return hv_rule_table_version(buf, sizeof buf);
}

EXPORT("hvw_has_format") int hvw_has_format(const char *name)
{
	for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
		if (strcmp(writers[i].name, name) == 0) return 1;
	return 0;
}

/* The CLI's options that change a report, by their names there; 0 when
 * the option or its value is unknown. */
EXPORT("hvw_set_option") int hvw_set_option(const char *name, const char *value)
{
	bool on = strcmp(value, "1") == 0;
	if (strcmp(name, "strict") == 0) S.strict = on;
	else if (strcmp(name, "ovni-all-models") == 0) S.opt.ovni_all_models = on;
	else if (strcmp(name, "mpi-replay") == 0) S.opt.dumpi_replay = on;
	else if (strcmp(name, "edition") == 0 && strcmp(value, "auto") == 0) S.opt.edition = HV_EDITION_AUTO;
	else if (strcmp(name, "edition") == 0 && strcmp(value, "draft") == 0) S.opt.edition = HV_EDITION_DRAFT;
	else if (strcmp(name, "edition") == 0 && strcmp(value, "release") == 0) S.opt.edition = HV_EDITION_RELEASE;
	else if (strcmp(name, "mpi") == 0 && strcmp(value, "auto") == 0) S.opt.dumpi_mpi = HV_MPI_AUTO;
	else if (strcmp(name, "mpi") == 0 && strcmp(value, "mpich") == 0) S.opt.dumpi_mpi = HV_MPI_MPICH;
	else if (strcmp(name, "mpi") == 0 && strcmp(value, "openmpi") == 0) S.opt.dumpi_mpi = HV_MPI_OPENMPI;
	else return 0;
	return 1;
}

static void free_out(void)
{
	free(S.out);
	S.out = NULL;
	S.out_len = 0;
}

EXPORT("hvw_reset") void hvw_reset(void)
{
	for (size_t i = 0; i < S.n; i++) {
		hv_report_free(&S.reports[i]);
		hvw_input_free(&S.inputs[i]);
	}
	free(S.inputs);
	free(S.reports);
	S.inputs = NULL;
	S.reports = NULL;
	S.n = S.cap = 0;
	free_out();
}

/* A new input: a folder or a DUMPI .meta (set = 1: its files are
 * validated together) or one file (set = 0). 0 when out of memory. */
EXPORT("hvw_input_begin") int hvw_input_begin(const char *label, int set)
{
	if (S.n == S.cap) {
		size_t cap = S.cap ? 2 * S.cap : 8;
		hvw_input *ni = realloc(S.inputs, cap * sizeof *ni);
		if (!ni) return 0;
		S.inputs = ni;
		hv_report *nr = realloc(S.reports, cap * sizeof *nr);
		if (!nr) return 0;
		S.reports = nr;
		S.cap = cap;
	}
	hvw_input *in = &S.inputs[S.n];
	memset(in, 0, sizeof *in);
	in->label = strdup(label);
	if (!in->label) return 0;
	in->set = set != 0;
	hv_report_init(&S.reports[S.n], in->label, S.opt.max_diags);
	S.n++;
	return 1;
}

/* A file of the current input; `size` is exact below 2^53 bytes. */
EXPORT("hvw_input_file") int hvw_input_file(const char *name, double size, uint32_t js_id)
{
	if (!S.n || size < 0 || size > 9007199254740992.0) return 0;
	return hvw_input_add(&S.inputs[S.n - 1], name, (uint64_t)size, js_id);
}

/* The current input could not be gathered (page.js found a folder deeper
 * than the command line walks): it is unreadable with this problem, as the
 * CLI's walk reports it. */
EXPORT("hvw_input_fail") int hvw_input_fail(const char *why)
{
	if (!S.n) return 0;
	hvw_input *in = &S.inputs[S.n - 1];
	free(in->problem);
	in->problem = strdup(why);
	return in->problem != NULL;
}

/* Validate the current input; its exit code as the CLI's (0 conforming,
 * 1 nonconforming, 3 unreadable, 4 internal error). */
EXPORT("hvw_input_validate") int hvw_input_validate(void)
{
	if (!S.n) return 4;
	hvw_input *in = &S.inputs[S.n - 1];
	hv_report *r = &S.reports[S.n - 1];
	char why[512];
	if (in->problem) hv_report_unreadable(r, "%s", in->problem);
	else if (!hvw_input_open(in, why, sizeof why)) hv_report_unreadable(r, "%s", why);
	else if (in->set) hv_validate_set(&S.opt, in->blobs, in->n, r);
	else if (in->n == 1) hv_validate_blob(&S.opt, &in->blobs[0], r);
	else hv_report_internal(r, "one file expected, %zu given", in->n);
	return hv_report_exit_code(r, S.strict);
}

/* A file of the current input changed while it was read (web/worker.js
 * finds so once the checks are done): as the CLI's hv_path_unchanged,
 * nothing found in bytes that are not one consistent set stands, an
 * internal error included. The exit code as hvw_input_validate's. */
EXPORT("hvw_input_changed") int hvw_input_changed(const char *name)
{
	if (!S.n) return 4;
	hv_report *r = &S.reports[S.n - 1];
	r->internal_error = false;
	hv_report_unreadable(r, "%s: changed while it was read", name);
	return hv_report_exit_code(r, S.strict);
}

/* File js_id was found changed after its input's checks (web/worker.js's
 * digests read each file again, and a read of a file that changed since it
 * was picked fails): the bytes judged and the bytes digested are not known
 * to be one set, so the verdict is withdrawn, as hvw_input_changed's. An
 * input with no verdict already keeps its report. The input's exit code; 4
 * when no input holds js_id. */
EXPORT("hvw_file_changed") int hvw_file_changed(uint32_t js_id)
{
	for (size_t i = 0; i < S.n; i++)
		for (size_t k = 0; k < S.inputs[i].n; k++) {
			if (S.inputs[i].files[k].js_id != js_id) continue;
			hv_report *r = &S.reports[i];
			if (!r->unreadable) {
				r->internal_error = false;
				hv_report_unreadable(r, "%s: changed while it was read", S.inputs[i].files[k].name);
			}
			return hv_report_exit_code(r, S.strict);
		}
	return 4;
}

EXPORT("hvw_bytes_read") double hvw_bytes_read_js(void) { return (double)hvw_bytes_read(); }

/* The writers' hex views read a finding's bytes again, by file name. */
static size_t read_bytes(void *ctx, const char *file, uint64_t off, uint8_t *dst, size_t len)
{
	(void)ctx;
	for (size_t i = 0; i < S.n; i++) {
		size_t got = hvw_input_read_range(&S.inputs[i], file, off, dst, len);
		if (got) return got;
	}
	return 0;
}

/* Every input's report in format `name`; NULL when the format is unknown
 * or the report could not be written. The text stays valid until the next
 * hvw_write or hvw_reset; hvw_written_len gives its length. */
EXPORT("hvw_write") const char *hvw_write(const char *name)
{
	free_out();
	for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++) {
		if (strcmp(writers[i].name, name) != 0) continue;
		hv_report **rp = calloc(S.n ? S.n : 1, sizeof *rp);
		FILE *f = rp ? open_memstream(&S.out, &S.out_len) : NULL;
		bool ok = f != NULL;
		for (size_t k = 0; ok && k < S.n; k++) rp[k] = &S.reports[k];
		hv_output_opts oo = {.strict = S.strict, .read_bytes = read_bytes};
		if (ok) ok = writers[i].write(f, rp, S.n, &oo);
		if (f && fclose(f) != 0) ok = false;
		free(rp);
		if (!ok) free_out();
		return S.out;
	}
	return NULL;
}

/* The SHA-256 (64 hex digits) of the file the worker holds as `js_id`. */
EXPORT("hvw_cert_digest") int hvw_cert_digest(uint32_t js_id, const char *hex)
{
	if (strlen(hex) != 64) return 0;
	for (size_t i = 0; i < S.n; i++)
		for (size_t k = 0; k < S.inputs[i].n; k++)
			if (S.inputs[i].files[k].js_id == js_id) {
				memcpy(S.inputs[i].files[k].sha256, hex, 65);
				return 1;
			}
	return 0;
}

/* Each input's files, in the order they were validated, named relative to
 * the input as the CLI's certificates name them; a file without a digest
 * makes its input's list incomplete. */
static bool write_certificate(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	hv_cert_files *cfs = calloc(n ? n : 1, sizeof *cfs);
	bool ok = cfs != NULL;
	for (size_t i = 0; ok && i < n; i++) {
		hvw_input *in = &S.inputs[i];
		cfs[i].files = calloc(in->n ? in->n : 1, sizeof *cfs[i].files);
		if (!cfs[i].files) {
			ok = false;
			break;
		}
		cfs[i].complete = true;
		if (reps[i]->unreadable || reps[i]->internal_error) {
			/* as the CLI's hv_digest_withhold: a verdict's digests only */
			cfs[i].complete = false;
			cfs[i].problem = "no digest: the input has no verdict";
			continue;
		}
		for (size_t k = 0; k < in->n; k++) {
			hv_cert_file *f = &cfs[i].files[cfs[i].n++];
			f->name = (char *)hv_cert_relative_name(in->label, in->files[k].name);
			f->size = in->files[k].size;
			memcpy(f->sha256, in->files[k].sha256, sizeof f->sha256);
			if (!f->sha256[0] && cfs[i].complete) {
				cfs[i].complete = false;
				cfs[i].problem = "a file's SHA-256 was not computed (the page digests files up to 1 GiB)";
			}
		}
	}
	if (ok) {
		hv_output_opts oc = *o;
		oc.cert_files = cfs;
		ok = hv_write_certify_json(out, reps, n, &oc);
	}
	for (size_t i = 0; cfs && i < n; i++) free(cfs[i].files);
	free(cfs);
	return ok;
}

EXPORT("hvw_written_len") size_t hvw_written_len(void) { return S.out_len; }

/* The exit code of all inputs together, as the CLI's: the highest. */
EXPORT("hvw_exit_code") int hvw_exit_code(void)
{
	int status = 0;
	for (size_t i = 0; i < S.n; i++) {
		int s = hv_report_exit_code(&S.reports[i], S.strict);
		if (s > status) status = s;
	}
	return status;
}
