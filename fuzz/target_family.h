/* One format family's multi-file fuzz target: the input is the container of
 * container.h; member names are fixed up by the target's FUZZ_FIX_NAME
 * (names the family needs: meta.db..., loom.*, NAME.meta + NAME-NNNN.bin)
 * and the set goes through hv_validate_set, as the CLI's directory reader
 * does. No temp files: blobs point into the input.
 *
 * With FUZZ_FAULTS (the fault_* targets), the input's first two bytes pick
 * an allocation of the check to fail (core/alloc.h's test hook): the set is
 * checked once without a fault, counting its allocations, then again with
 * allocation 1 + (the two bytes, little-endian) mod that count failing.
 * The oracle: the faulted report is an internal error, or byte for byte the
 * unfaulted one (diff.h) -- never another verdict. In the sanitizer builds
 * a leak on the fault path is a finding too. */
#ifndef HV_FUZZ_TARGET_FAMILY_H
#define HV_FUZZ_TARGET_FAMILY_H

#include "container.h"
#include "harness.h"
#ifdef FUZZ_FAULTS
#include "core/alloc.h"
#include "diff.h"
#endif

static void FUZZ_FIX_NAME(char *name, size_t cap, size_t index);

#ifdef FUZZ_FAULTS
static void check_once(const uint8_t *data, size_t size, hv_report *r)
{
	static fuzz_files ff;
	fuzz_unpack_fixed(data, size, &ff, FUZZ_FIX_NAME);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report_init(r, "db", opt.max_diags);
	hv_validate_set(&opt, ff.blobs, ff.n, r);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2) return 0;
	unsigned pick = data[0] | (unsigned)data[1] << 8;
	data += 2, size -= 2;
	hv_report whole, faulted;
	hv_alloc_test_fail_at(0);
	check_once(data, size, &whole);
	unsigned long long n = hv_alloc_test_count();
	fuzz_check_report(&whole);
	if (n) {
		hv_alloc_test_fail_at(1 + pick % n);
		check_once(data, size, &faulted);
		hv_alloc_test_fail_at(0);
		if (!faulted.internal_error) fuzz_diff_reports(&whole, "the check", &faulted, "the check with a failed allocation");
		hv_report_free(&faulted);
	}
	hv_report_free(&whole);
	return 0;
}
#else
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

#endif
