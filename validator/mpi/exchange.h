/* hpcvet-mpi's one communication pattern: every rank contributes bytes and
 * receives every rank's bytes (MPI_Allgather of a header, then
 * MPI_Allgatherv). All collectives of the program go through it, so every
 * rank always takes part in the same sequence; a rank that reaches another
 * exchange than rank 0 (the ranks diverged, e.g. one read different bytes)
 * is detected at once and the job ends with a message, never a hang. */
#ifndef HV_MPI_EXCHANGE_H
#define HV_MPI_EXCHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/wire.h"

enum { HV_X_UNITS = 1, HV_X_INPUTS, HV_X_END };

typedef struct hv_gathered {
	int nranks, me;
	uint8_t *buf;            /* every rank's bytes, in rank order */
	uint64_t *off, *len;     /* per rank */
	bool *lost;              /* per rank: its bytes could not be sent (out of memory, too large) */
} hv_gathered;

/* `kind` and `n` (the number of units or inputs) must be the same on every
 * rank. Returns false only when this rank is out of memory (the gathered
 * bytes of every rank are then lost). */
bool hv_exchange(int kind, uint64_t n, const hv_wbuf *mine, hv_gathered *g);
void hv_gathered_free(hv_gathered *g);

#endif
