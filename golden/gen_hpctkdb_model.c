/* Stand-in until the meta.db model lands: ids shaped like hpcprof's. */
#include "gen_hpctkdb_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hdb_model_load(const gen_params *p, hdb_model_info *mi, char *err, size_t errlen)
{
	memset(mi, 0, sizeof *mi);
	gen_rng rng = {p->seed * 31 + 5};
	size_t n = p->contexts ? p->contexts : 40;
	unsigned nm = p->metrics ? p->metrics : 3;
	mi->ctx_ids = malloc(n * sizeof *mi->ctx_ids);
	mi->prop = malloc(4 * nm * sizeof *mi->prop);
	mi->stat = malloc(4 * nm * sizeof *mi->stat);
	if (!mi->ctx_ids || !mi->prop || !mi->stat) {
		free(mi->ctx_ids);
		free(mi->prop);
		free(mi->stat);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	uint32_t id = 0;
	for (size_t i = 0; i < n; i++) mi->ctx_ids[i] = id += 1 + (uint32_t)gen_below(&rng, 3);
	for (unsigned i = 0; i < 4 * nm; i++) mi->prop[i] = mi->stat[i] = (uint16_t)i;
	mi->n_ctx_ids = n;
	mi->n_prop = mi->n_stat = 4 * nm;
	mi->nkinds = 8;
	return 0;
}
