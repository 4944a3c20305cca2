/* GitHub Actions workflow commands: each diagnostic becomes an annotation
 * on the file in the run summary and the pull request.
 *
 *   ::error file=db/meta.db,title=metadb.hdr.magic::message
 *
 * GitHub decodes %25, %0D and %0A in the message and additionally %3A and
 * %2C in property values (where ':' and ',' are separators), so those
 * characters are escaped that way. The summary lines follow as plain log
 * text. Notes are no annotations unless asked (--github-notes): a note is
 * accepted input, and a pull request is no place for it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "output.h"

static void escape(FILE *out, const char *s, bool property)
{
	size_t cap = 4 * strlen(s) + 1;
	char *clean = hv_malloc(cap);
	if (!clean) return;
	hv_out_clean(s, clean, cap);
	for (const char *p = clean; *p; p++) {
		switch (*p) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':': fputs(property ? "%3A" : ":", out); break;
		case ',': fputs(property ? "%2C" : ",", out); break;
		default: fputc(*p, out);
		}
	}
	free(clean);
}

static const char *command(enum hv_sev s)
{
	return s == HV_SEV_ERROR ? "error" : s == HV_SEV_WARNING ? "warning" : "notice";
}

void hv_write_github(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	for (size_t i = 0; i < n; i++) {
		const hv_report *r = reps[i];
		const char *input = r->input_path ? r->input_path : "";
		for (size_t k = 0; k < r->ndiags; k++) {
			const hv_diag *d = &r->diags[k];
			if (d->sev == HV_SEV_NOTE && !o->github_notes) continue;
			fprintf(out, "::%s file=", command(d->sev));
			escape(out, hv_out_relative(d->file ? d->file : input, o->base_dir), true);
			fputs(",title=", out);
			escape(out, hv_rules[d->rule].id, true);
			fputs("::", out);
			escape(out, d->msg, false);
			/* a finding about the input as a whole has no byte to point at */
			bool whole = hv_diag_whole(d);
			char where[96] = "";
			if (!whole)
				snprintf(where, sizeof where, " [byte 0x%" PRIx64 ", %" PRIu64 " byte%s", d->offset, d->length,
					 d->length == 1 ? "" : "s");
			escape(out, where, false);
			if (d->path[0]) {
				escape(out, whole ? " [at " : ", at ", false);
				escape(out, d->path, false);
			}
			if (!whole || d->path[0]) fputs("]", out);
			fputs("\n", out);
		}
		if (r->suppressed) {
			fputs("::warning file=", out);
			escape(out, hv_out_relative(input, o->base_dir), true);
			fprintf(out, ",title=hpcvet::%" PRIu64 " more diagnostic%s not shown (--max-diagnostics=%zu)\n",
				r->suppressed, r->suppressed == 1 ? "" : "s", r->max_diags);
		}
		char line[2 * 4096 + 200];
		for (int k = 0; k < HV_RULE_COUNT; k++) {
			if (hv_rules[k].severity == HV_SEV_NOTE && !o->github_notes) continue;
			if (!hv_more_line(r, k, line, sizeof line)) continue;
			fprintf(out, "::%s file=", command(hv_rules[k].severity));
			escape(out, hv_out_relative(r->more[k].first_file ? r->more[k].first_file : input, o->base_dir), true);
			fputs(",title=", out);
			escape(out, hv_rules[k].id, true);
			fputs("::", out);
			escape(out, line, false);
			fputc('\n', out);
		}
		if (r->unreadable || r->internal_error) {
			fputs("::error title=hpcvet::", out);
			escape(out, input, false);
			fputs(r->unreadable ? ": unreadable: " : ": internal error: ", out);
			escape(out, r->problem, false);
			fputc('\n', out);
		}
	}
	for (size_t i = 0; i < n; i++) hv_write_summary_line(out, reps[i], o->strict);
}
