/* Certificate writers (see certify.h). veraPDF-style: a certificate lists
 * what was checked and passed as well as what failed, so a reader can see
 * how much of the rule table an input really exercised. */
#include "certify.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A rule that fired is a failure only at error severity: a warning or a
 * note does not make the input nonconforming, and the certificate says so. */
enum rule_result { RES_NA, RES_PASS, RES_FAIL, RES_WARN, RES_NOTE, RES_COUNT };

typedef struct rule_counts {
	uint64_t evaluated, passed, failed;
	enum rule_result res;
} rule_counts;

/* The severity a rule fired with: the highest among its stored diagnostics
 * (forward compatibility can downgrade an error to a warning), else the
 * table's. */
static enum hv_sev fired_severity(const hv_rule_index *x, int rule)
{
	for (int s = HV_SEV_ERROR; s >= HV_SEV_NOTE; s--)
		if (hv_rule_stored_sev(x, rule, (enum hv_sev)s)) return (enum hv_sev)s;
	return hv_rules[rule].severity;
}

/* A rule can be reported without a counted evaluation (input.unrecognized
 * fires before any check runs): count each failure as an evaluation then. */
static rule_counts counts_of(const hv_rule_index *x, int rule)
{
	const hv_report *r = x->r;
	rule_counts c = {r->evaluated[rule], 0, r->failed[rule], RES_NA};
	if (c.evaluated < c.failed) c.evaluated = c.failed;
	c.passed = c.evaluated - c.failed;
	if (c.failed > 0) {
		enum hv_sev s = fired_severity(x, rule);
		c.res = s == HV_SEV_ERROR ? RES_FAIL : s == HV_SEV_WARNING ? RES_WARN : RES_NOTE;
	} else if (c.evaluated > 0) {
		c.res = RES_PASS;
	}
	return c;
}

static const char *result_name(enum rule_result res)
{
	switch (res) {
	case RES_PASS: return "pass";
	case RES_FAIL: return "fail";
	case RES_WARN: return "warning";
	case RES_NOTE: return "note";
	default: return "not-applicable";
	}
}

typedef struct totals {
	size_t rules[RES_COUNT];  /* by rule_result */
	uint64_t evaluations, failures;
} totals;

static totals totals_of(const hv_rule_index *x)
{
	totals t = {{0}, 0, 0};
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		rule_counts c = counts_of(x, i);
		t.rules[c.res]++;
		t.evaluations += c.evaluated;
		t.failures += c.failed;
	}
	return t;
}

static const char *strip_dir(const char *name, const char *dir, size_t l)
{
	while (l > 1 && dir[l - 1] == '/') l--;
	if (l > 0 && strncmp(name, dir, l) == 0 && name[l] == '/') {
		name += l;
		while (*name == '/') name++;
	}
	return name;
}

const char *hv_cert_relative_name(const char *label, const char *name)
{
	const char *slash = strrchr(label, '/');
	if (strcmp(name, label) == 0) return slash ? slash + 1 : name;
	const char *r = strip_dir(name, label, strlen(label));
	if (r != name) return r;
	if (slash) return strip_dir(name, label, (size_t)(slash - label) + (slash == label));
	return strncmp(name, "./", 2) == 0 ? name + 2 : name;
}

static void text_files(FILE *out, const hv_cert_files *cf)
{
	if (!cf) return;
	for (size_t i = 0; i < cf->n; i++) {
		char name[512];
		hv_out_clean(cf->files[i].name, name, sizeof name);
		fprintf(out, "  file:        %s  %" PRIu64 " bytes  sha256 %s\n", name, cf->files[i].size,
			cf->files[i].sha256[0] ? cf->files[i].sha256 : "(not computed)");
	}
	if (!cf->complete && cf->problem) fprintf(out, "  digests:     incomplete: %s\n", cf->problem);
}

static void text_one(FILE *out, const hv_report *r, const char *table, bool strict, const hv_cert_files *cf)
{
	/* every rule's diagnostics, found in one pass (not one per failed rule) */
	hv_rule_index x;
	hv_rule_index_build(&x, r);
	totals t = totals_of(&x);
	fputs("hpcvet conformance certificate\n", out);
	fprintf(out, "  input:       %s\n", r->input_path ? r->input_path : "");
	fprintf(out, "  format:      %s\n", r->format[0] ? r->format : "unknown");
	fprintf(out, "  edition:     %s\n", r->edition[0] ? r->edition : "-");
	fprintf(out, "  version:     %s\n", r->version[0] ? r->version : "-");
	text_files(out, cf);
	fprintf(out, "  validator:   hpcvet %s%s\n", HV_VERSION, strict ? " (--strict: warnings fail)" : "");
	fprintf(out, "  rule table:  %s (%d rules)\n", table, (int)HV_RULE_COUNT);
	fprintf(out, "  rules:       %zu passed, %zu failed, %zu warned, %zu noted, %zu not applicable\n",
		t.rules[RES_PASS], t.rules[RES_FAIL], t.rules[RES_WARN], t.rules[RES_NOTE], t.rules[RES_NA]);
	fprintf(out, "  checks:      %" PRIu64 " evaluated, %" PRIu64 " reported\n", t.evaluations, t.failures);
	fprintf(out, "  findings:    %" PRIu64 " error%s, %" PRIu64 " warning%s, %" PRIu64 " note%s\n",
		r->count[HV_SEV_ERROR], r->count[HV_SEV_ERROR] == 1 ? "" : "s", r->count[HV_SEV_WARNING],
		r->count[HV_SEV_WARNING] == 1 ? "" : "s", r->count[HV_SEV_NOTE], r->count[HV_SEV_NOTE] == 1 ? "" : "s");
	if (r->unreadable || r->internal_error) fprintf(out, "  problem:     %s\n", r->problem);
	fprintf(out, "  verdict:     %s\n", hv_verdict(r, strict));
	if (t.rules[RES_NA] < HV_RULE_COUNT) {
		fprintf(out, "\n  %-46s %-8s %10s %10s %10s  %s\n", "rule", "severity", "evaluated", "passed", "failed",
			"result");
		for (int i = 0; i < HV_RULE_COUNT; i++) {
			rule_counts c = counts_of(&x, i);
			if (c.res == RES_NA) continue;
			fprintf(out, "  %-46s %-8s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "  %s\n", hv_rules[i].id,
				hv_sev_name(hv_rules[i].severity), c.evaluated, c.passed, c.failed, result_name(c.res));
			const hv_diag *d = c.failed ? hv_rule_first(&x, i) : NULL;
			if (d) {
				char at[24] = "";
				if (!hv_diag_whole(d)) snprintf(at, sizeof at, ":0x%" PRIx64, d->offset);
				fprintf(out, "      first at %s%s%s%s%s: %s\n", d->file ? d->file : "", at,
					d->path[0] ? " (" : "", d->path, d->path[0] ? ")" : "", d->msg);
			}
		}
	}
	fprintf(out, "\n  %zu rule%s not applicable (other formats, or structures this input does not have);\n"
		     "  --format=json lists every rule.\n",
		t.rules[RES_NA], t.rules[RES_NA] == 1 ? "" : "s");
	hv_rule_index_free(&x);
}

void hv_write_certify_text(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	char table[32];
	hv_rule_table_version(table, sizeof table);
	for (size_t i = 0; i < n; i++) {
		if (i) fputc('\n', out);
		text_one(out, reps[i], table, o->strict, o->cert_files ? &o->cert_files[i] : NULL);
	}
}

static cJSON *rule_json(const hv_rule_index *x, int i)
{
	rule_counts c = counts_of(x, i);
	cJSON *o = cJSON_CreateObject();
	if (!o) return NULL;
	cJSON_AddStringToObject(o, "id", hv_rules[i].id);
	cJSON_AddStringToObject(o, "severity", hv_sev_name(hv_rules[i].severity));
	cJSON_AddStringToObject(o, "format", hv_rules[i].format);
	cJSON_AddStringToObject(o, "clause", hv_rules[i].clause);
	cJSON_AddStringToObject(o, "result", result_name(c.res));
	cJSON_AddNumberToObject(o, "evaluated", (double)c.evaluated);
	cJSON_AddNumberToObject(o, "passed", (double)c.passed);
	cJSON_AddNumberToObject(o, "failed", (double)c.failed);
	const hv_diag *d = c.failed ? hv_rule_first(x, i) : NULL;
	if (d) {
		cJSON *f = cJSON_AddObjectToObject(o, "first_failure");
		if (f) hv_json_add_location(f, d);
	}
	return o;
}

static void files_json(cJSON *o, const hv_cert_files *cf)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "files");
	for (size_t i = 0; arr && i < cf->n; i++) {
		cJSON *f = cJSON_CreateObject();
		if (!f) return;
		hv_json_add_clean(f, "name", cf->files[i].name);
		cJSON_AddNumberToObject(f, "size", (double)cf->files[i].size);
		cJSON_AddStringToObject(f, "sha256", cf->files[i].sha256);
		cJSON_AddItemToArray(arr, f);
	}
	if (!cf->complete) hv_json_add_clean(o, "digest_problem", cf->problem ? cf->problem : "incomplete");
}

static cJSON *input_json(const hv_report *r, bool strict)
{
	cJSON *o = cJSON_CreateObject();
	if (!o) return NULL;
	/* every rule's diagnostics, found in one pass (not one per failed rule) */
	hv_rule_index x;
	hv_rule_index_build(&x, r);
	totals t = totals_of(&x);
	hv_json_add_identity(o, r, strict);

	cJSON_AddBoolToObject(o, "strict", strict);
	if (r->unreadable || r->internal_error) hv_json_add_clean(o, "problem", r->problem);
	cJSON *s = cJSON_AddObjectToObject(o, "summary");
	cJSON_AddNumberToObject(s, "rules_passed", (double)t.rules[RES_PASS]);
	cJSON_AddNumberToObject(s, "rules_failed", (double)t.rules[RES_FAIL]);
	cJSON_AddNumberToObject(s, "rules_warned", (double)t.rules[RES_WARN]);
	cJSON_AddNumberToObject(s, "rules_noted", (double)t.rules[RES_NOTE]);
	cJSON_AddNumberToObject(s, "rules_not_applicable", (double)t.rules[RES_NA]);
	cJSON_AddNumberToObject(s, "checks_evaluated", (double)t.evaluations);
	cJSON_AddNumberToObject(s, "checks_reported", (double)t.failures);
	cJSON_AddNumberToObject(s, "errors", (double)r->count[HV_SEV_ERROR]);
	cJSON_AddNumberToObject(s, "warnings", (double)r->count[HV_SEV_WARNING]);
	cJSON_AddNumberToObject(s, "notes", (double)r->count[HV_SEV_NOTE]);
	cJSON *arr = cJSON_AddArrayToObject(o, "rules");
	for (int i = 0; arr && i < HV_RULE_COUNT; i++) {
		cJSON *ro = rule_json(&x, i);
		if (!ro) {
			hv_rule_index_free(&x);
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddItemToArray(arr, ro);
	}
	hv_rule_index_free(&x);
	return o;
}

bool hv_write_certify_json(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	char table[32];
	cJSON *root = cJSON_CreateObject();
	if (!root) return false;
	cJSON *cert = cJSON_AddObjectToObject(root, "certificate");
	hv_json_add_tool(cert, "tool");
	cJSON *rt = cJSON_AddObjectToObject(cert, "rule_table");
	cJSON_AddStringToObject(rt, "version", hv_rule_table_version(table, sizeof table));
	cJSON_AddNumberToObject(rt, "rules", (double)HV_RULE_COUNT);
	if (!hv_json_add_inputs(cert, "inputs", reps, n, o->strict, input_json)) {
		cJSON_Delete(root);
		return false;
	}
	/* the digests, added to each input after its identity */
	cJSON *inputs = cJSON_GetObjectItemCaseSensitive(cert, "inputs");
	for (size_t i = 0; o->cert_files && i < n; i++) files_json(cJSON_GetArrayItem(inputs, (int)i), &o->cert_files[i]);
	return hv_json_print_and_free(out, root);
}
