/* The CI writers on hostile text: messages, paths and file names carry
 * bytes from the input (JSON keys, file names), so every writer must stay
 * well-formed whatever they hold: XML-escaped for JUnit, %-escaped for
 * GitHub, valid UTF-8 JSON for SARIF and JSON. Reports are built by hand
 * with hv_emit, exactly as checks record failures. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tap.h"

typedef enum { W_SARIF, W_JUNIT, W_GITHUB, W_JSON, W_TEXT } writer;

static char *render(writer w, hv_report *r, const hv_output_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) return NULL;
	hv_report *reps[1] = {r};
	switch (w) {
	case W_SARIF: hv_write_sarif(f, reps, 1, o); break;
	case W_JUNIT: hv_write_junit(f, reps, 1, o); break;
	case W_GITHUB: hv_write_github(f, reps, 1, o); break;
	case W_JSON: hv_write_json(f, reps, 1, o); break;
	case W_TEXT: hv_write_text(f, reps, 1, o); break;
	}
	fclose(f);
	return buf;
}

/* Bytes the writers must survive: markup, quotes, GitHub's separators,
 * CR/LF, a C0 control byte, DEL, a lone continuation byte, an overlong
 * encoding of '/', and valid UTF-8 that must be kept. */
static const char hostile[] = "a<b>&\"c'd%e,f:g\r\nh\x01i\x7fj\x80k\xc0\xafl\xc3\xa9m";
static const char hostile_clean[] = "a<b>&\"c'd%e,f:g\\x0d\nh\\x01i\\x7fj\\x80k\\xc0\\xafl\xc3\xa9m";

static bool has(const char *s, const char *needle) { return s && strstr(s, needle) != NULL; }

static bool no_raw_controls(const char *s, bool allow_newline)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p < 0x20 && !(allow_newline && *p == '\n')) || *p == 0x7f) return false;
	return true;
}

static void test_clean(void)
{
	char out[256];
	hv_out_clean(hostile, out, sizeof out);
	CHECK(strcmp(out, hostile_clean) == 0, "hv_out_clean: got '%s'", out);
	hv_out_clean("\xed\xa0\x80", out, sizeof out); /* a UTF-16 surrogate in UTF-8 */
	CHECK(strcmp(out, "\\xed\\xa0\\x80") == 0, "surrogate rejected: '%s'", out);
	hv_out_clean("\xef\xbf\xbe", out, sizeof out); /* U+FFFE, not allowed in XML */
	CHECK(strcmp(out, "\\xef\\xbf\\xbe") == 0, "U+FFFE rejected: '%s'", out);
	hv_out_clean("\xf0\x9f\x98\x80", out, sizeof out); /* U+1F600 is fine */
	CHECK(strcmp(out, "\xf0\x9f\x98\x80") == 0, "4-byte UTF-8 kept: '%s'", out);
	hv_out_clean("abcdef", out, 4);
	CHECK(strcmp(out, "abc") == 0, "truncated to capacity: '%s'", out);
	hv_out_clean("\x01\x02", out, 6);
	CHECK(strcmp(out, "\\x01") == 0, "escape never split: '%s'", out);
}

static void test_uri(void)
{
	char u[256];
	CHECK(hv_out_uri("db/meta.db", u, sizeof u) && strcmp(u, "db/meta.db") == 0, "plain relative: %s", u);
	CHECK(hv_out_uri("/tmp/a b/c#d?.db", u, sizeof u) && strcmp(u, "file:///tmp/a%20b/c%23d%3F.db") == 0,
	      "absolute, escaped: %s", u);
	CHECK(hv_out_uri("c:x", u, sizeof u) && strcmp(u, "c%3Ax") == 0, "colon never looks like a scheme: %s", u);
	CHECK(hv_out_uri("\xc3\xa9\x01", u, sizeof u) && strcmp(u, "%C3%A9%01") == 0, "non-ASCII escaped: %s", u);
	CHECK(!hv_out_uri("abcdef", u, 4), "too small a buffer fails");
	CHECK(strcmp(hv_out_relative("/w/d/x.db", "/w/d"), "x.db") == 0, "relative to base");
	CHECK(strcmp(hv_out_relative("/w/d/x.db", "/w/d/"), "x.db") == 0, "base with trailing slash");
	CHECK(strcmp(hv_out_relative("/w/dd/x.db", "/w/d"), "/w/dd/x.db") == 0, "prefix is not a parent");
	CHECK(strcmp(hv_out_relative("./././x.db", NULL), "x.db") == 0, "leading ./ dropped");
}

/* The views of a finding's bytes show only bytes the reader vouches for: a
 * reader that says the file changed since it was judged (or that it does
 * not know what was judged) gets no bytes shown, and a line that says why;
 * the HTML report's row carries the reason instead of the bytes. */
static size_t bytes_answer;
static size_t read_fixed(void *ctx, const char *file, uint64_t off, uint8_t *dst, size_t len)
{
	(void)ctx, (void)file, (void)off;
	if (bytes_answer == HV_READ_CHANGED || bytes_answer == HV_READ_UNJUDGED) return bytes_answer;
	memset(dst, 0x41, len);
	return len;
}

static void test_bytes_not_judged(void)
{
	hv_report r;
	hv_report_init(&r, "f.db", 10);
	hv_emit(&r, HV_R_METADB_HDR_MAGIC, "f.db", 0x10, 4, "meta.db/header", "bad magic");
	hv_output_opts o = {.context = true, .read_bytes = read_fixed};
	static const struct {
		size_t answer;
		const char *line, *row;
	} cases[] = {
		{HV_READ_CHANGED, "    (the file changed after it was checked: its bytes now are not the ones judged, so none are shown)\n",
		 "\"changed\"]"},
		{HV_READ_UNJUDGED, "    (the file was checked by another process: the bytes judged are not at hand, so none are shown)\n",
		 "\"unjudged\"]"},
		{0, "    0x000010  41 41 41 41 ", "\"4141414141"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bytes_answer = cases[i].answer;
		char *tx = render(W_TEXT, &r, &o);
		CHECK(has(tx, cases[i].line) && (i == 2) == has(tx, "0x000010  "), "text, reader answer %zu:\n%s", i, tx);
		free(tx);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		hv_report *reps[1] = {&r};
		bool ok = f && hv_write_html(f, reps, 1, &o);
		if (f) fclose(f);
		CHECK(ok && has(buf, cases[i].row), "HTML row, reader answer %zu: %s", i, cases[i].row);
		free(buf);
	}
	hv_report_free(&r);
}

int main(void)
{
	test_clean();
	test_uri();
	test_bytes_not_judged();

	hv_report r;
	hv_report_init(&r, hostile, 10);
	hv_emit(&r, HV_R_METADB_HDR_MAGIC, hostile, 0x10, 4, hostile, "%s", hostile);
	hv_output_opts o = {.base_dir = "/nowhere"};

	char *j = render(W_JUNIT, &r, &o);
	CHECK(has(j, "a&lt;b&gt;&amp;&quot;c&apos;d%e,f:g\\x0d&#10;h\\x01i\\x7fj\\x80k\\xc0\\xafl\xc3\xa9m"),
	      "JUnit escapes markup and controls:\n%s", j);
	CHECK(j && no_raw_controls(j, true), "JUnit holds no raw control bytes");
	CHECK(has(j, "<failure type=\"error\""), "JUnit failure for an error rule");
	CHECK(has(j, "name=\"metadb.hdr.magic\""), "JUnit testcase names the rule");
	free(j);

	char *g = render(W_GITHUB, &r, &o);
	CHECK(has(g, "::error file=a<b>&\"c'd%25e%2Cf%3Ag\\x0d%0Ah\\x01i\\x7fj\\x80k\\xc0\\xafl\xc3\xa9m,title=metadb.hdr.magic::"),
	      "GitHub property escaping:\n%s", g);
	CHECK(has(g, "::a<b>&\"c'd%25e,f:g\\x0d%0Ah"), "GitHub message escaping keeps , and : :\n%s", g);
	/* One annotation line, then the summary line (whose path is the input's). */
	size_t lines = 0;
	for (const char *p = g; p && *p; p++) lines += *p == '\n';
	CHECK(g && strncmp(g, "::error ", 8) == 0 && strchr(g, '\n') == g + strcspn(g, "\n"), "annotation first");
	CHECK(lines >= 2, "annotation and summary lines: %zu", lines);
	free(g);

	char *s = render(W_SARIF, &r, &o);
	cJSON *doc = s ? cJSON_Parse(s) : NULL;
	CHECK(doc != NULL, "SARIF parses");
	cJSON *res = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), "results"), 0);
	const char *text = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(res, "message"), "text"));
	CHECK(text && strcmp(text, hostile_clean) == 0, "SARIF message is the cleaned text: %s", text ? text : "(null)");
	const char *uri = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(
		cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "locations"), 0), "physicalLocation"),
		"artifactLocation"), "uri"));
	CHECK(uri && strcmp(uri, "a%3Cb%3E%26%22c%27d%25e%2Cf%3Ag%0D%0Ah%01i%7Fj%80k%C0%AFl%C3%A9m") == 0,
	      "SARIF uri percent-encodes every raw byte: %s", uri ? uri : "(null)");
	cJSON_Delete(doc);
	free(s);

	char *tx = render(W_TEXT, &r, &o);
	CHECK(tx && no_raw_controls(tx, true), "text report holds no raw control bytes:\n%s", tx);
	size_t nl = 0;
	for (const char *p = tx; p && *p; p++) nl += *p == '\n';
	CHECK(nl == 2, "text: one diagnostic line and one summary line, got %zu lines:\n%s", nl, tx);
	CHECK(has(tx, "g\\x0d\\x0ah\\x01i"), "text shows CR/LF and control bytes as \\xNN:\n%s", tx);
	free(tx);

	char *js = render(W_JSON, &r, &o);
	doc = js ? cJSON_Parse(js) : NULL;
	cJSON *d0 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "inputs"), 0), "diagnostics"), 0);
	text = cJSON_GetStringValue(cJSON_GetObjectItem(d0, "message"));
	CHECK(text && strcmp(text, hostile_clean) == 0, "JSON message is valid UTF-8: %s", text ? text : "(null)");
	cJSON_Delete(doc);
	free(js);
	hv_report_free(&r);

	/* Unreadable input: JUnit error testcase, SARIF notification, GitHub error. */
	hv_report u;
	hv_report_init(&u, "missing<&>.db", 10);
	hv_report_unreadable(&u, "No such file or directory");
	j = render(W_JUNIT, &u, &o);
	CHECK(has(j, "errors=\"1\"") && has(j, "<error type=\"unreadable\"") && has(j, "missing&lt;&amp;&gt;.db"),
	      "JUnit unreadable:\n%s", j);
	free(j);
	s = render(W_SARIF, &u, &o);
	CHECK(has(s, "toolExecutionNotifications") && has(s, "\"exitCode\":\t3"), "SARIF unreadable:\n%s", s);
	free(s);
	g = render(W_GITHUB, &u, &o);
	CHECK(has(g, "::error title=hpcvet::missing<&>.db: unreadable: No such file or directory\n"), "GitHub unreadable:\n%s", g);
	free(g);
	hv_report_free(&u);

	/* A warning-only rule passes in JUnit unless strict. */
	hv_report w;
	hv_report_init(&w, "w.db", 10);
	hv_eval(&w, HV_R_METADB_HDR_MINOR_NEWER, false);
	hv_emit(&w, HV_R_METADB_HDR_MINOR_NEWER, "w.db", 5, 1, "meta.db/header/minor", "minor 9");
	j = render(W_JUNIT, &w, &o);
	CHECK(has(j, "failures=\"0\"") && has(j, "<system-out>w.db:0x5+1: warning: minor 9"), "JUnit warning passes:\n%s", j);
	free(j);
	o.strict = true;
	j = render(W_JUNIT, &w, &o);
	CHECK(has(j, "failures=\"1\"") && has(j, "<failure type=\"warning\""), "JUnit warning fails under strict:\n%s", j);
	free(j);
	g = render(W_GITHUB, &w, &o);
	CHECK(has(g, "::warning file=w.db,title=metadb.hdr.minor-newer::minor 9 [byte 0x5, 1 byte, at meta.db/header/minor]"),
	      "GitHub warning:\n%s", g);
	free(g);
	hv_report_free(&w);
	TAP_DONE();
}
