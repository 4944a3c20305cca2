/* Structure-aware mutation for hpcvet's inputs, shared by the libFuzzer
 * custom mutator (libfuzzer_mutator.c) and the AFL++ custom mutator library
 * (afl_mutator.c): the SAME code drives both engines. */
#ifndef HV_FUZZ_MUTATOR_H
#define HV_FUZZ_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* Byte-level mutation of the engine (LLVMFuzzerMutate), used as fallback;
 * NULL selects the mutator's own small byte-level mutator. Returns the new size. */
typedef size_t (*hv_byte_mutator)(uint8_t *data, size_t size, size_t max_size);

/* Mutate data[0, size) in place (capacity max_size); returns the new size.
 * Recognises the container (fuzz/container.h), HPCToolkit .db files, ovni
 * streams, DUMPI .bin files and text (ovni JSON, DUMPI .meta); mutates one
 * field and keeps the rest (magics, footers, lengths of untouched parts) as
 * they were. Anything else, and a share of every kind, gets byte-level mutation. */
size_t hv_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, hv_byte_mutator bytes);

/* A semantic mutation only (mutate_sem_*.c): the same files, structurally
 * valid as far as the mutator can keep them, with changed meaning. Returns
 * the new size, or 0 when the input holds nothing a semantic mutator knows
 * (data is then unchanged). For tests and measurements. */
size_t hv_fuzz_mutate_semantic(uint8_t *data, size_t size, size_t max_size, uint64_t seed);

#endif
