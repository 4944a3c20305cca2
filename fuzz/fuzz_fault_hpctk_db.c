/* Fuzz target: the hpctk_db target with one allocation failing, picked by the
 * input's first two bytes (target_family.h, FUZZ_FAULTS): the report is an
 * internal error or the unfaulted one, never another verdict. */
#define FUZZ_FAULTS 1
#include "fuzz_hpctk_db.c"
