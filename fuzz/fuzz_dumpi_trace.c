/* Fuzz target: a DUMPI trace (NAME.meta + NAME-NNNN.bin per rank) packed in
 * the container. */
#include <stdio.h>
#include <string.h>

#define FUZZ_FIX_NAME dumpi_fix_name
#include "target_family.h"

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n > t && strcmp(s + n - t, tail) == 0;
}

/* Keep .meta/.bin names (the prefix and rank numbers are checked against
 * the .meta); otherwise member 0 is the .meta and member k rank k-1. */
static void dumpi_fix_name(char *name, size_t cap, size_t index)
{
	if (ends_with(name, ".meta") || ends_with(name, ".bin")) return;
	if (index == 0)
		snprintf(name, cap, "trace.meta");
	else
		snprintf(name, cap, "trace-%04zu.bin", index - 1);
}
