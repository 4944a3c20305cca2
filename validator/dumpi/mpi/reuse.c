/* Handles used after their free, for the per-rank pass (rank.c, its
 * driver, and the fused paths, fused.c): a communicator or datatype index
 * named after MPI_Comm_free / MPI_Type_free with no recorded constructor
 * between. The first such use waits (mpi_reuse) for what follows: a recorded
 * constructor returning the index proves the use was of the freed handle (a
 * warning); a free of it again, or the end of the rank, is what an
 * unrecorded constructor's object would see (one note for the rank). The
 * communicators' state is their entry's (mpi_comm.state 2 freed, 3 used
 * after it); the datatypes' is a table of their own, below. */
#include <stdlib.h>

#include "core/alloc.h"
#include "checks.h"

/* The freed datatypes are asked about at every use of a user datatype and
 * at every constructor's result, and a program that makes and frees a type
 * per iteration under a new index each time (the generator's mix does)
 * frees thousands of them: kept in a hash map, their lookups and
 * insertions missed the caches and cost ~19% of the CPU on bench's 4-rank
 * mix (bench/RESULTS.md, "DUMPI"). DUMPI writes datatype indices in 16
 * bits, so they are kept by index (mpi_pass.types): a chunk of 256 indices
 * is 2 KiB, and a program's few indices, or one that climbs, touch one
 * chunk at a time. A wider value (none is decoded) is no index
 * (TYPE_INDICES, TYPE_CHUNK, TYPE_REUSED: internal.h, for checks.h's
 * mpi_use_type, which looks at every use). */

/* A handle used after its free (see mpi_reuse): the first use waits for
 * what follows; later uses of the same index are of that object. */
static void reuse_begin(mpi_reuse *u, uint64_t freed_rec, const dumpi_record *rec, const dumpi_args *a, int ro)
{
	u->freed_rec = freed_rec;
	u->use_rec = rec->index;
	u->use_off = mpi_arg_at(rec->fn, a, ro);
	u->use_fn = (uint16_t)rec->fn;
	u->role = (uint8_t)ro;
}

/* A used-after-free handle the trace never proved wrong: freed again or
 * still held at the end, as an unrecorded constructor's object would be. */
static void reuse_settle(mpi_rank *m, const mpi_reuse *u, uint64_t id, bool type)
{
	m->unrec |= UNREC_CTOR;
	if (m->pass->reused++ == 0)
		m->pass->reused_rec = u->use_rec, m->pass->reused_off = u->use_off, m->pass->reused_fn = u->use_fn, m->pass->reused_id = id,
		m->pass->reused_freed = u->freed_rec, m->pass->reused_type = type;
}

/* A recorded constructor returned an index still held by a use after its
 * free: no other object held it, so that use was of the freed handle. */
static void reuse_refuted(mpi_rank *m, const mpi_reuse *u, uint64_t id, const dumpi_record *ctor, bool type)
{
	hv_eval(m->r, HV_R_DUMPI_MPI_HANDLE_FREED, false);
	dumpi_record at = {.index = u->use_rec, .offset = u->use_off, .fn = u->use_fn};
	mpi_emit(m, HV_R_DUMPI_MPI_HANDLE_FREED, &at, u->use_off, 2,
		 "%s %llu was freed by record %llu%s and is used here, and record %llu (%s) creates %s %llu again with "
		 "no free of it between: no other object held the index, so this use is of the freed handle",
		 mpi_role_label(u->role), (unsigned long long)id, (unsigned long long)u->freed_rec,
		 type ? " (MPI_Type_free)" : "", (unsigned long long)ctor->index, dumpi_function_name(ctor->fn),
		 type ? "datatype" : "comm", (unsigned long long)id);
}

/* out of line: most records name predefined handles, and the callers stay small */
__attribute__((noinline)) void mpi_use_comm(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro,
						 uint64_t id)
{
	/* a communicator of small index, or the one the previous record named,
	 * most often (mpi_comm_of's answers: the entries themselves); not
	 * entered when it is new */
	mpi_pass *p = m->pass;
	mpi_comm *c = id < COMM_NEAR && p->comm_near[id]            ? p->comm_near[id]
		      : p->comm_last && p->comm_last_id == id ? p->comm_last
							      : mpi_map_get(&p->comms, id);
	hv_eval(m->r, HV_R_DUMPI_MPI_HANDLE_FREED, true);
	if (!c || c->state != 2) return;
	/* from here on an object of unknown origin: not matched, not compared */
	c->state = 3;
	c->size = -1;
	c->inst = INST_NONE;
	reuse_begin(&c->reuse, c->freed_rec, rec, a, ro);
}

/* type_slot's chunk (and the table of chunks) made, out of line: a
 * program's few chunks are made once. */
__attribute__((noinline)) static uint64_t *type_slot_make(mpi_pass *p, uint64_t id)
{
	if (!p->types && !(p->types = hv_calloc(TYPE_INDICES / TYPE_CHUNK, sizeof *p->types))) return NULL;
	uint64_t **c = &p->types[id / TYPE_CHUNK];
	if (!*c && !(*c = hv_calloc(TYPE_CHUNK, sizeof **c))) return NULL;
	return &(*c)[id % TYPE_CHUNK];
}

/* The entry of datatype index id, made (zeroed) when `make`; NULL when it
 * was never written (not freed) or out of memory. */
static inline uint64_t *type_slot(mpi_pass *p, uint64_t id, bool make)
{
	if (id >= TYPE_INDICES) return NULL;
	uint64_t *c = p->types ? p->types[id / TYPE_CHUNK] : NULL;
	if (c) return &c[id % TYPE_CHUNK];
	return make ? type_slot_make(p, id) : NULL;
}

void mpi_use_type_freed(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro, uint64_t id)
{
	uint64_t *t = type_slot(m->pass, id, false);
	if (!t || !*t || (*t & TYPE_REUSED)) return;
	mpi_reuse *u = mpi_map_put(&m->pass->type_reuse, id, NULL);
	if (!u) return;
	*t |= TYPE_REUSED;
	reuse_begin(u, *t - TYPE_REUSED - 1, rec, a, ro);
}

/* The use after its free that datatype slot t (of index id) holds, if
 * any: copied to *out and taken out of the map (the caller rewrites the
 * slot, which clears TYPE_REUSED). */
static bool type_reuse_take(mpi_pass *p, const uint64_t *t, uint64_t id, mpi_reuse *out)
{
	if (!t || !(*t & TYPE_REUSED)) return false;
	mpi_reuse *u = mpi_map_get(&p->type_reuse, id);
	if (u) *out = *u;
	mpi_map_del(&p->type_reuse, id);
	return u != NULL;
}

/* A constructor's result: a datatype index live again, as a new object;
 * a use after its free still waiting is refuted. The slot is not made:
 * an index never freed has nothing to clear. */
void mpi_type_made(mpi_rank *m, uint64_t id, const dumpi_record *rec)
{
	uint64_t *t = type_slot(m->pass, id, false);
	mpi_reuse u;
	if (type_reuse_take(m->pass, t, id, &u)) reuse_refuted(m, &u, id, rec, true);
	if (t) *t = 0;
}

/* MPI_Type_free of a user datatype: a use after an earlier free still
 * waiting is settled (freed again, as an unrecorded constructor's object
 * would be), and the index is freed by this record. */
void mpi_type_freed(mpi_rank *m, uint64_t id, const dumpi_record *rec)
{
	uint64_t *t = type_slot(m->pass, id, true);
	mpi_reuse u;
	if (type_reuse_take(m->pass, t, id, &u)) reuse_settle(m, &u, id, true);
	if (t) *t = rec->index + 1;
}

/* The communicator counterparts: entry c of index id made by a
 * constructor (the caller then makes it live), or freed. */
void mpi_comm_made(mpi_rank *m, mpi_comm *c, uint64_t id, const dumpi_record *rec)
{
	if (c->state == 3) reuse_refuted(m, &c->reuse, id, rec, false);
}

void mpi_comm_freed(mpi_rank *m, mpi_comm *c, uint64_t id, const dumpi_record *rec)
{
	if (c->state == 3) reuse_settle(m, &c->reuse, id, false);
	c->state = 2;
	c->freed_rec = rec->index;
}

void mpi_reuse_init(mpi_pass *p) { mpi_map_init(&p->type_reuse, sizeof(mpi_reuse)); }

void mpi_reuse_free(mpi_pass *p)
{
	for (unsigned c = 0; p->types && c < TYPE_INDICES / TYPE_CHUNK; c++) free(p->types[c]);
	free(p->types);
	p->types = NULL;
	mpi_map_free(&p->type_reuse);
}

/* The handles a record uses: a use after the free (see mpi_reuse) makes the
 * communicator one of unknown origin before its collectives and messages
 * are counted. */
void mpi_uses(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	/* the function's communicator inputs, then its datatype inputs (not
	 * MPI_Comm_get_parent's comm nor MPI_Type_match_size's datatype:
	 * outputs; compute_roles leaves them out); only a user handle (most
	 * records name predefined ones) is looked up */
	const uint8_t *ix = mpi_role_ix[rec->fn];
	for (const uint8_t *ro = mpi_use_roles[rec->fn]; *ro != RO_COUNT_ROLES; ro++) {
		unsigned i = ix[*ro];
		if (!a->f[i].present) continue;
		uint64_t id = a->f[i].v;
		if (*ro == RO_COMM || *ro == RO_OLDCOMM) {
			if (id >= MPI_D_FIRST_USER_COMM) mpi_use_comm(m, rec, a, *ro, id);
		} else if (id >= MPI_D_FIRST_USER_DATATYPE) {
			mpi_use_type(m, rec, a, *ro, id);
		}
	}
}

/* The end of the rank: handles still held after a use past their free. */
static void settle_reuses(mpi_rank *m)
{
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&m->pass->comms, &it, &key, &val)) {
		mpi_comm *c = val;
		if (c->state == 3) reuse_settle(m, &c->reuse, key, false), c->state = 1;
	}
	/* the datatypes in index order: the note names the lowest. A waiting
	 * use is an entry of type_reuse (mpi_use_type_freed), so with none the
	 * table, which holds every freed index, is not walked. */
	mpi_pass *p = m->pass;
	if (!p->type_reuse.len) return;
	for (uint64_t c = 0; p->types && c < TYPE_INDICES / TYPE_CHUNK; c++) {
		for (uint64_t i = 0; p->types[c] && i < TYPE_CHUNK; i++) {
			uint64_t id = c * TYPE_CHUNK + i, *t = &p->types[c][i];
			mpi_reuse *u = *t & TYPE_REUSED ? mpi_map_get(&p->type_reuse, id) : NULL;
			if (u) reuse_settle(m, u, id, true), *t &= ~TYPE_REUSED;
		}
	}
}

/* The end of a complete rank: the handles still held after a use past
 * their free, settled, and those that nothing proved wrong in one note
 * (a warning with the replay option), at the first such use. */
void mpi_report_reused(mpi_rank *m)
{
	settle_reuses(m);
	if (!m->pass->reused) return;
	dumpi_record u = {.index = m->pass->reused_rec, .offset = m->pass->reused_off, .fn = m->pass->reused_fn};
	hv_eval(m->r, HV_R_DUMPI_MPI_HANDLE_FREED, false);
	mpi_emit_rank_sev(m, HV_R_DUMPI_MPI_HANDLE_FREED, mpi_unrec_sev(m->replay), &u, m->pass->reused_off, 2,
			  "%s %llu, freed by record %llu, is used again with no recorded constructor (%llu such "
			  "handle(s)): an unrecorded MPI-3 constructor (MPI_Comm_split_type, MPI_Comm_create_group, "
			  "MPI_Comm_idup, MPI_Dist_graph_create_adjacent, ...) got the freed handle; a replay cannot "
			  "create it",
			  m->pass->reused_type ? "datatype" : "comm", (unsigned long long)m->pass->reused_id,
			  (unsigned long long)m->pass->reused_freed, (unsigned long long)m->pass->reused);
}
