/* The writers that go rule by rule (JUnit, both certificates) on a report
 * of 100,000 stored findings spread over every rule of the table, with no
 * cap on the report: each rule's diagnostics listed in report order, its
 * first one, whether it fails the input and with which severity it fired,
 * all as a scan of the diagnostics per rule would find them (the reference
 * here), and with the diagnostics read once or twice per report by the
 * rule index (output/rule_index.c), never once per rule: at this width a
 * scan per rule reads the diagnostics 331 times. Nothing here is timed;
 * the index's own counter of diagnostics read is what is asserted. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/certify.h"
#include "output/output.h"
#include "tap.h"

/* ASan's string interceptors read the whole rest of the report at every
 * strstr this test walks it with, quadratic in its length: the sanitizer
 * build checks a tenth (the scan counts it asserts do not depend on it) */
#if defined(__SANITIZE_ADDRESS__)
#define FINDINGS 10000u
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FINDINGS 10000u
#endif
#endif
#ifndef FINDINGS
#define FINDINGS 100000u
#endif
#define LATE 100u /* the last findings, all of one rule (past max_diags in the capped report) */
#define LATE_RULE (HV_RULE_COUNT - 1)

/* Finding k's rule: the rules interleave, so no rule's diagnostics are
 * contiguous; the last LATE findings are LATE_RULE's alone. */
static int rule_of(unsigned k)
{
	if (k >= FINDINGS - LATE) return LATE_RULE;
	return (int)((k * 37u + k / 1000u) % (HV_RULE_COUNT - 1));
}

/* Its severity: the table's, except that every fifth rule fires as a
 * warning (a downgrade) and every seventh fires its first findings as
 * notes, so a rule's stored severities differ from its table's. */
static enum hv_sev sev_of(unsigned k, int rule)
{
	if (rule % 5 == 0) return HV_SEV_WARNING;
	if (rule % 7 == 0 && k < FINDINGS / 2) return HV_SEV_NOTE;
	return hv_rules[rule].severity;
}

static void fill(hv_report *r, size_t max_diags)
{
	hv_report_init(r, "input", max_diags);
	r->max_per_rule = 0;
	for (unsigned k = 0; k < FINDINGS; k++) {
		int rule = rule_of(k);
		hv_eval_n(r, rule, 2);
		hv_emit_sev(r, rule, sev_of(k, rule), "input/file", k + 1, 4, "at", "finding %u", k);
	}
}

/* The reference: what the writers found scanning every stored diagnostic
 * for each rule, worked out once per report. */
typedef struct ref {
	const hv_report *r;
	uint64_t *order;                 /* stored diagnostics' offsets by rule, each rule's in report order */
	const hv_diag *first[HV_RULE_COUNT];
	bool fails[2][HV_RULE_COUNT];    /* [strict] */
	const char *result[HV_RULE_COUNT];
} ref;

static void ref_build(ref *f, const hv_report *r)
{
	f->r = r;
	f->order = malloc((r->ndiags + 1) * sizeof *f->order);
	size_t n = 0;
	for (int rule = 0; rule < HV_RULE_COUNT; rule++) {
		bool stored = false, bar[2] = {false, false};
		int top = -1;
		f->first[rule] = NULL;
		for (size_t k = 0; k < r->ndiags; k++) {
			const hv_diag *d = &r->diags[k];
			if (d->rule != rule) continue;
			if (f->order) f->order[n++] = d->offset;
			if (!stored) f->first[rule] = d;
			stored = true;
			bar[0] |= d->sev == HV_SEV_ERROR;
			bar[1] |= d->sev != HV_SEV_NOTE;
			if ((int)d->sev > top) top = (int)d->sev;
		}
		enum hv_sev table = hv_rules[rule].severity;
		for (int strict = 0; strict < 2; strict++) {
			bool by_table = table == HV_SEV_ERROR || (strict && table == HV_SEV_WARNING);
			f->fails[strict][rule] = r->failed[rule] && (bar[strict] || ((!stored || r->suppressed) && by_table));
		}
		if (top < 0) top = (int)table;
		f->result[rule] = !r->failed[rule] ? (r->evaluated[rule] ? "pass" : "not-applicable")
				  : top == HV_SEV_ERROR	  ? "fail"
				  : top == HV_SEV_WARNING ? "warning"
							  : "note";
	}
}

typedef enum { W_JUNIT, W_CERT_TEXT, W_CERT_JSON } writer;

static char *render(writer w, hv_report *r, bool strict)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) return NULL;
	hv_report *reps[1] = {r};
	hv_output_opts o = {.strict = strict};
	switch (w) {
	case W_JUNIT: hv_write_junit(f, reps, 1, &o); break;
	case W_CERT_TEXT: hv_write_certify_text(f, reps, 1, &o); break;
	case W_CERT_JSON: hv_write_certify_json(f, reps, 1, &o); break;
	}
	fclose(f);
	return buf;
}

/* The index against the reference, and its fallback (no buckets: out of
 * memory) giving the same. */
static void check_index(const ref *f, const char *what)
{
	const hv_report *r = f->r;
	hv_rule_index x;
	hv_rule_index_build(&x, r);
	const uint64_t *want = f->order;
	bool same = want != NULL, same_bare = want != NULL, firsts = true, fails = true, shown = true;
	hv_rule_index bare = x;
	bare.order = NULL;
	size_t n = 0, nb = 0;
	for (int rule = 0; rule < HV_RULE_COUNT && want; rule++) {
		size_t pos = 0, posb = 0, c = 0;
		for (const hv_diag *d; (d = hv_rule_next(&x, rule, &pos)); c++) same &= d->rule == rule && d->offset == want[n++];
		for (const hv_diag *d; (d = hv_rule_next(&bare, rule, &posb));) same_bare &= d->offset == want[nb++];
		shown &= c == hv_rule_shown(&x, rule);
		firsts &= hv_rule_first(&x, rule) == f->first[rule];
		for (int strict = 0; strict < 2; strict++) fails &= hv_rule_fails(&x, rule, strict) == f->fails[strict][rule];
	}
	CHECK(same && n == r->ndiags, "%s: each rule's diagnostics in report order (%zu of %zu)", what, n, r->ndiags);
	CHECK(same_bare && nb == r->ndiags, "%s: the same without the buckets (%zu)", what, nb);
	CHECK(shown && firsts, "%s: each rule's count and first diagnostic", what);
	CHECK(fails, "%s: whether each rule fails the input, strict or not", what);
	hv_rule_index_free(&x);
}

/* JUnit: the diagnostic lines' offsets in the order written, the suite's
 * failures, and each failed rule's case a <failure> exactly when it fails. */
static void check_junit(const ref *f, bool strict, const char *what)
{
	hv_report *r = (hv_report *)f->r;
	size_t before = hv_rule_index_scanned();
	char *s = render(W_JUNIT, r, strict);
	size_t read = hv_rule_index_scanned() - before;
	CHECK(read <= 2 * r->ndiags, "%s: JUnit reads the diagnostics at most twice: %zu of %zu", what, read, r->ndiags);
	const uint64_t *want = f->order;
	size_t n = 0;
	bool order = s && want;
	/* a diagnostic's line: "input/file:0xOFF+4: SEV: finding K (at at)&#10;" */
	for (const char *p = s; order && (p = strstr(p, "input/file:0x")); p++) {
		uint64_t off = strtoull(p + 13, NULL, 16);
		order &= n < r->ndiags && off == want[n++];
	}
	CHECK(order && n == r->ndiags, "%s: JUnit lists each rule's diagnostics, rule by rule (%zu of %zu)", what, n,
	      r->ndiags);
	size_t failures = 0;
	bool cases = s != NULL;
	/* the cases come in the rule table's order: each is searched for from
	 * the one before (searching the whole report for each of the 331 took
	 * minutes under ASan, which checks the string at every call) */
	const char *from = s;
	for (int rule = 0; s && rule < HV_RULE_COUNT; rule++) {
		bool fails = f->fails[strict][rule];
		failures += fails;
		if (!r->failed[rule]) continue;
		char key[160];
		snprintf(key, sizeof key, "name=\"%s\" assertions=", hv_rules[rule].id);
		const char *c = from ? strstr(from, key) : NULL, *end = c ? strstr(c + 1, "<testcase") : NULL;
		size_t span = !c ? 0 : end ? (size_t)(end - c) : strlen(c); /* this case's text */
		const char *fa = c ? memmem(c, span, "<failure", 8) : NULL, *so = c ? memmem(c, span, "<system-out>", 12) : NULL;
		bool is_failure = fa && (!so || fa < so);
		cases &= c && is_failure == fails;
		if (c) from = c;
	}
	char suite[64];
	snprintf(suite, sizeof suite, "failures=\"%zu\" errors=\"0\" skipped", failures);
	CHECK(s && strstr(s, suite), "%s: the suite's failures, %zu", what, failures);
	CHECK(cases, "%s: a failed rule's case is a <failure> exactly when the rule fails the input", what);
	free(s);
}

/* Certificates: each rule's result and first failure (JSON), the same
 * rules' first places in order (text). */
static void check_certificates(const ref *f, const char *what)
{
	hv_report *r = (hv_report *)f->r;
	size_t before = hv_rule_index_scanned();
	char *js = render(W_CERT_JSON, r, false);
	size_t read = hv_rule_index_scanned() - before;
	CHECK(read <= r->ndiags, "%s: the JSON certificate reads the diagnostics once: %zu of %zu", what, read, r->ndiags);
	cJSON *root = js ? cJSON_Parse(js) : NULL;
	cJSON *rules = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "certificate"), "inputs"), 0),
		"rules");
	bool results = cJSON_GetArraySize(rules) == HV_RULE_COUNT, firsts = results;
	for (int rule = 0; results && rule < HV_RULE_COUNT; rule++) {
		cJSON *ro = cJSON_GetArrayItem(rules, rule);
		const char *res = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ro, "result"));
		results &= res && strcmp(res, f->result[rule]) == 0;
		const hv_diag *d = f->first[rule];
		cJSON *ff = cJSON_GetObjectItemCaseSensitive(ro, "first_failure");
		firsts &= d ? cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ff, "offset")) == (double)d->offset : !ff;
	}
	CHECK(results, "%s: every rule's result in the JSON certificate", what);
	CHECK(firsts, "%s: every failed rule's first failure in the JSON certificate", what);
	cJSON_Delete(root);
	free(js);

	before = hv_rule_index_scanned();
	char *s = render(W_CERT_TEXT, r, false);
	read = hv_rule_index_scanned() - before;
	CHECK(read <= r->ndiags, "%s: the text certificate reads the diagnostics once: %zu of %zu", what, read, r->ndiags);
	bool order = s != NULL;
	const char *p = s;
	for (int rule = 0; order && rule < HV_RULE_COUNT; rule++) {
		const hv_diag *d = f->first[rule];
		if (!d || !r->failed[rule]) continue;
		char line[64];
		snprintf(line, sizeof line, "first at input/file:0x%" PRIx64 " (at): finding", d->offset);
		p = strstr(p, line);
		order &= p != NULL;
	}
	CHECK(order, "%s: the text certificate's first places, rule by rule", what);
	free(s);
}

static void check_all(const hv_report *r, const char *what)
{
	ref f;
	ref_build(&f, r);
	char label[64];
	check_index(&f, what);
	check_junit(&f, false, what);
	snprintf(label, sizeof label, "%s, strict", what);
	check_junit(&f, true, label);
	check_certificates(&f, what);
	free(f.order);
}

int main(void)
{
	/* every finding stored */
	hv_report all;
	fill(&all, (size_t)-1);
	CHECK(all.ndiags == FINDINGS && all.suppressed == 0, "%zu stored, %" PRIu64 " suppressed", all.ndiags,
	      all.suppressed);
	check_all(&all, "all stored");

	/* half stored: the rest suppressed, LATE_RULE's failures all of them */
	hv_report half;
	fill(&half, FINDINGS / 2);
	bool late_stored = false;
	for (size_t k = 0; k < half.ndiags; k++) late_stored |= half.diags[k].rule == LATE_RULE;
	CHECK(half.ndiags == FINDINGS / 2 && half.suppressed == FINDINGS / 2 && half.failed[LATE_RULE] == LATE &&
		      !late_stored,
	      "half stored: %zu stored, %" PRIu64 " suppressed", half.ndiags, half.suppressed);
	check_all(&half, "half stored");

	/* no diagnostic stored at all */
	hv_report none;
	hv_report_init(&none, "input", 0);
	hv_emit(&none, LATE_RULE, "input/file", 1, 1, "at", "finding");
	check_all(&none, "none stored");

	hv_report_free(&all);
	hv_report_free(&half);
	hv_report_free(&none);
	TAP_DONE();
}
