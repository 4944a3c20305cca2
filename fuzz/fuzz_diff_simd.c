/* Differential fuzz target: an HPCToolkit database (the container of
 * container.h, names fixed as in `hpctk_db`) validated with the AVX-512
 * kernels (the value walk's lanes, profile.db's sparse value blocks) and
 * with the two-lane narrow path (hv_simd_allow_avx512(false), the CLI's
 * HPCVET_NO_AVX512) must give one report, byte for byte. A difference aborts
 * with the field that differs (diff.h).
 *
 * On a processor without AVX-512 (F, DQ, BW, VL) both runs would take the
 * narrow path: the target says so once on stderr and compares nothing. */
#include "container.h"
#include "core/simd.h"
#include "diff.h"
#include "hpctk_names.h"


static void check_db(const uint8_t *data, size_t size, bool wide, hv_report *r)
{
	static fuzz_files ff;
	fuzz_unpack_fixed(data, size, &ff, hpctk_fix_name);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_simd_allow_avx512(wide);
	hv_report_init(r, "db", opt.max_diags);
	hv_validate_set(&opt, ff.blobs, ff.n, r);
	hv_simd_allow_avx512(true);
	fuzz_check_report(r);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int have = -1;
	if (have < 0) {
		hv_simd_allow_avx512(true);
		have = hv_simd_avx512();
		if (!have)
			fprintf(stderr, "diff_simd: this processor has no AVX-512 (F, DQ, BW, VL): nothing is compared, "
					"the narrow path would be compared with itself\n");
	}
	if (!have) return 0;
	hv_report wide, narrow;
	check_db(data, size, true, &wide);
	check_db(data, size, false, &narrow);
	if (fuzz_diff_stats()) fprintf(stderr, "diff_simd: compared AVX-512 with the narrow path\n");
	fuzz_diff_reports(&narrow, "the narrow path", &wide, "the AVX-512 kernels");
	hv_report_free(&wide);
	hv_report_free(&narrow);
	return 0;
}
