/* Byte-array bitmaps: bit i lives in byte i/8 at position i%8. Several checks
 * keep one (which ids exist, which slots start a record, which owners to
 * skip); one definition keeps their layout the same everywhere, so a map made
 * by one check can be read by another (crossdb reads meta.db's ctxId map). */
#ifndef HV_BITMAP_H
#define HV_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

static inline bool hv_bit_get(const uint8_t *map, uint64_t i) { return (map[i >> 3] >> (i & 7)) & 1; }
static inline void hv_bit_set(uint8_t *map, uint64_t i) { map[i >> 3] |= (uint8_t)(1u << (i & 7)); }
static inline void hv_bit_clear(uint8_t *map, uint64_t i) { map[i >> 3] &= (uint8_t)~(1u << (i & 7)); }

#endif
