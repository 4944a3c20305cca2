/* Progress on stderr while big inputs are checked (see progress.c). */
#ifndef HV_PROGRESS_H
#define HV_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/blob.h"

#define HV_PROGRESS_MIN (256ull * 1024u * 1024u)

typedef struct hv_progress hv_progress;

typedef struct hv_progress_blob {
	hv_progress *owner;
	bool (*fetch)(void *io, uint64_t off, void *dst, size_t len);
	void *io;
	const char *name;
	uint64_t size;
} hv_progress_blob;

struct hv_progress {
	const char *label;
	uint64_t total;
	double last_draw;
	bool drawn;
	hv_progress_blob *wrapped;
	size_t nwrapped;
};

/* Wrap the fetch callbacks of `blobs` (when enabled, stderr is a terminal
 * and the blobs total over HV_PROGRESS_MIN); hv_progress_end clears the
 * line. The blobs must not be used through the wrappers after _end. */
void hv_progress_begin(hv_progress *p, const char *label, hv_blob *blobs, size_t n, bool enabled);
void hv_progress_end(hv_progress *p);

#endif
