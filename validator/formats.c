/* Registries of formats and families. Order matters only for detection:
 * signatures do not overlap, so it does not in practice. */
#include "core/validate.h"
#include "hpctoolkit/hpctoolkit.h"
#include "dumpi/dumpi.h"

const hv_format *const hv_formats[] = {
	&hv_format_hpctk_metadb,
	&hv_format_dumpi_bin, &hv_format_dumpi_meta,
	NULL,
};

const hv_family *const hv_families[] = {
	&hv_family_hpctoolkit,
	&hv_family_dumpi,
	NULL,
};
