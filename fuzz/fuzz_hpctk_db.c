/* Fuzz target: an HPCToolkit database directory (meta.db, profile.db,
 * cct.db, trace.db) packed in the container; cross-file rules included. */
#include <stdio.h>
#include <string.h>

#define FUZZ_FIX_NAME hpctk_fix_name
#include "target_family.h"

static const char *const hpctk_names[] = {"meta.db", "profile.db", "cct.db", "trace.db"};

/* Keep a standard name; any other name becomes the index's standard one. */
static void hpctk_fix_name(char *name, size_t cap, size_t index)
{
	for (size_t i = 0; i < 4; i++)
		if (strcmp(name, hpctk_names[i]) == 0) return;
	snprintf(name, cap, "%s", hpctk_names[index % 4]);
}
