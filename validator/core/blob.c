#include "blob.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hv_int.h"
#include "invariant.h"

hv_blob hv_blob_from_memory(const char *name, const uint8_t *data, uint64_t size)
{
	hv_blob b;
	memset(&b, 0, sizeof b);
	b.name = name;
	b.size = size;
	b.mem = data;
	return b;
}

bool hv_blob_read(hv_blob *b, uint64_t off, void *dst, size_t len)
{
	if (!hv_range_in(off, len, b->size)) return false;
	if (len == 0) return true;
	if (b->mem) {
		memcpy(dst, b->mem + off, len);
		return true;
	}
	if (!b->fetch || !b->fetch(b->io, off, dst, len)) {
		b->io_failed = true;
		return false;
	}
	return true;
}

void hv_blob_will_read(hv_blob *b, uint64_t off, uint64_t len)
{
	if (b->mem || !b->will_read || off >= b->size || len == 0) return;
	b->will_read(b->io, off, len < b->size - off ? len : b->size - off);
}

bool hv_blob_materialize(hv_blob *b)
{
	if (b->mem) return true;
	if (b->size > SIZE_MAX) return false;
	uint8_t *p = hv_malloc(b->size ? (size_t)b->size : 1);
	if (!p) return false;
	if (!hv_blob_read(b, 0, p, (size_t)b->size)) {
		free(p);
		return false;
	}
	b->owned = p;
	b->mem = p;
	return true;
}

void hv_blob_release(hv_blob *b)
{
	if (b->owned) {
		if (b->mem == b->owned) b->mem = NULL;
		free(b->owned);
		b->owned = NULL;
	}
}

bool hv_window_init(hv_window *w, hv_blob *b, size_t cap)
{
	memset(w, 0, sizeof *w);
	w->blob = b;
	w->cap = cap;
	if (b->mem) return true; /* zero-copy: no buffer needed */
	/* room for the bytes before a request that an aligned refill reads */
	if (cap > SIZE_MAX - HV_WINDOW_ALIGN) return false;
	w->buf = hv_malloc(cap + HV_WINDOW_ALIGN);
	return w->buf != NULL;
}

void hv_window_free(hv_window *w)
{
	free(w->buf);
	w->buf = NULL;
}

const uint8_t *hv_window_fill(hv_window *w, uint64_t off, size_t len)
{
	hv_blob *b = w->blob;
	if (!hv_range_in(off, len, b->size)) return NULL;
	if (b->mem) return b->mem + off;
	if (len > w->cap || !w->buf) return NULL;
	if (off >= w->start && hv_range_in(off - w->start, len, w->len)) return w->buf + (off - w->start);
	/* continuing: the request starts inside the window or at its end */
	bool cont = w->len && off >= w->start && off - w->start <= w->len;
	size_t ahead = !cont ? HV_WINDOW_JUMP : w->ahead > w->cap / 2 ? w->cap : 2 * w->ahead;
	if (ahead < len) ahead = len;
	if (ahead > w->cap) ahead = w->cap;
	w->ahead = ahead;
	/* The refill starts at the multiple of HV_WINDOW_ALIGN at or before
	 * off, so that the file's bytes lie in the buffer at their offsets'
	 * alignment: the web page copies each refill out of shared memory,
	 * where the bytes lie at their offsets' alignment too, and V8 copies
	 * between shared and plain memory word by word only when both ends are
	 * aligned alike, byte by byte otherwise (~8x the cost: bench/RESULTS.md,
	 * "Web page"). The core is given the same bytes at the same offsets. */
	size_t lead = (size_t)(off % HV_WINDOW_ALIGN);
	uint64_t from = off - lead;
	uint64_t avail = b->size - from;
	size_t want = ahead + lead; /* ahead <= cap, and the buffer holds cap + HV_WINDOW_ALIGN */
	size_t fill = avail < want ? (size_t)avail : want;
	if (!b->fetch || !b->fetch(b->io, from, w->buf, fill)) {
		b->io_failed = true;
		w->len = 0;
		return NULL;
	}
	/* len <= ahead, len <= cap and off + len <= size, so the refill always
	 * covers the request. */
	if (!HV_INVARIANT(NULL, fill >= lead && fill - lead >= len)) return NULL;
	w->start = from;
	w->len = fill;
	return w->buf + lead;
}
