/* The program's patterns shaped like real codes (program.h: --pattern=stencil3d
 * and --pattern=lammps): a 3-D stencil's halo exchange and a LAMMPS run's
 * timestep, over the ranks as a balanced 3-D grid, built from program.c's
 * record builders. */
#include "program.h"

/* The ranks as a px x py x pz grid, as MPI_Dims_create balances it: each
 * prime factor of n, largest first, goes to the smallest dimension so far. */
static void dims_of(unsigned n, unsigned d[3])
{
	d[0] = d[1] = d[2] = 1;
	unsigned f[32], nf = 0;
	for (unsigned p = 2; n > 1 && nf < 32; p++) {
		if ((unsigned long long)p * p > n) p = n; /* n is prime now */
		while (n % p == 0 && nf < 32) f[nf++] = p, n /= p;
	}
	for (unsigned i = nf; i-- > 0;) {
		unsigned k = d[1] < d[0] ? 1 : 0;
		if (d[2] < d[k]) k = 2;
		d[k] *= f[i];
	}
	/* x fastest and longest, as the rows the program splits off */
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2 - i; j++)
			if (d[j] < d[j + 1]) { unsigned t = d[j]; d[j] = d[j + 1]; d[j + 1] = t; }
}

void gen_mpi_stencil3d(gen_mpi *g)
{
	g->stencil = true;
	dims_of(g->n, g->dims);
	g->at[0] = g->rank % g->dims[0];
	g->at[1] = g->rank / g->dims[0] % g->dims[1];
	g->at[2] = g->rank / g->dims[0] / g->dims[1];
	/* 8 records of set-up and end, 22 per iteration */
	g->phases = g->records >= 30 ? (g->records - 8) / 22 : 1;
}

/* The neighbour in direction d (0 +x, 1 -x, 2 +y, ...), periodic. */
static int neighbour(const gen_mpi *g, unsigned d)
{
	unsigned c[3] = {g->at[0], g->at[1], g->at[2]}, a = d / 2, n = g->dims[a];
	c[a] = d % 2 ? (c[a] + n - 1) % n : (c[a] + 1) % n;
	return (int)(c[0] + g->dims[0] * (c[1] + g->dims[1] * c[2]));
}

/* One iteration: the halo exchange (each face of a 16 x 12 x 8 block
 * received from the neighbour behind it with the direction's tag, sent to
 * the one ahead; requests recycled every iteration, as MPI libraries
 * recycle their handles), MPI_Alltoall on the row, MPI_Allreduce of one
 * value on world and one step of a ring. The row communicator is made
 * before the first iteration and freed after the last. */
void gen_mpi_stencil_phase(gen_mpi *g)
{
	static const int face[3] = {12 * 8, 16 * 8, 16 * 12};
	if (g->phase == 0) {
		unsigned color = g->at[1] + g->dims[1] * g->at[2];
		g->row_comm = (int)g->next_comm++;
		REC(g, 86, {"oldcomm", WORLD}, {"color", color}, {"key", g->at[0]}, {"newcomm", g->row_comm});
		REC(g, 81, {"comm", g->row_comm}, {"size", g->dims[0]});
		REC(g, 82, {"comm", g->row_comm}, {"rank", g->at[0]});
	}
	int32_t sends[6];
	for (unsigned d = 0; d < 6; d++) {
		gm_set(gm_p2p(g, 12, face[d / 2], neighbour(g, d ^ 1), 200 + (int)d, WORLD, false), "request", FIRST_REQ + (int)d);
		sends[d] = FIRST_REQ + 6 + (int)d;
	}
	for (unsigned d = 0; d < 6; d++)
		gm_set(gm_p2p(g, 8, face[d / 2], neighbour(g, d), 200 + (int)d, WORLD, true), "request", sends[d]);
	for (unsigned d = 0; d < 6; d++)
		gm_wait_req(g, FIRST_REQ + (int)d, neighbour(g, d ^ 1), 200 + (int)d, 4 * face[d / 2]);
	gm_rec *r = REC(g, 18, {"count", 6});
	gm_set_arr(r, "requests", sends, 6);
	gm_set_status(r, "statuses", (int32_t[12]){0}, 6, 0);
	REC(g, 60, {"sendcount", 4}, {"sendtype", T_INT}, {"recvcount", 4}, {"recvtype", T_INT}, {"comm", g->row_comm});
	REC(g, 65, {"count", 1}, {"datatype", T_INT}, {"op", 0}, {"comm", WORLD});
	gm_sendrecv(g, 300, 2);
	if (g->phase + 1 == g->phases) REC(g, 87, {"comm", g->row_comm});
}

/* ---- --pattern=lammps ---- */

/* DUMPI's datatype indices (its table of named types) that LAMMPS uses. */
enum { T_CHAR = 2, T_DOUBLE = 14, T_LONG_LONG = 18 };

void gen_mpi_lammps(gen_mpi *g)
{
	gen_mpi_stencil3d(g); /* the same processor grid */
	g->stencil = false;
	g->lammps = true;
	/* 8 records of set-up and end; a step is 3 records per active swap
	 * (up to 6) and 4 more, a tenth of the steps 2 more */
	unsigned swaps = 0;
	for (unsigned d = 0; d < 6; d++) swaps += g->dims[d / 2] > 1;
	unsigned per = 3 * swaps + 4;
	g->phases = g->records >= 8 + per ? (g->records - 8) / per : 1;
}

/* Atoms a rank sends in swap d of step `step`: a few thousand doubles that
 * drift from step to step as atoms move, the same on both ends. */
static int lammps_atoms(unsigned step, unsigned d, int sender)
{
	uint32_t h = (uint32_t)step * 2654435761u ^ (uint32_t)(d + 1) * 40503u ^ (uint32_t)sender * 2246822519u;
	h ^= h >> 15;
	h *= 2246822507u;
	h ^= h >> 13;
	return 3 * (1400 + (int)(d / 2) * 300 + (int)(h % 200)); /* x, y, z of each atom */
}

/* One timestep of a LAMMPS run as libdumpi records it under Open MPI or
 * MPICH: the forward communication of ghost atoms, one swap per face of
 * the rank's box whose dimension has more than one rank (MPI_Irecv from
 * the neighbour behind, MPI_Send to the one ahead, MPI_Wait; one request
 * handle recycled for every swap, statuses ignored), MPI_Wtime calls of
 * the timers, the thermo MPI_Allreduce, and every tenth step the two
 * MPI_Bcast of a settings change from rank 0. */
void gen_mpi_lammps_phase(gen_mpi *g)
{
	static const int32_t none[2] = {0, 0};
	unsigned step = g->phase;
	for (unsigned d = 0; d < 6; d++) {
		if (g->dims[d / 2] < 2) continue;
		int from = neighbour(g, d ^ 1), to = neighbour(g, d);
		gm_set(REC(g, 12, {"count", lammps_atoms(step, d, from)}, {"datatype", T_DOUBLE}, {"source", from}, {"tag", 0},
			{"comm", WORLD}),
		    "request", FIRST_REQ);
		REC(g, 0, {"count", lammps_atoms(step, d, (int)g->rank)}, {"datatype", T_DOUBLE}, {"dest", to}, {"tag", 0},
		    {"comm", WORLD});
		gm_set_status(REC(g, 13, {"request", FIRST_REQ}), "status", none, 0, 0);
	}
	gm_push(g, 122);
	gm_push(g, 122);
	gm_push(g, 122);
	REC(g, 65, {"count", 1}, {"datatype", T_LONG_LONG}, {"op", 3}, {"comm", WORLD});
	if (step % 10 == 9) {
		REC(g, 53, {"count", 1}, {"datatype", T_INT}, {"root", 0}, {"comm", WORLD});
		REC(g, 53, {"count", 24 + (int)(step / 10 % 8)}, {"datatype", T_CHAR}, {"root", 0}, {"comm", WORLD});
	}
}

