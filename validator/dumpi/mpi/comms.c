/* The cross-rank stage, step 1 (match.c runs the stage): communicators
 * rebuilt from every rank's instances. Instances are paired by (parent,
 * which creating call on it, split colour); members are ordered as MPI
 * orders them (MPI_Comm_dup: as the parent; MPI_Comm_split: by key, then
 * parent rank; a topology with reorder = 0: the parent's first ranks;
 * others by the ranks' own MPI_Comm_rank records), so that a rank a
 * communicator names maps to a world rank. No recursion: parents always
 * have lower ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "pass.h"

static uint32_t gcomm_new(trace_ctx *t)
{
	/* ids are uint32_t below GID_NONE (a rank's instances are at most
	 * MPI_MAX_INST, but ranks x that can pass 2^32): past them no verdict */
	size_t cap = t->gcap;
	if (!HV_GROW_UPTO(t->g, cap, (size_t)t->ng + 1, 8, GID_NONE)) {
		if (t->ng >= GID_NONE) hv_alloc_fault(SIZE_MAX);
		return GID_NONE;
	}
	t->gcap = (uint32_t)cap;
	memset(&t->g[t->ng], 0, sizeof t->g[t->ng]);
	return t->ng++;
}

static bool add_member(gcomm *g, gmember mb)
{
	size_t cap = g->cap; /* a uint32_t: at most UINT32_MAX members, past them no verdict */
	if (!HV_GROW_UPTO(g->mem, cap, (size_t)g->n + 1, 4, UINT32_MAX)) {
		if (g->n == UINT32_MAX) hv_alloc_fault(SIZE_MAX);
		return false;
	}
	g->cap = (uint32_t)cap;
	g->mem[g->n++] = mb;
	return true;
}

static int by_pidx(const void *a, const void *b)
{
	const gmember *x = a, *y = b;
	return (x->pidx > y->pidx) - (x->pidx < y->pidx);
}

static int by_key(const void *a, const void *b)
{
	const gmember *x = a, *y = b;
	if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
	return by_pidx(a, b);
}

static int by_myrank(const void *a, const void *b)
{
	const gmember *x = a, *y = b;
	return (x->myrank > y->myrank) - (x->myrank < y->myrank);
}

bool mpi_pair_instances(trace_ctx *t)
{
	mpi_map keys;
	mpi_map_init(&keys, sizeof(uint32_t));
	uint32_t w0 = gcomm_new(t);
	if (w0 != 0) goto fail;
	t->g[0].ok = true;
	t->g[0].fn = 0;
	for (uint32_t w = 0; w < t->n; w++)
		if (!add_member(&t->g[0], (gmember){.world = w, .inst = INST_WORLD, .pidx = w, .myrank = w})) goto fail;
	for (uint32_t w = 0; w < t->n; w++) {
		mpi_rank *m = t->by[w];
		uint32_t *ig = t->ig[w] = hv_calloc(m->ninst ? m->ninst : 1, sizeof *ig);
		if (!ig) goto fail;
		ig[INST_WORLD] = 0;
		if (m->ninst > INST_SELF) ig[INST_SELF] = GID_SELF;
		for (uint32_t i = 2; i < m->ninst; i++) {
			mpi_inst *x = &m->inst[i];
			uint32_t pg = x->parent != INST_NONE && x->parent < i ? ig[x->parent] : GID_NONE;
			ig[i] = GID_NONE;
			if (pg == GID_SELF) { /* made from MPI_COMM_SELF: this rank alone */
				ig[i] = x->null ? GID_NONE : GID_SELF;
				continue;
			}
			if (pg == GID_NONE) {
				if (x->null) continue;
				/* from a call DUMPI cannot pair across ranks (or a private parent) */
				uint32_t g = gcomm_new(t);
				if (g == GID_NONE) goto fail;
				t->g[g].fn = x->fn;
				t->g[g].parent = pg;
				t->g[g].first_world = w;
				t->g[g].first_inst = i;
				ig[i] = g;
				add_member(&t->g[g], (gmember){.world = w, .inst = i, .key = x->key, .myrank = x->myrank});
				continue;
			}
			if (x->null || (x->fn == 86 && x->color < 0)) continue; /* MPI_COMM_NULL: not a member */
			uint64_t k = mpi_hash(pg, x->seq, x->fn == 86 ? (uint32_t)x->color : 0, 0x5eedu);
			bool fresh;
			uint32_t *gp = mpi_map_put(&keys, k, &fresh);
			if (!gp) goto fail;
			if (fresh) {
				uint32_t g = gcomm_new(t);
				if (g == GID_NONE) goto fail;
				*gp = g;
				t->g[g].parent = pg;
				t->g[g].seq = x->seq;
				t->g[g].fn = x->fn;
				t->g[g].color = x->color;
				t->g[g].ok = true;
				t->g[g].first_world = w;
				t->g[g].first_inst = i;
			}
			gcomm *g = &t->g[*gp];
			if (g->fn != x->fn) g->ok = false; /* ranks disagree on the call: a collective mismatch on the parent */
			ig[i] = *gp;
			if (!add_member(g, (gmember){.world = w, .inst = i, .key = x->key, .myrank = x->myrank})) goto fail;
		}
	}
	mpi_map_free(&keys);
	/* order members, parents first (a parent's id is always lower) */
	int64_t *pos = hv_malloc((t->n ? t->n : 1) * sizeof *pos);
	if (!pos) return false;
	for (uint32_t gi = 1; gi < t->ng; gi++) {
		gcomm *g = &t->g[gi];
		if (g->parent == GID_NONE || g->parent == GID_SELF || !t->g[g->parent].ok) {
			g->ok = false;
		}
		if (g->ok) {
			gcomm *p = &t->g[g->parent];
			for (uint32_t w = 0; w < t->n; w++) pos[w] = -1;
			for (uint32_t k = 0; k < p->n; k++) pos[p->mem[k].world] = k;
			for (uint32_t k = 0; k < g->n; k++) {
				g->mem[k].pidx = pos[g->mem[k].world];
				if (g->mem[k].pidx < 0) g->ok = false; /* a member not in the parent */
			}
		}
		bool all_myrank = true;
		for (uint32_t k = 0; k < g->n; k++) all_myrank &= g->mem[k].myrank >= 0;
		/* a topology made with reorder = 0 keeps the parent's order: its
		 * members are the parent's first ranks (the others get
		 * MPI_COMM_NULL), as MPI_Cart_create(reorder=0) does */
		bool keep_order = g->fn == 99 || g->fn == 101;
		for (uint32_t k = 0; k < g->n && keep_order; k++) keep_order = t->by[g->mem[k].world]->inst[g->mem[k].inst].key == 0;
		if (g->ok && keep_order) {
			qsort(g->mem, g->n, sizeof *g->mem, by_pidx);
			for (uint32_t k = 0; k < g->n; k++)
				if (g->mem[k].pidx != (int64_t)k) g->ok = false;
		} else if (g->ok && g->fn == 84) qsort(g->mem, g->n, sizeof *g->mem, by_pidx);
		else if (g->ok && g->fn == 86) qsort(g->mem, g->n, sizeof *g->mem, by_key);
		else if (all_myrank) qsort(g->mem, g->n, sizeof *g->mem, by_myrank), g->ok = true;
		else g->ok = false;
		/* the ranks' own MPI_Comm_rank records must agree with the order */
		for (uint32_t k = 0; k < g->n && g->ok; k++)
			if (g->mem[k].myrank >= 0 && g->mem[k].myrank != (int64_t)k) g->ok = false;
		/* a membership that covers only some ranks of a private origin is not checkable either */
		if (!g->ok && mpi_room(t, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED)) {
			mpi_rank *m = t->by[g->first_world];
			mpi_inst *x = &m->inst[g->first_inst];
			char path[48], cn[96];
			hv_eval(t->r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, false);
			hv_emit(t->r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, m->file, x->off, 0,
				dumpi_record_path(path, sizeof path, x->rec),
				"rank %ld record %llu (%s): %s cannot be reconstructed (%s); its point-to-point messages "
				"are not matched and ranks in it are not range-checked",
				m->rank, (unsigned long long)x->rec, dumpi_function_name(x->fn),
				mpi_comm_name(cn, sizeof cn, m, g->first_inst),
				g->parent == GID_NONE ? "the trace does not say which ranks share it"
					: "the members' order is not recorded (no MPI_Comm_rank on it by every member)");
		} else if (g->ok) {
			hv_eval(t->r, HV_R_DUMPI_MPI_COMM_UNRECONSTRUCTED, true);
		}
	}
	free(pos);
	return true;
fail: /* out of memory (core/alloc.h): the input is an internal error */
	mpi_map_free(&keys);
	return false;
}
