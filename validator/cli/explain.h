#ifndef HV_CLI_EXPLAIN_H
#define HV_CLI_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

/* Writes the explanation of rule `id` (text, where it is checked, its corpus
 * cases); false when no rule has that ID. */
bool hv_cli_explain(FILE *out, const char *id);

#endif
