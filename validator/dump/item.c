/* See item.h: the primitives every per-format dumper reads and writes with. */
#include "item.h"

#include <stdarg.h>
#include <string.h>

#include "core/hv_int.h"

bool hv_dump_be(hv_dump_ctx *d, uint64_t off, unsigned n, uint64_t *v)
{
	const uint8_t *p = hv_window_get(&d->win, off, n);
	if (!p || n > 8) return false;
	uint64_t x = 0;
	for (unsigned i = 0; i < n; i++) x = (x << 8) | p[i];
	*v = x;
	return true;
}

bool hv_dump_le(hv_dump_ctx *d, uint64_t off, unsigned n, uint64_t *v)
{
	const uint8_t *p = hv_window_get(&d->win, off, n);
	if (!p || n > 8) return false;
	uint64_t x = 0;
	for (unsigned i = n; i-- > 0;) x = (x << 8) | p[i];
	*v = x;
	return true;
}

bool hv_dump_str(hv_dump_ctx *d, const char *key, uint64_t off, uint64_t len)
{
	size_t shown = len > HV_DUMP_STR_MAX ? HV_DUMP_STR_MAX : (size_t)len;
	const uint8_t *p = hv_window_get(&d->win, off, shown);
	if (!p || !hv_range_in(off, len, d->b->size)) return false;
	dw_strn(d->w, key, p, shown);
	if (shown < len && key) {
		char k[96];
		snprintf(k, sizeof k, "%s_length", key);
		dw_u64(d->w, k, len);
	}
	return true;
}

bool hv_dump_array_in(const hv_dump_ctx *d, uint64_t at, uint64_t n, uint64_t sz)
{
	uint64_t bytes;
	return !hv_mul_overflows(n, sz, &bytes) && hv_range_in(at, bytes, d->b->size);
}

unsigned hv_dump_read_fields(hv_dump_ctx *d, uint64_t at, const hv_dump_field *f, unsigned n, uint64_t *v)
{
	unsigned lead = 0;
	bool all = true;
	for (unsigned i = 0; i < n; i++) {
		v[i] = 0;
		uint64_t off;
		bool ok = !hv_add_overflows(at, f[i].off, &off) && hv_dump_le(d, off, f[i].size, &v[i]);
		if (!ok) v[i] = 0;
		all = all && ok;
		if (all) lead++;
	}
	return lead;
}

void hv_dump_put_fields(hv_dump_ctx *d, const hv_dump_field *f, unsigned n, const uint64_t *v)
{
	for (unsigned i = 0; i < n; i++) dw_u64(d->w, f[i].key, v[i]);
}

void hv_dump_item(hv_dump_ctx *d, const char *kind, uint64_t off, uint64_t len, const char *pathfmt, ...)
{
	va_list ap;
	va_start(ap, pathfmt);
	vsnprintf(d->path, sizeof d->path, pathfmt, ap);
	va_end(ap);
	dw_item_begin(d->w, kind, d->path, off, len);
}

bool hv_dump_in_range(const hv_dump_ctx *d, uint64_t i)
{
	const hv_dump_select *s = &d->o->sel;
	if (!s->have_range) return true;
	bool in = i >= s->first && i <= s->last;
	if (in) d->hits->range = true;
	return in;
}

static bool in_sorted(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x) lo = mid + 1;
		else hi = mid;
	}
	return lo < n && v[lo] == x;
}

bool hv_dump_ctx_wanted(const hv_dump_ctx *d, uint64_t id)
{
	const hv_dump_select *s = &d->o->sel;
	if (s->have_context && id == s->context) {
		d->hits->context = true;
		return true;
	}
	if (s->have_subtree && in_sorted(d->sub, d->nsub, id)) return true;
	return !s->have_context && !s->have_subtree;
}

void hv_dump_stop(hv_dump_ctx *d, uint64_t off, const char *why)
{
	dw_item_begin(d->w, "stop", "", off, 0);
	dw_str(d->w, "reason", why);
	dw_item_end(d->w);
}
