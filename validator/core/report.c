#include "report.h"

#include "invariant.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hv_report_init(hv_report *r, const char *input_path, size_t max_diags)
{
	memset(r, 0, sizeof *r);
	r->input_path = input_path;
	r->max_diags = max_diags;
}

void hv_report_free(hv_report *r)
{
	free(r->diags);
	for (size_t i = 0; i < r->nfiles; i++) free(r->files[i]);
	free(r->files);
	r->diags = NULL;
	r->files = NULL;
	r->ndiags = r->nfiles = 0;
}

/* Diagnostics outlive the blobs that produced them, so file names are copied
 * once into a small pool. Inputs name at most a handful of files. */
static const char *intern_file(hv_report *r, const char *file)
{
	if (!file) file = r->input_path ? r->input_path : "";
	for (size_t i = 0; i < r->nfiles; i++)
		if (strcmp(r->files[i], file) == 0) return r->files[i];
	char **nf = realloc(r->files, (r->nfiles + 1) * sizeof *nf);
	if (!nf) return NULL;
	r->files = nf;
	char *copy = strdup(file);
	if (!copy) return NULL;
	r->files[r->nfiles++] = copy;
	return copy;
}

static void emit_v(hv_report *r, int rule, enum hv_sev sev, const char *file, uint64_t offset, uint64_t length,
		   const char *path, const char *fmt, va_list ap)
{
	/* A rule outside the table or a severity outside the enum would index
	 * past the counters. */
	if (!HV_INVARIANT(r, rule >= 0 && rule < HV_RULE_COUNT)) return;
	if (!HV_INVARIANT(r, (int)sev >= 0 && (int)sev < 3)) return;
	/* More failures than evaluations: a check emitted without its hv_eval,
	 * so the rule's evaluated/failed figures lie (fuzzing builds only). */
	HV_FUZZ_EXPECT(r->evaluated[rule] > r->failed[rule]);
	r->failed[rule]++;
	r->count[sev]++;
	if (r->ndiags >= r->max_diags) {
		r->suppressed++;
		return;
	}
	if (r->ndiags == r->diag_cap) {
		size_t cap = r->diag_cap ? r->diag_cap * 2 : 16;
		if (cap > r->max_diags) cap = r->max_diags;
		hv_diag *nd = realloc(r->diags, cap * sizeof *nd);
		if (!nd) {
			r->suppressed++;
			return;
		}
		r->diags = nd;
		r->diag_cap = cap;
	}
	hv_diag *d = &r->diags[r->ndiags++];
	d->rule = rule;
	d->sev = sev;
	d->file = intern_file(r, file);
	d->offset = offset;
	d->length = length;
	snprintf(d->path, sizeof d->path, "%s", path ? path : "");
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
}

void hv_emit(hv_report *r, int rule, const char *file, uint64_t offset, uint64_t length, const char *path,
	     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit_v(r, rule, hv_rules[rule].severity, file, offset, length, path, fmt, ap);
	va_end(ap);
}

void hv_emit_sev(hv_report *r, int rule, enum hv_sev sev, const char *file, uint64_t offset, uint64_t length,
		 const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit_v(r, rule, sev, file, offset, length, path, fmt, ap);
	va_end(ap);
}

size_t hv_report_rules_checked(const hv_report *r)
{
	size_t n = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) n += r->evaluated[i] > 0 || r->failed[i] > 0;
	return n;
}

void hv_report_unreadable(hv_report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->unreadable = true;
	vsnprintf(r->problem, sizeof r->problem, fmt, ap);
	va_end(ap);
}

void hv_report_internal(hv_report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->internal_error = true;
	vsnprintf(r->problem, sizeof r->problem, fmt, ap);
	va_end(ap);
}

int hv_report_exit_code(const hv_report *r, bool strict)
{
	if (r->internal_error) return 4;
	if (r->unreadable) return 3;
	if (r->count[HV_SEV_ERROR] > 0) return 1;
	if (strict && r->count[HV_SEV_WARNING] > 0) return 1;
	return 0;
}
