/* Registry of writer families. */
#include "gen.h"

extern const gen_family gen_family_garbage;
extern const gen_family gen_family_hpctoolkit;
extern const gen_family gen_family_dumpi;

const gen_family *const gen_families[] = {
	&gen_family_hpctoolkit,
	&gen_family_dumpi,
	&gen_family_garbage,
	NULL,
};
