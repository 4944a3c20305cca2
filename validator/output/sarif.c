/* SARIF 2.1.0 reports for code-scanning dashboards (GitHub, GitLab, IDEs).
 *
 * One run. The driver lists every rule of the table, in table order, so
 * results can name their rule by ruleIndex as well as by the stable ruleId.
 * Each result carries the offending bytes as region.byteOffset/byteLength
 * of the file and the structure path as a logical location. Inputs that could
 * not be read become tool execution notifications, since they are not
 * findings about a file's content. Strings pass through hv_out_clean so the
 * log is valid UTF-8 whatever the input held. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fnv.h"
#include "output.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SRCROOT "SRCROOT"

static const char *level_name(enum hv_sev s)
{
	return s == HV_SEV_ERROR ? "error" : s == HV_SEV_WARNING ? "warning" : "note";
}

static void add_clean(cJSON *o, const char *key, const char *s)
{
	/* Cleaning at most quadruples the length (one byte becomes \xNN). */
	size_t cap = 4 * strlen(s) + 1;
	char *buf = hv_malloc(cap);
	if (!buf) return;
	hv_out_clean(s, buf, cap);
	cJSON_AddStringToObject(o, key, buf);
	free(buf);
}

static void add_text(cJSON *o, const char *key, const char *text)
{
	cJSON *m = cJSON_AddObjectToObject(o, key);
	if (m) add_clean(m, "text", text);
}

static cJSON *rule_descriptor(int i)
{
	const hv_rule_info *ri = &hv_rules[i];
	cJSON *d = cJSON_CreateObject();
	if (!d) return NULL;
	cJSON_AddStringToObject(d, "id", ri->id);
	add_text(d, "shortDescription", ri->summary);
	add_text(d, "fullDescription", ri->detail);
	size_t n = strlen(ri->summary) + strlen(ri->detail) + strlen(ri->clause) + strlen(ri->id) + 64;
	char *help = hv_malloc(n);
	if (help) {
		snprintf(help, n, "%s\n\n%s\n\nSpec: %s. Run `hpcvet explain %s`.", ri->summary, ri->detail, ri->clause,
			 ri->id);
		add_text(d, "help", help);
		free(help);
	}
	cJSON *cfg = cJSON_AddObjectToObject(d, "defaultConfiguration");
	if (cfg) cJSON_AddStringToObject(cfg, "level", level_name(ri->severity));
	cJSON *props = cJSON_AddObjectToObject(d, "properties");
	if (props) {
		cJSON_AddStringToObject(props, "format", ri->format);
		cJSON_AddStringToObject(props, "clause", ri->clause);
		const char *tags[] = {ri->format, "hpcvet"};
		/* SARIF tags are unique. */
		cJSON *t = cJSON_CreateStringArray(tags, strcmp(ri->format, "hpcvet") == 0 ? 1 : 2);
		if (t) cJSON_AddItemToObject(props, "tags", t);
	}
	return d;
}

/* artifactLocation for a display path: relative to the working directory
 * (uriBaseId SRCROOT) where possible, else an absolute file:// URI. */
static void add_artifact_location(cJSON *parent, const char *file, const hv_output_opts *o)
{
	cJSON *al = cJSON_AddObjectToObject(parent, "artifactLocation");
	if (!al) return;
	const char *rel = hv_out_relative(file, o->base_dir);
	char uri[4096 * 3 + 16];
	if (!hv_out_uri(rel, uri, sizeof uri)) snprintf(uri, sizeof uri, "unrepresentable-path");
	cJSON_AddStringToObject(al, "uri", uri);
	if (rel[0] != '/' && o->base_dir) cJSON_AddStringToObject(al, "uriBaseId", SRCROOT);
}

/* A fingerprint that stays the same across runs for the same finding (rule,
 * file, structure), so dashboards track it instead of reopening it. FNV-1a. */
static void add_fingerprint(cJSON *res, const hv_diag *d, const char *rel)
{
	uint64_t h = HV_FNV1A_SEED;
	const char *parts[3] = {hv_rules[d->rule].id, rel, d->path};
	for (int p = 0; p < 3; p++) h = hv_fnv1a_byte(hv_fnv1a_str(h, parts[p]), 0xff);
	char buf[24];
	snprintf(buf, sizeof buf, "%016" PRIx64, h);
	cJSON *pf = cJSON_AddObjectToObject(res, "partialFingerprints");
	if (pf) cJSON_AddStringToObject(pf, "hpcvet/v1", buf);
}

static cJSON *result_json(const hv_diag *d, const hv_output_opts *o)
{
	cJSON *res = cJSON_CreateObject();
	if (!res) return NULL;
	const char *file = d->file ? d->file : "";
	cJSON_AddStringToObject(res, "ruleId", hv_rules[d->rule].id);
	cJSON_AddNumberToObject(res, "ruleIndex", d->rule);
	cJSON_AddStringToObject(res, "level", level_name(d->sev));
	add_text(res, "message", d->msg);
	cJSON *locs = cJSON_AddArrayToObject(res, "locations");
	cJSON *loc = cJSON_CreateObject();
	if (locs && loc) {
		cJSON_AddItemToArray(locs, loc);
		cJSON *pl = cJSON_AddObjectToObject(loc, "physicalLocation");
		if (pl) {
			add_artifact_location(pl, file, o);
			/* a finding about a file or directory as a whole has no region */
			cJSON *region = hv_diag_whole(d) ? NULL : cJSON_AddObjectToObject(pl, "region");
			if (region) {
				cJSON_AddNumberToObject(region, "byteOffset", (double)d->offset);
				cJSON_AddNumberToObject(region, "byteLength", (double)d->length);
			}
		}
		if (d->path[0]) {
			cJSON *lls = cJSON_AddArrayToObject(loc, "logicalLocations");
			cJSON *ll = cJSON_CreateObject();
			if (lls && ll) {
				cJSON_AddItemToArray(lls, ll);
				add_clean(ll, "fullyQualifiedName", d->path);
				const char *slash = strrchr(d->path, '/');
				add_clean(ll, "name", slash ? slash + 1 : d->path);
				cJSON_AddStringToObject(ll, "kind", "member");
			} else {
				cJSON_Delete(ll);
			}
		}
	} else {
		cJSON_Delete(loc);
	}
	add_fingerprint(res, d, hv_out_relative(file, o->base_dir));
	return res;
}

static cJSON *input_summary(const hv_report *r, bool strict)
{
	cJSON *s = cJSON_CreateObject();
	if (!s) return NULL;
	add_clean(s, "path", r->input_path ? r->input_path : "");
	cJSON_AddStringToObject(s, "format", r->format[0] ? r->format : "unknown");
	cJSON_AddStringToObject(s, "verdict", hv_verdict(r, strict));
	cJSON_AddNumberToObject(s, "rulesChecked", (double)hv_report_rules_checked(r));
	cJSON_AddNumberToObject(s, "errors", (double)r->count[HV_SEV_ERROR]);
	cJSON_AddNumberToObject(s, "warnings", (double)r->count[HV_SEV_WARNING]);
	cJSON_AddNumberToObject(s, "notes", (double)r->count[HV_SEV_NOTE]);
	cJSON_AddNumberToObject(s, "suppressed", (double)r->suppressed);
	cJSON *more = NULL;
	char line[2 * 4096 + 200];
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		if (!hv_more_line(r, i, line, sizeof line)) continue;
		if (!more) more = cJSON_AddArrayToObject(s, "notShown");
		if (!more) break;
		cJSON *m = cJSON_CreateObject();
		if (!m) break;
		cJSON_AddStringToObject(m, "ruleId", hv_rules[i].id);
		cJSON_AddNumberToObject(m, "count", (double)hv_report_hidden(r, i));
		hv_json_add_clean(m, "message", line);
		cJSON_AddItemToArray(more, m);
	}
	return s;
}

static bool build_run(cJSON *run, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
	if (!driver) return false;
	cJSON_AddStringToObject(driver, "name", "hpcvet");
	cJSON_AddStringToObject(driver, "version", HV_VERSION);
	cJSON_AddStringToObject(driver, "semanticVersion", HV_VERSION);
	cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
	for (int i = 0; rules && i < HV_RULE_COUNT; i++) {
		cJSON *d = rule_descriptor(i);
		if (!d) return false;
		cJSON_AddItemToArray(rules, d);
	}

	if (o->base_dir && o->base_dir[0] == '/') {
		char uri[4096 * 3 + 16];
		size_t bl = strlen(o->base_dir);
		char *dir = hv_malloc(bl + 2);
		if (dir) {
			snprintf(dir, bl + 2, "%s%s", o->base_dir, bl && o->base_dir[bl - 1] == '/' ? "" : "/");
			if (hv_out_uri(dir, uri, sizeof uri)) {
				cJSON *base = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "originalUriBaseIds"), SRCROOT);
				if (base) cJSON_AddStringToObject(base, "uri", uri);
			}
			free(dir);
		}
	}

	int status = 0;
	bool internal = false, unreadable = false;
	cJSON *inv = cJSON_CreateObject();
	cJSON *invs = cJSON_AddArrayToObject(run, "invocations");
	if (!inv || !invs) {
		cJSON_Delete(inv);
		return false;
	}
	cJSON_AddItemToArray(invs, inv);
	cJSON *notes = cJSON_CreateArray();
	cJSON *results = cJSON_AddArrayToObject(run, "results");
	cJSON *summaries = cJSON_CreateArray();
	for (size_t i = 0; results && notes && summaries && i < n; i++) {
		const hv_report *r = reps[i];
		int s = hv_report_exit_code(r, o->strict);
		if (s > status) status = s;
		internal |= r->internal_error;
		unreadable |= r->unreadable;
		for (size_t k = 0; k < r->ndiags; k++) {
			cJSON *res = result_json(&r->diags[k], o);
			if (!res) break;
			cJSON_AddItemToArray(results, res);
		}
		cJSON *sum = input_summary(r, o->strict);
		if (sum) cJSON_AddItemToArray(summaries, sum);
		if (r->unreadable || r->internal_error) {
			cJSON *nt = cJSON_CreateObject();
			if (!nt) continue;
			cJSON_AddItemToArray(notes, nt);
			cJSON_AddStringToObject(nt, "level", "error");
			char msg[sizeof r->problem + 4200];
			snprintf(msg, sizeof msg, "%s: %s (%s)", r->input_path ? r->input_path : "",
				 r->unreadable ? "unreadable" : "internal error", r->problem);
			add_text(nt, "message", msg);
		}
	}
	/* the analysis ran to its end on every input: not when one was
	 * unreadable (exit 3) or the validator failed (exit 4) */
	cJSON_AddBoolToObject(inv, "executionSuccessful", !internal && !unreadable);
	cJSON_AddNumberToObject(inv, "exitCode", status);
	if (notes && cJSON_GetArraySize(notes) > 0) cJSON_AddItemToObject(inv, "toolExecutionNotifications", notes);
	else cJSON_Delete(notes);
	/* Verdicts per input, which SARIF has no place for: a property bag. */
	cJSON *props = cJSON_AddObjectToObject(run, "properties");
	if (props && summaries) cJSON_AddItemToObject(props, "inputs", summaries);
	else cJSON_Delete(summaries);
	return results != NULL;
}

bool hv_write_sarif(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	cJSON *root = cJSON_CreateObject();
	if (!root) return false;
	cJSON_AddStringToObject(root, "$schema", SARIF_SCHEMA);
	cJSON_AddStringToObject(root, "version", "2.1.0");
	cJSON *runs = cJSON_AddArrayToObject(root, "runs");
	cJSON *run = cJSON_CreateObject();
	if (!runs || !run) {
		cJSON_Delete(run);
		cJSON_Delete(root);
		return false;
	}
	cJSON_AddItemToArray(runs, run);
	if (!build_run(run, reps, n, o)) {
		cJSON_Delete(root);
		return false;
	}
	return hv_json_print_and_free(out, root);
}
