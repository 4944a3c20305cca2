/* The bridge from the meta.db model (hpctk_model.h, branch metadb-gen) to
 * the data of the other three files: exactly what they must agree on with
 * meta.db, copied out so the model can be freed. */
#ifndef GEN_HPCTKDB_MODEL_H
#define GEN_HPCTKDB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"

typedef struct hdb_model_info {
	uint32_t *ctx_ids;   /* every ctxId in meta.db's context tree (malloc'd) */
	size_t n_ctx_ids;
	uint16_t *prop;      /* every propMetricId, sorted, unique (malloc'd) */
	size_t n_prop;
	uint16_t *stat;      /* every statMetricId, sorted, unique (malloc'd) */
	size_t n_stat;
	uint8_t nkinds;      /* Identifier Names count */
} hdb_model_info;

int hdb_model_load(const gen_params *p, hdb_model_info *mi, char *err, size_t errlen);

#endif
