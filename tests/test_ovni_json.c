/* ovni metadata documents: diagnostics carry line and column (and the byte
 * offset), duplicate keys are found at their second occurrence, comments
 * do not shift positions. */
#include <stdlib.h>
#include <string.h>

#include "ovni/metadata/scan.h"
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

/* v1/v2 process metadata given alone: recognised by name or by content,
 * and the v1 model_version is the one string every v1 reader accepted. */
static const char *proc_v1 =
	"{\n"
	"    \"version\": 1,\n"
	"    \"model_version\": \"O1 V1 T1 M1 D1 K1 61\",\n"
	"    \"app_id\": 1,\n"
	"    \"cpus\": [ { \"index\": 0, \"phyid\": 0 } ]\n"
	"}\n";

static void run_named(const char *name, const char *text, hv_report *r)
{
	hv_blob b = hv_blob_from_memory(name, (const uint8_t *)text, strlen(text));
	hv_report_init(r, name, 100);
	hv_validate_blob(&(hv_options){.max_diags = 100}, &b, r);
	hv_blob_release(&b);
}

static void test_process_metadata(void)
{
	static const char *const names[] = {"p/metadata.json", "p/proc-1000.json", "metadata"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		hv_report r;
		run_named(names[i], proc_v1, &r);
		CHECK(strcmp(r.format, "ovni metadata.json") == 0 && r.count[HV_SEV_ERROR] == 0 &&
			      r.count[HV_SEV_WARNING] == 0 && r.evaluated[HV_R_OVNI_JSON_MODEL_VERSION] == 1,
		      "v1 metadata as %s: recognised (%s) and conforming", names[i], r.format);
		hv_report_free(&r);
	}
	static const struct {
		const char *from, *to, *what;
		unsigned long line, col;
	} bad[] = {
		{" 61\"", "\"", "the documentation's example value", 3, 5},
		{"\"O1 V1 T1 M1 D1 K1 61\"", "61", "a number", 3, 5},
		{"    \"model_version\": \"O1 V1 T1 M1 D1 K1 61\",\n", "", "missing", 1, 1},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *t = replace(proc_v1, bad[i].from, bad[i].to);
		hv_report r;
		run_named("p/metadata.json", t, &r);
		const hv_diag *d = only(&r, HV_R_OVNI_JSON_MODEL_VERSION);
		char want[64];
		snprintf(want, sizeof want, "line %lu, column %lu:", bad[i].line, bad[i].col);
		CHECK(d && strncmp(d->msg, want, strlen(want)) == 0 && strstr(d->msg, "O1 V1 T1 M1 D1 K1 61"),
		      "model_version %s: only ovni.json.model-version, at %s: %s", bad[i].what, want, d ? d->msg : "");
		hv_report_free(&r);
		free(t);
	}
	/* v2 process metadata has no model_version. */
	char *v2 = replace(proc_v1, "    \"version\": 1,\n    \"model_version\": \"O1 V1 T1 M1 D1 K1 61\",\n",
			   "    \"version\": 2,\n");
	hv_report r;
	run_named("p/proc.json", v2, &r);
	CHECK(strcmp(r.format, "ovni metadata.json") == 0 && r.count[HV_SEV_ERROR] == 0 &&
		      r.evaluated[HV_R_OVNI_JSON_MODEL_VERSION] == 0,
	      "v2 metadata recognised by its app_id and version, no model_version wanted (%s)", r.format);
	hv_report_free(&r);
	free(v2);
	run_named("p/other.json", "{ \"version\": 1, \"name\": \"not ovni\" }\n", &r);
	CHECK(r.failed[HV_R_INPUT_UNRECOGNIZED] == 1, "other JSON stays unrecognised");
	hv_report_free(&r);
}

/* Paths grow with the nesting: a deep document of many elements must not
 * make the position scanner hold depth x elements bytes of paths. */
static void test_deep_positions(void)
{
	const size_t depth = 600, elems = 200000; /* unbounded: ~360 MB of paths */
	size_t cap = depth * 2 + elems * 2 + 64, n = 0;
	char *text = malloc(cap);
	if (!text) return;
	n += (size_t)snprintf(text, cap, "{\"version\":3,\"x\":");
	for (size_t i = 0; i < depth; i++) text[n++] = '[';
	for (size_t i = 0; i < elems; i++) {
		text[n++] = '0';
		text[n++] = i + 1 < elems ? ',' : ']';
	}
	for (size_t i = 1; i < depth; i++) text[n++] = ']';
	text[n++] = '}';
	ovni_jdoc d;
	CHECK(ovni_jdoc_init(&d, (const uint8_t *)text, n), "deep document: scanner starts");
	ovni_jdoc_scan(&d);
	CHECK(!d.oom && d.truncated, "deep document: positions stop being recorded (truncated=%d)", d.truncated);
	CHECK(d.path_bytes <= OVNI_JSCAN_MAX_PATH_BYTES && d.path_bytes <= OVNI_JSCAN_PATH_BYTES_PER_BYTE * n + OVNI_JSCAN_PATH_BYTES_MIN,
	      "deep document: %zu bytes of paths, at most %u per byte of its %zu (and %u)", d.path_bytes,
	      OVNI_JSCAN_PATH_BYTES_PER_BYTE, n, OVNI_JSCAN_PATH_BYTES_MIN);
	uint64_t off, len;
	CHECK(ovni_jdoc_find(&d, "version", 0, &off, &len) && off == 1, "deep document: early keys still found");
	ovni_jdoc_free(&d);
	free(text);
}

/* The positions' index by path (scan.c: a find costs no walk of them all)
 * answers as the walk does: every recorded path, each of its occurrences
 * in document order (duplicate keys), and no occurrence past the last or
 * of a path never recorded. */
static void test_find_index(void)
{
	size_t cap = 1 << 16, n = 0;
	char *text = malloc(cap);
	if (!text) return;
	n += (size_t)snprintf(text + n, cap - n, "{\"version\":3,\"labels\":{");
	for (unsigned i = 0; i < 500; i++) /* 100 names, each 5 times */
		n += (size_t)snprintf(text + n, cap - n, "%s\"k%u\":[%u,{\"a\":1}]", i ? "," : "", i % 100, i);
	n += (size_t)snprintf(text + n, cap - n, "}}");
	ovni_jdoc d;
	CHECK(ovni_jdoc_init(&d, (const uint8_t *)text, n), "index: scanner starts");
	ovni_jdoc_scan(&d);
	CHECK(d.head && d.next_same, "index: built");
	ovni_jdoc walk = d; /* the same positions, no index */
	walk.head = walk.next_same = NULL;
	unsigned bad = 0, finds = 0;
	for (size_t i = 0; i < d.npos; i++)
		for (unsigned nth = 0; nth < 7; nth++) {
			uint64_t o1 = 0, l1 = 0, o2 = 0, l2 = 0;
			bool f1 = ovni_jdoc_find(&d, d.pos[i].path, nth, &o1, &l1);
			bool f2 = ovni_jdoc_find(&walk, d.pos[i].path, nth, &o2, &l2);
			bad += f1 != f2 || o1 != o2 || l1 != l2;
			finds += f1;
		}
	uint64_t off, len;
	CHECK(bad == 0 && finds > d.npos, "index: %zu paths x 7 occurrences as the walk finds them (%u differ)", d.npos, bad);
	CHECK(ovni_jdoc_find(&d, "labels.k7", 4, &off, &len) && !ovni_jdoc_find(&d, "labels.k7", 5, &off, &len),
	      "index: a key given 5 times has 5 occurrences");
	CHECK(!ovni_jdoc_find(&d, "labels.k100", 0, &off, &len) && !ovni_jdoc_find(&d, "", 0, &off, &len),
	      "index: a path never recorded is not found");
	ovni_jdoc_free(&d);
	free(text);
}

int main(void)
{
	test_find_index();
	test_deep_positions();
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
	test_process_metadata();
	TAP_DONE();
}
