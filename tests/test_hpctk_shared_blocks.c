/* Hostile sharing: many profiles (trace headers) pointing at one big value
 * block (trace line) must not cost one walk per pointer -- that would turn a
 * small file into hours of work. The overlap rule fires for every extra
 * pointer, and the shared data is walked exactly once: the per-value rules
 * are evaluated once per value, not once per value and pointer. */
#include <stdlib.h>

#include "core/hv_int.h"
#include "tap.h"
#include "testlib.h"

enum { NPROF = 400, NCTX = 300, PER_CTX = 50, NVAL = NCTX * PER_CTX };

static uint8_t *build_profiledb(size_t *len)
{
	size_t pi = 0x30, pisz = 0x10 + (size_t)NPROF * 0x30;
	size_t idt = pi + pisz, idtsz = 24;
	size_t blk = idt + idtsz;
	size_t idx = (blk + 10u * NVAL + 3) & ~(size_t)3;
	size_t end = idx + 12u * NCTX;
	*len = end + 8;
	uint8_t *d = calloc(*len, 1);
	memcpy(d, "HPCTOOLKITprof", 14);
	d[14] = 4;
	hv_put_le64(d + 0x10, pisz);
	hv_put_le64(d + 0x18, pi);
	hv_put_le64(d + 0x20, idtsz);
	hv_put_le64(d + 0x28, idt);
	hv_put_le64(d + pi, pi + 0x10);
	hv_put_le32(d + pi + 8, NPROF);
	d[pi + 12] = 0x30;
	for (size_t i = 0; i < NPROF; i++) {
		uint8_t *p = d + pi + 0x10 + i * 0x30;
		hv_put_le64(p, NVAL);
		hv_put_le64(p + 8, blk);
		hv_put_le32(p + 0x10, NCTX);
		hv_put_le64(p + 0x18, idx);
		hv_put_le64(p + 0x20, i == 0 ? 0 : idt);
		hv_put_le32(p + 0x28, i == 0 ? 1 : 0);
	}
	hv_put_le16(d + idt, 1);
	d[idt + 8] = 3; /* THREAD, logical: physicalId == logicalId == 0 */
	for (size_t c = 0; c < NCTX; c++) {
		hv_put_le32(d + idx + 12 * c, (uint32_t)c);
		hv_put_le64(d + idx + 12 * c + 4, c * PER_CTX);
		for (size_t m = 0; m < PER_CTX; m++) {
			uint8_t *v = d + blk + 10 * (c * PER_CTX + m);
			hv_put_le16(v, (uint16_t)m);
			hv_put_lef64(v + 2, 1.0 + (double)m);
		}
	}
	memcpy(d + end, "_prof.db", 8);
	return d;
}

enum { NLINES = 300, NELEM = 20000 };

static uint8_t *build_tracedb(size_t *len)
{
	size_t sec = 0x20, secsz = 0x20 + (size_t)NLINES * 0x18;
	size_t line = (sec + secsz + 7) & ~(size_t)7;
	size_t end = line + 12u * NELEM;
	*len = end + 8;
	uint8_t *d = calloc(*len, 1);
	memcpy(d, "HPCTOOLKITtrce", 14);
	d[14] = 4;
	hv_put_le64(d + 0x10, secsz);
	hv_put_le64(d + 0x18, sec);
	hv_put_le64(d + sec, sec + 0x20);
	hv_put_le32(d + sec + 8, NLINES);
	d[sec + 12] = 0x18;
	hv_put_le64(d + sec + 0x10, 1000);
	hv_put_le64(d + sec + 0x18, 1000 + NELEM);
	for (size_t i = 0; i < NLINES; i++) {
		uint8_t *h = d + sec + 0x20 + i * 0x18;
		hv_put_le32(h, (uint32_t)i + 1);
		hv_put_le64(h + 8, line);
		hv_put_le64(h + 16, end);
	}
	for (size_t k = 0; k < NELEM; k++) {
		hv_put_le64(d + line + 12 * k, 1000 + k);
		hv_put_le32(d + line + 12 * k + 8, 1 + (uint32_t)(k % 7));
	}
	memcpy(d + end, "trace.db", 8);
	return d;
}

static int others(const hv_report *r, int rule)
{
	int n = 0;
	for (int j = 0; j < HV_RULE_COUNT; j++)
		if (j != rule && r->failed[j]) n++;
	return n;
}

int main(void)
{
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 100};
	size_t len;
	uint8_t *d = build_profiledb(&len);
	hv_blob b = hv_blob_from_memory("shared/profile.db", d, len);
	hv_report r;
	hv_report_init(&r, "shared/profile.db", opt.max_diags);
	hv_validate_blob(&opt, &b, &r);
	CHECK(r.failed[HV_R_PROFILEDB_PSVB_OVERLAP] == NPROF - 1, "profile.db: %llu overlaps reported, want %d",
	      (unsigned long long)r.failed[HV_R_PROFILEDB_PSVB_OVERLAP], NPROF - 1);
	CHECK(others(&r, HV_R_PROFILEDB_PSVB_OVERLAP) == 0, "profile.db: other rules fired");
	CHECK(r.evaluated[HV_R_PROFILEDB_PSVB_VALUE_FINITE] == NVAL,
	      "profile.db: the shared block's values were evaluated %llu times, want once each (%d)",
	      (unsigned long long)r.evaluated[HV_R_PROFILEDB_PSVB_VALUE_FINITE], NVAL);
	CHECK(r.evaluated[HV_R_PROFILEDB_PSVB_CTX_INCREASING] == NCTX - 1,
	      "profile.db: the shared index was walked %llu times over, want once (%d)",
	      (unsigned long long)r.evaluated[HV_R_PROFILEDB_PSVB_CTX_INCREASING], NCTX - 1);
	if (others(&r, HV_R_PROFILEDB_PSVB_OVERLAP)) tl_dump(&r);
	hv_report_free(&r);
	free(d);

	d = build_tracedb(&len);
	b = hv_blob_from_memory("shared/trace.db", d, len);
	hv_report_init(&r, "shared/trace.db", opt.max_diags);
	hv_validate_blob(&opt, &b, &r);
	CHECK(r.failed[HV_R_TRACEDB_LINE_OVERLAP] == NLINES - 1, "trace.db: %llu overlaps reported, want %d",
	      (unsigned long long)r.failed[HV_R_TRACEDB_LINE_OVERLAP], NLINES - 1);
	CHECK(others(&r, HV_R_TRACEDB_LINE_OVERLAP) == 0, "trace.db: other rules fired");
	CHECK(r.evaluated[HV_R_TRACEDB_LINE_TIME_SORTED] == NELEM - 1,
	      "trace.db: the shared line was walked %llu element-steps, want once (%d)",
	      (unsigned long long)r.evaluated[HV_R_TRACEDB_LINE_TIME_SORTED], NELEM - 1);
	if (others(&r, HV_R_TRACEDB_LINE_OVERLAP)) tl_dump(&r);
	hv_report_free(&r);
	free(d);
	TAP_DONE();
}
