/* Registries of formats and families. Order matters only for detection:
 * signatures do not overlap, so it does not in practice. */
#include "core/validate.h"
#include "hpctoolkit/hpctoolkit.h"
#include "hpctoolkit/profiledb.h"
#include "hpctoolkit/cctdb.h"
#include "hpctoolkit/tracedb.h"

const hv_format *const hv_formats[] = {
	&hv_format_hpctk_metadb,
	&hv_format_hpctk_profiledb,
	&hv_format_hpctk_cctdb,
	&hv_format_hpctk_tracedb,
	NULL,
};

const hv_family *const hv_families[] = {
	&hv_family_hpctoolkit,
	NULL,
};
