/* Registries of formats and families. Order matters only for detection:
 * signatures do not overlap, so it does not in practice. */
#include "core/validate.h"
#include "hpctoolkit/hpctoolkit.h"
#include "ovni/ovni.h"

const hv_format *const hv_formats[] = {
	&hv_format_hpctk_metadb,
	&hv_format_ovni_stream, &hv_format_ovni_json,
	NULL,
};

const hv_family *const hv_families[] = {
	&hv_family_hpctoolkit,
	&hv_family_ovni,
	NULL,
};
