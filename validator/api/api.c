/* The public C API (include/hpcvet.h) over the checking core: options,
 * validation of buffers, report accessors and the rule catalogue. This file
 * does no I/O; path validation is in path.c. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "cli/jobs.h"
#include "output/output.h"
#include "internal.h"

#define DEFAULT_MAX_DIAGS 100

const char *hpcvet_version(void) { return HV_VERSION; }

void hpcvet_options_init(hpcvet_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->struct_size = sizeof *opt;
	opt->edition = HPCVET_EDITION_AUTO;
	opt->max_diagnostics = DEFAULT_MAX_DIAGS;
	opt->strict = 0;
	opt->jobs = 1;
}

/* Read the caller's options only as far as the caller's struct goes, so a
 * program built against an older, shorter hpcvet_options keeps working. */
static hpcvet_options effective_options(const hpcvet_options *opt)
{
	hpcvet_options o;
	hpcvet_options_init(&o);
	if (opt && opt->struct_size >= sizeof(size_t)) {
		size_t n = opt->struct_size < sizeof o ? opt->struct_size : sizeof o;
		memcpy(&o, opt, n);
		o.struct_size = sizeof o;
	}
	return o;
}

hpcvet_report *hv_api_report_new(const char *input_name, const hpcvet_options *opt, hv_options *hopt)
{
	hpcvet_options o = effective_options(opt);
	/* Every core option the API does not expose (the runner, jobs, ...) must
	 * be zero: a stack-garbage runner pointer was called on DUMPI traces
	 * (found when the `set` fuzz target moved onto this API). */
	*hopt = (hv_options){0};
	hpcvet_report *rep = hv_calloc(1, sizeof *rep);
	if (!rep) return NULL;
	rep->input_name = hv_strdup(input_name ? input_name : "");
	if (!rep->input_name) {
		free(rep);
		return NULL;
	}
	hopt->edition = o.edition == HPCVET_EDITION_DRAFT     ? HV_EDITION_DRAFT
			: o.edition == HPCVET_EDITION_RELEASE ? HV_EDITION_RELEASE
							      : HV_EDITION_AUTO;
	hopt->max_diags = o.max_diagnostics;
	hopt->ovni_all_models = o.ovni_all_models != 0;
	hopt->dumpi_mpi = o.mpi == 1 ? HV_MPI_MPICH : o.mpi == 2 ? HV_MPI_OPENMPI : HV_MPI_AUTO;
	hopt->dumpi_replay = o.mpi_replay != 0;
	/* -j: the CLI's thread pool (cli/jobs.c) runs the input's independent
	 * files; the report is the same for every count, as the CLI's is. */
	rep->jobs = o.jobs ? o.jobs : 1;
	if (rep->jobs > 1024) rep->jobs = 1024;
	hopt->jobs = rep->jobs;
	if (rep->jobs > 1) {
		hopt->runner = hv_jobs_run;
		hopt->runner_ctx = &rep->jobs;
	}
	rep->strict = o.strict;
	hv_report_init(&rep->r, rep->input_name, o.max_diagnostics);
	return rep;
}

hpcvet_report *hpcvet_validate_buffer(const char *name, const void *data, size_t size, const hpcvet_options *opt)
{
	hv_options hopt;
	hpcvet_report *rep = hv_api_report_new(name, opt, &hopt);
	if (!rep) return NULL;
	if (!data && size) {
		hv_report_internal(&rep->r, "no data for a buffer of %zu bytes", size);
		return rep;
	}
	hv_blob b = hv_blob_from_memory(rep->input_name, data ? data : (const void *)"", size);
	hv_validate_blob(&hopt, &b, &rep->r);
	hv_blob_release(&b);
	return rep;
}

hpcvet_report *hpcvet_validate_buffers(const char *input_name, size_t n, const char *const *names,
				       const void *const *data, const size_t *sizes, const hpcvet_options *opt)
{
	hv_options hopt;
	hpcvet_report *rep = hv_api_report_new(input_name, opt, &hopt);
	if (!rep) return NULL;
	if (n > 0 && (!names || !data || !sizes)) {
		hv_report_internal(&rep->r, "hpcvet_validate_buffers: names, data and sizes are required");
		return rep;
	}
	hv_blob *blobs = hv_calloc(n ? n : 1, sizeof *blobs);
	if (!blobs) {
		hv_report_internal(&rep->r, "out of memory");
		return rep;
	}
	for (size_t i = 0; i < n; i++) {
		if (!names[i] || (!data[i] && sizes[i])) {
			hv_report_internal(&rep->r, "file %zu of the input has no name or no data", i);
			free(blobs);
			return rep;
		}
		blobs[i] = hv_blob_from_memory(names[i], data[i] ? data[i] : (const void *)"", sizes[i]);
	}
	hv_validate_set(&hopt, blobs, n, &rep->r);
	for (size_t i = 0; i < n; i++) hv_blob_release(&blobs[i]);
	free(blobs);
	return rep;
}

void hpcvet_report_free(hpcvet_report *r)
{
	if (!r) return;
	hv_report_free(&r->r);
	free(r->input_name);
	free(r);
}

hpcvet_verdict hpcvet_report_verdict(const hpcvet_report *r)
{
	return (hpcvet_verdict)hv_report_exit_code(&r->r, r->strict != 0);
}

const char *hpcvet_verdict_name(hpcvet_verdict v)
{
	switch (v) {
	case HPCVET_CONFORMING: return "conforming";
	case HPCVET_NONCONFORMING: return "nonconforming";
	case HPCVET_UNREADABLE: return "unreadable";
	case HPCVET_INTERNAL_ERROR: return "internal-error";
	}
	return "internal-error";
}

const char *hpcvet_report_format(const hpcvet_report *r) { return r->r.format[0] ? r->r.format : "unknown"; }
const char *hpcvet_report_edition(const hpcvet_report *r) { return r->r.edition; }
const char *hpcvet_report_format_version(const hpcvet_report *r) { return r->r.version; }
const char *hpcvet_report_problem(const hpcvet_report *r)
{
	return r->r.unreadable || r->r.internal_error ? r->r.problem : "";
}

uint64_t hpcvet_report_count(const hpcvet_report *r, hpcvet_severity sev)
{
	return (unsigned)sev <= HPCVET_SEV_ERROR ? r->r.count[sev] : 0;
}

uint64_t hpcvet_report_suppressed(const hpcvet_report *r) { return r->r.suppressed; }
size_t hpcvet_report_rules_checked(const hpcvet_report *r) { return hv_report_rules_checked(&r->r); }
size_t hpcvet_report_diagnostic_count(const hpcvet_report *r) { return r->r.ndiags; }

int hpcvet_report_diagnostic(const hpcvet_report *r, size_t i, hpcvet_diagnostic *d)
{
	if (!r || i >= r->r.ndiags) return -1;
	const hv_diag *g = &r->r.diags[i];
	d->rule_id = hv_rules[g->rule].id;
	d->severity = (hpcvet_severity)g->sev;
	d->file = g->file ? g->file : r->input_name;
	d->offset = g->offset;
	d->length = g->length;
	d->struct_path = g->path;
	d->message = g->msg;
	return 0;
}

size_t hpcvet_rule_count(void) { return HV_RULE_COUNT; }

int hpcvet_rule_get(size_t i, hpcvet_rule_info *info)
{
	if (i >= HV_RULE_COUNT) return -1;
	const hv_rule_info *ri = &hv_rules[i];
	info->id = ri->id;
	info->severity = (hpcvet_severity)ri->severity;
	info->format = ri->format;
	info->clause = ri->clause;
	info->summary = ri->summary;
	info->detail = ri->detail;
	return 0;
}

long hpcvet_rule_find(const char *id) { return id ? hv_rule_find(id) : -1; }
