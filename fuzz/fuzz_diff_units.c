/* Differential fuzz target: a multi-file input (an HPCToolkit database,
 * an ovni trace tree, a DUMPI trace, or several) checked three ways must
 * give one report, byte for byte:
 *   1. the one walk: -j1, units of the default size (a file each);
 *   2. split into units as small as the input chooses, checked on 1-4
 *      threads in an order it chooses, and merged;
 *   3. the same units sent as bytes (hv_unit_save, then hv_unit_load and
 *      the merge), as hpcvet-mpi's ranks exchange them: each unit's report
 *      and its summary (DUMPI rank summaries, HPCToolkit unit summaries,
 *      ovni stream chunks), the input choosing which units arrive as bytes.
 * A difference aborts with the field that differs (diff.h).
 *
 * Input: three control bytes, then the container of container.h (names
 * kept as they are, as in `set`):
 *   byte 0: bits 0-3 the unit size (fuzz_unit_bytes), bits 4-5 threads - 1;
 *   byte 1: the order units are taken in (0 as given, 1 reversed, else a
 *           shuffle seeded by it);
 *   byte 2: which units travel as bytes (unit i when bit i%8 is set; 0: all). */
#include "diff.h"

static void check_set(const uint8_t *data, size_t size, const hv_options *opt, hv_report *r)
{
	fuzz_check_container(data, size, NULL, "db", opt, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ctl c = {data, size < 3 ? size : 3, 0};
	uint8_t b0 = fuzz_ctl_byte(&c), b1 = fuzz_ctl_byte(&c), b2 = fuzz_ctl_byte(&c);
	data += c.n, size -= c.n;

	hv_options one = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report whole, split, wired, remote;
	check_set(data, size, &one, &whole);

	fuzz_runner fr = {.threads = 1u + ((b0 >> 4) & 3u), .order = b1};
	hv_options units = one;
	units.unit_bytes = fuzz_unit_bytes(b0);
	fuzz_use_runner(&units, &fr);
	check_set(data, size, &units, &split);
	fuzz_diff_reports(&whole, "the one walk", &split, "units on threads");

	fuzz_wire fw;
	fuzz_wire_init(&fw, b2 ? b2 : 0xff);
	hv_options mpi = units;
	mpi.units = &fw.base;
	check_set(data, size, &mpi, &remote);
	fuzz_diff_reports(&whole, "the one walk", &remote, "units saved as bytes");
	fuzz_wire_replay(&fw);
	check_set(data, size, &mpi, &wired);
	fuzz_diff_reports(&whole, "the one walk", &wired, "units loaded from bytes and merged");
	fuzz_wire_free(&fw);
	if (fuzz_diff_stats())
		fprintf(stderr, "diff_units: %zu tasks in %zu runs on %u threads; %zu exchanges, %zu units loaded from bytes\n",
			fr.tasks, fr.calls, fr.threads, fw.exchange, fw.loaded);

	hv_report_free(&whole);
	hv_report_free(&split);
	hv_report_free(&remote);
	hv_report_free(&wired);
	return 0;
}
