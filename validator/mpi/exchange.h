/* hpcvet-mpi's communication: every rank contributes bytes and receives
 * every rank's bytes (MPI_Allgather of a header slot, which carries a small
 * contribution whole, so that most exchanges are one collective; else then
 * MPI_Allgatherv), or,
 * for the partitioned DUMPI cross-rank stage, bytes for each rank
 * (MPI_Alltoallv) after the same header. All collectives of the program go through it, so every
 * rank always takes part in the same sequence; a rank that reaches another
 * exchange than rank 0 (the ranks diverged, e.g. one read different bytes)
 * is detected at once and the job ends with a message, never a hang. */
#ifndef HV_MPI_EXCHANGE_H
#define HV_MPI_EXCHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/units.h"

enum { HV_X_UNITS = 1, HV_X_INPUTS, HV_X_END, HV_X_STAGE };

/* `kind` and `n` (the number of units or inputs) must be the same on every
 * rank. Returns false only when this rank is out of memory (the gathered
 * bytes of every rank are then lost). hv_gathered: core/units.h. */
bool hv_exchange(int kind, uint64_t n, const hv_wbuf *mine, hv_gathered *g);
/* The same agreement on (kind, n), then to[r] (one buffer per rank; to
 * NULL: nothing) goes to rank r (MPI_Alltoallv): g holds what each rank
 * sent this one. */
bool hv_exchange_route(int kind, uint64_t n, const hv_wbuf *to, hv_gathered *g);

#endif
