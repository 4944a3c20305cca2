/* A blob is one input file as the checking core sees it: a size and a way to
 * look at byte ranges. The core never opens files. Either the whole content
 * is in memory (`mem`), or the reader supplies a `fetch` callback and the
 * core looks at the file through windows of bounded size, so a multi-GB
 * profile.db never needs multi-GB of RAM. A reader may also take hints of
 * where the core reads next (will_read), to start reads early where its
 * reads go on beside the core (the web page); hints change no result. */
#ifndef HV_BLOB_H
#define HV_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hv_blob {
	const char *name;      /* display path used in diagnostics, e.g. "db/meta.db" */
	uint64_t size;         /* bytes in the file */
	const uint8_t *mem;    /* whole content, or NULL when read through fetch */
	/* Copy [off, off+len) into dst; false on any I/O failure or short read. */
	bool (*fetch)(void *io, uint64_t off, void *dst, size_t len);
	/* Optional (NULL: none): the core will read [off, off+len) soon, after
	 * what it reads now (profile.db's next profile, far from the current
	 * one). Only a hint: the reader may start fetching those bytes, or
	 * ignore it; nothing the core computes depends on it. The range may lie
	 * partly outside the file (hv_blob_will_read clamps it). */
	void (*will_read)(void *io, uint64_t off, uint64_t len);
	void *io;
	bool io_failed;        /* a fetch failed: the input is unreadable (exit 3) */
	uint8_t *owned;        /* memory from hv_blob_materialize, freed by hv_blob_release */
} hv_blob;

/* A blob over bytes already in memory (fuzzers, tests, small files). */
hv_blob hv_blob_from_memory(const char *name, const uint8_t *data, uint64_t size);

/* Copy bytes out; false when the range is outside the file or I/O failed. */
bool hv_blob_read(hv_blob *b, uint64_t off, void *dst, size_t len);

/* Make the whole content addressable through b->mem (used for meta.db,
 * whose structure is random-access). Returns false when memory or I/O fails. */
bool hv_blob_materialize(hv_blob *b);
void hv_blob_release(hv_blob *b);

/* Pass a hint to the reader's will_read, the range clamped to the file;
 * nothing when the blob is in memory or the reader takes no hints. */
void hv_blob_will_read(hv_blob *b, uint64_t off, uint64_t len);

/* A sliding read-only view over a blob. hv_window_get returns a pointer to
 * `len` bytes at `off`, valid until the next call on the same window; NULL
 * when the range is outside the file, larger than the window, or I/O fails.
 * A refill reads ahead as far as the accesses earn: after a jump it reads
 * HV_WINDOW_JUMP bytes (or the request), and each refill that continues the
 * window doubles that, up to `cap`. So a sequential scan refills once per
 * `cap` bytes after a few short reads, and a walk over many small blocks
 * scattered through a file (profile.db's blocks lie in the order hpcprof's
 * threads finished them, not in profile order) reads about their bytes
 * instead of `cap` bytes per block. */
typedef struct hv_window {
	hv_blob *blob;
	uint8_t *buf;
	size_t cap;
	uint64_t start;
	size_t len;
	size_t ahead;   /* bytes the last refill asked for */
} hv_window;

#define HV_WINDOW_DEFAULT (256u * 1024u)
#define HV_WINDOW_JUMP (4u * 1024u)
/* A refill starts at a multiple of this (hv_window_fill says why), so a
 * window may hold up to HV_WINDOW_ALIGN - 1 bytes more than its cap. */
#define HV_WINDOW_ALIGN 8u

bool hv_window_init(hv_window *w, hv_blob *b, size_t cap);
void hv_window_free(hv_window *w);
/* The out-of-line part of hv_window_get: all checks, and the refill. */
const uint8_t *hv_window_fill(hv_window *w, uint64_t off, size_t len);

/* Inline, because the streaming loops call it once per record: a blob in
 * memory, or a range already in the window, costs a few compares. Anything
 * else (outside the file, larger than the window, a refill) goes through
 * hv_window_fill, with exactly the behaviour described above. */
static inline const uint8_t *hv_window_get(hv_window *w, uint64_t off, size_t len)
{
	const hv_blob *b = w->blob;
	if (b->mem) return off <= b->size && len <= b->size - off ? b->mem + off : NULL;
	/* the window holds [start, start + w->len), all inside the file */
	if (w->buf && off >= w->start && off - w->start <= w->len && len <= w->len - (off - w->start))
		return w->buf + (off - w->start);
	return hv_window_fill(w, off, len);
}

#endif
