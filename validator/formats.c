/* Registries of formats and families. Order matters only for detection:
 * signatures do not overlap, so it does not in practice. */
#include "core/validate.h"
#include "dumpi/dumpi.h"
#include "hpctoolkit/cctdb/cctdb.h"
#include "hpctoolkit/hpctoolkit.h"
#include "hpctoolkit/profiledb/profiledb.h"
#include "hpctoolkit/tracedb/tracedb.h"
#include "ovni/ovni.h"

const hv_format *const hv_formats[] = {
	&hv_format_hpctk_metadb,
	&hv_format_hpctk_profiledb,
	&hv_format_hpctk_cctdb,
	&hv_format_hpctk_tracedb,
	&hv_format_ovni_stream,
	&hv_format_ovni_json,
	&hv_format_dumpi_bin,
	&hv_format_dumpi_meta,
	NULL,
};

const hv_family *const hv_families[] = {
	&hv_family_hpctoolkit,
	&hv_family_ovni,
	&hv_family_dumpi,
	NULL,
};
