/* Fuzz target: any directory input (an HPCToolkit database, an ovni trace
 * tree, a DUMPI trace) packed in the container with the names it carries,
 * validated through hv_validate_set (family detection included); the report
 * is rendered as text and JSON like the CLI's. */
#include "container.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_files ff;
	fuzz_unpack(data, size, &ff);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report r;
	hv_report_init(&r, "db", opt.max_diags);
	hv_validate_set(&opt, ff.blobs, ff.n, &r);
	fuzz_check_report(&r);
	fuzz_render(&r);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
	hv_report_free(&r);
	return 0;
}
