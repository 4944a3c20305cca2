/* libFuzzer's hook for the structure-aware mutator (fuzz/mutator.c); linked
 * into the `fuzz_NAME` libFuzzer binaries, left out of `fuzz_NAME_bytes`
 * (byte-level only, for comparison). */
#include <stddef.h>
#include <stdint.h>

#include "mutator.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	/* Half of the time libFuzzer's own byte-level mutations (which also use
	 * the dictionary and comparison feedback), half our field mutations. */
	if (seed & 1) return LLVMFuzzerMutate(data, size, max_size);
	return hv_fuzz_mutate(data, size, max_size, seed, LLVMFuzzerMutate);
}
