/* What pass.c gives the MPI consistency layer's files: the argument roles
 * and the lookups of a record's arguments, a rank's diagnostics and the
 * name it goes by, its communicator indices, counted arrays read from the
 * record, the messages read from a send or receive, and the hash that
 * keys the layer's maps. The layer's types are internal.h's, which names
 * nothing of pass.c: the per-rank parts (rank.c, messages.c, colls.c,
 * requests.c, chans.c) and the cross-rank ones include this header. */
#ifndef HV_DUMPI_MPI_PASS_H
#define HV_DUMPI_MPI_PASS_H

#include "internal.h"

mpi_rank_name mpi_rank_label(const mpi_rank *m);

uint64_t mpi_hash(uint64_t a, uint64_t b, uint64_t c, uint64_t d);
/* A pseudo-random odd weight for comm rank k (the v-variants' third sums). */
static inline uint64_t mpi_weight(uint64_t k) { return mpi_hash(k, 0x77e1947u, 0, 0) | 1u; }

/* Argument roles: the field index of each role in each function's layout
 * (-1: none), found by field name once (pass.c). */
extern int8_t mpi_roles[DUMPI_NFUNCS][RO_COUNT_ROLES];
/* The same as an index into dumpi_args.f, DUMPI_MAX_FIELDS (the slot that
 * is never present) for none: what mpi_arg reads. */
extern uint8_t mpi_role_ix[DUMPI_NFUNCS][RO_COUNT_ROLES];
/* Fill mpi_roles (once; thread-safe). mpi_rank_new calls it; other readers
 * of the roles (the fuzzer's semantic mutator) call it first. */
void mpi_roles_init(void);
/* The value of role `ro` in record `fn`: false when the function has no
 * such argument or it is absent (root-only). */
static inline bool mpi_arg(unsigned fn, const dumpi_args *a, int ro, uint64_t *v)
{
	/* a record's args hold its function's fields, so an index below
	 * DUMPI_MAX_FIELDS is below a->n */
	unsigned i = mpi_role_ix[fn][ro];
	if (!a->f[i].present) return false;
	*v = a->f[i].v;
	return true;
}
/* Where role `ro`'s value lies in the file (0: nowhere). */
static inline uint64_t mpi_arg_at(unsigned fn, const dumpi_args *a, int ro)
{
	return dumpi_arg_at(a, fn, mpi_role_ix[fn][ro]);
}
const char *mpi_role_label(int ro);

/* A diagnostic about record `rec` of this rank (at `off`, or the record's
 * offset when 0), prefixed with the rank, record and function. */
void mpi_emit(mpi_rank *m, int rule, const dumpi_record *rec, uint64_t off, uint64_t len, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The same at severity `sev` (a finding unrecorded calls may explain). */
void mpi_emit_rank_sev(mpi_rank *m, int rule, enum hv_sev sev, const dumpi_record *rec, uint64_t off, uint64_t len,
		       const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* `len` bytes of the file at `at`: from the record in memory when they lie
 * in it, else through the pass's window (NULL when unreadable). */
static inline const uint8_t *mpi_bytes(mpi_rank *m, uint64_t at, size_t len)
{
	mpi_pass *p = m->pass;
	if (p->bytes && at >= p->bytes_at && at - p->bytes_at <= p->bytes_len && len <= p->bytes_len - (at - p->bytes_at))
		return p->bytes + (at - p->bytes_at);
	return p->win_ok ? hv_window_get(&p->win, at, len) : NULL;
}
/* The record's bytes for the paths that read statuses or arrays from them
 * (mpi_bytes); the others never look. */
static inline void mpi_take_bytes(mpi_rank *m, const dumpi_args *a)
{
	m->pass->bytes = a->bytes, m->pass->bytes_at = a->bytes_at, m->pass->bytes_len = a->bytes_len;
}
/* `len` bytes at `at` when the record in memory holds them, else NULL. */
static inline const uint8_t *mpi_in_record(const mpi_rank *m, uint64_t at, uint64_t len)
{
	const mpi_pass *p = m->pass;
	return p->bytes && at >= p->bytes_at && at - p->bytes_at <= p->bytes_len && len <= p->bytes_len - (at - p->bytes_at)
		       ? p->bytes + (at - p->bytes_at)
		       : NULL;
}
/* Element i of a counted u32 array whose count is at `at`. */
bool mpi_arr_u32(mpi_rank *m, uint64_t at, uint64_t i, uint32_t *v);
/* Communicator index `id` of this rank, entered on first use. */
mpi_comm *mpi_comm_find(mpi_rank *m, uint64_t id);
static inline mpi_comm *mpi_comm_of(mpi_rank *m, uint64_t id)
{
	/* most records name a communicator of small index, or the one the
	 * previous record named (see mpi_comm_find) */
	mpi_pass *p = m->pass;
	if (id < COMM_NEAR && p->comm_near[id]) return p->comm_near[id];
	return p->comm_last && p->comm_last_id == id ? p->comm_last : mpi_comm_find(m, id);
}
static inline mpi_inst *mpi_inst_of(mpi_rank *m, uint32_t i) { return i < m->ninst ? &m->inst[i] : NULL; }

/* A communicator's instance, and the message of a send or receive, from its
 * count, peer, tag and datatype roles. */
static inline uint32_t mpi_inst_of_comm(mpi_rank *m, uint64_t comm)
{
	mpi_comm *c = mpi_comm_of(m, comm);
	return c ? c->inst : INST_NONE;
}
/* The message of a send or receive, from its count, peer, tag and datatype roles. */
static inline mpi_msg mpi_msg_from(mpi_rank *m, unsigned fn, const dumpi_args *a, bool recv, int cro, int pro, int gro,
				   int dro)
{
	/* mpi_arg's lookups, with the function's row of roles found once */
	const uint8_t *ix = mpi_role_ix[fn];
	mpi_msg g = {.p2p = true, .recv = recv};
	unsigned i = ix[RO_COMM];
	g.inst = a->f[i].present ? mpi_inst_of_comm(m, a->f[i].v) : INST_NONE;
	i = ix[cro];
	g.count = a->f[i].present ? (int32_t)(uint32_t)a->f[i].v : 0;
	i = ix[dro];
	g.dtype = a->f[i].present ? (uint16_t)a->f[i].v : 0;
	i = ix[pro];
	g.peer = a->f[i].present ? (int32_t)(uint32_t)a->f[i].v : -2;
	i = ix[gro];
	g.tag = a->f[i].present ? (int32_t)(uint32_t)a->f[i].v : 0;
	return g;
}

#endif
