/* The names an HPCToolkit database's files have, for the targets that take
 * one in the container of container.h (hpctk_db, diff_simd): a standard
 * name or a taxonomy's (metrics/NAME.yaml) is kept, any other name becomes
 * the index's standard one, so a flipped byte in a name does not waste the
 * run on a file the family ignores. */
#ifndef HV_FUZZ_HPCTK_NAMES_H
#define HV_FUZZ_HPCTK_NAMES_H

#include <stdio.h>
#include <string.h>

static const char *const hpctk_names[] = {"meta.db", "profile.db", "cct.db", "trace.db", "metrics/default.yaml"};
#define HPCTK_NNAMES (sizeof hpctk_names / sizeof *hpctk_names)

static inline void hpctk_fix_name(char *name, size_t cap, size_t index)
{
	for (size_t i = 0; i < HPCTK_NNAMES; i++)
		if (strcmp(name, hpctk_names[i]) == 0) return;
	size_t n = strlen(name);
	if (strncmp(name, "metrics/", 8) == 0 && n > 13 && strcmp(name + n - 5, ".yaml") == 0 && !strchr(name + 8, '/'))
		return;
	snprintf(name, cap, "%s", hpctk_names[index % HPCTK_NNAMES]);
}

#endif
