/* DUMPI .bin: lead-in magic, the record stream (two biases, then records of
 * u16 function id, u8 mask, optional u16 thread, clocks of u16 sec + u32
 * nsec, arguments), sections, and the 64-byte index at EOF-64 (magic + 7
 * big-endian section offsets). Records are found with the validator's own
 * iterator; mutations hit an index offset, the header version, a record's
 * function id, mask or clocks, the footer counters, or drop / repeat a record. */
#include <string.h>

#include "core/blob.h"
#include "dumpi/dumpi.h"
#include "mutator_core.h"

#define INDEX 64u
#define MAX_RECORDS 1024

static uint64_t section(const uint8_t *d, size_t size, int s) { return field_get(d + size - INDEX + 8 + 8 * s, 8, true); }

static size_t find_records(const uint8_t *d, size_t size, size_t *off, size_t cap)
{
	uint64_t body = section(d, size, DS_BODY), hdr = section(d, size, DS_HEADER);
	if (hdr >= size || size - hdr < 3 || body >= hdr) return 0;
	hv_blob b = hv_blob_from_memory("m.bin", d, size);
	dumpi_iter it;
	if (!dumpi_iter_init(&it, &b, body, hdr, d + hdr)) return 0;
	uint64_t bias;
	size_t n = 0;
	if (dumpi_get(&it.cur, 4, &bias) && dumpi_get(&it.cur, 4, &bias)) {
		dumpi_record rec;
		while (n < cap && dumpi_iter_next(&it, &rec)) off[n++] = (size_t)rec.offset;
		/* The end label (or where the walk stopped) bounds the last record. */
		if (n < cap) off[n] = (size_t)it.cur.pos;
	}
	dumpi_iter_free(&it);
	return n == cap ? n - 1 : n;
}

static unsigned pick_function(mrng *g)
{
	static const unsigned odd[] = {DUMPI_END_OF_STREAM, 128, 290, 0xffff, 294};
	if (mrng_below(g, 4) == 0) return odd[mrng_below(g, sizeof odd / sizeof odd[0])];
	return (unsigned)mrng_below(g, DUMPI_NFUNCS);
}

static size_t mutate_record(uint8_t *d, size_t size, size_t max, mrng *g)
{
	size_t off[MAX_RECORDS + 1];
	size_t n = find_records(d, size, off, MAX_RECORDS + 1);
	if (n == 0) return 0;
	size_t k = mrng_below(g, n), at = off[k], len = off[k + 1] - off[k];
	uint8_t *p = d + at;
	if (len < 3) return 0;
	switch (mrng_below(g, 8)) {
	case 0:
	case 1: /* function id */
		field_put(p, 2, true, pick_function(g));
		return size;
	case 2: /* mask bits: status, cpu, wall, reserved, thread, perf */
		p[2] ^= (uint8_t)(1u << mrng_below(g, 8));
		return size;
	case 3:
	case 4:
	case 5: { /* a clock: nsec >= 1e9, stop before start, u16 wrap */
		size_t c = 3 + ((p[2] & 0x40) ? 2 : 0);
		unsigned nclk = ((p[2] & 0x04) ? 2 : 0) + ((p[2] & 0x08) ? 2 : 0);
		if (!nclk || c + 6 * nclk > len) return 0;
		uint8_t *q = p + c + 6 * mrng_below(g, nclk);
		if (mrng_below(g, 2)) {
			static const uint32_t ns[] = {999999999u, 1000000000u, 0xffffffffu, 0};
			field_put(q + 2, 4, true, ns[mrng_below(g, 4)]);
		} else {
			uint64_t s = field_get(q, 2, true);
			static const int64_t step[] = {-1, 1, 32767, 32768, -32768, 65535};
			field_put(q, 2, true, (uint64_t)((int64_t)s + step[mrng_below(g, 6)]));
		}
		return size;
	}
	case 6: /* drop the record (sections after it move: offsets now lie) */
		memmove(p, p + len, size - at - len);
		return size - len;
	default: /* the record twice */
		if (size + len > max) return 0;
		memmove(p + len, p, size - at);
		return size + len;
	}
}

size_t mutate_dumpi_bin(uint8_t *d, size_t size, size_t max, mrng *g)
{
	unsigned op = (unsigned)mrng_below(g, 10);
	if (op < 2) { /* a section offset in the index */
		uint8_t *p = d + size - INDEX + 8 + 8 * mrng_below(g, DS_COUNT);
		uint64_t v = mrng_below(g, 3) ? interesting(g, field_get(p, 8, true), 8, size)
					      : section(d, size, (int)mrng_below(g, DS_COUNT));
		field_put(p, 8, true, v);
		return size;
	}
	if (op == 2) { /* header: version triple or starttime */
		uint64_t h = section(d, size, DS_HEADER);
		if (h > size - INDEX || size - INDEX - h < 11) return 0;
		if (mrng_below(g, 2)) {
			static const uint8_t v[] = {0, 1, 6, 7, 8, 9, 13, 14, 255};
			d[h + mrng_below(g, 3)] = v[mrng_below(g, sizeof v)];
		} else {
			field_put(d + h + 3, 8, true, interesting(g, field_get(d + h + 3, 8, true), 8, size));
		}
		return size;
	}
	if (op == 3) { /* a footer counter (called / ignored per function) */
		uint64_t f = section(d, size, DS_FOOTER);
		if (f > size - INDEX || size - INDEX - f < 16) return 0;
		size_t span = (size_t)(size - INDEX - f - 8);
		size_t at = (size_t)f + 8 + (mrng_below(g, span / 4) * 4);
		if (at + 4 > size - INDEX) return 0;
		field_put(d + at, 4, true, interesting(g, field_get(d + at, 4, true), 4, size));
		return size;
	}
	return mutate_record(d, size, max, g);
}
