/* ovni streams: an 8-byte header ("ovni" + version), then events of a
 * 12-byte header (flags, model/category/value, u64 clock) and a payload
 * (normal: nibble+1 bytes; jumbo: u32 size at +12 then data). Mutations hit
 * one event's clock, MCV, flags, payload or jumbo size, or drop / repeat
 * an event; other events stay intact so the walk reaches what follows. */
#include <string.h>

#include "mutator_core.h"
#include "ovni/events/events.h"

#define OBS_HDR 8u
#define MAX_EVENTS 1024

size_t mutate_ovni_obs(uint8_t *d, size_t size, size_t max, mrng *g)
{
	size_t off[MAX_EVENTS], len[MAX_EVENTS], n = 0;
	for (size_t at = OBS_HDR; at < size && n < MAX_EVENTS;) {
		size_t l = ovni_event_len(d + at, size - at);
		if (!l) break;
		off[n] = at;
		len[n++] = l;
		at += l;
	}
	if (n == 0) return 0;
	size_t e = mrng_below(g, n);
	uint8_t *p = d + off[e];
	switch (mrng_below(g, 12)) {
	case 0:
	case 1:
	case 2: { /* the clock: backwards, equal, 2^63, far ahead */
		uint64_t prev = e ? field_get(d + off[e - 1] + 4, 8, false) : 0;
		uint64_t cur = field_get(p + 4, 8, false), v;
		switch (mrng_below(g, 5)) {
		case 0: v = prev - 1 - mrng_below(g, 1000); break;
		case 1: v = prev; break;
		case 2: v = 1ull << 63 | mrng_below(g, 1000); break;
		case 3: v = cur + mrng_below(g, 1ull << 40); break;
		default: v = interesting(g, cur, 8, size); break;
		}
		field_put(p + 4, 8, false, v);
		return size;
	}
	case 3:
	case 4: { /* another known event's MCV, or one byte of it */
		if (mrng_below(g, 3)) {
			const ovni_evspec *s = ovni_event_at(mrng_below(g, ovni_event_count()));
			if (s) memcpy(p + 1, s->mcv, 3);
		} else {
			p[1 + mrng_below(g, 3)] = (uint8_t)(mrng_below(g, 4) ? 0x21 + mrng_below(g, 94) : mrng_next(g));
		}
		return size;
	}
	case 5: /* flags: jumbo bit, payload nibble, reserved bits */
		switch (mrng_below(g, 3)) {
		case 0: p[0] ^= 0x10; break;
		case 1: p[0] = (uint8_t)((p[0] & 0xf0) | mrng_below(g, 16)); break;
		default: p[0] |= (uint8_t)(0x20u << mrng_below(g, 3)); break;
		}
		return size;
	case 6:
	case 7: { /* a payload field: thread ids, cpus, mark values and types */
		size_t pay = len[e] - ((p[0] & 0x10) ? 16 : 12);
		uint8_t *q = p + ((p[0] & 0x10) ? 16 : 12);
		unsigned w = mrng_below(g, 2) ? 4 : 8;
		if (pay < w) return 0;
		size_t at = mrng_below(g, pay - w + 1) & ~(size_t)(w - 1);
		if (at + w > pay) at = 0;
		field_put(q + at, w, false, interesting(g, field_get(q + at, w, false), w, size));
		return size;
	}
	case 8: /* the jumbo size */
		if (!(p[0] & 0x10)) return 0;
		field_put(p + 12, 4, false, interesting(g, field_get(p + 12, 4, false), 4, size));
		return size;
	case 9: /* drop the event */
		memmove(p, p + len[e], size - off[e] - len[e]);
		return size - len[e];
	case 10: /* the event twice */
		if (size + len[e] > max) return 0;
		memmove(p + len[e], p, size - off[e]);
		return size + len[e];
	default: { /* swap two events' clocks: out-of-order pairs */
		size_t f = mrng_below(g, n);
		uint8_t tmp[8];
		memcpy(tmp, p + 4, 8);
		memcpy(p + 4, d + off[f] + 4, 8);
		memcpy(d + off[f] + 4, tmp, 8);
		return size;
	}
	}
}
