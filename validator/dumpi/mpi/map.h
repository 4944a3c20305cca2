/* A small open-addressing hash map from u64 keys to fixed-size values, for
 * the MPI consistency layer's live state (requests, communicators, message
 * channels). Memory grows with what is live, never with the trace length. */
#ifndef HV_DUMPI_MPI_MAP_H
#define HV_DUMPI_MPI_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mpi_map {
	size_t vsize;      /* bytes per value */
	size_t cap, len;   /* slots (power of two, or 0), used slots */
	uint64_t *keys;
	uint8_t *used;
	unsigned char *vals;
	/* Frozen (mpi_map_freeze): slot -> 1 + entry (0: empty), with keys and
	 * vals packed, len entries each, and used NULL. */
	uint32_t *pos;
	bool oom;
} mpi_map;

void mpi_map_init(mpi_map *m, size_t vsize);
void mpi_map_free(mpi_map *m);
/* The value of `key`, or NULL. */
void *mpi_map_get(const mpi_map *m, uint64_t key);
/* The value of `key`, inserted zeroed when absent (*fresh = true); NULL only
 * when out of memory (m->oom is then set). Pointers stay valid until the
 * next insertion or deletion. */
void *mpi_map_put(mpi_map *m, uint64_t key, bool *fresh);
void mpi_map_del(mpi_map *m, uint64_t key);
/* Iterate: i from 0 while mpi_map_next(m, &i, &key, &val). */
bool mpi_map_next(const mpi_map *m, size_t *i, uint64_t *key, void **val);

/* Keep the map as it is for reading at 4 bytes per slot plus its entries
 * (a map at most 3/4 full holds 153-byte channels in slots of 153 bytes):
 * get and next see the same entries in the same slot order. A later put or
 * del thaws it first. The MPI layer freezes a rank's channels when the rank
 * ends, as they wait, unchanged, for the cross-rank stage. False when out
 * of memory (the map is then unchanged). */
bool mpi_map_freeze(mpi_map *m);

/* The slot layout, for a map that must iterate in the same order in another
 * process (wire.c): the slot of the entry mpi_map_next just returned is
 * i - 1. mpi_map_shape makes an empty map of `cap` slots (a power of two,
 * 16 or more); mpi_map_place puts `key` in `slot`: NULL when the slot is
 * out of range or taken, when the key is present already, or when the map
 * would be more than 3/4 full (which mpi_map_put never lets happen, so
 * such a layout is malformed). */
bool mpi_map_shape(mpi_map *m, size_t cap);
void *mpi_map_place(mpi_map *m, size_t slot, uint64_t key);

#endif
