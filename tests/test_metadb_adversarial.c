/* Hand-built hostile meta.db files whose pointers are all in range but make
 * a naive checker quadratic (or exhaust memory): many metric descriptions
 * sharing one huge scope-instance array, and many contexts whose children
 * arrays are the array holding them (a cycle per context). The checker must
 * finish, report the duplicates / overlaps, and keep its memory bounded.
 * (A quadratic walk here means ~10^9 steps and gigabytes of ids: the test
 * would not finish in any reasonable time.) */
#include <stdlib.h>

#include "core/hv_int.h"
#include "hpctoolkit/hpctoolkit.h"
#include "tap.h"
#include "testlib.h"

typedef struct lay {
	uint8_t *d;
	size_t len, cap;
} lay;

static size_t put(lay *l, size_t n, size_t align)
{
	size_t at = (l->len + align - 1) / align * align;
	if (at + n > l->cap) {
		size_t cap = (at + n) * 2;
		uint8_t *nd = realloc(l->d, cap);
		if (!nd) abort();
		memset(nd + l->cap, 0, cap - l->cap);
		l->d = nd;
		l->cap = cap;
	}
	l->len = at + n;
	return at;
}

static size_t str(lay *l, const char *s)
{
	size_t at = put(l, strlen(s) + 1, 1);
	memcpy(l->d + at, s, strlen(s) + 1);
	return at;
}

static void section(lay *l, int i, size_t start)
{
	hv_put_le64(l->d + 0x10 + 16 * i, l->len - start);
	hv_put_le64(l->d + 0x18 + 16 * i, start);
}

/* A release meta.db: nmd metrics all pointing at one array of npsi scope
 * instances; ncycle contexts under one entry point, each with its children
 * array set to the array that holds it. */
static lay build(uint32_t nmd, uint16_t npsi, uint32_t ncycle)
{
	lay l = {0};
	put(&l, 0x90, 8);
	memcpy(l.d, "HPCTOOLKITmeta\x04\x00", 16);
	size_t g = put(&l, 0x10, 8); /* General */
	hv_put_le64(l.d + g, str(&l, "t"));
	hv_put_le64(l.d + g + 8, str(&l, "d"));
	section(&l, 0, g);
	size_t in = put(&l, 9, 8); /* IdNames */
	size_t names = put(&l, 8, 8);
	hv_put_le64(l.d + in, names);
	l.d[in + 8] = 1;
	hv_put_le64(l.d + names, str(&l, "SUMMARY"));
	section(&l, 1, in);
	size_t mh = put(&l, 0x1b, 8); /* Metrics */
	size_t scope = put(&l, 0x10, 8);
	hv_put_le64(l.d + scope, str(&l, "point"));
	l.d[scope + 8] = 1;
	l.d[scope + 9] = 255;
	size_t psi = put(&l, (size_t)npsi * 0x10, 8);
	for (uint32_t j = 0; j < npsi; j++) {
		hv_put_le64(l.d + psi + 0x10 * j, scope);
		hv_put_le16(l.d + psi + 0x10 * j + 8, (uint16_t)j);
	}
	size_t name = str(&l, "m");
	size_t mds = put(&l, (size_t)nmd * 0x20, 8);
	for (uint32_t i = 0; i < nmd; i++) {
		uint8_t *e = l.d + mds + 0x20 * (size_t)i;
		hv_put_le64(e, name);
		hv_put_le64(e + 8, psi);
		hv_put_le16(e + 0x18, npsi);
	}
	hv_put_le64(l.d + mh, mds);
	hv_put_le32(l.d + mh + 8, nmd);
	l.d[mh + 0x0c] = 0x20;
	l.d[mh + 0x0d] = 0x10;
	l.d[mh + 0x0e] = 0x18;
	hv_put_le64(l.d + mh + 0x10, scope);
	hv_put_le16(l.d + mh + 0x18, 1);
	l.d[mh + 0x1a] = 0x10;
	section(&l, 2, mh);
	size_t ch = put(&l, 0x0b, 8); /* Context */
	size_t entry = put(&l, 0x20, 8);
	size_t kids = put(&l, (size_t)ncycle * 0x20, 8);
	for (uint32_t i = 0; i < ncycle; i++) {
		uint8_t *c = l.d + kids + 0x20 * (size_t)i;
		hv_put_le64(c, (uint64_t)ncycle * 0x20);
		hv_put_le64(c + 8, kids);
		hv_put_le32(c + 0x10, i + 2);
		c[0x15] = 1; /* call, function of unknown name, no flex words */
	}
	hv_put_le64(l.d + ch, entry);
	hv_put_le16(l.d + ch + 8, 1);
	l.d[ch + 0x0a] = 0x20;
	hv_put_le64(l.d + entry, (uint64_t)ncycle * 0x20);
	hv_put_le64(l.d + entry + 8, kids);
	hv_put_le32(l.d + entry + 0x10, 1);
	hv_put_le16(l.d + entry + 0x14, 1);
	size_t strings = l.len;
	hv_put_le64(l.d + entry + 0x18, str(&l, "main thread"));
	section(&l, 4, strings);
	section(&l, 3, ch); /* Context ends where Strings starts (no overlap) */
	hv_put_le64(l.d + 0x40, strings - ch);
	for (int i = 5; i < 8; i++) { /* Modules, Files, Functions: empty */
		size_t h = put(&l, 0x0e, 8);
		hv_put_le16(l.d + h + 12, i == 7 ? 0x28 : 0x10);
		section(&l, i, h);
	}
	size_t f = put(&l, 8, 1);
	memcpy(l.d + f, "_meta.db", 8);
	return l;
}

static void run(lay *l, hv_report *r)
{
	hv_blob b = hv_blob_from_memory("adv/meta.db", l->d, l->len);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 100};
	hv_report_init(r, "adv/meta.db", opt.max_diags);
	hpctk_metadb_summary s;
	hpctk_check_metadb(&opt, &b, r, &s);
	hpctk_metadb_summary_free(&s);
	hv_blob_release(&b);
}

int main(void)
{
	/* Sane baseline: one metric, one context without the cycle is not
	 * buildable here, so check the smallest hostile file's exact counts. */
	lay small = build(2, 3, 2);
	hv_report r;
	run(&small, &r);
	CHECK(strcmp(r.edition, "release") == 0, "small: release edition (got %s)", r.edition);
	CHECK(r.failed[HV_R_METADB_METRICS_PROP_ID_UNIQUE] == 3, "small: 3 duplicate prop ids, got %llu",
	      (unsigned long long)r.failed[HV_R_METADB_METRICS_PROP_ID_UNIQUE]);
	CHECK(r.failed[HV_R_METADB_CTX_CHILDREN_OVERLAP] == 2, "small: 2 cycles, got %llu",
	      (unsigned long long)r.failed[HV_R_METADB_CTX_CHILDREN_OVERLAP]);
	int others = 0;
	for (int j = 0; j < HV_RULE_COUNT; j++)
		others += j != HV_R_METADB_METRICS_PROP_ID_UNIQUE && j != HV_R_METADB_CTX_CHILDREN_OVERLAP && r.failed[j];
	CHECK(others == 0, "small: no other rule fires");
	if (others) tl_dump(&r);
	hv_report_free(&r);
	free(small.d);

	/* 200,000 metrics x 30,000 shared instances; 300,000 self-cycles. */
	lay big = build(200000, 30000, 300000);
	run(&big, &r);
	CHECK(r.failed[HV_R_METADB_METRICS_PROP_ID_UNIQUE] > 0, "big: duplicate prop ids reported");
	CHECK(r.failed[HV_R_METADB_CTX_CHILDREN_OVERLAP] == 300000, "big: every cycle reported once, got %llu",
	      (unsigned long long)r.failed[HV_R_METADB_CTX_CHILDREN_OVERLAP]);
	CHECK(!r.internal_error, "big: no internal error");
	CHECK(r.ndiags <= 100, "big: stored diagnostics capped");
	hv_report_free(&r);
	free(big.d);
	TAP_DONE();
}
