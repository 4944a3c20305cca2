/* Internals shared by the mutator's files: a tiny PRNG, field access at a
 * width and byte order, and "interesting" values for a field. */
#ifndef HV_FUZZ_MUTATOR_CORE_H
#define HV_FUZZ_MUTATOR_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mrng { uint64_t s; } mrng;

static inline uint64_t mrng_next(mrng *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); 0 when n == 0. */
static inline uint64_t mrng_below(mrng *g, uint64_t n) { return n ? mrng_next(g) % n : 0; }

static inline uint64_t field_get(const uint8_t *p, unsigned w, bool be)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < w; i++) v |= (uint64_t)p[be ? w - 1 - i : i] << (8 * i);
	return v;
}

static inline void field_put(uint8_t *p, unsigned w, bool be, uint64_t v)
{
	for (unsigned i = 0; i < w; i++) p[be ? w - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* A value worth trying in a field of `w` bytes that holds `cur`, in a file
 * of `fsize` bytes: boundaries, off-by-ones, sign bits, overflow bait
 * (2^32-1, 2^64-8), and offsets that point into (or just past) the file. */
static inline uint64_t interesting(mrng *g, uint64_t cur, unsigned w, uint64_t fsize)
{
	uint64_t mask = w >= 8 ? ~0ull : ((1ull << (8 * w)) - 1);
	uint64_t v;
	switch (mrng_below(g, 16)) {
	case 0: v = 0; break;
	case 1: v = 1; break;
	case 2: v = cur + 1; break;
	case 3: v = cur - 1; break;
	case 4: v = cur + mrng_below(g, 64) - 32; break;
	case 5: v = cur * 2; break;
	case 6: v = cur / 2; break;
	case 7: v = mask; break;
	case 8: v = 1ull << (8 * w - 1); break;
	case 9: v = (1ull << (8 * w - 1)) - 1; break;
	case 10: v = fsize - mrng_below(g, 17); break;
	case 11: v = fsize + mrng_below(g, 9); break;
	case 12: v = mrng_below(g, fsize + 1) & ~7ull; break;
	case 13: v = mrng_below(g, fsize + 1); break;
	case 14: v = w >= 8 ? 0xfffffffffffffff8ull : 0xffffffffull; break;
	default: v = mrng_next(g); break;
	}
	return v & mask;
}

/* Field widths weighted towards the 4- and 8-byte fields formats use most. */
static inline unsigned pick_width(mrng *g)
{
	static const unsigned w[] = {1, 2, 4, 4, 8, 8, 8};
	return w[mrng_below(g, sizeof w / sizeof w[0])];
}

/* Per-format mutators: the new size, or 0 when the input is not theirs or
 * offers nothing to mutate (the caller falls back to bytes). */
size_t mutate_hpctk(uint8_t *d, size_t size, size_t max, mrng *g);
size_t mutate_ovni_obs(uint8_t *d, size_t size, size_t max, mrng *g);
size_t mutate_dumpi_bin(uint8_t *d, size_t size, size_t max, mrng *g);
size_t mutate_text(uint8_t *d, size_t size, size_t max, mrng *g);
size_t mutate_bytes(uint8_t *d, size_t size, size_t max, mrng *g);

/* One file of the input: the container's member (fuzz/container.h) with the
 * offsets of its name, length field and data, or the whole input as a lone
 * file (len_at == NO_LEN_FIELD, name_len 0). */
#define NO_LEN_FIELD SIZE_MAX
typedef struct mmember { size_t name_at, name_len, len_at, data_at, len; } mmember;

/* Semantic mutators (mutate_sem_*.c): keep the file structurally valid and
 * change what it means -- MPI arguments across the ranks of a DUMPI trace,
 * the order and presence of ovni events in valid streams, HPCToolkit metric
 * values and ids in place. They take the whole input as `n` files (`m`,
 * updated when a file changes size) and return the new size, or 0 when the
 * input holds nothing of theirs. */
size_t sem_dumpi(uint8_t *d, size_t size, size_t max, mmember *m, size_t n, mrng *g);
size_t sem_ovni(uint8_t *d, size_t size, size_t max, mmember *m, size_t n, mrng *g);
size_t sem_hpctk(uint8_t *d, size_t size, size_t max, mmember *m, size_t n, mrng *g);

/* Replace [at, at + del) of file k by ins[0, nins) (ins must not point into
 * d), moving what follows and rewriting k's length field: false (nothing
 * changed) when the result would not fit in max or k's length in a u32. */
bool mem_splice(uint8_t *d, size_t *size, size_t max, mmember *m, size_t n, size_t k, size_t at, size_t del,
		const uint8_t *ins, size_t nins);

/* The length of the ovni event at p (12-byte header, then a payload of
 * nibble+1 bytes, or a jumbo event's u32 size and data), 0 when it does
 * not fit in `left`. */
static inline size_t ovni_event_len(const uint8_t *p, size_t left)
{
	if (left < 12) return 0;
	if (p[0] & 0x10) {
		if (left < 16) return 0;
		uint64_t n = 16 + (uint64_t)field_get(p + 12, 4, false);
		return n <= left ? (size_t)n : 0;
	}
	size_t n = 12 + ((p[0] & 0x0f) ? (p[0] & 0x0f) + 1u : 0u);
	return n <= left ? n : 0;
}

#endif
