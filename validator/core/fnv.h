/* FNV-1a, 64 bits: the hash of a name, a path or a table's text wherever
 * the value only needs to spread (hash tables) or to stay the same from
 * run to run and build to build (the rule table's version, SARIF's
 * fingerprints), one definition so that those stay what they were. */
#ifndef HV_FNV_H
#define HV_FNV_H

#include <stdint.h>

#define HV_FNV1A_SEED 0xcbf29ce484222325ull

/* h with byte c folded in. */
static inline uint64_t hv_fnv1a_byte(uint64_t h, unsigned char c) { return (h ^ c) * 0x100000001b3ull; }

/* h with the bytes of the NUL-terminated string s folded in. */
static inline uint64_t hv_fnv1a_str(uint64_t h, const char *s)
{
	for (; *s; s++) h = hv_fnv1a_byte(h, (unsigned char)*s);
	return h;
}

#endif
