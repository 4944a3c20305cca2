/* AFL++ custom mutator library (AFL_CUSTOM_MUTATOR_LIBRARY): the same
 * structure-aware code as the libFuzzer build (fuzz/mutator.c). AFL++ runs
 * its own havoc stages too unless AFL_CUSTOM_MUTATOR_ONLY is set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"

typedef struct hv_afl {
	uint64_t seed;
	uint8_t *buf;
	size_t cap;
} hv_afl;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
		       size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
	(void)afl;
	hv_afl *m = calloc(1, sizeof *m);
	if (m) m->seed = seed;
	return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
		       size_t add_buf_size, size_t max_size)
{
	(void)add_buf;
	(void)add_buf_size;
	hv_afl *m = data;
	if (max_size < buf_size) max_size = buf_size;
	if (m->cap < max_size) {
		uint8_t *nb = realloc(m->buf, max_size);
		if (!nb) {
			*out_buf = buf;
			return buf_size;
		}
		m->buf = nb;
		m->cap = max_size;
	}
	memcpy(m->buf, buf, buf_size);
	m->seed = m->seed * 6364136223846793005ull + 1442695040888963407ull;
	*out_buf = m->buf;
	return hv_fuzz_mutate(m->buf, buf_size, max_size, m->seed, NULL);
}

void afl_custom_deinit(void *data)
{
	hv_afl *m = data;
	if (m) free(m->buf);
	free(m);
}
