/* metrics/default.yaml, the metric taxonomy of a generated database. */
#ifndef GEN_TAXONOMY_H
#define GEN_TAXONOMY_H

#include "../gen.h"
#include "model.h"

/* Append the taxonomy of model m to b; brk: a hpctkdb.taxonomy.* rule to
 * break, or NULL. -1 with *fail set when the shape cannot break it. */
int gen_taxonomy_write(const hpctk_model *m, const char *brk, gen_buf *b, const char **fail);

#endif
