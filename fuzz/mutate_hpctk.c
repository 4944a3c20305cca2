/* HPCToolkit v4 files: a 16-byte header (magic, format, major, minor), a
 * section table of {u64 size, u64 pointer} pairs, sections, and an 8-byte
 * footer. Mutations hit the section table or a field inside a section;
 * the magic, format identifier and footer are never touched. */
#include <string.h>

#include "mutator_core.h"

#define HDR 16u
#define FOOTER 8u

/* Sections in the table: the table ends where the first section begins. */
static size_t section_count(const uint8_t *d, size_t size)
{
	size_t limit = 16;
	for (size_t i = 0; i < limit && HDR + 16 * (i + 1) <= size - FOOTER; i++) {
		uint64_t ptr = field_get(d + HDR + 16 * i + 8, 8, false);
		if (ptr >= HDR && ptr < size && (ptr - HDR) / 16 < limit) limit = (size_t)((ptr - HDR) / 16);
	}
	size_t fit = (size - FOOTER - HDR) / 16;
	return limit < fit ? limit : fit;
}

size_t mutate_hpctk(uint8_t *d, size_t size, size_t max, mrng *g)
{
	(void)max;
	if (size < HDR + 16 + FOOTER) return 0;
	size_t nsec = section_count(d, size);
	if (nsec == 0) nsec = 1;
	size_t body_lo = HDR + 16 * nsec, body_hi = size - FOOTER; /* mutable section bytes */
	unsigned op = (unsigned)mrng_below(g, 20);
	if (op < 5) { /* a section's size or pointer */
		size_t i = mrng_below(g, nsec);
		uint8_t *p = d + HDR + 16 * i + 8 * mrng_below(g, 2);
		uint64_t cur = field_get(p, 8, false);
		uint64_t v = interesting(g, cur, 8, size);
		if (mrng_below(g, 3) == 0) { /* another section's pointer: overlaps, shared bytes */
			size_t j = mrng_below(g, nsec);
			v = field_get(d + HDR + 16 * j + 8, 8, false) + 8 * mrng_below(g, 3);
		}
		field_put(p, 8, false, v);
		return size;
	}
	if (op == 5) { /* major / minor version */
		static const uint8_t vals[] = {0, 1, 3, 4, 5, 7, 0x7f, 0xff};
		d[14 + mrng_below(g, 2)] = vals[mrng_below(g, sizeof vals)];
		return size;
	}
	if (body_hi <= body_lo + 8) return 0;
	/* A field inside a section: counts, pointers, strides, flags, ids. */
	size_t lo = body_lo, hi = body_hi;
	size_t i = mrng_below(g, nsec);
	uint64_t ssize = field_get(d + HDR + 16 * i, 8, false), sptr = field_get(d + HDR + 16 * i + 8, 8, false);
	if (sptr >= body_lo && sptr < body_hi && ssize > 0) {
		lo = (size_t)sptr;
		hi = ssize < body_hi - lo ? lo + (size_t)ssize : body_hi;
	}
	unsigned w = pick_width(g);
	if (hi - lo < w) return 0;
	size_t at = lo + mrng_below(g, hi - lo - w + 1);
	at -= (at - lo) % w; /* fields are naturally aligned within their section */
	uint8_t *p = d + at;
	if (op == 19 && w == 8) { /* copy another aligned 8-byte field here: pointer reuse, cycles */
		size_t from = body_lo + (mrng_below(g, body_hi - body_lo - 8) & ~(size_t)7);
		memmove(p, d + from, 8);
		return size;
	}
	field_put(p, w, false, interesting(g, field_get(p, w, false), w, size));
	return size;
}
