/* Differential fuzz target: one ovni stream.obs walked whole, and in
 * chunks (ovni/stream/split.c) of a size the input chooses (down to one byte,
 * so cuts fall inside every kind of event and sort region), the chunks
 * checked in an order and on a number of threads it chooses, or sent as
 * bytes (chunk_save/chunk_load, as hpcvet-mpi's ranks would) and merged,
 * must give one report, byte for byte. A difference aborts with the field
 * that differs (diff.h).
 *
 * Input: two control bytes, then the stream:
 *   byte 0: bits 0-3 the chunk size (fuzz_unit_bytes), bits 4-5 threads - 1,
 *           bit 6 the chunks read the stream through windows (the path of
 *           files over 16 MiB), bit 7 the chunks travel as bytes;
 *   byte 1: the order chunks are taken in (0 as given, 1 reversed, else a
 *           shuffle seeded by it); with bit 7, which chunks travel. */
#include "diff.h"

static const hv_format *obs(void)
{
	static const hv_format *f;
	if (!f) f = fuzz_format_named("ovni stream");
	return f;
}

static void check_obs(const uint8_t *data, size_t size, bool windowed, const hv_options *opt, hv_report *r)
{
	fuzz_mem_io io = {data, size};
	hv_blob b = hv_blob_from_memory("t/stream.obs", data, size);
	if (windowed) b.mem = NULL, b.fetch = fuzz_mem_fetch, b.io = &io;
	hv_report_init(r, "t/stream.obs", opt->max_diags);
	obs()->check(opt, &b, r);
	fuzz_check_report(r);
	hv_blob_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ctl c = {data, size < 2 ? size : 2, 0};
	uint8_t b0 = fuzz_ctl_byte(&c), b1 = fuzz_ctl_byte(&c);
	data += c.n, size -= c.n;

	hv_options one = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report whole, split;
	check_obs(data, size, false, &one, &whole);

	hv_options chunks = one;
	chunks.unit_bytes = fuzz_unit_bytes(b0);
	fuzz_runner fr = {.threads = 1u + ((b0 >> 4) & 3u), .order = b1};
	fuzz_use_runner(&chunks, &fr);
	bool windowed = b0 & 0x40;
	const char *how = windowed ? "chunks through windows" : "chunks";
	if (b0 & 0x80) {
		fuzz_wire fw;
		fuzz_wire_init(&fw, b1 ? b1 : 0xff);
		chunks.units = &fw.base;
		hv_report remote;
		check_obs(data, size, windowed, &chunks, &remote);
		hv_report_free(&remote);
		fuzz_wire_replay(&fw);
		check_obs(data, size, windowed, &chunks, &split);
		how = windowed ? "chunks through windows loaded from bytes" : "chunks loaded from bytes";
		if (fuzz_diff_stats()) fprintf(stderr, "diff_ovni_split: %zu chunks loaded from bytes\n", fw.loaded);
		fuzz_wire_free(&fw);
	} else {
		check_obs(data, size, windowed, &chunks, &split);
	}
	if (fuzz_diff_stats())
		fprintf(stderr, "diff_ovni_split: %zu chunks of %llu bytes on %u threads\n", fr.tasks,
			(unsigned long long)chunks.unit_bytes, fr.threads);
	fuzz_diff_reports(&whole, "the one walk", &split, how);
	hv_report_free(&whole);
	hv_report_free(&split);
	return 0;
}
