/* ovni binary streams: jumbo sizes that crash or hang the reference readers,
 * windowed reading (files > 16 MiB arrive with mem == NULL), and the
 * details of the clock diagnostics. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "ovni/ovni.h"
#include "tap.h"
#include "testlib.h"

static size_t put_ev(uint8_t *d, size_t off, uint8_t b0, const char *mcv, uint64_t clock)
{
	d[off] = b0;
	memcpy(d + off + 1, mcv, 3);
	hv_put_le64(d + off + 4, clock);
	return off + 12;
}

static size_t header(uint8_t *d)
{
	memcpy(d, "ovni", 4);
	hv_put_le32(d + 4, 1);
	return 8;
}

static void run(const uint8_t *d, size_t n, hv_report *r)
{
	hv_blob b = hv_blob_from_memory("t/stream.obs", d, n);
	hv_report_init(r, "t/stream.obs", 100);
	hv_validate_blob(&(hv_options){.max_diags = 100}, &b, r);
}

static const hv_diag *find_diag(const hv_report *r, int rule)
{
	for (size_t i = 0; i < r->ndiags; i++)
		if (r->diags[i].rule == rule) return &r->diags[i];
	return NULL;
}

static void test_jumbo_sizes(void)
{
	const uint32_t sizes[] = {0x7ffffff3u, 0x7ffffff4u, 0x7ffffff8u, 0xfffffff0u, 0xffffffffu, 0x100u};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		uint8_t d[64] = {0};
		size_t off = header(d);
		off = put_ev(d, off, 0x00, "OHx", 10) + 0; /* OHx without payload: a payload-size error */
		size_t j = off;
		off = put_ev(d, off, 0x13, "VYc", 20);
		hv_put_le32(d + off, sizes[i]);
		off += 4;
		hv_report r;
		run(d, off, &r);
		const hv_diag *t = find_diag(&r, HV_R_OVNI_OBS_EVENT_TRUNCATED);
		CHECK(t != NULL && t->offset == j, "jumbo size 0x%x: truncation reported at the jumbo event", sizes[i]);
		if (t) {
			char want[64];
			snprintf(want, sizeof want, "%llu missing", (unsigned long long)sizes[i]);
			CHECK(strstr(t->msg, want) != NULL, "jumbo size 0x%x: message says how many bytes are missing: %s",
			      sizes[i], t->msg);
		}
		hv_report_free(&r);
	}
}

static void test_windowed_matches_memory(void)
{
	/* 40000 events, so the walk crosses many 256 KiB windows. */
	size_t n = 8 + 40000 * 28 + 16 + 5;
	uint8_t *d = calloc(1, n);
	size_t off = header(d);
	uint64_t clock = 1000;
	for (int i = 0; i < 40000; i++) {
		off = put_ev(d, off, 0x0f, "OHx", clock);
		off += 16;
		clock += i == 30000 ? 0 : 3;
	}
	hv_put_le64(d + off - 28 + 4, 5); /* the last event goes backwards */
	off = put_ev(d, off, 0x13, "VYc", clock);
	hv_put_le32(d + off, 1);
	off += 4 + 1;
	tl_memio io = {.d = d, .n = off};
	hv_blob b = {.name = "big/stream.obs", .size = off, .fetch = tl_mem_fetch, .io = &io};
	hv_report r1, r2;
	hv_report_init(&r1, "big", 100);
	hv_validate_blob(&(hv_options){.max_diags = 100}, &b, &r1);
	run(d, off, &r2);
	CHECK(io.calls > 4 && io.calls < 64, "windowed reads are bounded (%u fetches)", io.calls);
	CHECK(r1.failed[HV_R_OVNI_OBS_CLOCK_MONOTONIC] == 1 && r2.failed[HV_R_OVNI_OBS_CLOCK_MONOTONIC] == 1,
	      "the backwards clock is found through windows and in memory");
	CHECK(r1.count[HV_SEV_ERROR] == r2.count[HV_SEV_ERROR] && r1.count[HV_SEV_WARNING] == r2.count[HV_SEV_WARNING],
	      "windowed and in-memory reports agree");
	const hv_diag *dg = find_diag(&r1, HV_R_OVNI_OBS_CLOCK_MONOTONIC);
	CHECK(dg && dg->offset == 8 + 39999 * 28 + 4, "offset of the backwards clock field");
	CHECK(dg && strstr(dg->msg, "-> 5 ") && strstr(dg->msg, "outside any OU["), "message: %s", dg ? dg->msg : "");
	hv_report_free(&r1);
	hv_report_free(&r2);
	free(d);
}

static void test_sort_region_hint(void)
{
	uint8_t d[128] = {0};
	size_t off = header(d);
	off = put_ev(d, off, 0, "OU[", 100);
	off = put_ev(d, off, 0, "OB.", 120);
	size_t back = off;
	off = put_ev(d, off, 0, "OB.", 90);
	off = put_ev(d, off, 0, "OU]", 130);
	off = put_ev(d, off, 0, "OHe", 140);
	hv_report r;
	run(d, off, &r);
	const hv_diag *dg = find_diag(&r, HV_R_OVNI_OBS_CLOCK_MONOTONIC);
	CHECK(dg && dg->offset == back + 4, "backwards event inside a region is an error at its clock");
	CHECK(dg && strstr(dg->msg, "120 -> 90") && strstr(dg->msg, "inside an OU[") && strstr(dg->msg, "ovnisort"),
	      "the message names both clocks and the sort region: %s", dg ? dg->msg : "");
	CHECK(r.failed[HV_R_OVNI_OBS_SORT_REGION] == 0, "a paired region is fine");
	hv_report_free(&r);
}

/* A sort marker itself is never moved by ovnisort (it sorts the events
 * strictly between OU[ and OU]), so a marker with a backwards clock is
 * "outside" the region, wherever the event lies: in the middle of the
 * stream (the fast path) or among its last bytes (checked one by one). */
static void test_sort_marker_backwards(void)
{
	static const struct {
		const char *mcv[6];
		uint64_t clock[6];
		int back; /* index of the backwards event */
	} cases[] = {
		{{"OB.", "OU[", "OB.", "OU]", "OHe", "OHe"}, {100, 50, 60, 70, 80, 90}, 1},
		{{"OU[", "OB.", "OU]", "OHe", "OHe", NULL}, {100, 120, 110, 130, 140}, 2},
		{{"OB.", "OB.", "OU[", "OB.", "OU]", NULL}, {100, 110, 120, 130, 125}, 4},
		{{"OB.", "OB.", "OB.", "OB.", "OU[", NULL}, {100, 110, 120, 130, 125}, 4},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t d[128] = {0};
		size_t off = header(d), back = 0;
		for (int k = 0; k < 6 && cases[i].mcv[k]; k++) {
			if (k == cases[i].back) back = off;
			off = put_ev(d, off, 0, cases[i].mcv[k], cases[i].clock[k]);
		}
		hv_report r;
		run(d, off, &r);
		const hv_diag *dg = find_diag(&r, HV_R_OVNI_OBS_CLOCK_MONOTONIC);
		CHECK(dg && dg->offset == back + 4 && strstr(dg->msg, "outside any OU["),
		      "case %zu: the backwards %s is outside the region it marks: %s", i, cases[i].mcv[cases[i].back],
		      dg ? dg->msg : "(none)");
		hv_report_free(&r);
	}
}

static void test_equal_clocks_and_short_tail(void)
{
	uint8_t d[64] = {0};
	size_t off = header(d);
	off = put_ev(d, off, 0, "OB.", 7);
	off = put_ev(d, off, 0, "OB.", 7);
	hv_report r;
	run(d, off + 1, &r); /* one stray byte after the last event */
	CHECK(r.failed[HV_R_OVNI_OBS_CLOCK_MONOTONIC] == 0, "equal clocks are legal");
	const hv_diag *t = find_diag(&r, HV_R_OVNI_OBS_EVENT_TRUNCATED);
	CHECK(t && t->offset == off && strstr(t->msg, "11 missing"), "1 stray byte: 11 bytes of header missing");
	hv_report_free(&r);
}

/* Reserved flag bits (0x20, 0x40, 0x80) on consecutive events, and on every
 * event: ovniemu 1.14 and ovnidump size an event from the jumbo bit and the
 * low nibble alone, so the stream decodes as without them: a note per
 * event, no damaged region. A bad header among such events is a lone bad
 * event (the resync takes them as valid), not a region to the end. */
static size_t reserved_stream(uint8_t *d, size_t n_plain, size_t bad_at)
{
	size_t off = header(d);
	uint64_t clock = 1;
	for (size_t i = 0; i < n_plain; i++)
		off = put_ev(d, off, (uint8_t)(0x20u << (i % 3)), i == bad_at ? "O\x01." : "OB.", clock++);
	off = put_ev(d, off, 0xe3, "OB.", clock++); /* nibble 3: 4 payload bytes */
	memset(d + off, 0xee, 4);
	off += 4;
	off = put_ev(d, off, 0xf3, "OB.", clock++); /* jumbo: u32 size 5, then 5 bytes */
	hv_put_le32(d + off, 5);
	memset(d + off + 4, 0xee, 5);
	return off + 9;
}

static void test_reserved_flags_decode(void)
{
	uint8_t d[1024] = {0};
	size_t n = reserved_stream(d, 40, SIZE_MAX);
	hv_report r;
	run(d, n, &r);
	CHECK(r.failed[HV_R_OVNI_OBS_DAMAGED_REGION] == 0, "reserved bits on every event: no damaged region");
	CHECK(r.failed[HV_R_OVNI_OBS_RESERVED_FLAGS] == 42, "one reserved-flags note per event (42), got %llu",
	      (unsigned long long)r.failed[HV_R_OVNI_OBS_RESERVED_FLAGS]);
	CHECK(r.count[HV_SEV_ERROR] == 0 && r.failed[HV_R_OVNI_OBS_EVENT_TRUNCATED] == 0,
	      "and no error: 42 events sized from the jumbo bit and the nibble end at the stream's end");
	hv_report_free(&r);

	memset(d, 0, sizeof d);
	n = reserved_stream(d, 40, 10);
	run(d, n, &r);
	CHECK(r.failed[HV_R_OVNI_OBS_DAMAGED_REGION] == 0, "a bad MCV among reserved-bit events: no damaged region");
	CHECK(r.failed[HV_R_OVNI_OBS_MCV_PRINTABLE] == 1, "the bad MCV is its own error, once");
	CHECK(r.failed[HV_R_OVNI_OBS_RESERVED_FLAGS] == 42, "every event read, the bad one included");
	hv_report_free(&r);
}

int main(void)
{
	test_jumbo_sizes();
	test_windowed_matches_memory();
	test_sort_region_hint();
	test_sort_marker_backwards();
	test_equal_clocks_and_short_tail();
	test_reserved_flags_decode();
	TAP_DONE();
}
