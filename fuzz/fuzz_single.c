/* Fuzz target: any single file, format detected by content, exactly as the
 * CLI validates a file path (detection and every format's check), and the
 * report rendered by every writer (harness.h). Even-sized inputs go through
 * the public API (hpcvet_validate_buffer, whose view of the report is then
 * checked); odd-sized ones reach the checks as windowed blobs, the path of
 * files over 16 MiB (harness.h). */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if ((size & 1) == 0) {
		hpcvet_options opt;
		hpcvet_options_init(&opt);
		opt.max_diagnostics = FUZZ_MAX_DIAGS;
		hpcvet_report *rep = hpcvet_validate_buffer("fuzz.bin", data, size, &opt);
		if (!rep) return 0; /* out of memory: the API's documented answer */
		hv_blob b = hv_blob_from_memory("fuzz.bin", data, size);
		fuzz_check_report(&rep->r);
		fuzz_render(&rep->r, &b, 1, size % 32 == 0);
		fuzz_check_api_view(rep);
		hpcvet_report_free(rep);
		return 0;
	}
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	fuzz_mem_io io;
	hv_blob b = fuzz_blob("fuzz.bin", data, size, &io);
	hv_report r;
	hv_report_init(&r, "fuzz.bin", opt.max_diags);
	hv_validate_blob(&opt, &b, &r);
	fuzz_check_report(&r);
	fuzz_render(&r, &b, 1, size % 32 == 1);
	hv_blob_release(&b);
	hv_report_free(&r);
	return 0;
}
