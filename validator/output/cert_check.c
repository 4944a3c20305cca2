#include "cert_check.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "output.h"

static void __attribute__((format(printf, 2, 3))) add_reason(hv_cert_reasons *rs, const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **nv = hv_realloc(rs->v, (rs->n + 1) * sizeof *nv);
	if (!nv) return;
	rs->v = nv;
	char *s = hv_strdup(buf);
	if (s) rs->v[rs->n++] = s;
}

void hv_cert_reasons_free(hv_cert_reasons *rs)
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

bool hv_cert_parse(const void *bytes, size_t len, hv_cert *c)
{
	memset(c, 0, sizeof *c);
	cJSON *root = cJSON_ParseWithLength((const char *)bytes, len);
	const cJSON *cert = cJSON_GetObjectItemCaseSensitive(root, "certificate");
	const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(cert, "inputs");
	const char *table = str_of(cJSON_GetObjectItemCaseSensitive(cert, "rule_table"), "version");
	if (!cJSON_IsArray(inputs) || !table) {
		cJSON_Delete(root);
		return false;
	}
	c->root = root;
	c->inputs = inputs;
	c->table = table;
	return true;
}

void hv_cert_free(hv_cert *c)
{
	cJSON_Delete(c->root);
	memset(c, 0, sizeof *c);
}

const char *hv_cert_input_path(const cJSON *in) { return str_of(in, "path"); }
const char *hv_cert_input_verdict(const cJSON *in) { return str_of(in, "verdict"); }
bool hv_cert_input_strict(const cJSON *in) { return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(in, "strict")); }

static const hv_cert_file *find_file(const hv_cert_files *cf, const char *name)
{
	for (size_t i = 0; i < cf->n; i++)
		if (strcmp(cf->files[i].name, name) == 0) return &cf->files[i];
	return NULL;
}

/* Compare the certified files with the files read now. */
static void compare_files(const cJSON *files, const hv_cert_files *now, hv_cert_reasons *rs)
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

void hv_cert_check_input(const cJSON *in, const char *table_cert, const char *table_now, const hv_cert_files *now,
			 const char *unreadable_problem, const char *path, const char *verdict_now, hv_cert_reasons *rs)
{
	const char *verdict_cert = str_of(in, "verdict");
	if (strcmp(table_cert, table_now) != 0)
		add_reason(rs, "rule table version differs: certificate %s, hpcvet %s now %s (rules were added, retired "
			       "or changed severity)",
			   table_cert, HV_VERSION, table_now);
	if (unreadable_problem) add_reason(rs, "input unreadable now: %s: %s", path, unreadable_problem);
	else compare_files(cJSON_GetObjectItemCaseSensitive(in, "files"), now, rs);
	if (!verdict_cert) add_reason(rs, "the certificate records no verdict");
	else if (strcmp(verdict_cert, verdict_now) != 0)
		add_reason(rs, "verdict differs: certificate %s, validation now %s", verdict_cert, verdict_now);
}
