/* The multi-file fuzz input: several named files packed into one buffer, as
 * libxml2 does for its multi-file inputs. Each entry is
 *   u16le name length, name bytes, u32le data length, data bytes.
 * Parsing stops at the first entry that does not fit; no copies are made. */
#ifndef HV_FUZZ_CONTAINER_H
#define HV_FUZZ_CONTAINER_H

#include <stdint.h>
#include <string.h>

#include "core/blob.h"
#include "core/hv_int.h"

#define FUZZ_MAX_FILES 2080 /* a wide trace: a 3-D stencil of 64 ranks, a loom of 1,024 threads (2 files each) */
#define FUZZ_NAME_MAX 96

typedef struct fuzz_files {
	hv_blob blobs[FUZZ_MAX_FILES];
	char names[FUZZ_MAX_FILES][FUZZ_NAME_MAX + 8];
	size_t n;
} fuzz_files;

/* A family target's name fixer: given the entry's index and the name the
 * input carries, leaves a name the family accepts (or a fixed one) in `name`,
 * so byte-level mutation of names does not waste the campaign on inputs the
 * family never claims. NULL keeps the names as they are (the `set` target). */
typedef void (*fuzz_name_fixer)(char *name, size_t cap, size_t index);

static inline void fuzz_unpack_fixed(const uint8_t *data, size_t size, fuzz_files *ff, fuzz_name_fixer fix)
{
	size_t at = 0;
	ff->n = 0;
	while (ff->n < FUZZ_MAX_FILES && hv_range_in(at, 2, size)) {
		size_t nl = hv_le16(data + at);
		at += 2;
		if (nl > FUZZ_NAME_MAX || !hv_range_in(at, nl + 4, size)) break;
		char *name = ff->names[ff->n];
		memcpy(name, "db/", 3);
		memcpy(name + 3, data + at, nl);
		name[3 + nl] = '\0';
		if (fix) fix(name + 3, sizeof ff->names[0] - 3, ff->n);
		at += nl;
		uint32_t dl = hv_le32(data + at);
		at += 4;
		if (!hv_range_in(at, dl, size)) break;
		ff->blobs[ff->n] = hv_blob_from_memory(name, data + at, dl);
		ff->n++;
		at += dl;
	}
}

static inline void fuzz_unpack(const uint8_t *data, size_t size, fuzz_files *ff)
{
	fuzz_unpack_fixed(data, size, ff, NULL);
}

#endif
