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

void hv_for_each(const hv_options *opt, size_t n, hv_task_fn task, void *ctx)
{
	if (opt && opt->runner && n > 1) {
		opt->runner(opt->runner_ctx, n, task, ctx);
		return;
	}
	for (size_t i = 0; i < n; i++) task(ctx, i);
}

void hv_report_append_diag(hv_report *dst, const hv_diag *d)
{
	if (dst->ndiags >= dst->max_diags) {
		dst->suppressed++;
		return;
	}
	if (dst->ndiags == dst->diag_cap) {
		size_t cap = dst->diag_cap ? dst->diag_cap * 2 : 16;
		if (cap > dst->max_diags) cap = dst->max_diags;
		hv_diag *nd = realloc(dst->diags, cap * sizeof *nd);
		if (!nd) {
			dst->suppressed++;
			return;
		}
		dst->diags = nd;
		dst->diag_cap = cap;
	}
	hv_diag *o = &dst->diags[dst->ndiags++];
	*o = *d;
	o->file = intern_file(dst, d->file);
}

void hv_report_merge(hv_report *dst, const hv_report *src)
{
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		dst->evaluated[i] += src->evaluated[i];
		dst->failed[i] += src->failed[i];
	}
	for (int s = 0; s < 3; s++) dst->count[s] += src->count[s];
	for (size_t k = 0; k < src->ndiags; k++) hv_report_append_diag(dst, &src->diags[k]);
	dst->suppressed += src->suppressed;
	/* what the sub-check named (a file's version, edition, format) */
	if (src->format[0]) memcpy(dst->format, src->format, sizeof dst->format);
	if (src->edition[0]) memcpy(dst->edition, src->edition, sizeof dst->edition);
	if (src->version[0]) memcpy(dst->version, src->version, sizeof dst->version);
	if (src->unreadable) {
		dst->unreadable = true;
		memcpy(dst->problem, src->problem, sizeof dst->problem);
	}
	if (src->internal_error) {
		dst->internal_error = true;
		memcpy(dst->problem, src->problem, sizeof dst->problem);
	}
	for (size_t k = 0; k < src->nparts; k++) {
		if (dst->nparts < HV_PARTS_MAX && k < HV_PARTS_MAX) dst->parts[dst->nparts] = src->parts[k];
		dst->nparts++;
	}
}

void hv_report_add_part(hv_report *r, const char *name, const uint64_t before[3])
{
	if (r->nparts < HV_PARTS_MAX) {
		hv_part *p = &r->parts[r->nparts];
		snprintf(p->name, sizeof p->name, "%s", name);
		memcpy(p->version, r->version, sizeof p->version);
		for (int s = 0; s < 3; s++) p->count[s] = r->count[s] - before[s];
	}
	r->nparts++;
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

/* Hot loops count their evaluations in bulk (per window, per run), so the
 * counts are only complete once a check has finished: the bookkeeping
 * promise -- no rule failed more often than it was evaluated -- is checked
 * on finished reports (fuzzing builds abort; the test suite asserts it). */
bool hv_report_counts_consistent(const hv_report *r)
{
	for (int i = 0; i < HV_RULE_COUNT; i++)
		if (r->failed[i] > r->evaluated[i]) return false;
	return true;
}
