/* JUnit XML reports, the test-result format Jenkins, GitLab and most CI
 * systems display.
 *
 * One <testsuite> per input; one <testcase> per rule evaluated on it. A rule
 * that fails the input (an error, or a warning under --strict) is a
 * <failure> carrying its diagnostics; warnings and notes that do not fail it
 * go to <system-out>. An input that could not be read is a single testcase
 * with an <error>. Text is cleaned to valid UTF-8 without control bytes
 * (which XML 1.0 cannot carry at all, not even as references) and escaped. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "output.h"

static void xml_text(FILE *out, const char *s)
{
	size_t cap = 4 * strlen(s ? s : "") + 1;
	char *clean = hv_malloc(cap);
	if (!clean) return;
	hv_out_clean(s, clean, cap);
	for (const char *p = clean; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		/* In attributes a literal newline or tab would be normalised to a space. */
		case '\n': fputs("&#10;", out); break;
		case '\t': fputs("&#9;", out); break;
		default: fputc(*p, out);
		}
	}
	free(clean);
}

static void diag_line(FILE *out, const hv_diag *d)
{
	char head[64];
	if (hv_diag_whole(d)) snprintf(head, sizeof head, ": %s: ", hv_sev_name(d->sev));
	else snprintf(head, sizeof head, ":0x%" PRIx64 "+%" PRIu64 ": %s: ", d->offset, d->length, hv_sev_name(d->sev));
	xml_text(out, d->file ? d->file : "");
	xml_text(out, head);
	xml_text(out, d->msg);
	if (d->path[0]) {
		xml_text(out, " (at ");
		xml_text(out, d->path);
		xml_text(out, ")");
	}
	fputs("&#10;", out);
}

/* The rule's area ("metadb.hdr" for "metadb.hdr.magic"), which CI tools
 * show as the test class. */
static void classname(FILE *out, const char *id)
{
	const char *dot = strrchr(id, '.');
	size_t n = dot ? (size_t)(dot - id) : strlen(id);
	fprintf(out, "%.*s", (int)n, id);
}

static size_t rules_in_suite(const hv_report *r)
{
	size_t n = 0;
	for (int i = 0; i < HV_RULE_COUNT; i++) n += r->evaluated[i] > 0 || r->failed[i] > 0;
	return n;
}

static void write_case(FILE *out, const hv_rule_index *x, int rule, bool strict)
{
	const hv_report *r = x->r;
	const hv_rule_info *ri = &hv_rules[rule];
	fputs("    <testcase classname=\"", out);
	classname(out, ri->id);
	fprintf(out, "\" name=\"%s\" assertions=\"%" PRIu64 "\"", ri->id, r->evaluated[rule]);
	if (r->failed[rule] == 0) {
		fputs("/>\n", out);
		return;
	}
	fputs(">\n", out);
	size_t shown = hv_rule_shown(x, rule);
	bool fails = hv_rule_fails(x, rule, strict);
	if (fails) {
		fputs("      <failure type=\"", out);
		fputs(hv_sev_name(ri->severity), out);
		fputs("\" message=\"", out);
		const hv_diag *first = hv_rule_first(x, rule);
		xml_text(out, first ? first->msg : ri->summary);
		fputs("\">", out);
	} else {
		fputs("      <system-out>", out);
	}
	size_t pos = 0;
	for (const hv_diag *d; (d = hv_rule_next(x, rule, &pos));) diag_line(out, d);
	if (r->failed[rule] > shown)
		fprintf(out, "%" PRIu64 " failure%s of this rule in all; %zu shown (--max-diagnostics, --max-per-rule)&#10;",
			r->failed[rule], r->failed[rule] == 1 ? "" : "s", shown);
	char more[2 * 4096 + 200];
	if (hv_more_line(r, rule, more, sizeof more)) {
		xml_text(out, more);
		fputs("&#10;", out);
	}
	fputs(fails ? "</failure>\n" : "</system-out>\n", out);
	fputs("    </testcase>\n", out);
}

static void write_suite(FILE *out, const hv_report *r, bool strict)
{
	const char *path = r->input_path ? r->input_path : "";
	bool broken = r->unreadable || r->internal_error;
	size_t tests = broken ? 1 : rules_in_suite(r), failures = 0;
	/* every rule's diagnostics, found in one pass (not one per failed rule) */
	hv_rule_index x;
	hv_rule_index_build(&x, r);
	if (!broken) failures = hv_rules_failing(&x, strict);
	fputs("  <testsuite name=\"", out);
	xml_text(out, path);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"0\">\n", tests, failures,
		broken ? 1 : 0);
	fputs("    <properties>\n      <property name=\"format\" value=\"", out);
	xml_text(out, r->format[0] ? r->format : "unknown");
	fputs("\"/>\n", out);
	if (r->edition[0]) {
		fputs("      <property name=\"edition\" value=\"", out);
		xml_text(out, r->edition);
		fputs("\"/>\n", out);
	}
	if (r->version[0]) {
		fputs("      <property name=\"version\" value=\"", out);
		xml_text(out, r->version);
		fputs("\"/>\n", out);
	}
	fprintf(out, "      <property name=\"verdict\" value=\"%s\"/>\n    </properties>\n", hv_verdict(r, strict));
	if (broken) {
		fputs("    <testcase classname=\"input\" name=\"input.readable\">\n      <error type=\"", out);
		fputs(r->unreadable ? "unreadable" : "internal-error", out);
		fputs("\" message=\"", out);
		xml_text(out, r->problem);
		fputs("\">", out);
		xml_text(out, path);
		fputs(": ", out);
		xml_text(out, r->problem);
		fputs("</error>\n    </testcase>\n", out);
	} else {
		for (int i = 0; i < HV_RULE_COUNT; i++)
			if (r->evaluated[i] > 0 || r->failed[i] > 0) write_case(out, &x, i, strict);
	}
	hv_rule_index_free(&x);
	fputs("  </testsuite>\n", out);
}

void hv_write_junit(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	size_t tests = 0, failures = 0, errors = 0;
	for (size_t i = 0; i < n; i++) {
		const hv_report *r = reps[i];
		if (r->unreadable || r->internal_error) {
			tests++;
			errors++;
			continue;
		}
		tests += rules_in_suite(r);
		hv_rule_index x;
		hv_rule_index_build(&x, r);
		failures += hv_rules_failing(&x, o->strict);
		hv_rule_index_free(&x);
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"hpcvet %s\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", HV_VERSION,
		tests, failures, errors);
	for (size_t i = 0; i < n; i++) write_suite(out, reps[i], o->strict);
	fputs("</testsuites>\n", out);
}
