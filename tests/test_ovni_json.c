/* ovni metadata documents: diagnostics carry line and column (and the byte
 * offset), duplicate keys are found at their second occurrence, comments
 * do not shift positions. */
#include <stdlib.h>
#include <string.h>

#include "ovni/ovni.h"
#include "tap.h"
#include "testlib.h"

static const char *good =
	"{\n"
	"    \"version\": 3,\n"
	"    \"ovni\": {\n"
	"        \"lib\": { \"version\": \"1.14.0\", \"commit\": \"x\" },\n"
	"        \"part\": \"thread\",\n"
	"        \"tid\": 7,\n"
	"        \"pid\": 7,\n"
	"        \"loom\": \"vm.0\",\n"
	"        \"app_id\": 1,\n"
	"        \"require\": { \"ovni\": \"1.1.0\" },\n"
	"        \"loom_cpus\": [ { \"index\": 0, \"phyid\": 0 } ],\n"
	"        \"finished\": 1\n"
	"    }\n"
	"}\n";

static void run(const char *text, hv_report *r)
{
	hv_blob b = hv_blob_from_memory("t/stream.json", (const uint8_t *)text, strlen(text));
	hv_report_init(r, "t/stream.json", 100);
	hv_validate_blob(&(hv_options){.max_diags = 100}, &b, r);
	hv_blob_release(&b);
}

static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	if (!at) return NULL;
	size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
	char *o = malloc(n);
	snprintf(o, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return o;
}

static const hv_diag *only(const hv_report *r, int rule)
{
	for (int j = 0; j < HV_RULE_COUNT; j++)
		if (j != rule && r->failed[j]) return NULL;
	for (size_t i = 0; i < r->ndiags; i++)
		if (r->diags[i].rule == rule) return &r->diags[i];
	return NULL;
}

static void expect(const char *what, const char *text, int rule, unsigned long line, unsigned long col)
{
	hv_report r;
	run(text, &r);
	const hv_diag *d = only(&r, rule);
	char want[64];
	snprintf(want, sizeof want, "line %lu, column %lu:", line, col);
	CHECK(d != NULL, "%s: only %s fires", what, hv_rules[rule].id);
	if (d) {
		CHECK(strncmp(d->msg, want, strlen(want)) == 0, "%s: want '%s' in '%s'", what, want, d->msg);
		unsigned long l, c;
		ovni_linecol((const uint8_t *)text, strlen(text), d->offset, &l, &c);
		CHECK(l == line && c == col, "%s: the byte offset 0x%llx is line %lu col %lu", what,
		      (unsigned long long)d->offset, l, c);
	}
	if (!d) tl_dump(&r);
	hv_report_free(&r);
}

int main(void)
{
	hv_report r;
	run(good, &r);
	CHECK(r.count[HV_SEV_ERROR] == 0 && r.count[HV_SEV_WARNING] == 0, "the base document conforms");
	if (r.count[HV_SEV_ERROR] || r.count[HV_SEV_WARNING]) tl_dump(&r);
	hv_report_free(&r);

	char *t = replace(good, "        \"pid\": 7,\n", "        \"pid\": 7,\n        \"tid\": 7,\n");
	expect("duplicate tid", t, HV_R_OVNI_JSON_DUPLICATE_KEY, 8, 9);
	free(t);
	t = replace(good, "\"tid\": 7", "\"tid\": -7");
	expect("negative tid", t, HV_R_OVNI_JSON_TID, 6, 9);
	free(t);
	t = replace(good, "{\n    \"version\"", "/* a\n comment */ {\n    \"version\"");
	expect("comment", t, HV_R_OVNI_JSON_COMMENT, 1, 1);
	free(t);
	t = replace(good, "\"phyid\": 0 }", "\"phyid\": -1 }");
	expect("negative phyid (line 11)", t, HV_R_OVNI_JSON_LOOM_CPUS, 11, 24);
	free(t);
	t = replace(good, "\"ovni\": \"1.1.0\"", "\"ovni\": \"1.1\"");
	expect("require 1.1", t, HV_R_OVNI_JSON_REQUIRE_SYNTAX, 10, 22);
	free(t);
	t = replace(good, "\"loom\": \"vm.0\",", "\"loom\": \"vm.0\"");
	expect("missing comma", t, HV_R_OVNI_JSON_SYNTAX, 9, 9);
	free(t);
	t = replace(good, "    }\n}\n", "    }\n} x\n");
	expect("trailing garbage", t, HV_R_OVNI_JSON_TRAILING_GARBAGE, 14, 3);
	free(t);
	/* Strings holding braces, brackets, quotes and comment markers do not
	 * confuse the position scanner. */
	t = replace(good, "\"commit\": \"x\"", "\"commit\": \"{[\\\"// /* ]}\"");
	run(t, &r);
	CHECK(r.count[HV_SEV_ERROR] == 0 && r.count[HV_SEV_WARNING] == 0, "tricky strings: still conforming");
	hv_report_free(&r);
	char *t2 = replace(t, "\"tid\": 7", "\"tid\": 0");
	expect("tid after a tricky string", t2, HV_R_OVNI_JSON_TID, 6, 9);
	free(t2);
	free(t);
	t = replace(good, "        \"finished\": 1\n", "        \"finished\": 1.0e0\n");
	run(t, &r);
	CHECK(r.count[HV_SEV_ERROR] == 0 && r.count[HV_SEV_WARNING] == 0, "1.0e0 is an integer");
	hv_report_free(&r);
	free(t);
	TAP_DONE();
}
