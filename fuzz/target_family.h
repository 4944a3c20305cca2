/* One format family's multi-file fuzz target: the input is the container of
 * container.h; member names are fixed up by the target's FUZZ_FIX_NAME
 * (names the family needs: meta.db..., loom.*, NAME.meta + NAME-NNNN.bin)
 * and the set goes through hv_validate_set, as the CLI's directory reader
 * does. No temp files: blobs point into the input. */
#ifndef HV_FUZZ_TARGET_FAMILY_H
#define HV_FUZZ_TARGET_FAMILY_H

#include "container.h"
#include "harness.h"

static void FUZZ_FIX_NAME(char *name, size_t cap, size_t index);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_files ff;
	fuzz_unpack_fixed(data, size, &ff, FUZZ_FIX_NAME);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report r;
	hv_report_init(&r, "db", opt.max_diags);
	hv_validate_set(&opt, ff.blobs, ff.n, &r);
	fuzz_check_report(&r);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
	hv_report_free(&r);
	return 0;
}

#endif
