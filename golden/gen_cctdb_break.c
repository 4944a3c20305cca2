/* --break cases for cctdb rules. */
#include "gen_hpctkdb_break.h"

const hk_break hk_breaks_cctdb[] = {
	{NULL, NULL, 0, NULL, NULL},
};
