/* Fuzz target: `hpcvet certify --verify` reads a JSON certificate a
 * stranger wrote. The bytes go to hv_cert_parse (output/cert_check.c, what
 * the CLI's verify calls after reading the file); each certified input is
 * then compared (hv_cert_check_input) three times, without any file:
 *   - with what the certificate itself records (its files' names, sizes and
 *     SHA-256, its verdict, its rule table): where every file entry is
 *     well formed it must hold (no reason), else the comparison is wrong;
 *   - with the same files, each one byte longer and with another digest:
 *     it must not hold;
 *   - with nothing found now and another verdict: it must not hold.
 * The reasons are cleaned for output as the CLI prints them. */
#include <cjson/cJSON.h>

#include "harness.h"
#include "output/cert_check.h"

#define MAX_FILES 256

/* The certificate's own files as "found now"; false when an entry is not
 * one a real file could match exactly (missing fields, a size that is not a
 * whole number of bytes below 2^53, a digest that is not 64 lowercase hex
 * digits, a name given twice). */
static bool own_files(const cJSON *files, hv_cert_files *now, hv_cert_file *buf)
{
	now->files = buf, now->n = 0, now->complete = true, now->problem = NULL;
	if (!cJSON_IsArray(files)) return false;
	const cJSON *f;
	cJSON_ArrayForEach(f, files)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
		const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
		const cJSON *sha = cJSON_GetObjectItemCaseSensitive(f, "sha256");
		if (now->n == MAX_FILES || !cJSON_IsString(name) || !cJSON_IsNumber(size) || !cJSON_IsString(sha))
			return false;
		double sz = size->valuedouble;
		if (!(sz >= 0 && sz <= 9007199254740992.0 && sz == (double)(uint64_t)sz)) return false;
		if (strlen(sha->valuestring) != 64 || strspn(sha->valuestring, "0123456789abcdef") != 64) return false;
		for (size_t i = 0; i < now->n; i++)
			if (strcmp(buf[i].name, name->valuestring) == 0) return false;
		hv_cert_file *cf = &buf[now->n++];
		cf->name = name->valuestring;
		cf->size = (uint64_t)sz;
		memcpy(cf->sha256, sha->valuestring, 65);
	}
	return true;
}

static void show(const hv_cert_reasons *rs)
{
	char clean[1024];
	for (size_t i = 0; i < rs->n; i++) hv_out_clean(rs->v[i], clean, sizeof clean);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hv_cert c;
	if (!hv_cert_parse(data, size, &c)) return 0;
	static hv_cert_file buf[MAX_FILES];
	const cJSON *in;
	cJSON_ArrayForEach(in, c.inputs)
	{
		const char *path = hv_cert_input_path(in), *verdict = hv_cert_input_verdict(in);
		(void)hv_cert_input_strict(in);
		hv_cert_files now;
		bool exact = own_files(cJSON_GetObjectItemCaseSensitive(in, "files"), &now, buf);
		hv_cert_reasons rs = {0};
		hv_cert_check_input(in, c.table, c.table, &now, NULL, path ? path : "?", verdict ? verdict : "conforming",
				    &rs);
		show(&rs);
		if (exact && verdict && rs.n != 0) {
			fprintf(stderr, "fuzz: a certificate does not hold against what it records: %s\n", rs.v[0]);
			abort();
		}
		hv_cert_reasons_free(&rs);
		if (exact && verdict && now.n) {
			/* every file one byte longer, its digest another: it must not hold */
			for (size_t i = 0; i < now.n; i++) {
				buf[i].size++;
				buf[i].sha256[0] = buf[i].sha256[0] == '0' ? '1' : '0';
			}
			hv_cert_check_input(in, c.table, c.table, &now, NULL, path ? path : "?", verdict, &rs);
			show(&rs);
			if (rs.n == 0) {
				fprintf(stderr, "fuzz: a certificate holds against files of other sizes and digests\n");
				abort();
			}
			hv_cert_reasons_free(&rs);
		}
		hv_cert_files none = {.files = NULL, .n = 0, .complete = false, .problem = "fuzz"};
		const char *other = verdict && strcmp(verdict, "conforming") == 0 ? "nonconforming" : "conforming";
		hv_cert_check_input(in, c.table, "0.0-fuzz", &none, (size % 3 == 0) ? "unreadable (fuzz)" : NULL,
				    path ? path : "?", other, &rs);
		show(&rs);
		if (rs.n == 0) {
			fprintf(stderr, "fuzz: a certificate holds against another rule table and verdict\n");
			abort();
		}
		hv_cert_reasons_free(&rs);
	}
	hv_cert_free(&c);
	return 0;
}
