/* Fuzz target: an HPCToolkit database directory (meta.db, profile.db,
 * cct.db, trace.db and the metric taxonomy metrics/default.yaml) packed in
 * the container; cross-file rules included. */
#include <stdio.h>
#include <string.h>

#include "hpctk_names.h"
#define FUZZ_FIX_NAME hpctk_fix_name
#include "target_family.h"

