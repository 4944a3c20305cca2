/* One single-file format's fuzz target: the file goes straight to that
 * format's check (no detection), under the format's standard file name.
 * A target file defines FUZZ_FORMAT (the hv_format name in
 * validator/formats.c) and FUZZ_FILE_NAME, then includes this header. */
#ifndef HV_FUZZ_TARGET_FORMAT_H
#define HV_FUZZ_TARGET_FORMAT_H

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const hv_format *fmt;
	if (!fmt) fmt = fuzz_format_named(FUZZ_FORMAT);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	fuzz_mem_io io;
	hv_blob b = fuzz_blob(FUZZ_FILE_NAME, data, size, &io);
	hv_report r;
	hv_report_init(&r, FUZZ_FILE_NAME, opt.max_diags);
	snprintf(r.format, sizeof r.format, "%s", fmt->name);
	fmt->check(&opt, &b, &r);
	fuzz_check_report(&r);
	hv_blob_release(&b);
	hv_report_free(&r);
	return 0;
}

#endif
