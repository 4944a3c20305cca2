/* meta.db strings are UTF-8 (metadb.string.utf8) and context propagation
 * bits belong to transitive scopes (metadb.ctx.propagation-bits):
 *  - every kind of malformed UTF-8 fires the rule once, at the bad byte;
 *    well-formed multi-byte text (up to U+10FFFF) fires nothing;
 *  - a string reached by several pointers is reported once;
 *  - every real meta.db evaluates both rules and passes them (skipped
 *    cleanly when ../shared is absent). */
#include <stdlib.h>

#include "core/hv_int.h"
#include "hpctoolkit/hpctoolkit.h"
#include "tap.h"
#include "testlib.h"

static void validate(const uint8_t *d, size_t len, hv_report *r)
{
	hv_blob b = hv_blob_from_memory("gen/meta.db", d, len);
	hv_options opt = {.max_diags = 100};
	hv_report_init(r, "gen/meta.db", opt.max_diags);
	hv_validate_blob(&opt, &b, r);
	hv_blob_release(&b);
}

static int fired_rules(const hv_report *r)
{
	int n = 0;
	for (int j = 0; j < HV_RULE_COUNT; j++) n += r->failed[j] > 0;
	return n;
}

/* The General section's first pointer is pTitle (header slot 0 at 0x10). */
static uint64_t title_at(const uint8_t *d) { return hv_le64(d + hv_le64(d + 0x18)); }

static const struct {
	const char *bytes;
	bool valid;
	const char *what;
	unsigned bad;     /* offset of the first bad byte in `bytes` */
} samples[] = {
	{"caf\xc3\xa9", true, "U+00E9, two bytes", 0},
	{"\xe2\x82\xac", true, "U+20AC, three bytes", 0},
	{"\xf0\x9f\x98\x80", true, "U+1F600, four bytes", 0},
	{"\xf4\x8f\xbf\xbf", true, "U+10FFFF, the last code point", 0},
	{"\xed\x9f\xbf", true, "U+D7FF, just below the surrogates", 0},
	{"\xef\xbf\xbd", true, "U+FFFD", 0},
	{"ab\xff", false, "0xff never occurs", 2},
	{"\x80", false, "a stray continuation byte", 0},
	{"\xc0\xaf", false, "overlong two-byte '/'", 0},
	{"\xc1\xbf", false, "overlong two-byte", 0},
	{"\xe0\x80\xaf", false, "overlong three-byte", 0},
	{"\xf0\x8f\xbf\xbf", false, "overlong four-byte", 0},
	{"\xed\xa0\x80", false, "a surrogate (U+D800)", 0},
	{"\xf4\x90\x80\x80", false, "U+110000, past the last code point", 0},
	{"\xf5\x80\x80\x80", false, "lead byte 0xf5", 0},
	{"x\xe2\x82x", false, "a sequence cut short", 1},
};

static void check_samples(enum hv_edition ed)
{
	gen_params p;
	gen_params_default(&p);
	p.what = "metadb";
	p.edition = ed;
	gen_output out;
	char err[256] = "";
	CHECK(gen_generate(&p, &out, err, sizeof err) == 0, "generate: %s", err);
	if (out.n != 1) return;
	uint8_t *d = out.files[0].data;
	size_t len = out.files[0].len;
	uint64_t t = title_at(d);
	size_t tlen = strlen((const char *)d + t);
	uint8_t *orig = malloc(tlen);
	memcpy(orig, d + t, tlen);
	for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
		size_t n = strlen(samples[i].bytes);
		if (n > tlen) continue;
		memcpy(d + t, orig, tlen);
		memcpy(d + t, samples[i].bytes, n);
		hv_report r;
		validate(d, len, &r);
		int k = HV_R_METADB_STRING_UTF8;
		if (samples[i].valid) {
			CHECK(fired_rules(&r) == 0, "%s (%s): valid UTF-8, but %d rule(s) fired", samples[i].what,
			      tl_edition_name(ed), fired_rules(&r));
		} else {
			CHECK(r.failed[k] == 1 && fired_rules(&r) == 1, "%s (%s): want metadb.string.utf8 once, got %llu (%d rules)",
			      samples[i].what, tl_edition_name(ed), (unsigned long long)r.failed[k], fired_rules(&r));
			CHECK(r.ndiags == 1 && r.diags[0].offset == t + samples[i].bad, "%s: reported at 0x%llx, want 0x%llx",
			      samples[i].what, r.ndiags ? (unsigned long long)r.diags[0].offset : 0ull,
			      (unsigned long long)(t + samples[i].bad));
		}
		CHECK(r.evaluated[k] > 0, "%s: metadb.string.utf8 evaluated", samples[i].what);
		hv_report_free(&r);
	}
	/* A bad title that pDescription also points at: one string, one report,
	 * two evaluations. A cut sequence just before the NUL is bad too. */
	memcpy(d + t, orig, tlen);
	d[t + tlen - 1] = 0xe2;
	uint64_t general = hv_le64(d + 0x18);
	hv_put_le64(d + general + 8, t);
	hv_report r;
	validate(d, len, &r);
	CHECK(r.failed[HV_R_METADB_STRING_UTF8] == 1 && fired_rules(&r) == 1,
	      "a shared bad string is reported once (%llu)", (unsigned long long)r.failed[HV_R_METADB_STRING_UTF8]);
	CHECK(r.evaluated[HV_R_METADB_STRING_UTF8] >= 2, "both pointers evaluated");
	hv_report_free(&r);
	/* A pointer into the middle of a two-byte character starts with a
	 * continuation byte: bad, although the string it lies in is fine. */
	memcpy(d + t, orig, tlen);
	if (tlen >= 3) {
		memcpy(d + t, "\xc3\xa9", 2);
		hv_put_le64(d + general + 8, t + 1);
		validate(d, len, &r);
		CHECK(r.failed[HV_R_METADB_STRING_UTF8] == 1 && r.ndiags == 1 && r.diags[0].offset == t + 1,
		      "a pointer into a character is reported at that byte");
		hv_report_free(&r);
	}
	free(orig);
	gen_output_free(&out);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void check_real_samples(void)
{
	static const char *const dbs[] = {"small.d", "small.nostruct.d", "loops-cputime-t.d", "loops-perf.d",
					  "loops-cuda-nvidiapc-t.nostruct.d", "loops-hip-amd-t.d", "recursion-cuda-nvidiapc-t.d"};
	const char *shared = getenv("HV_SHARED") ? getenv("HV_SHARED") : "../shared";
	unsigned seen = 0;
	for (size_t i = 0; i < sizeof dbs / sizeof *dbs; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/real-samples/hpctoolkit/%s/meta.db", shared, dbs[i]);
		size_t len;
		uint8_t *d = slurp(path, &len);
		if (!d) continue;
		seen++;
		hv_report r;
		validate(d, len, &r);
		int u = HV_R_METADB_STRING_UTF8, pb = HV_R_METADB_CTX_PROPAGATION_BITS;
		CHECK(r.evaluated[u] > 10 && r.failed[u] == 0, "%s: UTF-8 evaluated %llu, failed %llu", dbs[i],
		      (unsigned long long)r.evaluated[u], (unsigned long long)r.failed[u]);
		CHECK(r.evaluated[pb] > 0 && r.failed[pb] == 0, "%s: propagation bits evaluated %llu, failed %llu", dbs[i],
		      (unsigned long long)r.evaluated[pb], (unsigned long long)r.failed[pb]);
		CHECK(hv_report_exit_code(&r, true) == 0, "%s: accepted even with --strict", dbs[i]);
		hv_report_free(&r);
		free(d);
	}
	if (!seen) SKIP("the real samples: %s/real-samples/hpctoolkit not present (set HV_SHARED)", shared);
}

int main(void)
{
	check_samples(HV_EDITION_RELEASE);
	check_samples(HV_EDITION_DRAFT);
	check_real_samples();
	TAP_DONE();
}
