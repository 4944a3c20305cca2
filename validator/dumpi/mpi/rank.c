/* The per-rank pass of the MPI consistency layer, fed one decoded record at
 * a time by the stream walk (stream.c): the driver of the pass. It owns
 * the rank's life cycle, the argument roles and each function's plan, and
 * checks argument validity (counts, ranks, tags) and communicator and
 * datatype handles with the communicator instances the cross-rank stage
 * pairs; it calls the pass's other parts for the rest of a record:
 * messages.c (blocking messages), colls.c (collective digests), requests.c
 * (request life cycles), reuse.c (handles used after their free). The
 * parts never call one another nor this file: what they share
 * (diagnostics, communicator lookup, arrays, channel tallies) is pass.c's
 * (declared in pass.h) and chans.c's (internal.h).
 * The common records go to the fused paths (fused.c), which make their
 * plan's checks in one step each, with the argument checks and plans this
 * file shares with them (checks.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "checks.h"
#include "collenter.h"
#include "hot.h"
#include "typeslot.h"

/* Function classes (dumpi/common/funclabels.h ids). */
static bool is_send(unsigned fn) { return fn == 0 || (fn >= 3 && fn <= 5) || (fn >= 8 && fn <= 11) || (fn >= 26 && fn <= 29); }
static bool is_recv(unsigned fn) { return fn == 1 || fn == 12 || fn == 30 || fn == 22 || fn == 23; }
static bool is_sendrecv(unsigned fn) { return fn == 33 || fn == 34; }
/* Outputs named like a count (MPI_UNDEFINED is legal there). */
static bool count_is_output(unsigned fn) { return fn == 2 || fn == 48 || fn == 175; }

/* ---- each function's plan, from its roles, computed once ---- */

static pthread_once_t plans_once = PTHREAD_ONCE_INIT;


uint8_t mpi_plans[DUMPI_NFUNCS];
static uint8_t fused[DUMPI_NFUNCS];
/* Each function's path (compute_plans): what a record of it is handed to
 * (mpi_rank_layer, mpi_rank_record). */
static dumpi_layer_path *paths[DUMPI_NFUNCS];
static void generic(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
static dumpi_layer_path *type_path(unsigned fn);
static void path_finalize(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
/* A function none of whose arguments feed a check. */
static void path_nothing(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a) { (void)m, (void)rec, (void)a; }

uint8_t mpi_count_roles[DUMPI_NFUNCS][4], mpi_use_roles[DUMPI_NFUNCS][7];

static void compute_plans(void)
{
	mpi_roles_init();
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) {
		const int8_t *ro = mpi_roles[fn];
		static const uint8_t counts[] = {RO_COUNT, RO_SENDCOUNT, RO_RECVCOUNT};
		static const uint8_t handles[] = {RO_COMM, RO_OLDCOMM, RO_DATATYPE, RO_SENDTYPE, RO_RECVTYPE, RO_OLDTYPE};
		unsigned nc = 0, nu = 0;
		for (unsigned k = 0; k < sizeof counts; k++)
			if (ro[counts[k]] >= 0) mpi_count_roles[fn][nc++] = counts[k];
		for (unsigned k = 0; k < sizeof handles; k++)
			if (ro[handles[k]] >= 0 && (k >= 2 ? fn != 186 : fn != 134)) mpi_use_roles[fn][nu++] = handles[k];
		mpi_count_roles[fn][nc] = RO_COUNT_ROLES;
		mpi_use_roles[fn][nu] = RO_COUNT_ROLES;
		uint8_t p = 0;
		if (!count_is_output(fn) && (ro[RO_COUNT] >= 0 || ro[RO_SENDCOUNT] >= 0 || ro[RO_RECVCOUNT] >= 0))
			p |= PLAN_COUNTS;
		if ((fn != 134 && (ro[RO_COMM] >= 0 || ro[RO_OLDCOMM] >= 0)) ||
		    (fn != 186 && (ro[RO_DATATYPE] >= 0 || ro[RO_SENDTYPE] >= 0 || ro[RO_RECVTYPE] >= 0 || ro[RO_OLDTYPE] >= 0)))
			p |= PLAN_USES;
		if (ro[RO_NEWCOMM] >= 0 || ro[RO_NEWTYPE] >= 0 || fn == 133 || fn == 134 || fn == 186 || fn == 87 ||
		    fn == 132 || fn == 47 || fn == 81 || fn == 82)
			p |= PLAN_HANDLES;
		if (ro[RO_COMM] >= 0 || ro[RO_OLDCOMM] >= 0) p |= PLAN_RANKS;
		if (mpi_is_coll(fn)) p |= PLAN_COLL;
		if (mpi_messages_of(fn)) p |= PLAN_MSG;
		if (mpi_requests_of(fn)) p |= PLAN_REQ;
		if (fn == 1 || fn == 22 || fn == 23 || fn == 33 || fn == 34 || fn == 2 || fn == 48) p |= PLAN_STATUS;
		mpi_plans[fn] = p;
	}
	/* which functions have their fields at libdumpi's places (fused.c),
	 * for the paths below that read them there */
	mpi_places_compute();
	/* the fused paths make the checks the plan makes, reading the fields
	 * at libdumpi's places: taken when the layout has them there, with
	 * the plan the path is written for (mpi_at_places) */
	static const struct { uint8_t fn, kind; } common[] = {
		{0, FUSED_SEND}, {3, FUSED_SEND}, {4, FUSED_SEND}, {5, FUSED_SEND}, {1, FUSED_RECV},
		{8, FUSED_ISEND}, {9, FUSED_ISEND}, {10, FUSED_ISEND}, {11, FUSED_ISEND}, {12, FUSED_IRECV},
		/* the persistent inits (MPI_Send_init and its modes, MPI_Recv_init):
		 * the same steps, their request created idle (mpi_request_created) */
		{26, FUSED_ISEND}, {27, FUSED_ISEND}, {28, FUSED_ISEND}, {29, FUSED_ISEND}, {30, FUSED_IRECV},
	};
	for (unsigned k = 0; k < sizeof common / sizeof common[0]; k++)
		if (mpi_at_places[common[k].fn]) fused[common[k].fn] = common[k].kind;
	if (mpi_at_places[13]) fused[13] = FUSED_WAIT;
	/* MPI_Waitall and MPI_Testall: their count checked, then their array of requests */
	for (unsigned fn = 18; fn <= 19; fn++)
		if ((mpi_plans[fn] & ~PLAN_COUNTS) == PLAN_REQ && mpi_roles[fn][RO_REQUESTS] >= 0 &&
		    mpi_count_roles[fn][0] == RO_COUNT && mpi_count_roles[fn][1] == RO_COUNT_ROLES)
			fused[fn] = FUSED_WAITALL;
	/* MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome alike */
	static const uint8_t some[] = {16, 17, 20, 21};
	for (unsigned k = 0; k < sizeof some; k++) {
		unsigned fn = some[k];
		if ((mpi_plans[fn] & ~PLAN_COUNTS) == PLAN_REQ && mpi_roles[fn][RO_REQUESTS] >= 0 &&
		    (!(mpi_plans[fn] & PLAN_COUNTS) ||
		     (mpi_count_roles[fn][0] == RO_COUNT && mpi_count_roles[fn][1] == RO_COUNT_ROLES)))
			fused[fn] = FUSED_SOME;
	}
	/* the common collectives (MPI_Barrier, MPI_Bcast, MPI_Gather,
	 * MPI_Scatter, MPI_Allgather, MPI_Alltoall, MPI_Reduce, MPI_Allreduce,
	 * MPI_Scan, MPI_Exscan): their communicator found once, the checks of
	 * their plan in its order (root-only fields read where present) */
	static const uint8_t colls[] = {52, 53, 54, 56, 58, 60, 62, 65, 67, 156};
	for (unsigned k = 0; k < sizeof colls; k++) {
		unsigned fn = colls[k];
		uint8_t need = PLAN_USES | PLAN_COLL | PLAN_RANKS;
		if ((mpi_plans[fn] & ~PLAN_COUNTS) == need && mpi_roles[fn][RO_COMM] >= 0 && mpi_roles[fn][RO_OLDCOMM] < 0 &&
		    (mpi_roles[fn][RO_ROOT] >= 0) == (fn == 53 || fn == 54 || fn == 56 || fn == 62))
			fused[fn] = FUSED_COLL;
	}
	/* of those, the ones whose counts are at most one (count, datatype)
	 * pair (MPI_Barrier: none), that pair and the communicator their only
	 * count and use roles, and no root-only field: read without the loops */
	static const uint8_t pairs[] = {52, 53, 62, 65, 67, 156};
	for (unsigned k = 0; k < sizeof pairs; k++) {
		unsigned fn = pairs[k];
		bool scalar = mpi_coll_scalar(fn), root_only = false;
		const dumpi_layout *L = dumpi_layout_of(fn);
		for (unsigned i = 0; L && i < L->nfields; i++) root_only |= L->fields[i].root_only;
		const uint8_t *cr = mpi_count_roles[fn], *ur = mpi_use_roles[fn];
		if (fused[fn] == FUSED_COLL && L && !root_only &&
		    (scalar ? cr[0] == RO_COUNT && cr[1] == RO_COUNT_ROLES : cr[0] == RO_COUNT_ROLES) && ur[0] == RO_COMM &&
		    (scalar ? ur[1] == RO_DATATYPE && ur[2] == RO_COUNT_ROLES : ur[1] == RO_COUNT_ROLES) &&
		    (mpi_roles[fn][RO_DATATYPE] >= 0) == scalar && (mpi_roles[fn][RO_COUNT] >= 0) == scalar)
			fused[fn] = FUSED_COLL_PAIR;
	}
	/* MPI_Allgather and MPI_Alltoall: their send and receive pairs */
	for (unsigned fn = 58; fn <= 60; fn += 2) {
		bool root_only = false;
		const dumpi_layout *L = dumpi_layout_of(fn);
		for (unsigned i = 0; L && i < L->nfields; i++) root_only |= L->fields[i].root_only;
		const uint8_t *cr = mpi_count_roles[fn], *ur = mpi_use_roles[fn];
		if (fused[fn] == FUSED_COLL && L && !root_only && mpi_roles[fn][RO_ROOT] < 0 && cr[0] == RO_SENDCOUNT &&
		    cr[1] == RO_RECVCOUNT && cr[2] == RO_COUNT_ROLES && ur[0] == RO_COMM && ur[1] == RO_SENDTYPE &&
		    ur[2] == RO_RECVTYPE && ur[3] == RO_COUNT_ROLES)
			fused[fn] = FUSED_COLL_BOTH;
	}
	/* MPI_Sendrecv and MPI_Sendrecv_replace: their communicator found once
	 * for both messages and the ranks, their fields at libdumpi's places */
	for (unsigned fn = 33; fn <= 34; fn++)
		if (mpi_at_places[fn]) fused[fn] = FUSED_SENDRECV;
	/* the other request calls whose plan is their count and their requests
	 * (MPI_Waitany, MPI_Waitsome, MPI_Start, MPI_Startall, ...): the
	 * generic path without its other steps */
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++)
		if (!fused[fn] && fn != 125 && (mpi_plans[fn] & PLAN_REQ) && !(mpi_plans[fn] & ~(PLAN_COUNTS | PLAN_REQ)))
			fused[fn] = FUSED_REQS;
	/* functions whose only check is the handles they use (MPI_Type_commit,
	 * MPI_Type_size, ...) */
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++)
		if (!fused[fn] && fn != 125 && mpi_plans[fn] == PLAN_USES) fused[fn] = FUSED_USES;
	/* functions none of whose arguments feed a check (MPI_Wtime, ...): only
	 * counted; MPI_Finalize ends the pass */
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++)
		if (!mpi_plans[fn] && !fused[fn] && fn != 125) fused[fn] = FUSED_NOTHING;
	/* the dispatch's table: each function's path, one indirect call */
	static void (*const by_kind[])(mpi_rank *, const dumpi_record *, const dumpi_args *) = {
		[0] = generic, [FUSED_NOTHING] = path_nothing, [FUSED_SEND] = mpi_fused_send,
		[FUSED_ISEND] = mpi_fused_isend, [FUSED_IRECV] = mpi_fused_irecv, [FUSED_COLL] = mpi_fused_coll,
		[FUSED_RECV] = mpi_fused_recv, [FUSED_WAIT] = mpi_request_wait, [FUSED_WAITALL] = mpi_fused_waitall,
		[FUSED_SENDRECV] = mpi_fused_sendrecv, [FUSED_REQS] = mpi_fused_reqs, [FUSED_USES] = mpi_uses,
		[FUSED_SOME] = mpi_fused_some, [FUSED_COLL_PAIR] = mpi_fused_coll_pair,
		[FUSED_COLL_BOTH] = mpi_fused_coll_both,
	};
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) {
		dumpi_layer_path *own = mpi_fused_req_path(fn, fused[fn]);
		paths[fn] = own ? own : by_kind[fused[fn]];
		/* the common collectives with their fields at libdumpi's places */
		dumpi_layer_path *coll = mpi_fused_coll_path(fn, fused[fn]);
		if (coll) paths[fn] = coll;
	}
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) {
		dumpi_layer_path *t = type_path(fn);
		if (t) paths[fn] = t;
	}
	paths[125] = path_finalize;
}



/* ---- lifetime ---- */

static long rank_from_name(const char *name)
{
	const char *base = hv_basename(name);
	const char *dot = strrchr(base, '.');
	if (!dot || strcmp(dot, ".bin") != 0) return -1;
	const char *d = dot;
	while (d > base && d[-1] >= '0' && d[-1] <= '9') d--;
	if (d == dot || d == base || d[-1] != '-' || dot - d > 9) return -1;
	long v = 0;
	for (const char *p = d; p < dot; p++) v = v * 10 + (*p - '0');
	return v;
}

static uint32_t inst_new(mpi_rank *m);

mpi_rank *mpi_rank_new(hv_blob *b, hv_report *r, const uint8_t version[3])
{
	pthread_once(&plans_once, compute_plans);
	mpi_rank *m = hv_calloc(1, sizeof *m);
	mpi_pass *pass = hv_calloc(1, sizeof *pass);
	if (!m || !pass) {
		free(m);
		free(pass);
		hv_report_internal(r, "out of memory");
		return NULL;
	}
	m->entry.paths = paths;
	m->entry.m = m;
	m->pass = pass;
	m->r = r;
	m->b = b;
	m->file = b->name;
	memcpy(m->version, version, 3);
	m->pass->status_tagged = dumpi_version_at_least(version, 0, 6, 3);
	m->rank = rank_from_name(b->name);
	m->world_size = -1;
	m->pass->win_ok = hv_window_init(&m->pass->win, b, 64u * 1024u);
	m->pass->chan_gen = 1; /* a request's 0 is none */
	mpi_map_init(&m->pass->comms, sizeof(mpi_comm));
	mpi_reuse_init(m->pass);
	mpi_requests_init(m->pass);
	mpi_map_init(&m->chans, sizeof(mpi_chan));
	inst_new(m); /* INST_WORLD */
	inst_new(m); /* INST_SELF */
	if (m->ninst != 2) {
		hv_report_internal(r, "out of memory");
		mpi_rank_free(m);
		return NULL;
	}
	return m;
}

void mpi_rank_set_options(mpi_rank *m, const hv_options *opt)
{
	if (!m || !opt) return;
	m->impl_opt = opt->dumpi_mpi == HV_MPI_MPICH ? IMPL_MPICH : opt->dumpi_mpi == HV_MPI_OPENMPI ? IMPL_OPENMPI : 0;
	m->replay = opt->dumpi_replay;
}

long mpi_rank_world_rank(const mpi_rank *m) { return m->rank; }

void mpi_rank_set_world_rank(mpi_rank *m, long rank) { m->rank = rank; }

static void pass_free(mpi_rank *m)
{
	mpi_pass *p = m->pass;
	if (!p) return;
	mpi_settle_msgs(m);
	if (p->win_ok) hv_window_free(&p->win);
	mpi_map_free(&p->comms);
	mpi_reuse_free(p);
	mpi_requests_free(p);
	free(p);
	m->pass = NULL;
}

void mpi_rank_free(mpi_rank *m)
{
	if (!m) return;
	pass_free(m);
	mpi_map_free(&m->chans);
	for (uint32_t i = 0; i < m->ninst; i++) free(m->inst[i].ops);
	free(m->inst);
	free(m);
}

/* A new communicator instance (INST_NONE past MPI_MAX_INST or out of memory). */
static uint32_t inst_new(mpi_rank *m)
{
	if (m->ninst >= MPI_MAX_INST) {
		m->inst_overflow = true;
		return INST_NONE;
	}
	if (m->ninst == m->inst_cap) {
		uint32_t nc = m->inst_cap ? 2 * m->inst_cap : 8;
		mpi_inst *ni = hv_realloc(m->inst, nc * sizeof *ni);
		if (!ni) return INST_NONE;
		m->inst = ni;
		m->inst_cap = nc;
	}
	mpi_inst *x = &m->inst[m->ninst];
	memset(x, 0, sizeof *x);
	x->parent = INST_NONE;
	x->myrank = -1;
	x->ref.max = -1;
	x->color = -1;
	return m->ninst++;
}

/* ---- per-record checks ---- */

/* The count roles of a record whose plan has PLAN_COUNTS (never a function
 * whose count is an output: compute_plans). */
void mpi_check_counts(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const uint8_t *ix = mpi_role_ix[rec->fn];
	for (const uint8_t *ro = mpi_count_roles[rec->fn]; *ro != RO_COUNT_ROLES; ro++) {
		unsigned i = ix[*ro];
		if (a->f[i].present) mpi_check_count(m, rec, *ro, (int32_t)(uint32_t)a->f[i].v, a, i);
	}
}

static void check_rank_arg(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, uint64_t comm, int ro)
{
	uint64_t v;
	if (!mpi_arg(rec->fn, a, ro, &v)) return;
	mpi_check_rank(m, rec, comm, ro, (int32_t)(uint32_t)v, a, mpi_role_ix[rec->fn][ro]);
}

void mpi_check_rank_any(mpi_rank *m, const dumpi_record *rec, uint64_t comm, int ro, int32_t x, const dumpi_args *a,
			unsigned i)
{
	bool dest = ro == RO_DEST;
	if (x == -1 || x == -2) {
		/* ANY_SOURCE (-1 in DUMPI), MPI_ROOT (-2), and MPI_PROC_NULL as
		 * the library wrote it: -1 under MPICH, -2 under Open MPI. A send
		 * to -1 is MPICH's; to -2 (or a receive from it), Open MPI's. */
		if (ro == RO_ROOT) return;
		unsigned lib = dest && x == -1 ? IMPL_MPICH : x == -2 ? IMPL_OPENMPI : 0;
		if (!lib) return;
		if (!(m->impl & lib)) m->impl |= (uint8_t)lib, m->impl_rec[lib - 1] = rec->index;
		bool ok = !m->impl_opt || m->impl_opt == lib;
		if (!hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, ok))
			mpi_emit(m, HV_R_DUMPI_MPI_RANK_RANGE, rec, dumpi_arg_at(a, rec->fn, i), 4,
				 "%s %d is no rank: under %s (--mpi) MPI_PROC_NULL is %d, and %d is %s", mpi_role_label(ro), x,
				 m->impl_opt == IMPL_MPICH ? "MPICH" : "Open MPI", m->impl_opt == IMPL_MPICH ? -1 : -2, x,
				 x == -1 ? "MPI_ANY_SOURCE, which a send cannot name" : "MPI_ROOT, which only intercommunicator collectives name");
		return;
	}
	mpi_comm *c = mpi_comm_of(m, comm);
	if (c) mpi_check_rank_in(m, rec, comm, ro, x, a, i, c);
}

/* The same once the communicator is found (c). */
void mpi_check_rank_in(mpi_rank *m, const dumpi_record *rec, uint64_t comm, int ro, int32_t x, const dumpi_args *a,
		       unsigned i, mpi_comm *c)
{
	int64_t size = c->size;
	if (x < 0 || size >= 0) {
		bool ok = x >= 0 && x < size;
		if (hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, ok)) return;
		char tail[96] = "";
		if (size >= 0 && comm == MPI_D_COMM_SELF) snprintf(tail, sizeof tail, "; MPI_COMM_SELF has 1 rank");
		else if (size >= 0)
			snprintf(tail, sizeof tail, "; it has %lld rank(s) (MPI_Comm_size record %llu)", (long long)size,
				 (unsigned long long)c->size_rec);
		mpi_emit(m, HV_R_DUMPI_MPI_RANK_RANGE, rec, dumpi_arg_at(a, rec->fn, i), 4,
			 "%s %d is outside communicator %llu%s and no constant DUMPI writes (-1, -2)%s", mpi_role_label(ro),
			 x, (unsigned long long)comm, comm == MPI_D_COMM_WORLD ? " (world)" : "", tail);
		return;
	}
	/* size not known yet: keep the largest reference for the cross-rank stage */
	mpi_inst *in = mpi_inst_of(m, c->inst);
	if (in && x > in->ref.max) {
		in->ref.max = x;
		in->ref.rec = rec->index;
		in->ref.off = dumpi_arg_at(a, rec->fn, i);
		in->ref.fn = (uint16_t)rec->fn;
		in->ref.role = (uint8_t)ro;
	}
}

static void check_tag(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro, bool receive)
{
	uint64_t v;
	if (!mpi_arg(rec->fn, a, ro, &v)) return;
	mpi_check_tag(m, rec, ro, (int32_t)(uint32_t)v, a, mpi_role_ix[rec->fn][ro], receive);
}


/* MPI_Type_free of datatype `id` (field i of a): a predefined one is
 * refused by MPI libraries; a user one is freed by this record. */
static __attribute__((noinline, cold)) void type_free_refused(mpi_rank *m, const dumpi_record *rec,
								  const dumpi_args *a, unsigned i, uint64_t id)
{
	mpi_emit(m, HV_R_DUMPI_MPI_TYPE_PREDEFINED_FREED, rec, dumpi_arg_at(a, rec->fn, i), 2,
		 "datatype %llu is a predefined datatype (DUMPI indices 2..%d): MPI libraries refuse to free it "
		 "(expected a datatype index >= %d that a type constructor returned)",
		 (unsigned long long)id, MPI_D_FIRST_USER_DATATYPE - 1, MPI_D_FIRST_USER_DATATYPE);
}
static inline __attribute__((always_inline)) void type_free(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a,
							      unsigned i, uint64_t id)
{
	bool ok = id < 2 || id >= MPI_D_FIRST_USER_DATATYPE;
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_TYPE_PREDEFINED_FREED, ok)) type_free_refused(m, rec, a, i, id);
	if (id >= MPI_D_FIRST_USER_DATATYPE) mpi_type_freed_hot(m, id, rec);
}

/* mpi_check_count out of line, for the paths whose counts are seldom
 * negative: their common case then keeps no registers for the message. */
static __attribute__((noinline, cold)) void count_cold(mpi_rank *m, const dumpi_record *rec, int ro, int32_t c,
							  const dumpi_args *a, unsigned i)
{
	mpi_check_count(m, rec, ro, c, a, i);
}

static void handles(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	uint64_t v, id;
	/* outputs that happen to be named like inputs */
	bool comm_out = fn == 134, type_out = fn == 186;
	/* constructors: the index is live (again), as a new instance */
	if (mpi_arg(fn, a, RO_NEWCOMM, &id) || (comm_out && mpi_arg(fn, a, RO_COMM, &id)) ||
	    (fn == 133 && a->n > 0 && a->f[0].present && (id = a->f[0].v, true))) {
		uint64_t old = 0;
		bool has_old = mpi_arg(fn, a, RO_OLDCOMM, &old);
		mpi_comm *p = has_old ? mpi_comm_of(m, old) : NULL;
		uint32_t pi = p ? p->inst : INST_NONE;
		int64_t psize = p ? p->size : -1; /* copied: p moves when the map grows */
		uint64_t psize_rec = p ? p->size_rec : 0;
		/* collective constructors over the parent: their order on it names the result */
		bool derived = fn == 84 || fn == 85 || fn == 86 || fn == 99 || fn == 101 || fn == 111;
		uint32_t ni = inst_new(m);
		mpi_inst *x = mpi_inst_of(m, ni);
		mpi_inst *px = mpi_inst_of(m, pi);
		if (x) {
			x->fn = (uint16_t)fn;
			x->rec = rec->index;
			x->off = rec->offset;
			x->local_id = id;
			x->null = id < MPI_D_FIRST_USER_COMM;
			if (derived && px) {
				x->parent = pi;
				x->seq = px->ncreated++;
			}
			uint64_t v2;
			if (fn == 86 && mpi_arg(fn, a, RO_COLOR, &v2)) x->color = (int32_t)(uint32_t)v2;
			if (fn == 86 && mpi_arg(fn, a, RO_KEY, &v2)) x->key = (int32_t)(uint32_t)v2;
			if ((fn == 99 || fn == 101) && mpi_arg(fn, a, RO_REORDER, &v2)) x->key = v2 != 0;
		}
		if (id >= MPI_D_FIRST_USER_COMM) {
			mpi_comm *c = mpi_comm_of(m, id);
			if (c) {
				mpi_comm_made(m, c, id, rec);
				c->state = 1;
				c->size = -1;
				c->inst = ni;
				if (fn == 84) c->size = psize, c->size_rec = psize_rec; /* a duplicate has its parent's size */
			}
		}
	}
	if ((mpi_arg(fn, a, RO_NEWTYPE, &id) || (type_out && mpi_arg(fn, a, RO_DATATYPE, &id))) && id >= MPI_D_FIRST_USER_DATATYPE) {
		mpi_type_made(m, id, rec);
	}
	/* destructors; libdumpi records the handle before the call frees it */
	if ((fn == 87 || fn == 132) && mpi_arg(fn, a, RO_COMM, &id)) {
		bool ok = id != MPI_D_COMM_WORLD && id != MPI_D_COMM_SELF;
		if (!hv_eval(m->r, HV_R_DUMPI_MPI_COMM_PREDEFINED_FREED, ok))
			mpi_emit(m, HV_R_DUMPI_MPI_COMM_PREDEFINED_FREED, rec, mpi_arg_at(fn, a, RO_COMM), 2,
				 "comm %llu is %s, a predefined communicator: MPI libraries refuse to free it "
				 "(expected a communicator index >= %d that a constructor returned)",
				 (unsigned long long)id, id == MPI_D_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF",
				 MPI_D_FIRST_USER_COMM);
	}
	if (fn == 47 && mpi_arg(fn, a, RO_DATATYPE, &id)) type_free(m, rec, a, mpi_role_ix[fn][RO_DATATYPE], id);
	if ((fn == 87 || fn == 132) && mpi_arg(fn, a, RO_COMM, &id) && id >= MPI_D_FIRST_USER_COMM) {
		mpi_comm *c = mpi_comm_of(m, id);
		if (c) mpi_comm_freed(m, c, id, rec);
	}
	/* what the rank learnt about sizes and itself */
	if (fn == 81 && mpi_arg(fn, a, RO_COMM, &id) && mpi_arg(fn, a, RO_SIZE, &v) && (int32_t)(uint32_t)v > 0) {
		mpi_comm *c = mpi_comm_of(m, id);
		if (c && c->size < 0) {
			c->size = (int32_t)(uint32_t)v;
			c->size_rec = rec->index;
			/* a reference made before the size was known */
			mpi_inst *in = mpi_inst_of(m, c->inst);
			if (in && in->ref.max >= 0 && !hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, in->ref.max < c->size)) {
				dumpi_record at = {.index = in->ref.rec, .offset = in->ref.off, .fn = in->ref.fn};
				mpi_emit(m, HV_R_DUMPI_MPI_RANK_RANGE, &at, in->ref.off, 4,
					 "%s %lld is outside communicator %llu (%lld ranks, from MPI_Comm_size record %llu)",
					 mpi_role_label(in->ref.role), (long long)in->ref.max, (unsigned long long)id,
					 (long long)c->size, (unsigned long long)rec->index);
			}
			if (in) in->ref.max = -1;
		}
	}
	if (fn == 82 && mpi_arg(fn, a, RO_COMM, &id) && mpi_arg(fn, a, RO_RANK, &v)) {
		if (m->rank < 0 && id == MPI_D_COMM_WORLD) m->rank = (int32_t)(uint32_t)v;
		mpi_comm *c = mpi_comm_of(m, id);
		mpi_inst *in = c ? mpi_inst_of(m, c->inst) : NULL;
		if (in) in->myrank = (int32_t)(uint32_t)v;
	}
}

static void ranks_and_tags(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	uint64_t comm;
	if (!mpi_arg(fn, a, RO_COMM, &comm) && !mpi_arg(fn, a, RO_OLDCOMM, &comm)) return;
	if (is_send(fn)) {
		check_rank_arg(m, rec, a, comm, RO_DEST);
		check_tag(m, rec, a, RO_TAG, false);
	} else if (is_recv(fn)) {
		check_rank_arg(m, rec, a, comm, RO_SOURCE);
		check_tag(m, rec, a, RO_TAG, true);
	} else if (is_sendrecv(fn)) {
		check_rank_arg(m, rec, a, comm, RO_DEST);
		check_rank_arg(m, rec, a, comm, RO_SOURCE);
		check_tag(m, rec, a, RO_SENDTAG, false);
		check_tag(m, rec, a, RO_RECVTAG, true);
	}
	if (fn != 91 && mpi_roles[fn][RO_ROOT] >= 0) check_rank_arg(m, rec, a, comm, RO_ROOT);
}

/* A status read (MPI_Get_count, MPI_Get_elements) with no recorded receive
 * or probe before it since the last read: the status came from a call
 * libdumpi does not record (MPI_Mprobe, MPI_Improbe, MPI_Mrecv, ...). A
 * wait or test that completes a receive request makes a status too
 * (requests.c). */
static void status_reads(mpi_rank *m, const dumpi_record *rec)
{
	unsigned fn = rec->fn;
	if (fn == 1 || fn == 22 || fn == 23 || fn == 33 || fn == 34) m->pass->status_fresh = true;
	if (fn != 2 && fn != 48) return;
	if (!m->pass->status_fresh) m->unrec |= UNREC_STATUS;
	m->pass->status_fresh = false;
}


static void mark_last(mpi_rank *m, const dumpi_record *rec)
{
	m->last_rec = rec->index;
	m->last_off = rec->offset;
	m->last_fn = (uint16_t)rec->fn;
}

void mpi_rank_record(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!m || m->finalized) return;
	unsigned fn = rec->fn;
	m->records++;
	mark_last(m, rec);
	if (fn < DUMPI_NFUNCS) m->entry.paths[fn](m, rec, a);
}

/* The walk's hand-off keeps no count nor last record: a walk hands over
 * every record of its stream in order from index 0, so the records are the
 * last one's index + 1 -- up to MPI_Finalize's, after which the rank takes
 * none (path_finalize). */
const dumpi_layer *mpi_rank_layer(mpi_rank *m) { return &m->entry; }

void mpi_rank_walked(mpi_rank *m, const dumpi_record *last)
{
	if (!m || m->ended) return;
	if (!m->finalized) mark_last(m, last);
	m->records = m->last_rec + 1;
}

/* MPI_Finalize: its plan's checks, then the rank takes no more records. */
static void path_finalize(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	generic(m, rec, a);
	m->finalized = true;
	mark_last(m, rec);
	m->entry.paths = dumpi_layer_none.paths;
}

/* The datatype calls whose one handle input is a datatype, and whose
 * other checks are their count and their new datatype, or MPI_Type_free's
 * (MPI_Type_contiguous, MPI_Type_vector, ..., MPI_Type_commit,
 * MPI_Type_size, MPI_Type_free; compute_plans' type_path says which):
 * generic's steps for their plan (count, use, handles), without its tests
 * of the steps they lack nor handles()' lookups of the roles they lack.
 * They read nothing from the record's bytes, so they leave them. */
enum { TYPE_USE, TYPE_MADE, TYPE_FREE }; /* the handles of type_call: none, RO_NEWTYPE's, MPI_Type_free's */
/* Its fields are ic (count), iu (its use, of role ru) and in (the new
 * datatype), DUMPI_MAX_FIELDS for none; `fixed`: they are constants of
 * libdumpi's layout, with no root-only field (mpi_at_places), so a field the
 * function has is present. */
static inline __attribute__((always_inline)) void type_call(mpi_rank *m, const dumpi_record *rec,
							    const dumpi_args *a, unsigned kind, unsigned ic,
							    unsigned iu, unsigned ru, unsigned in, bool fixed)
{
	bool hc = fixed ? ic != DUMPI_MAX_FIELDS : a->f[ic].present;
	bool hu = fixed ? iu != DUMPI_MAX_FIELDS : a->f[iu].present;
	bool hn = fixed ? in != DUMPI_MAX_FIELDS : a->f[in].present;
	int32_t cc = (int32_t)(uint32_t)a->f[ic].v;
	if (hc) {
		if (cc >= 0) hv_eval(m->r, HV_R_DUMPI_MPI_COUNT_NEGATIVE, true);
		else count_cold(m, rec, RO_COUNT, cc, a, ic);
	}
	if (hu && a->f[iu].v >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, (int)ru, a->f[iu].v);
	if (kind == TYPE_MADE && hn && a->f[in].v >= MPI_D_FIRST_USER_DATATYPE) mpi_type_made_hot(m, a->f[in].v, rec);
	if (kind == TYPE_FREE && hu) type_free(m, rec, a, iu, a->f[iu].v); /* its use role is RO_DATATYPE */
}
/* type_call with the fields found through the function's roles */
static inline __attribute__((always_inline)) void type_roles(mpi_rank *m, const dumpi_record *rec,
							     const dumpi_args *a, unsigned kind)
{
	unsigned ru = mpi_use_roles[rec->fn][0];
	const uint8_t *ix = mpi_role_ix[rec->fn];
	type_call(m, rec, a, kind, ix[RO_COUNT], ix[ru], ru, ix[RO_NEWTYPE], false);
}
static void path_type_use(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a) { type_roles(m, rec, a, TYPE_USE); }
static void path_type_made(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a) { type_roles(m, rec, a, TYPE_MADE); }
static void path_type_free(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a) { type_roles(m, rec, a, TYPE_FREE); }
/* libdumpi's layouts (checks.h): MPI_Type_contiguous (count, oldtype,
 * newtype); MPI_Type_commit, MPI_Type_free (datatype); MPI_Type_size
 * (datatype, size) */
static void path_type_contiguous(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	type_call(m, rec, a, TYPE_MADE, CONTIG_COUNT, CONTIG_OLDTYPE, RO_OLDTYPE, CONTIG_NEWTYPE, true);
}
static void path_type_first(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	type_call(m, rec, a, TYPE_USE, DUMPI_MAX_FIELDS, TYPEARG_DATATYPE, RO_DATATYPE, DUMPI_MAX_FIELDS, true);
}
static void path_type_free_first(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	type_call(m, rec, a, TYPE_FREE, DUMPI_MAX_FIELDS, TYPEARG_DATATYPE, RO_DATATYPE, DUMPI_MAX_FIELDS, true);
}

/* Whether function fn's records take type_call: its plan is its count
 * (RO_COUNT, its only count role, when it has one), its one use, a
 * datatype, and the handles of a datatype constructor (RO_NEWTYPE) or
 * MPI_Type_free's alone, with no communicator role nor one of the
 * functions handles() treats by id. */
static dumpi_layer_path *type_path(unsigned fn)
{
	const int8_t *ro = mpi_roles[fn];
	const uint8_t *cr = mpi_count_roles[fn], *ur = mpi_use_roles[fn];
	uint8_t plan = mpi_plans[fn];
	bool counted = cr[0] == RO_COUNT && cr[1] == RO_COUNT_ROLES;
	if ((plan & PLAN_COUNTS) != (counted ? PLAN_COUNTS : 0) || (!counted && cr[0] != RO_COUNT_ROLES)) return NULL;
	if ((plan & ~(PLAN_COUNTS | PLAN_HANDLES)) != PLAN_USES || ur[1] != RO_COUNT_ROLES) return NULL;
	if (ur[0] != RO_DATATYPE && ur[0] != RO_OLDTYPE && ur[0] != RO_SENDTYPE && ur[0] != RO_RECVTYPE) return NULL;
	if (ro[RO_COMM] >= 0 || ro[RO_OLDCOMM] >= 0 || ro[RO_NEWCOMM] >= 0 || fn == 133 || fn == 134 || fn == 186 ||
	    fn == 87 || fn == 132 || fn == 81 || fn == 82 || fn == 125)
		return NULL;
	if (!(plan & PLAN_HANDLES))
		return (fn == 43 || fn == 46) && mpi_at_places[fn] ? path_type_first : path_type_use;
	if (fn == 47) {
		if (ro[RO_NEWTYPE] >= 0 || ur[0] != RO_DATATYPE) return NULL;
		return mpi_at_places[fn] ? path_type_free_first : path_type_free;
	}
	if (ro[RO_NEWTYPE] < 0) return NULL;
	return fn == 35 && mpi_at_places[fn] ? path_type_contiguous : path_type_made;
}

/* Every other record: the checks its plan names, in order. */
static void generic(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	mpi_take_bytes(m, a);
	uint8_t plan = mpi_plans[rec->fn];
	if (plan & PLAN_COUNTS) mpi_check_counts(m, rec, a);
	if (plan & PLAN_STATUS) status_reads(m, rec);
	if (plan & PLAN_USES) mpi_uses(m, rec, a);
	if (plan & PLAN_COLL) mpi_collectives(m, rec, a); /* before handles(): a constructor is a collective on its parent */
	if (plan & PLAN_HANDLES) handles(m, rec, a);
	if (plan & PLAN_MSG) mpi_messages(m, rec, a);
	if (plan & PLAN_RANKS) ranks_and_tags(m, rec, a);
	if (plan & PLAN_REQ) mpi_requests(m, rec, a);
}

/* An ended rank waits for the cross-rank stage with what that stage reads
 * (communicator instances with their first collectives, channels), and a
 * trace of 65,536 ranks keeps 65,536 of them: what only the rank's own
 * pass used has gone (mpi_pass, with the 8 KiB bitmap of request ids
 * seen, freed by mpi_rank_end), arrays grown by
 * doubling shrink to their entries, and the channel map is frozen (4 bytes
 * a slot instead of 153; same entries, same order). Out of memory here
 * keeps the larger arrays, which are as valid. */
static void compact(mpi_rank *m)
{
	if (m->ninst && m->ninst < m->inst_cap) {
		mpi_inst *ni = hv_realloc(m->inst, m->ninst * sizeof *ni);
		if (ni) m->inst = ni, m->inst_cap = m->ninst;
	}
	for (uint32_t i = 0; i < m->ninst; i++) {
		mpi_inst *in = &m->inst[i];
		uint64_t kept = in->ncoll < in->ops_cap ? in->ncoll : in->ops_cap;
		if (!in->ops || kept == 0 || kept == in->ops_cap) continue;
		mpi_coll *no = hv_realloc(in->ops, (size_t)kept * sizeof *no);
		if (no) in->ops = no, in->ops_cap = (uint8_t)kept;
	}
	mpi_map_freeze(&m->chans);
}

void mpi_rank_end(mpi_rank *m, bool complete)
{
	if (!m || m->ended) return;
	m->ended = true;
	m->complete = complete;
	if (complete) {
		dumpi_record at = {.index = m->last_rec, .offset = m->last_off, .fn = 0};
		mpi_report_ignored(m);
		mpi_report_reused(m);
		mpi_report_unrecorded(m);
		if (!hv_eval(m->r, HV_R_DUMPI_MPI_FINALIZE_MISSING,
			     m->finalized || m->records == 0 || (m->ignored & IGN_FINALIZE)))
			hv_emit(m->r, HV_R_DUMPI_MPI_FINALIZE_MISSING, m->file, m->last_off, 0, "stream",
				"%s: the stream ends cleanly after %llu records without an MPI_Finalize record (last "
				"record %llu is %s)",
				mpi_rank_label(m).s, (unsigned long long)m->records, (unsigned long long)at.index,
				dumpi_function_name(m->last_fn));
		mpi_report_leaks(m);
	}
	mpi_comm *w = mpi_map_get(&m->pass->comms, MPI_D_COMM_WORLD);
	m->world_size = w ? w->size : -1;
	pass_free(m);
	compact(m);
}
