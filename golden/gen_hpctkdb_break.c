/* --break cases for cross-file rules of whole databases. */
#include "gen_hpctkdb_break.h"

const hk_break hk_breaks_crossdb[] = {
	{NULL, NULL, 0, NULL, NULL},
};
