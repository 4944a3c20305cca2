/* --break cases for profiledb rules. */
#include "gen_hpctkdb_break.h"

const hk_break hk_breaks_profiledb[] = {
	{NULL, NULL, 0, NULL, NULL},
};
