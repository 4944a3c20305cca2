#include "exchange.h"

#include "cli/fileio.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

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
		const char *changed = hv_fileio_first_changed();
		if (changed) fprintf(stderr, "hpcvet-mpi: rank %d: %s: changed while it was read\n", me, changed);
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

/* Without room for its bookkeeping a rank cannot take part in a
 * collective at all: the job ends, saying which rank. */
static void no_room(int me)
{
	fprintf(stderr, "hpcvet-mpi: rank %d: out of memory for the exchange\n", me);
	MPI_Abort(MPI_COMM_WORLD, 4);
}

static uint64_t bytes_of(const hv_wbuf *w) { return w->failed || w->n > INT_MAX ? LOST : w->n; }

/* The most bytes a rank's contribution may have to travel inside its header
 * slot (below): up to 64 KiB of slots in all, at most 4 KiB a rank, a
 * multiple of 8 so that every slot's header stays aligned. The same on
 * every rank (it depends only on the rank count). */
static size_t inline_cap(int nranks)
{
	size_t per = ((size_t)64 << 10) / (size_t)nranks;
	if (per > 4096) per = 4096;
	return per & ~(size_t)7;
}

/* Every rank's header agreed on (kind and n the same everywhere, else the
 * job ends with a message); g's per-rank arrays allocated, hdr returned
 * (the caller frees it). Each header travels in a slot of H_WORDS words and
 * *cap bytes: with `mine`, a contribution of at most *cap bytes travels
 * whole in it, the slots are left in *slots (the caller frees them, or
 * hands them to g as its buffer) and the one collective may be the whole
 * exchange; without (NULL), *cap is 0 and no slots are kept. */
static uint64_t *agree(int kind, uint64_t n, const hv_wbuf *mine, hv_gathered *g, uint8_t **slots, size_t *cap)
{
	memset(g, 0, sizeof *g);
	MPI_Comm_size(MPI_COMM_WORLD, &g->nranks);
	MPI_Comm_rank(MPI_COMM_WORLD, &g->me);
	int nr = g->nranks;
	*cap = mine ? inline_cap(nr) : 0;
	const size_t slot = H_WORDS * sizeof(uint64_t) + *cap;
	uint64_t my[H_WORDS] = {(uint64_t)kind, n, mine ? bytes_of(mine) : 0, hv_fileio_read_errors(NULL)};
	uint8_t *out = hv_malloc(slot), *all = hv_malloc((size_t)nr * slot);
	uint64_t *hdr = hv_malloc((size_t)nr * sizeof my);
	g->off = hv_calloc((size_t)nr, sizeof *g->off);
	g->len = hv_calloc((size_t)nr, sizeof *g->len);
	g->lost = hv_calloc((size_t)nr, sizeof *g->lost);
	if (!out || !all || !hdr || !g->off || !g->len || !g->lost) {
		/* Without room for the headers this rank cannot even take part. */
		no_room(g->me);
	}
	memcpy(out, my, sizeof my);
	if (my[H_BYTES] != LOST && my[H_BYTES] <= *cap && my[H_BYTES])
		memcpy(out + sizeof my, mine->p, (size_t)my[H_BYTES]);
	/* An int count: the slots are at most 64 KiB plus the headers. */
	MPI_Allgather(out, (int)slot, MPI_BYTE, all, (int)slot, MPI_BYTE, MPI_COMM_WORLD);
	free(out);
	for (int r = 0; r < nr; r++) memcpy(hdr + (size_t)r * H_WORDS, all + (size_t)r * slot, sizeof my);
	for (int r = 0; r < nr; r++)
		if (hdr[r * H_WORDS + H_KIND] != my[H_KIND] || hdr[r * H_WORDS + H_N] != my[H_N]) diverged(g->me, hdr, r);
	if (slots)
		*slots = all;
	else
		free(all);
	return hdr;
}

/* The layout of what arrives from each rank (b(r): its byte count, LOST
 * when it could not be sent) into counts and displs; what does not fit an
 * int displacement is lost. Every rank's buffer allocated, and agreed on:
 * false (everything lost, everywhere) when some rank had no room, so a
 * rank out of memory loses the bytes instead of the job. */
static bool layout(hv_gathered *g, const uint64_t *bytes, size_t stride, int *counts, int *displs, bool *mine_ok)
{
	uint64_t total = 0;
	for (int r = 0; r < g->nranks; r++) {
		uint64_t b = bytes[(size_t)r * stride];
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
	g->buf = hv_malloc(total ? (size_t)total : 1);
	int ok = g->buf != NULL, all_ok = 0;
	*mine_ok = ok;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (!all_ok)
		for (int r = 0; r < g->nranks; r++) g->lost[r] = true, g->len[r] = 0;
	return all_ok;
}

static void counts_alloc(int nr, int me, int **counts, int **displs)
{
	*counts = hv_calloc((size_t)nr, sizeof **counts);
	*displs = hv_calloc((size_t)nr, sizeof **displs);
	if (!*counts || !*displs) no_room(me);
}

bool hv_exchange(int kind, uint64_t n, const hv_wbuf *mine, hv_gathered *g)
{
	uint8_t *slots;
	size_t cap;
	uint64_t *hdr = agree(kind, n, mine, g, &slots, &cap);
	/* Every rank's bytes came inside its slot (or were lost at their
	 * sender): the slots are the gathered buffer, with nothing allocated
	 * after the collective, so no rank can run out of memory now. Most
	 * exchanges of a split run (an input's end, a small unit) are that. */
	bool all_inline = true;
	for (int r = 0; r < g->nranks; r++) {
		uint64_t b = hdr[r * H_WORDS + H_BYTES];
		if (b != LOST && b > cap) all_inline = false;
	}
	if (all_inline) {
		const size_t slot = H_WORDS * sizeof(uint64_t) + cap;
		for (int r = 0; r < g->nranks; r++) {
			uint64_t b = hdr[r * H_WORDS + H_BYTES];
			g->lost[r] = b == LOST;
			g->off[r] = (uint64_t)r * slot + H_WORDS * sizeof(uint64_t);
			g->len[r] = b == LOST ? 0 : b;
		}
		g->buf = slots;
		free(hdr);
		return true;
	}
	free(slots);
	int *counts, *displs;
	counts_alloc(g->nranks, g->me, &counts, &displs);
	/* Every rank computes the same layout from the same headers. */
	bool ok;
	if (layout(g, hdr + H_BYTES, H_WORDS, counts, displs, &ok)) {
		int send = g->lost[g->me] ? 0 : counts[g->me];
		MPI_Allgatherv(mine->p, send, MPI_BYTE, g->buf, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
	}
	free(hdr);
	free(counts);
	free(displs);
	return ok;
}

bool hv_exchange_route(int kind, uint64_t n, const hv_wbuf *to, hv_gathered *g)
{
	size_t cap;
	free(agree(kind, n, NULL, g, NULL, &cap));
	int nr = g->nranks;
	uint64_t *out = hv_malloc((size_t)nr * sizeof *out), *in = hv_malloc((size_t)nr * sizeof *in);
	int *scounts, *sdispls, *counts, *displs;
	counts_alloc(nr, g->me, &scounts, &sdispls);
	counts_alloc(nr, g->me, &counts, &displs);
	if (!out || !in) no_room(g->me);
	/* what this rank sends each rank, laid out as the receivers will see it */
	uint64_t total = 0;
	for (int r = 0; r < nr; r++) {
		out[r] = to ? bytes_of(&to[r]) : 0;
		if (out[r] != LOST && total + out[r] > INT_MAX) out[r] = LOST;
		if (out[r] == LOST) continue;
		scounts[r] = (int)out[r];
		total += out[r];
	}
	uint8_t *send = hv_malloc(total ? (size_t)total : 1);
	bool sent = send != NULL;
	if (!send)
		for (int r = 0; r < nr; r++) out[r] = LOST, scounts[r] = 0;
	for (int r = 0, at = 0; r < nr && send; r++) {
		sdispls[r] = at;
		if (scounts[r]) memcpy(send + at, to[r].p, (size_t)scounts[r]);
		at += scounts[r];
	}
	MPI_Alltoall(out, 1, MPI_UINT64_T, in, 1, MPI_UINT64_T, MPI_COMM_WORLD);
	bool ok;
	if (layout(g, in, 1, counts, displs, &ok))
		MPI_Alltoallv(send, scounts, sdispls, MPI_BYTE, g->buf, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
	free(send);
	free(out);
	free(in);
	free(scounts);
	free(sdispls);
	free(counts);
	free(displs);
	return ok && sent;
}
