/* Fuzz target: a directory input (an HPCToolkit database, an ovni trace
 * tree, a DUMPI trace) packed into one buffer (container.h), validated
 * through hv_validate_set exactly as the CLI validates a directory. */
#include "container.h"
#include "core/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_files ff;
	fuzz_unpack(data, size, &ff);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 50};
	hv_report r;
	hv_report_init(&r, "db", opt.max_diags);
	hv_validate_set(&opt, ff.blobs, ff.n, &r);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
	hv_report_free(&r);
	return 0;
}
