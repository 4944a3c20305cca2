/* The API's text results: the JSON, text and HTML reports and a rule's
 * explanation, made by the CLI's own writers (validator/output) into memory,
 * so a program gets byte for byte what `hpcvet --format=json`, `hpcvet
 * --color=never --no-context` and `hpcvet explain` print, and the page of
 * `hpcvet --format=html` without the findings' bytes.
 * open_memstream writes to memory only: no file is touched. */
#include <stdio.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "output/output.h"
#include "internal.h"

void hpcvet_string_free(char *s) { free(s); }

/* Run `write` on a memory stream; its text, or NULL when it failed or
 * memory ran out -- also where a writer's allocation failed quietly (a
 * cJSON adder), which would leave a field out of the text. */
static char *capture(bool (*write)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) return NULL;
	hv_fault_scope s;
	hv_fault_scope_enter(&s);
	bool ok = write(f, arg);
	hv_fault_scope_leave(&s);
	if (atomic_load(&s.failed)) ok = false;
	if (fclose(f) != 0) ok = false;
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

typedef struct report_args {
	hv_report **reps;
	size_t n;
	bool strict, quiet;
} report_args;

static bool write_json(FILE *f, const void *arg)
{
	const report_args *a = arg;
	hv_output_opts oo = {.strict = a->strict};
	return hv_write_json(f, a->reps, a->n, &oo);
}

static bool write_text(FILE *f, const void *arg)
{
	const report_args *a = arg;
	hv_output_opts oo = {.strict = a->strict, .quiet = a->quiet};
	hv_write_text(f, a->reps, a->n, &oo);
	return true;
}

/* No read_bytes: a report made from memory names files that need not
 * exist, so the page shows no finding's bytes rather than a file's that
 * happens to have the name. */
static bool write_html(FILE *f, const void *arg)
{
	const report_args *a = arg;
	hv_output_opts oo = {.strict = a->strict};
	return hv_write_html(f, a->reps, a->n, &oo);
}

/* The reports as the writers take them, when all share one `strict`. */
static char *reports_to(bool (*write)(FILE *f, const void *arg), const hpcvet_report *const *reps, size_t n,
		       bool quiet)
{
	if (!reps || n == 0) return NULL;
	hv_report **rp = hv_calloc(n, sizeof *rp);
	if (!rp) return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!reps[i] || (reps[i]->strict != 0) != (reps[0]->strict != 0)) {
			free(rp);
			return NULL;
		}
		/* the writers take non-const reports but only read them */
		rp[i] = (hv_report *)&reps[i]->r;
	}
	report_args a = {rp, n, reps[0]->strict != 0, quiet};
	char *s = capture(write, &a);
	free(rp);
	return s;
}

char *hpcvet_reports_json(const hpcvet_report *const *reps, size_t n) { return reports_to(write_json, reps, n, false); }

char *hpcvet_reports_text(const hpcvet_report *const *reps, size_t n, int quiet)
{
	return reports_to(write_text, reps, n, quiet != 0);
}

char *hpcvet_reports_html(const hpcvet_report *const *reps, size_t n) { return reports_to(write_html, reps, n, false); }

static bool write_explain(FILE *f, const void *arg) { return hv_write_rule_explain(f, arg); }

char *hpcvet_rule_explain(const char *id) { return id ? capture(write_explain, id) : NULL; }
