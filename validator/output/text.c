#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "output.h"

const char *hv_verdict(const hv_report *r, bool strict)
{
	switch (hv_report_exit_code(r, strict)) {
	case 0: return "conforming";
	case 1: return "nonconforming";
	case 3: return "unreadable";
	default: return "internal-error";
	}
}

/* Text reports go to terminals: bytes from the input (a file name, a JSON
 * key in a message) must not reach one as escape sequences or line breaks.
 * Cleaned like the CI formats, with newlines shown as \x0a too, so each
 * diagnostic stays one line. */
#define CLEAN_CAP (4 * 4096 + 1)
static const char *tclean(char *buf, const char *s)
{
	char tmp[CLEAN_CAP];
	hv_out_clean(s ? s : "", tmp, sizeof tmp);
	size_t o = 0;
	for (const char *p = tmp; *p && o + 5 < CLEAN_CAP; p++) {
		if (*p == '\n') {
			memcpy(buf + o, "\\x0a", 4);
			o += 4;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o] = '\0';
	return buf;
}

static const char *sev_color(enum hv_sev s)
{
	return s == HV_SEV_ERROR ? "\033[1;31m" : s == HV_SEV_WARNING ? "\033[1;33m" : "\033[1;36m";
}

/* The line format is the same with and without colour; colour only wraps
 * the file:offset, the severity and the rule ID. With the context view on,
 * the structure path gets its own line above the bytes. */
static void write_diag(FILE *out, const hv_diag *d, const hv_output_opts *o)
{
	bool whole = hv_diag_whole(d);
	const char *b = o->color ? "\033[1m" : "", *off = o->color ? "\033[0m" : "";
	char file[CLEAN_CAP], msg[CLEAN_CAP], path[CLEAN_CAP];
	tclean(file, d->file);
	tclean(msg, d->msg);
	tclean(path, d->path);
	char at[24] = "";
	if (!whole) snprintf(at, sizeof at, ":0x%" PRIx64, d->offset);
	fprintf(out, "%s%s%s:%s %s%s[%s]:%s %s", b, file, at, off, o->color ? sev_color(d->sev) : "",
		hv_sev_name(d->sev), hv_rules[d->rule].id, off, msg);
	if (d->path[0]) fprintf(out, " (at %s)", path);
	fputc('\n', out);
	if (o->context) {
		if (d->path[0]) fprintf(out, "    %s-->%s %s\n", o->color ? "\033[1;34m" : "", off, path);
		if (!whole) hv_write_hex_context(out, d, o);
	}
}

/* The verdict word in colour on a terminal: green conforming, red otherwise. */
static void summary_line(FILE *out, const hv_report *r, bool strict, bool color)
{
	char path[CLEAN_CAP], problem[CLEAN_CAP];
	tclean(path, r->input_path);
	tclean(problem, r->problem);
	const char *v = hv_verdict(r, strict);
	const char *on = !color ? "" : strcmp(v, "conforming") == 0 ? "\033[1;32m" : "\033[1;31m";
	const char *off = color ? "\033[0m" : "";
	if (r->unreadable || r->internal_error) {
		fprintf(out, "%s: %s%s%s (%s)\n", path, on, v, off, problem);
		return;
	}
	uint64_t e = r->count[HV_SEV_ERROR], w = r->count[HV_SEV_WARNING], nn = r->count[HV_SEV_NOTE];
	char notes[40] = "";
	if (nn > 0) snprintf(notes, sizeof notes, ", %" PRIu64 " note%s", nn, nn == 1 ? "" : "s");
	if (e > 0 || (strict && w > 0)) {
		fprintf(out, "%s: %snonconforming%s (%" PRIu64 " error%s, %" PRIu64 " warning%s%s)\n", path, on, off, e,
			e == 1 ? "" : "s", w, w == 1 ? "" : "s", notes);
		return;
	}
	fprintf(out, "%s: %sconforming%s (%s", path, on, off, r->format[0] ? r->format : "unknown");
	if (r->edition[0]) fprintf(out, ", %s edition", r->edition);
	if (r->nparts > 1) fprintf(out, ", %zu traces", r->nparts);
	else if (r->version[0]) fprintf(out, ", v%s", r->version);
	fprintf(out, ", %zu rules checked", hv_report_rules_checked(r));
	if (w > 0) fprintf(out, ", %" PRIu64 " warning%s", w, w == 1 ? "" : "s");
	fprintf(out, "%s)\n", notes);
}

/* An input that holds several traces: a line per trace before the input's
 * own line (which counts them all). */
static void part_lines(FILE *out, const hv_report *r, bool strict)
{
	if (r->nparts < 2 || r->unreadable || r->internal_error) return;
	char path[CLEAN_CAP], name[CLEAN_CAP];
	tclean(path, r->input_path);
	for (size_t k = 0; k < r->nparts && k < HV_PARTS_MAX; k++) {
		const hv_part *p = &r->parts[k];
		uint64_t e = p->count[HV_SEV_ERROR], w = p->count[HV_SEV_WARNING], nn = p->count[HV_SEV_NOTE];
		tclean(name, p->name);
		fprintf(out, "%s/%s: %s (%s, v%s, %" PRIu64 " error%s, %" PRIu64 " warning%s, %" PRIu64 " note%s)\n", path,
			name, e > 0 || (strict && w > 0) ? "nonconforming" : "conforming", r->format, p->version[0] ? p->version : "?",
			e, e == 1 ? "" : "s", w, w == 1 ? "" : "s", nn, nn == 1 ? "" : "s");
	}
	if (r->nparts > HV_PARTS_MAX)
		fprintf(out, "%s: %zu more traces (only the first %d have a line)\n", path, r->nparts - HV_PARTS_MAX,
			HV_PARTS_MAX);
}

void hv_write_summary_line(FILE *out, const hv_report *r, bool strict)
{
	part_lines(out, r, strict);
	summary_line(out, r, strict, false);
}

void hv_write_text(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	for (size_t i = 0; i < n; i++) {
		const hv_report *r = reps[i];
		if (!o->quiet) {
			for (size_t k = 0; k < r->ndiags; k++) write_diag(out, &r->diags[k], o);
			if (r->suppressed) {
				char path[CLEAN_CAP];
				fprintf(out, "%s: ... %" PRIu64 " more diagnostic%s not shown (--max-diagnostics=%zu)\n",
					tclean(path, r->input_path), r->suppressed, r->suppressed == 1 ? "" : "s",
					r->max_diags);
			}
			char line[HV_PATH_MAX + 2 * 4096];
			for (int k = 0; k < HV_RULE_COUNT; k++) {
				if (!hv_more_line(r, k, line, sizeof line)) continue;
				char path[CLEAN_CAP], clean[sizeof line];
				hv_out_clean(line, clean, sizeof clean);
				fprintf(out, "%s: ... %s\n", tclean(path, r->input_path), clean);
			}
		}
		part_lines(out, r, o->strict);
		summary_line(out, r, o->strict, o->color);
	}
}

void hv_write_rules_text(FILE *out)
{
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		const hv_rule_info *ri = &hv_rules[i];
		fprintf(out, "%-44s %-7s %-22s %s  [%s]\n", ri->id, hv_sev_name(ri->severity), ri->format, ri->summary,
			ri->clause);
	}
}

char *hv_rule_explain_text(int k)
{
	if (k < 0 || k >= HV_RULE_COUNT) return NULL;
	const hv_rule_info *ri = &hv_rules[k];
#define EXPLAIN_FMT "%s\n  severity: %s\n  format:   %s\n  clause:   %s\n  summary:  %s\n\n%s\n"
#define EXPLAIN_ARGS ri->id, hv_sev_name(ri->severity), ri->format, ri->clause, ri->summary, ri->detail
	int len = snprintf(NULL, 0, EXPLAIN_FMT, EXPLAIN_ARGS);
	char *s = len < 0 ? NULL : hv_malloc((size_t)len + 1);
	if (s) snprintf(s, (size_t)len + 1, EXPLAIN_FMT, EXPLAIN_ARGS);
#undef EXPLAIN_FMT
#undef EXPLAIN_ARGS
	return s;
}

bool hv_write_rule_explain(FILE *out, const char *id)
{
	char *s = hv_rule_explain_text(hv_rule_find(id));
	if (!s) return false;
	fputs(s, out);
	free(s);
	return true;
}
