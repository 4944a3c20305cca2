/* --break cases for tracedb rules. */
#include "gen_hpctkdb_break.h"

const hk_break hk_breaks_tracedb[] = {
	{NULL, NULL, 0, NULL, NULL},
};
