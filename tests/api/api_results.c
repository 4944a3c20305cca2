/* Uses only <hpcvet.h>: the API's text results (JSON and text reports, a
 * rule's explanation), the dump, certificates, and the appended options
 * (jobs). Built by tests/api.test.sh against the shared and the static
 * library. Arguments: GOOD BAD (meta.db files) DB (a database folder) TMP
 * (a folder to write the certificate in). The comparisons with the CLI's
 * output are made by the script. */
#include <hpcvet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h" /* CHECK, TAP_DONE: the suite's closing line */

/* Writes `s` to path (for the script to compare with the CLI). */
static int save(const char *dir, const char *name, const char *s)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (!f) return 0;
	fputs(s ? s : "", f);
	return fclose(f) == 0;
}

typedef struct buf {
	char *p;
	size_t n, calls;
	size_t stop_after; /* 0: never ask to stop */
} buf;

static int collect(void *ctx, const char *data, size_t len)
{
	buf *b = ctx;
	char *q = realloc(b->p, b->n + len + 1);
	if (!q) return 1;
	b->p = q;
	memcpy(b->p + b->n, data, len);
	b->n += len;
	b->p[b->n] = '\0';
	return b->stop_after && ++b->calls >= b->stop_after;
}

int main(int argc, char **argv)
{
	if (argc != 5) return 2;
	const char *good = argv[1], *bad = argv[2], *db = argv[3], *tmp = argv[4];
	hpcvet_options opt;
	hpcvet_options_init(&opt);
	CHECK(opt.jobs == 1 && opt.mpi == 0 && !opt.mpi_replay && !opt.ovni_all_models, "appended defaults");

	hpcvet_report *r[2] = {hpcvet_validate_path(bad, &opt), hpcvet_validate_path(good, &opt)};
	char *json = hpcvet_reports_json((const hpcvet_report *const *)r, 2);
	CHECK(json && strstr(json, "\"metadb.hdr.footer\"") && json[strlen(json) - 1] == '\n', "JSON report");
	CHECK(save(tmp, "api.json", json), "save JSON");
	hpcvet_string_free(json);
	char *text = hpcvet_reports_text((const hpcvet_report *const *)r, 2, 0);
	CHECK(text && strstr(text, "error[metadb.hdr.footer]"), "text report");
	CHECK(save(tmp, "api.txt", text), "save text");
	hpcvet_string_free(text);
	text = hpcvet_reports_text((const hpcvet_report *const *)r, 2, 1);
	CHECK(text && !strstr(text, "error[metadb.hdr.footer]") && strstr(text, ": nonconforming"), "quiet text report");
	hpcvet_string_free(text);
	char *page = hpcvet_reports_html((const hpcvet_report *const *)r, 2);
	CHECK(page && strncmp(page, "<!DOCTYPE html>", 15) == 0 && strstr(page, "metadb.hdr.footer"), "HTML report");
	hpcvet_string_free(page);
	CHECK(hpcvet_reports_json(NULL, 1) == NULL && hpcvet_reports_json((const hpcvet_report *const *)r, 0) == NULL,
	      "no reports: NULL");
	opt.strict = 1;
	hpcvet_report *s = hpcvet_validate_path(good, &opt);
	opt.strict = 0;
	const hpcvet_report *mixed[2] = {r[0], s};
	CHECK(hpcvet_reports_json(mixed, 2) == NULL, "reports of different strictness: NULL");
	hpcvet_report_free(s);
	hpcvet_report_free(r[0]);
	hpcvet_report_free(r[1]);

	char *ex = hpcvet_rule_explain("metadb.hdr.footer");
	CHECK(ex && strncmp(ex, "metadb.hdr.footer\n  severity: error\n", 36) == 0, "explain");
	hpcvet_string_free(ex);
	CHECK(hpcvet_rule_explain("no.such.rule") == NULL && hpcvet_rule_explain(NULL) == NULL, "explain unknown");

	/* jobs: the same report on 1 and 4 threads */
	hpcvet_report *one = hpcvet_validate_path(db, &opt);
	opt.jobs = 4;
	hpcvet_report *four = hpcvet_validate_path(db, &opt);
	opt.jobs = 1;
	char *j1 = hpcvet_reports_json((const hpcvet_report *const *)&one, 1);
	char *j4 = hpcvet_reports_json((const hpcvet_report *const *)&four, 1);
	CHECK(j1 && j4 && strcmp(j1, j4) == 0, "jobs=4 gives the jobs=1 report");
	hpcvet_string_free(j1);
	hpcvet_string_free(j4);
	hpcvet_report_free(one);
	hpcvet_report_free(four);

	buf b = {0};
	int v = hpcvet_dump_path(bad, "file=bad", 0, 1, NULL, collect, &b, NULL, 0);
	CHECK(v == HPCVET_NONCONFORMING && b.p && strstr(b.p, "\"dump_format\"") && strstr(b.p, "\"kind\":\"file-header\""), "dump: %d", v);
	CHECK(save(tmp, "api.dump", b.p), "save dump");
	free(b.p);
	b = (buf){.stop_after = 1};
	v = hpcvet_dump_path(db, NULL, 0, 1, NULL, collect, &b, NULL, 0);
	CHECK(v == HPCVET_CONFORMING && b.calls == 1, "dump: the writer asked to stop is not called again (%zu)", b.calls);
	free(b.p);
	char why[160];
	b = (buf){0};
	v = hpcvet_dump_path(bad, "rank=x", 0, 1, NULL, collect, &b, why, sizeof why);
	CHECK(v == -1 && why[0] && b.n == 0, "dump: malformed selector (%s)", why);
	CHECK(hpcvet_dump_path(NULL, NULL, 0, 1, NULL, collect, &b, NULL, 0) == -1, "dump: no path");
	free(b.p);

	const char *paths[2] = {good, bad};
	int st = -1;
	char *cert = hpcvet_certify_json(paths, 2, NULL, &st);
	CHECK(cert && st == HPCVET_NONCONFORMING && strstr(cert, "\"sha256\""), "certify (%d)", st);
	CHECK(save(tmp, "cert.json", cert), "save certificate");
	hpcvet_string_free(cert);
	cert = hpcvet_certify_json(paths, 1, NULL, &st);
	CHECK(cert && st == HPCVET_CONFORMING && save(tmp, "good.cert.json", cert), "certify one");
	hpcvet_string_free(cert);
	char cpath[4096], *vj = NULL, *problem = NULL;
	snprintf(cpath, sizeof cpath, "%s/good.cert.json", tmp);
	st = hpcvet_certificate_verify(cpath, NULL, NULL, NULL, &vj, &problem);
	CHECK(st == 0 && vj && strstr(vj, "\"holds\":\ttrue") && problem && !problem[0], "verify holds (%d) %s", st, vj);
	hpcvet_string_free(vj);
	hpcvet_string_free(problem);
	st = hpcvet_certificate_verify(cpath, bad, NULL, NULL, &vj, NULL);
	CHECK(st == 1 && vj && strstr(vj, "\"holds\":\tfalse"), "verify against other bytes (%d)", st);
	hpcvet_string_free(vj);
	snprintf(cpath, sizeof cpath, "%s/cert.json", tmp);
	st = hpcvet_certificate_verify(cpath, bad, NULL, NULL, NULL, &problem);
	CHECK(st == 2 && problem && strstr(problem, "certifies 2 inputs"), "verify: one PATH for two inputs (%d)", st);
	hpcvet_string_free(problem);
	st = hpcvet_certificate_verify(good, NULL, NULL, NULL, &vj, &problem);
	CHECK(st == 3 && !vj && problem && strstr(problem, "not an hpcvet JSON certificate"), "verify: not a certificate");
	hpcvet_string_free(problem);
	TAP_DONE();
}
