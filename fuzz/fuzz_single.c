/* Fuzz target: any single file, format detected by content, exactly as the
 * CLI validates a file path (detection and every format's check), and the
 * report rendered by every writer (harness.h). */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	fuzz_mem_io io;
	hv_blob b = fuzz_blob("fuzz.bin", data, size, &io);
	hv_report r;
	hv_report_init(&r, "fuzz.bin", opt.max_diags);
	hv_validate_blob(&opt, &b, &r);
	fuzz_check_report(&r);
	fuzz_render(&r, &b, 1);
	hv_blob_release(&b);
	hv_report_free(&r);
	return 0;
}
