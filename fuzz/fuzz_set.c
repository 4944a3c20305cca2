/* Fuzz target: any directory input (an HPCToolkit database, an ovni trace
 * tree, a DUMPI trace) packed in the container with the names it carries,
 * validated through the public API (hpcvet_validate_buffers: family
 * detection included, as a program linking libhpcvet does). The report is
 * rendered by every writer (harness.h) and read back through the API's
 * accessors, which must agree with it. */
#include "container.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_files ff;
	fuzz_unpack(data, size, &ff);
	const char *names[FUZZ_MAX_FILES];
	const void *bufs[FUZZ_MAX_FILES];
	size_t sizes[FUZZ_MAX_FILES];
	for (size_t i = 0; i < ff.n; i++) {
		names[i] = ff.blobs[i].name;
		bufs[i] = ff.blobs[i].mem;
		sizes[i] = (size_t)ff.blobs[i].size;
	}
	hpcvet_options opt;
	hpcvet_options_init(&opt);
	opt.max_diagnostics = FUZZ_MAX_DIAGS;
	hpcvet_report *rep = hpcvet_validate_buffers("db", ff.n, names, bufs, sizes, &opt);
	if (!rep) return 0; /* out of memory: the API's documented answer */
	fuzz_check_report(&rep->r);
	fuzz_render(&rep->r, ff.blobs, ff.n, size % 32 == 0);
	fuzz_check_api_view(rep);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
	hpcvet_report_free(rep);
	return 0;
}
