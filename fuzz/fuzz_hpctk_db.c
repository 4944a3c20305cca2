/* Fuzz target: an HPCToolkit database directory (meta.db, profile.db,
 * cct.db, trace.db and the metric taxonomy metrics/default.yaml) packed in
 * the container; cross-file rules included. */
#include <stdio.h>
#include <string.h>

#define FUZZ_FIX_NAME hpctk_fix_name
#include "target_family.h"

static const char *const hpctk_names[] = {"meta.db", "profile.db", "cct.db", "trace.db", "metrics/default.yaml"};
#define HPCTK_NNAMES (sizeof hpctk_names / sizeof *hpctk_names)

/* Keep a standard name or a taxonomy's (metrics/NAME.yaml); any other name
 * becomes the index's standard one. */
static void hpctk_fix_name(char *name, size_t cap, size_t index)
{
	for (size_t i = 0; i < HPCTK_NNAMES; i++)
		if (strcmp(name, hpctk_names[i]) == 0) return;
	size_t n = strlen(name);
	if (strncmp(name, "metrics/", 8) == 0 && n > 13 && strcmp(name + n - 5, ".yaml") == 0 && !strchr(name + 8, '/'))
		return;
	snprintf(name, cap, "%s", hpctk_names[index % HPCTK_NNAMES]);
}
