#include "exchange.h"

#include "../cli/fileio.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The per-rank header: what it is at, how many bytes it sends, and how
 * many reads failed on it so far (a rank that could not read what the
 * others read takes another path through the input: that is the cause to
 * name, not the divergence it leads to). */
enum { H_KIND, H_N, H_BYTES, H_IOERR, H_WORDS };
#define LOST UINT64_MAX

static void diverged(int me, const uint64_t *hdr, int r)
{
	int nr;
	MPI_Comm_size(MPI_COMM_WORLD, &nr);
	bool io = false;
	for (int k = 0; k < nr; k++) io |= hdr[k * H_WORDS + H_IOERR] != 0;
	if (io) {
		/* every rank sees the same headers: each names its own failures */
		const char *first = NULL;
		uint64_t n = hv_fileio_read_errors(&first);
		if (n)
			fprintf(stderr, "hpcvet-mpi: rank %d: %llu read error(s) (first: %s); the ranks no longer read the "
				"same data\n", me, (unsigned long long)n, first ? first : "?");
		fflush(stderr);
		/* every rank is here (a mismatch is seen by all): let them print before the abort */
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	fprintf(stderr,
		"hpcvet-mpi: rank %d is at exchange %llu of %llu item(s) but rank %d at %llu of %llu: the ranks "
		"read different data (is the input the same file on every node?)\n",
		r, (unsigned long long)hdr[r * H_WORDS + H_KIND], (unsigned long long)hdr[r * H_WORDS + H_N], me,
		(unsigned long long)hdr[me * H_WORDS + H_KIND], (unsigned long long)hdr[me * H_WORDS + H_N]);
	MPI_Abort(MPI_COMM_WORLD, 4);
}

bool hv_exchange(int kind, uint64_t n, const hv_wbuf *mine, hv_gathered *g)
{
	memset(g, 0, sizeof *g);
	MPI_Comm_size(MPI_COMM_WORLD, &g->nranks);
	MPI_Comm_rank(MPI_COMM_WORLD, &g->me);
	int nr = g->nranks;
	uint64_t my[H_WORDS] = {(uint64_t)kind, n, mine->failed || mine->n > INT_MAX ? LOST : mine->n,
				hv_fileio_read_errors(NULL)};
	uint64_t *hdr = malloc((size_t)nr * sizeof my);
	g->off = calloc((size_t)nr, sizeof *g->off);
	g->len = calloc((size_t)nr, sizeof *g->len);
	g->lost = calloc((size_t)nr, sizeof *g->lost);
	int *counts = calloc((size_t)nr, sizeof *counts), *displs = calloc((size_t)nr, sizeof *displs);
	if (!hdr || !g->off || !g->len || !g->lost || !counts || !displs) {
		/* Without room for the headers this rank cannot even take part. */
		fprintf(stderr, "hpcvet-mpi: rank %d: out of memory for the exchange\n", g->me);
		MPI_Abort(MPI_COMM_WORLD, 4);
	}
	MPI_Allgather(my, H_WORDS, MPI_UINT64_T, hdr, H_WORDS, MPI_UINT64_T, MPI_COMM_WORLD);
	for (int r = 0; r < nr; r++)
		if (hdr[r * H_WORDS + H_KIND] != my[H_KIND] || hdr[r * H_WORDS + H_N] != my[H_N]) diverged(g->me, hdr, r);
	/* Every rank computes the same layout from the same headers; what does
	 * not fit an int displacement is lost (and reported by the caller). */
	uint64_t total = 0;
	for (int r = 0; r < nr; r++) {
		uint64_t b = hdr[r * H_WORDS + H_BYTES];
		if (b == LOST || total + b > INT_MAX) {
			g->lost[r] = true;
			continue;
		}
		g->off[r] = total;
		g->len[r] = b;
		counts[r] = (int)b;
		displs[r] = (int)total;
		total += b;
	}
	g->buf = malloc(total ? (size_t)total : 1);
	/* Every rank must have room before anyone sends: agreed first, so a
	 * rank out of memory loses the bytes (everywhere) instead of the job. */
	int ok = g->buf != NULL, all_ok = 0;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (all_ok) {
		int send = g->lost[g->me] ? 0 : counts[g->me];
		MPI_Allgatherv(mine->p, send, MPI_BYTE, g->buf, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
	} else {
		for (int r = 0; r < nr; r++) g->lost[r] = true, g->len[r] = 0;
	}
	free(hdr);
	free(counts);
	free(displs);
	return ok;
}

void hv_gathered_free(hv_gathered *g)
{
	free(g->buf);
	free(g->off);
	free(g->len);
	free(g->lost);
	memset(g, 0, sizeof *g);
}
