/* Fuzz target: an ovni trace tree (loom.X/proc.P/thread.T streams with their
 * metadata, v1/v2/v3 layouts) packed in the container. */
#include <stdio.h>
#include <string.h>

#define FUZZ_FIX_NAME ovni_fix_name
#include "target_family.h"

/* Names under a loom directory carry the layout (loom, pid, tid, version),
 * so they are kept; anything else becomes a v3 thread's stream.json /
 * stream.obs pair, two threads per process, two processes per loom. */
static void ovni_fix_name(char *name, size_t cap, size_t index)
{
	if (strncmp(name, "loom.", 5) == 0 && strchr(name, '/')) return;
	size_t thread = index / 2;
	snprintf(name, cap, "loom.n%zu.ovni/proc.%zu/thread.%zu/stream.%s", thread / 4, 100 + thread / 2,
		 1000 + thread, index % 2 ? "obs" : "json");
}
