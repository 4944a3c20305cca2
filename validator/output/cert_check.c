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
	/* a reason per file of a large input: the list grows by doubling */
	if (!HV_GROW(rs->v, rs->cap, rs->n + 1, 8)) return;
	char *s = hv_strdup(buf);
	if (s) rs->v[rs->n++] = s;
}

void hv_cert_reasons_free(hv_cert_reasons *rs)
{
	for (size_t i = 0; i < rs->n; i++) free(rs->v[i]);
	free(rs->v);
	rs->v = NULL;
	rs->n = rs->cap = 0;
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

/* A name and its place in a list, to sort: an input of a million rank
 * files is compared with its certificate by sorted names, not by searching
 * one list for every name of the other. */
typedef struct named {
	const char *name;
	size_t at;
} named;

static int cmp_named(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The first of `v` (n, sorted) named `name`, or NULL. */
static const named *find_named(const named *v, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].name, name) < 0) lo = mid + 1;
		else hi = mid;
	}
	return lo < n && strcmp(v[lo].name, name) == 0 ? &v[lo] : NULL;
}

/* The file named `name` read now: by the sorted index when there is one,
 * else by a walk over the list (the same answer, the first of the name). */
static const hv_cert_file *find_file(const hv_cert_files *cf, const named *ix, const char *name)
{
	if (ix) {
		const named *at = find_named(ix, cf->n, name);
		return at ? &cf->files[at->at] : NULL;
	}
	for (size_t i = 0; i < cf->n; i++)
		if (strcmp(cf->files[i].name, name) == 0) return &cf->files[i];
	return NULL;
}

/* Whether the certificate's `files` name `name`. */
static bool certified(const cJSON *files, const named *ix, size_t nix, const char *name)
{
	if (ix) return find_named(ix, nix, name) != NULL;
	const cJSON *f;
	cJSON_ArrayForEach(f, files)
	{
		const char *n = str_of(f, "name");
		if (n && strcmp(n, name) == 0) return true;
	}
	return false;
}

/* Compare the certified files with the files read now. */
static void compare_files(const cJSON *files, const hv_cert_files *now, hv_cert_reasons *rs)
{
	if (!cJSON_IsArray(files)) {
		add_reason(rs, "the certificate lists no file digests (made by an hpcvet without digests)");
		return;
	}
	if (!now->complete) add_reason(rs, "digests could not be computed now: %s", now->problem ? now->problem : "?");
	/* both lists sorted by name (without the memory: searched as lists) */
	size_t ncert = (size_t)cJSON_GetArraySize(files), nix = 0;
	named *now_ix = now->n ? hv_malloc_optional(now->n * sizeof *now_ix) : NULL;
	named *cert_ix = ncert ? hv_malloc_optional(ncert * sizeof *cert_ix) : NULL;
	if ((now->n && !now_ix) || (ncert && !cert_ix)) {
		free(now_ix);
		free(cert_ix);
		now_ix = cert_ix = NULL;
	}
	if (now_ix) {
		for (size_t i = 0; i < now->n; i++) now_ix[i] = (named){now->files[i].name, i};
		qsort(now_ix, now->n, sizeof *now_ix, cmp_named);
	}
	const cJSON *f;
	if (cert_ix) {
		cJSON_ArrayForEach(f, files)
		{
			const char *name = str_of(f, "name");
			if (name && nix < ncert) cert_ix[nix] = (named){name, nix}, nix++;
		}
		qsort(cert_ix, nix, sizeof *cert_ix, cmp_named);
	}
	cJSON_ArrayForEach(f, files)
	{
		const char *name = str_of(f, "name"), *sha = str_of(f, "sha256");
		const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
		if (!name || !sha || !cJSON_IsNumber(size)) {
			add_reason(rs, "a file entry of the certificate lacks name, size or sha256");
			continue;
		}
		const hv_cert_file *cur = find_file(now, now_ix, name);
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
	for (size_t i = 0; i < now->n; i++)
		if (!certified(files, cert_ix, nix, now->files[i].name))
			add_reason(rs, "%s: part of the input now, but not certified", now->files[i].name);
	free(now_ix);
	free(cert_ix);
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
