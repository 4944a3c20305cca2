/* `hpcvet certify --verify CERT.json [PATH]`: does a certificate still
 * hold? The input is validated again, with digests, and the certificate
 * holds when all three things it binds agree with what is found now: the
 * bytes (every file's name, size and SHA-256, no file missing or added),
 * the rule table (its version) and the verdict. */
#include "verify.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../output/certify.h"
#include "../output/output.h"
#include "digest.h"
#include "fileio.h"

enum { V_HOLDS = 0, V_BROKEN = 1, V_USAGE = 2, V_UNREADABLE = 3, V_INTERNAL = 4 };

/* The reasons a certificate does not hold, for one input. */
typedef struct reasons {
	char **v;
	size_t n;
} reasons;

static void __attribute__((format(printf, 2, 3))) add_reason(reasons *rs, const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **nv = realloc(rs->v, (rs->n + 1) * sizeof *nv);
	if (!nv) return;
	rs->v = nv;
	char *s = strdup(buf);
	if (s) rs->v[rs->n++] = s;
}

static void free_reasons(reasons *rs)
{
	for (size_t i = 0; i < rs->n; i++) free(rs->v[i]);
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const hv_cert_file *find_file(const hv_cert_files *cf, const char *name)
{
	for (size_t i = 0; i < cf->n; i++)
		if (strcmp(cf->files[i].name, name) == 0) return &cf->files[i];
	return NULL;
}

/* Compare the certified files with the files read now. */
static void compare_files(const cJSON *files, const hv_cert_files *now, reasons *rs)
{
	if (!cJSON_IsArray(files)) {
		add_reason(rs, "the certificate lists no file digests (made by an hpcvet without digests)");
		return;
	}
	if (!now->complete) add_reason(rs, "digests could not be computed now: %s", now->problem ? now->problem : "?");
	const cJSON *f;
	cJSON_ArrayForEach(f, files)
	{
		const char *name = str_of(f, "name"), *sha = str_of(f, "sha256");
		const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
		if (!name || !sha || !cJSON_IsNumber(size)) {
			add_reason(rs, "a file entry of the certificate lacks name, size or sha256");
			continue;
		}
		const hv_cert_file *cur = find_file(now, name);
		if (!cur) {
			add_reason(rs, "%s: certified, but not part of the input now", name);
			continue;
		}
		if ((double)cur->size != size->valuedouble)
			add_reason(rs, "%s: size differs: certificate %.0f bytes, file now %llu bytes", name,
				   size->valuedouble, (unsigned long long)cur->size);
		if (strcmp(cur->sha256, sha) != 0)
			add_reason(rs, "%s: SHA-256 differs: certificate %s, file now %s", name, sha,
				   cur->sha256[0] ? cur->sha256 : "(not computed)");
	}
	for (size_t i = 0; i < now->n; i++) {
		bool found = false;
		cJSON_ArrayForEach(f, files)
		{
			const char *name = str_of(f, "name");
			if (name && strcmp(name, now->files[i].name) == 0) found = true;
		}
		if (!found) add_reason(rs, "%s: part of the input now, but not certified", now->files[i].name);
	}
}

/* One certified input against `path`: validate, compare, report. */
static int verify_input(const cJSON *in, const char *path, const char *table_cert, const char *table_now,
			const hv_options *opt, bool json, cJSON *jout)
{
	const cJSON *strict_j = cJSON_GetObjectItemCaseSensitive(in, "strict");
	bool strict = cJSON_IsTrue(strict_j);
	const char *verdict_cert = str_of(in, "verdict");
	hv_report r;
	hv_digest_set dg;
	hv_report_init(&r, path, opt->max_diags);
	hv_validate_path_digest(path, opt, &r, &dg);
	const char *verdict_now = hv_verdict(&r, strict);
	reasons rs = {0};
	if (strcmp(table_cert, table_now) != 0)
		add_reason(&rs, "rule table version differs: certificate %s, hpcvet %s now %s (rules were added, retired "
				"or changed severity)",
			   table_cert, HV_VERSION, table_now);
	if (r.unreadable) add_reason(&rs, "input unreadable now: %s: %s", path, r.problem);
	else compare_files(cJSON_GetObjectItemCaseSensitive(in, "files"), &dg.out, &rs);
	if (!verdict_cert) add_reason(&rs, "the certificate records no verdict");
	else if (strcmp(verdict_cert, verdict_now) != 0)
		add_reason(&rs, "verdict differs: certificate %s, validation now %s", verdict_cert, verdict_now);
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
			printf("%s: certificate holds (%zu file%s, same SHA-256, rule table %s, verdict %s)\n", shown,
			       dg.out.n, dg.out.n == 1 ? "" : "s", table_now, verdict_now);
		else printf("%s: certificate does NOT hold\n", shown);
		for (size_t i = 0; i < rs.n; i++) {
			hv_out_clean(rs.v[i], shown, sizeof shown);
			printf("  - %s\n", shown);
		}
	}
	free_reasons(&rs);
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

int hv_cmd_verify(const char *cert_path, const char *path, const char *base, const hv_options *opt, bool json)
{
	hv_file f;
	const char *why = NULL;
	if (!hv_file_open(&f, cert_path, &why)) {
		fprintf(stderr, "hpcvet certify --verify: %s: %s\n", cert_path, why);
		return V_UNREADABLE;
	}
	if (!f.blob.mem) { /* over HV_SLURP_MAX: no certificate is that big */
		fprintf(stderr, "hpcvet certify --verify: %s: too large for a certificate\n", cert_path);
		hv_file_close(&f);
		return V_UNREADABLE;
	}
	cJSON *root = cJSON_ParseWithLength((const char *)f.blob.mem, (size_t)f.blob.size);
	hv_file_close(&f);
	const cJSON *cert = cJSON_GetObjectItemCaseSensitive(root, "certificate");
	const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(cert, "inputs");
	const char *table_cert = str_of(cJSON_GetObjectItemCaseSensitive(cert, "rule_table"), "version");
	if (!cJSON_IsArray(inputs) || !table_cert) {
		fprintf(stderr, "hpcvet certify --verify: %s: not an hpcvet JSON certificate (certify --format=json)\n",
			cert_path);
		cJSON_Delete(root);
		return V_UNREADABLE;
	}
	int n = cJSON_GetArraySize(inputs);
	if (path && n != 1) {
		fprintf(stderr, "hpcvet certify --verify: %s certifies %d inputs; give no PATH to verify each at its "
				"recorded path\n",
			cert_path, n);
		cJSON_Delete(root);
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
		cJSON_Delete(root);
		cJSON_Delete(jroot);
		return V_INTERNAL;
	}
	int status = V_HOLDS;
	const cJSON *in;
	cJSON_ArrayForEach(in, inputs)
	{
		const char *rec = str_of(in, "path");
		char where[4096];
		const char *p = path ? path : rec ? resolve(rec, cert_path, base, where, sizeof where) : NULL;
		int s;
		if (!p) {
			fprintf(stderr, "hpcvet certify --verify: %s: an input without a path\n", cert_path);
			s = V_UNREADABLE;
		} else {
			s = verify_input(in, p, table_cert, table_now, opt, json, jin);
		}
		if (s > status) status = s;
	}
	if (jv) {
		cJSON_AddBoolToObject(jv, "holds", status == V_HOLDS);
		if (!hv_json_print_and_free(stdout, jroot)) status = V_INTERNAL;
	}
	cJSON_Delete(root);
	return status;
}
