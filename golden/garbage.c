/* Inputs that are no supported format at all (for input.unrecognized). */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static const char *const whats[] = {"garbage", NULL};

static int generate(const gen_params *p, gen_output *out, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	gen_rng rng = {p->seed};
	size_t n = 256;
	uint8_t *d = malloc(n);
	if (!d) return -1;
	for (size_t i = 0; i < n; i++) d[i] = (uint8_t)gen_rand(&rng);
	memcpy(d, "NOTAFORMAT", 10); /* never a valid signature, whatever the seed */
	gen_add_file(out, "garbage.bin", d, n);
	return 0;
}

static bool can_break(const char *what, const char *rule_id, enum hv_edition edition)
{
	(void)what;
	(void)edition;
	return strcmp(rule_id, "input.unrecognized") == 0;
}

const gen_family gen_family_garbage = {"garbage", whats, generate, can_break, true};
