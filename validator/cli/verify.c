/* `hpcvet certify --verify CERT.json [PATH]`: does a certificate still
 * hold? The input is validated again, with digests, and the certificate
 * holds when all three things it binds agree with what is found now: the
 * bytes (every file's name, size and SHA-256, no file missing or added),
 * the rule table (its version) and the verdict. */
#include "verify.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/cert_check.h"
#include "output/certify.h"
#include "output/output.h"
#include "digest.h"
#include "fileio.h"

enum { V_HOLDS = 0, V_BROKEN = 1, V_USAGE = 2, V_UNREADABLE = 3, V_INTERNAL = 4 };

/* One certified input against `path`: validate, compare, report. */
static int verify_input(FILE *out, bool progress, const cJSON *in, const char *path, const char *table_cert, const char *table_now,
			const hv_options *opt, bool json, cJSON *jout)
{
	bool strict = hv_cert_input_strict(in);
	const char *verdict_cert = hv_cert_input_verdict(in);
	hv_report r;
	hv_digest_set dg;
	hv_report_init(&r, path, opt->max_diags);
	hv_validate_path_digest(path, opt, &r, &dg, progress);
	const char *verdict_now = hv_verdict(&r, strict);
	hv_cert_reasons rs = {0};
	hv_cert_check_input(in, table_cert, table_now, &dg.out, r.unreadable ? r.problem : NULL, path, verdict_now, &rs);
	int status = rs.n == 0 ? V_HOLDS : r.unreadable ? V_UNREADABLE : r.internal_error ? V_INTERNAL : V_BROKEN;
	if (json) {
		cJSON *o = cJSON_CreateObject();
		if (o) {
			hv_json_add_clean(o, "path", path);
			cJSON_AddBoolToObject(o, "holds", rs.n == 0);
			cJSON_AddStringToObject(o, "certified_verdict", verdict_cert ? verdict_cert : "");
			cJSON_AddStringToObject(o, "verdict", verdict_now);
			cJSON *arr = cJSON_AddArrayToObject(o, "reasons");
			for (size_t i = 0; arr && i < rs.n; i++) {
				char clean[1024];
				hv_out_clean(rs.v[i], clean, sizeof clean);
				cJSON *str = cJSON_CreateString(clean);
				if (str) cJSON_AddItemToArray(arr, str);
			}
			cJSON_AddItemToArray(jout, o);
		}
	} else {
		char shown[600];
		hv_out_clean(path, shown, sizeof shown);
		if (rs.n == 0)
			fprintf(out, "%s: certificate holds (%zu file%s, same SHA-256, rule table %s, verdict %s)\n", shown,
			       dg.out.n, dg.out.n == 1 ? "" : "s", table_now, verdict_now);
		else fprintf(out, "%s: certificate does NOT hold\n", shown);
		for (size_t i = 0; i < rs.n; i++) {
			hv_out_clean(rs.v[i], shown, sizeof shown);
			fprintf(out, "  - %s\n", shown);
		}
	}
	hv_cert_reasons_free(&rs);
	hv_digest_free(&dg);
	hv_report_free(&r);
	return status;
}

/* Where a certified input is now. A recorded path that is relative was
 * relative to the folder certify ran in: it is taken against `base` when
 * given, else against the current folder, else against the certificate's
 * folder (a certificate kept beside what it certifies verifies from
 * anywhere). Returns the path tried last, so a message names it. */
static const char *resolve(const char *rec, const char *cert_path, const char *base, char *buf, size_t len)
{
	struct stat st;
	if (rec[0] == '/') return rec;
	if (base) {
		snprintf(buf, len, "%s/%s", base, rec);
		return buf;
	}
	if (stat(rec, &st) == 0) return rec;
	const char *slash = strrchr(cert_path, '/');
	if (!slash) return rec;
	snprintf(buf, len, "%.*s/%s", (int)(slash - cert_path), cert_path, rec);
	return stat(buf, &st) == 0 ? buf : rec;
}

int hv_cmd_verify(FILE *out, FILE *err, bool progress, const char *cert_path, const char *path, const char *base,
		  const hv_options *opt, bool json)
{
	hv_file f;
	const char *why = NULL;
	if (!hv_file_open(&f, cert_path, &why)) {
		fprintf(err, "hpcvet certify --verify: %s: %s\n", cert_path, why);
		return V_UNREADABLE;
	}
	if (!f.blob.mem) { /* over HV_SLURP_MAX: no certificate is that big */
		fprintf(err, "hpcvet certify --verify: %s: too large for a certificate\n", cert_path);
		hv_file_close(&f);
		return V_UNREADABLE;
	}
	hv_cert c;
	bool parsed = hv_cert_parse(f.blob.mem, (size_t)f.blob.size, &c);
	hv_file_close(&f);
	if (!parsed) {
		fprintf(err, "hpcvet certify --verify: %s: not an hpcvet JSON certificate (certify --format=json)\n",
			cert_path);
		return V_UNREADABLE;
	}
	const cJSON *inputs = c.inputs;
	const char *table_cert = c.table;
	int n = cJSON_GetArraySize(inputs);
	if (path && n != 1) {
		fprintf(err, "hpcvet certify --verify: %s certifies %d inputs; give no PATH to verify each at its "
				"recorded path\n",
			cert_path, n);
		hv_cert_free(&c);
		return V_USAGE;
	}
	char table_now[32];
	hv_rule_table_version(table_now, sizeof table_now);
	cJSON *jroot = json ? cJSON_CreateObject() : NULL;
	cJSON *jv = jroot ? cJSON_AddObjectToObject(jroot, "verification") : NULL;
	if (jv) {
		hv_json_add_clean(jv, "certificate", cert_path);
		cJSON_AddStringToObject(jv, "rule_table_version", table_now);
	}
	cJSON *jin = jv ? cJSON_AddArrayToObject(jv, "inputs") : NULL;
	if (json && !jin) {
		hv_cert_free(&c);
		cJSON_Delete(jroot);
		return V_INTERNAL;
	}
	int status = V_HOLDS;
	const cJSON *in;
	cJSON_ArrayForEach(in, inputs)
	{
		const char *rec = hv_cert_input_path(in);
		char where[4096];
		const char *p = path ? path : rec ? resolve(rec, cert_path, base, where, sizeof where) : NULL;
		int s;
		if (!p) {
			fprintf(err, "hpcvet certify --verify: %s: an input without a path\n", cert_path);
			s = V_UNREADABLE;
		} else {
			s = verify_input(out, progress, in, p, table_cert, table_now, opt, json, jin);
		}
		if (s > status) status = s;
	}
	if (jv) {
		cJSON_AddBoolToObject(jv, "holds", status == V_HOLDS);
		if (!hv_json_print_and_free(out, jroot)) status = V_INTERNAL;
	}
	hv_cert_free(&c);
	return status;
}
