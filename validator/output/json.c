/* JSON reports, built with cJSON so escaping is never hand-rolled. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "certify.h"
#include "core/alloc.h"
#include "output.h"

/* Messages and paths may hold bytes from the input: keep the document valid
 * UTF-8 for strict parsers. */
void hv_json_add_clean(cJSON *o, const char *key, const char *s)
{
	char buf[4 * (HV_MSG_MAX > 4096 ? HV_MSG_MAX : 4096)];
	hv_out_clean(s, buf, sizeof buf);
	cJSON_AddStringToObject(o, key, buf);
}

static cJSON *diag_json(const hv_diag *d)
{
	cJSON *o = cJSON_CreateObject();
	if (!o) return NULL;
	cJSON_AddStringToObject(o, "rule", hv_rules[d->rule].id);
	cJSON_AddStringToObject(o, "severity", hv_sev_name(d->sev));
	hv_json_add_location(o, d);
	return o;
}

void hv_json_add_location(cJSON *o, const hv_diag *d)
{
	hv_json_add_clean(o, "file", d->file ? d->file : "");
	cJSON_AddNumberToObject(o, "offset", (double)d->offset);
	cJSON_AddNumberToObject(o, "length", (double)d->length);
	hv_json_add_clean(o, "struct_path", d->path);
	hv_json_add_clean(o, "message", d->msg);
}

void hv_json_add_identity(cJSON *o, const hv_report *r, bool strict)
{
	hv_json_add_clean(o, "path", r->input_path ? r->input_path : "");
	cJSON_AddStringToObject(o, "format", r->format[0] ? r->format : "unknown");
	if (r->edition[0]) cJSON_AddStringToObject(o, "edition", r->edition);
	else cJSON_AddNullToObject(o, "edition");
	if (r->version[0]) cJSON_AddStringToObject(o, "version", r->version);
	else cJSON_AddNullToObject(o, "version");
	cJSON_AddStringToObject(o, "verdict", hv_verdict(r, strict));
}

/* The report's span of a rule's unshown failures: its first and last place. */
static void not_shown_span(cJSON *m, const hv_report *r, int rule)
{
	hv_json_add_clean(m, "first_file", r->more[rule].first_file ? r->more[rule].first_file : "");
	cJSON_AddNumberToObject(m, "first_offset", (double)r->more[rule].first_off);
	hv_json_add_clean(m, "last_file", r->more[rule].last_file ? r->more[rule].last_file : "");
	cJSON_AddNumberToObject(m, "last_offset", (double)r->more[rule].last_off);
}

static cJSON *input_json(const hv_report *r, bool strict)
{
	cJSON *o = cJSON_CreateObject();
	if (!o) return NULL;
	hv_json_add_identity(o, r, strict);
	if (r->unreadable || r->internal_error) hv_json_add_clean(o, "problem", r->problem);
	cJSON_AddNumberToObject(o, "rules_checked", (double)hv_report_rules_checked(r));
	cJSON_AddNumberToObject(o, "errors", (double)r->count[HV_SEV_ERROR]);
	cJSON_AddNumberToObject(o, "warnings", (double)r->count[HV_SEV_WARNING]);
	cJSON_AddNumberToObject(o, "notes", (double)r->count[HV_SEV_NOTE]);
	cJSON_AddNumberToObject(o, "suppressed", (double)r->suppressed);
	cJSON *arr = cJSON_AddArrayToObject(o, "diagnostics");
	for (size_t k = 0; arr && k < r->ndiags; k++) {
		cJSON *d = diag_json(&r->diags[k]);
		if (d) cJSON_AddItemToArray(arr, d);
	}
	/* rules whose failures beyond --max-per-rule are only counted */
	hv_json_add_not_shown(o, r, not_shown_span);
	return o;
}

void hv_json_add_not_shown(cJSON *o, const hv_report *r, void (*more)(cJSON *m, const hv_report *r, int rule))
{
	cJSON *arr = NULL;
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		uint64_t h = hv_report_hidden(r, i);
		if (!h) continue;
		if (!arr) arr = cJSON_AddArrayToObject(o, "not_shown");
		cJSON *m = cJSON_CreateObject();
		if (!arr || !m) {
			cJSON_Delete(m);
			return;
		}
		cJSON_AddStringToObject(m, "rule", hv_rules[i].id);
		cJSON_AddNumberToObject(m, "count", (double)h);
		more(m, r, i);
		cJSON_AddItemToArray(arr, m);
	}
}

void hv_json_add_tool(cJSON *o, const char *key)
{
	cJSON *tool = cJSON_AddObjectToObject(o, key);
	cJSON_AddStringToObject(tool, "name", "hpcvet");
	cJSON_AddStringToObject(tool, "version", HV_VERSION);
}

bool hv_json_add_inputs(cJSON *o, const char *key, hv_report *const *reps, size_t n, bool strict,
			cJSON *(*one)(const hv_report *r, bool strict))
{
	cJSON *inputs = cJSON_AddArrayToObject(o, key);
	if (!inputs) return false;
	for (size_t i = 0; i < n; i++) {
		cJSON *in = one(reps[i], strict);
		if (!in) return false;
		cJSON_AddItemToArray(inputs, in);
	}
	return true;
}

bool hv_json_print_and_free(FILE *out, cJSON *root)
{
	char *s = root ? cJSON_Print(root) : NULL;
	cJSON_Delete(root);
	if (!s) return false;
	fputs(s, out);
	fputc('\n', out);
	free(s);
	return true;
}

bool hv_write_json(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	cJSON *root = cJSON_CreateObject();
	if (!root) return false;
	hv_json_add_tool(root, "tool");
	if (!hv_json_add_inputs(root, "inputs", reps, n, o->strict, input_json)) {
		cJSON_Delete(root);
		return false;
	}
	return hv_json_print_and_free(out, root);
}

/* The corpus's cases by rule ID, each rule's in corpus order (a stable
 * order: the index breaks ties), so each rule finds its cases by binary
 * search instead of comparing every case with every rule. */
static int cmp_case(const void *a, const void *b)
{
	const hv_rule_case *const *x = a, *const *y = b;
	int c = strcmp((*x)->rule, (*y)->rule);
	return c ? c : (*x < *y ? -1 : *x > *y);
}

static void add_cases(cJSON *cs, const char *id, const hv_rule_case *cases, const hv_rule_case **sorted, size_t n)
{
	if (!sorted) { /* no memory for the order: every case compared */
		for (const hv_rule_case *c = cases; cs && c && c->rule; c++)
			if (strcmp(c->rule, id) == 0) cJSON_AddItemToArray(cs, cJSON_CreateString(c->path));
		return;
	}
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(sorted[mid]->rule, id) < 0) lo = mid + 1;
		else hi = mid;
	}
	for (; cs && lo < n && strcmp(sorted[lo]->rule, id) == 0; lo++)
		cJSON_AddItemToArray(cs, cJSON_CreateString(sorted[lo]->path));
}

bool hv_write_rules_json(FILE *out, const hv_rule_case *cases)
{
	size_t ncases = 0;
	for (const hv_rule_case *c = cases; c && c->rule; c++) ncases++;
	const hv_rule_case **sorted = ncases ? hv_malloc_optional(ncases * sizeof *sorted) : NULL;
	for (size_t i = 0; sorted && i < ncases; i++) sorted[i] = &cases[i];
	if (sorted) qsort(sorted, ncases, sizeof *sorted, cmp_case);
	cJSON *root = cJSON_CreateObject();
	if (!root) {
		free(sorted);
		return false;
	}
	cJSON_AddStringToObject(root, "tool", "hpcvet");
	cJSON_AddStringToObject(root, "version", HV_VERSION);
	char table[32];
	cJSON_AddStringToObject(root, "rule_table_version", hv_rule_table_version(table, sizeof table));
	cJSON *arr = cJSON_AddArrayToObject(root, "rules");
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		const hv_rule_info *ri = &hv_rules[i];
		cJSON *o = cJSON_CreateObject();
		if (!o) break;
		cJSON_AddStringToObject(o, "id", ri->id);
		cJSON_AddStringToObject(o, "severity", hv_sev_name(ri->severity));
		cJSON_AddStringToObject(o, "format", ri->format);
		cJSON_AddStringToObject(o, "clause", ri->clause);
		cJSON_AddStringToObject(o, "summary", ri->summary);
		cJSON_AddStringToObject(o, "detail", ri->detail);
		cJSON *cs = cJSON_AddArrayToObject(o, "cases");
		add_cases(cs, ri->id, cases, sorted, ncases);
		cJSON_AddItemToArray(arr, o);
	}
	free(sorted);
	return hv_json_print_and_free(out, root);
}
