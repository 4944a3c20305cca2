/* Differential fuzz target: an HPCToolkit database (the container of
 * container.h, names fixed as in `hpctk_db`) validated with the AVX-512
 * kernels (the value walk's lanes, profile.db's sparse value blocks) and
 * with the two-lane narrow path (hv_simd_allow_avx512(false), the CLI's
 * HPCVET_NO_AVX512) must give one report, byte for byte. A difference aborts
 * with the field that differs (diff.h).
 *
 * A third run checks the propagated values in one-slot groups (the value
 * budget, the CLI's HPCVET_VALUE_BUDGET, at 1 byte: every profile folded
 * once per derived metric, the groups after the first replayed from its
 * kept runs, hpctoolkit/values/groups.c) with the kernels the input's last byte picks
 * (wide when even): it too must give the narrow path's report. No input of
 * fuzzing size outgrows the 32 MiB budget, so without this run the later
 * groups are never reached.
 *
 * On a processor without AVX-512 (F, DQ, BW, VL) the wide runs would take
 * the narrow path: the target says so once on stderr and compares nothing. */
#include "container.h"
#include "core/simd.h"
#include "diff.h"
#include "hpctk_names.h"
#include "hpctoolkit/values/values.h"


static void check_db(const uint8_t *data, size_t size, bool wide, size_t budget, hv_report *r)
{
	static fuzz_files ff;
	fuzz_unpack_fixed(data, size, &ff, hpctk_fix_name);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_simd_allow_avx512(wide);
	hpctk_vbudget = budget;
	hv_report_init(r, "db", opt.max_diags);
	hv_validate_set(&opt, ff.blobs, ff.n, r);
	hv_simd_allow_avx512(true);
	hpctk_vbudget = HPCTK_VBUDGET;
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
	hv_report wide, narrow, groups;
	check_db(data, size, true, HPCTK_VBUDGET, &wide);
	check_db(data, size, false, HPCTK_VBUDGET, &narrow);
	if (fuzz_diff_stats()) fprintf(stderr, "diff_simd: compared AVX-512 with the narrow path\n");
	fuzz_diff_reports(&narrow, "the narrow path", &wide, "the AVX-512 kernels");
	bool wide_groups = size == 0 || data[size - 1] % 2 == 0;
	check_db(data, size, wide_groups, 1, &groups);
	fuzz_diff_reports(&narrow, "the narrow path", &groups,
			  wide_groups ? "one-slot groups, AVX-512 kernels" : "one-slot groups, narrow path");
	hv_report_free(&wide);
	hv_report_free(&narrow);
	hv_report_free(&groups);
	return 0;
}
