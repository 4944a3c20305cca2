/* The SPMD program written into generated DUMPI traces (see program.h).
 * Every rank draws the same phases from a shared generator, so collectives
 * line up and every send has its receive; a --break of a dumpi.mpi.* rule
 * adds one bent phase on rank 0 that violates exactly that rule. */
#include <string.h>

#include "dumpi/mpi/layer.h"
#include "program.h"

static bool is(const char *a, const char *b) { return a && strcmp(a, b) == 0; }

/* MPI_PROC_NULL as libdumpi writes it (the library's own value): Open MPI's
 * is -2, MPICH's -1 (the value DUMPI gives MPI_ANY_SOURCE). */
#define OMPI_PROC_NULL (-2)
#define MPICH_PROC_NULL (-1)
#define ANY_SOURCE MPI_D_ANY_SOURCE

static const char *const mpi_breaks[] = {
	"dumpi.mpi.count-negative", "dumpi.mpi.rank-range", "dumpi.mpi.tag-range",
	"dumpi.mpi.handle-freed", "dumpi.mpi.request-unknown", "dumpi.mpi.request-leaked",
	"dumpi.mpi.finalize-missing", "dumpi.mpi.request-unrecorded", "dumpi.mpi.comm-predefined-freed",
	"dumpi.mpi.type-predefined-freed", "dumpi.trace.mpi-library",
	/* variant: more leaks than a rank lists (the list is by creating record) */
	"dumpi.mpi.request-leaked~many", NULL,
};
/* Argument-shape rules: the program calls the function once more, and the
 * writer (trace.c write_args) bends that record's arrays. */
static const char *const shape_breaks[] = {
	"dumpi.rec.range-triplet", "dumpi.rec.spawn-array-length", "dumpi.rec.reader-hazard-argvs-null", NULL,
};
/* Rules that need several ranks (written as dumpi-trace). */
static const char *const mpi_trace_breaks[] = {
	"dumpi.mpi.send-unmatched", "dumpi.mpi.recv-unmatched", "dumpi.mpi.truncation",
	"dumpi.mpi.coll-sequence", "dumpi.mpi.coll-root", "dumpi.mpi.coll-count",
	"dumpi.mpi.comm-unreconstructed", "dumpi.mpi.wildcard-unresolved",
	/* variants: counts bent on rank 0 in one counted collective (counted_phase); and the near
	 * miss, every counted collective consistent with MPI_IN_PLACE-like send sides, which must pass */
	"dumpi.mpi.coll-count~alltoall", "dumpi.mpi.coll-count~gatherv", "dumpi.mpi.coll-count~scatterv",
	"dumpi.mpi.coll-count~allgatherv", "dumpi.mpi.coll-count~alltoallv", "dumpi.mpi.coll-count~alltoallv-twice",
	"dumpi.mpi.coll-count~alltoallw", "dumpi.mpi.coll-count~exscan", "dumpi.mpi.coll-count~reduce-scatter",
	"dumpi.mpi.coll-count~in-place", NULL,
};

bool gen_mpi_trace_breaks(const char *rule)
{
	for (size_t i = 0; mpi_trace_breaks[i]; i++)
		if (is(rule, mpi_trace_breaks[i])) return true;
	return false;
}

bool gen_mpi_breaks(const char *rule)
{
	for (size_t i = 0; mpi_breaks[i]; i++)
		if (is(rule, mpi_breaks[i])) return true;
	for (size_t i = 0; shape_breaks[i]; i++)
		if (is(rule, shape_breaks[i])) return true;
	return false;
}

static bool name_is(const dumpi_field *f, const char *n)
{
	return strlen(n) == f->name_len && memcmp(f->name, n, f->name_len) == 0;
}

static bool name_has(const dumpi_field *f, const char *n)
{
	size_t k = strlen(n);
	for (size_t i = 0; i + k <= f->name_len; i++)
		if (memcmp(f->name + i, n, k) == 0) return true;
	return false;
}

int64_t gen_mpi_neutral(const dumpi_field *f, gen_rng *g)
{
	switch (f->kind) {
	case 'h':
		if (name_has(f, "comm") || name_is(f, "parent")) return SELF;
		if (name_has(f, "type")) return T_INT;
		return (int64_t)gen_below(g, 40);
	case 'i':
		if (name_is(f, "dest") || name_is(f, "source")) return OMPI_PROC_NULL;
		if (name_has(f, "tag")) return (int64_t)gen_below(g, 100);
		if (name_is(f, "root")) return 0;
		if (name_is(f, "request")) return REQ_NULL;
		return (int64_t)gen_below(g, 1000);
	case 't': return 0;
	case 'r': return (int64_t)gen_below(g, 2);
	case 'b': return (int64_t)gen_below(g, 8);
	case 'q': return (int64_t)gen_below(g, 1u << 20);
	default: return 0;
	}
}

void gen_mpi_init(gen_mpi *g, unsigned rank, unsigned n, uint64_t seed, const char *brk, bool all, unsigned records)
{
	memset(g, 0, sizeof *g);
	g->rank = rank;
	g->n = n ? n : 1;
	g->brk = (rank == 0 && gen_mpi_breaks(brk)) || gen_mpi_trace_breaks(brk) ? brk : NULL;
	g->all = all;
	g->records = records;
	g->shared.s = seed * 0x2545f4914f6cdd1dull + 99;
	g->phases = records > 8 ? (records - 4) / 3 : 2;
	g->next_req = FIRST_REQ;
	g->next_comm = FIRST_COMM;
	g->next_type = FIRST_TYPE;
}

void gen_mpi_set_habits(gen_mpi *g, const char *brk, unsigned lib, bool unrecorded)
{
	/* by default the program shows no library (a valid output fires no
	 * rule, not even the library note), unless the break is about it */
	if (is(brk, "dumpi.trace.mpi-library")) lib = GEN_MPI_MPICH;
	g->proc_null = lib == GEN_MPI_MPICH ? MPICH_PROC_NULL : lib == GEN_MPI_OPENMPI ? OMPI_PROC_NULL : 0;
	g->mpich = lib == GEN_MPI_MPICH;
	g->unrecorded = unrecorded;
}

/* ---- building records ---- */

gm_rec *gm_push(gen_mpi *g, unsigned fn)
{
	if (g->qn >= sizeof g->q / sizeof g->q[0]) return NULL;
	gm_rec *r = &g->q[(g->qh + g->qn++) % (sizeof g->q / sizeof g->q[0])];
	memset(r, 0, sizeof *r);
	r->fn = fn;
	return r;
}

static int field(unsigned fn, const char *name)
{
	const dumpi_layout *L = dumpi_layout_of(fn);
	if (!L) return -1;
	for (unsigned i = 0; i < L->nfields; i++)
		if (name_is(&L->fields[i], name)) return (int)i;
	return -1;
}

void gm_set(gm_rec *r, const char *name, int64_t v)
{
	int i = r ? field(r->fn, name) : -1;
	if (i < 0) return;
	r->set[i] = true;
	r->v[i] = v;
}

void gm_set_arr(gm_rec *r, const char *name, const int32_t *v, unsigned n)
{
	int i = r ? field(r->fn, name) : -1;
	if (i < 0) return;
	if (n > GM_ARR) n = GM_ARR;
	r->aset[i] = true;
	r->alen[i] = (uint8_t)n;
	memcpy(r->arr[i], v, n * sizeof *v);
}

/* Statuses: (source, tag) pairs. */
void gm_set_status(gm_rec *r, const char *name, const int32_t *src_tag, unsigned n, int32_t bytes)
{
	int i = r ? field(r->fn, name) : -1;
	if (i < 0) return;
	if (n > GM_ARR) n = GM_ARR;
	r->aset[i] = true;
	r->alen[i] = (uint8_t)n;
	memcpy(r->arr[i], src_tag, 2 * n * sizeof *src_tag);
	r->bytes = bytes;
}

/* One record as a table row (program.h REC). */
gm_rec *gm_rec_args(gen_mpi *g, unsigned fn, const gm_arg *a)
{
	gm_rec *r = gm_push(g, fn);
	for (; r && a->name; a++) gm_set(r, a->name, a->v);
	return r;
}

/* A point-to-point call (send: dest; receive: source) on `comm`. */
gm_rec *gm_p2p(gen_mpi *g, unsigned fn, int count, int peer, int tag, int comm, bool send)
{
	return REC(g, fn, {"count", count}, {"datatype", T_INT}, {send ? "dest" : "source", peer}, {"tag", tag},
		   {"comm", comm});
}

/* One status (source, tag) of `bytes` bytes. */
static void status1(gm_rec *r, int32_t src, int32_t tag, int32_t bytes)
{
	gm_set_status(r, "status", (int32_t[]){src, tag}, 1, bytes);
}

gm_rec *gm_wait_req(gen_mpi *g, int32_t req, int32_t src, int32_t tag, int32_t bytes)
{
	gm_rec *r = REC(g, 13, {"request", req});
	status1(r, src, tag, bytes);
	return r;
}

/* MPI_Waitall (fn 18) or MPI_Startall (32) on two requests. */
static gm_rec *all2(gen_mpi *g, unsigned fn, int32_t a, int32_t b)
{
	gm_rec *r = REC(g, fn, {"count", 2});
	gm_set_arr(r, "requests", (int32_t[]){a, b}, 2);
	return r;
}

/* ---- the phases ---- */

static int right_of(const gen_mpi *g) { return (int)((g->rank + 1) % g->n); }
static int left_of(const gen_mpi *g) { return (int)((g->rank + g->n - 1) % g->n); }

static void ring(gen_mpi *g, int tag, int count)
{
	gm_p2p(g, 0, count, right_of(g), tag, WORLD, true);
	status1(gm_p2p(g, 1, count, left_of(g), tag, WORLD, false), left_of(g), tag, 4 * count);
}

static void nonblocking(gen_mpi *g, int tag, int count, bool test_first)
{
	int left = left_of(g);
	int32_t ra = (int32_t)g->next_req++, rb = (int32_t)g->next_req++;
	gm_set(gm_p2p(g, 12, count, left, tag, WORLD, false), "request", ra);
	gm_set(gm_p2p(g, 8, count, right_of(g), tag, WORLD, true), "request", rb);
	if (test_first) {
		status1(REC(g, 14, {"request", ra}, {"flag", 0}), 0, 0, 0); /* MPI_Test, not yet complete */
		gm_wait_req(g, rb, 0, 0, 0);
		gm_wait_req(g, ra, left, tag, 4 * count);
		return;
	}
	if (!g->proc_null) { /* no library habits */
		gm_rec *r = REC(g, 18, {"count", 2});
		gm_set_arr(r, "requests", (int32_t[]){ra, rb}, 2);
		gm_set_status(r, "statuses", (int32_t[]){left, tag, 0, 0}, 2, 4 * count);
		return;
	}
	/* Open MPI and MPICH hand every nonblocking operation that completed at
	 * once one shared request handle, and libdumpi records requests by
	 * handle value: a send to MPI_PROC_NULL shares rb's id, and the Waitall
	 * names it twice. */
	gm_set(gm_p2p(g, 8, count, g->proc_null, tag, WORLD, true), "request", rb);
	if (g->mpich) {
		/* and a receive from MPICH's MPI_PROC_NULL (-1, DUMPI's MPI_ANY_SOURCE
		 * too), which MPICH completes with an empty status (source 0, tag 0) */
		int32_t rn = (int32_t)g->next_req++;
		gm_set(gm_p2p(g, 12, count, g->proc_null, tag, WORLD, false), "request", rn);
		gm_rec *r = REC(g, 18, {"count", 4});
		gm_set_arr(r, "requests", (int32_t[]){ra, rb, rb, rn}, 4);
		/* the writer gives every status one byte count: 0, as the empty one says */
		gm_set_status(r, "statuses", (int32_t[]){left, tag, 0, 0, 0, 0, 0, 0}, 4, 0);
		return;
	}
	gm_rec *r = REC(g, 18, {"count", 3});
	gm_set_arr(r, "requests", (int32_t[]){ra, rb, rb}, 3);
	gm_set_status(r, "statuses", (int32_t[]){left, tag, 0, 0, 0, 0}, 3, 4 * count);
}

/* --request-calls: the calls the phases never make, on one ring step:
 * MPI_Testany that finds nothing, MPI_Waitany and MPI_Testsome completing
 * a receive and a send, MPI_Waitsome completing both of a second pair, a
 * receive nobody sends to, cancelled and completed with a cancelled
 * status, and one channel whose message sizes change five times. */
static void request_calls(gen_mpi *g, unsigned round)
{
	int left = left_of(g), right = right_of(g), tag = 6000 + (int)(round % 8);
	int32_t ra = (int32_t)g->next_req++, rb = (int32_t)g->next_req++;
	gm_set(gm_p2p(g, 12, 2, left, tag, WORLD, false), "request", ra);
	gm_set(gm_p2p(g, 8, 2, right, tag, WORLD, true), "request", rb);
	gm_rec *r = REC(g, 17, {"count", 2}, {"index", -1}, {"flag", 0});
	gm_set_arr(r, "requests", (int32_t[]){ra, rb}, 2);
	r = REC(g, 16, {"count", 2}, {"index", 0});
	gm_set_arr(r, "requests", (int32_t[]){ra, rb}, 2);
	status1(r, left, tag, 8);
	r = REC(g, 21, {"count", 1}, {"outcount", 1});
	gm_set_arr(r, "requests", (int32_t[]){rb}, 1);
	gm_set_arr(r, "indices", (int32_t[]){0}, 1);
	gm_set_status(r, "statuses", (int32_t[]){0, 0}, 1, 0);
	int32_t rc = (int32_t)g->next_req++, rd = (int32_t)g->next_req++;
	gm_set(gm_p2p(g, 12, 3, left, tag + 8, WORLD, false), "request", rc);
	gm_set(gm_p2p(g, 8, 3, right, tag + 8, WORLD, true), "request", rd);
	r = REC(g, 20, {"count", 2}, {"outcount", 2});
	gm_set_arr(r, "requests", (int32_t[]){rc, rd}, 2);
	gm_set_arr(r, "indices", (int32_t[]){0, 1}, 2);
	gm_set_status(r, "statuses", (int32_t[]){left, tag + 8, 0, 0}, 2, 12);
	int32_t re = (int32_t)g->next_req++;
	gm_set(gm_p2p(g, 12, 1, left, 6999, WORLD, false), "request", re);
	REC(g, 24, {"request", re});
	gm_wait_req(g, re, left, 6999, 0)->cancelled = true;
	for (int k = 0; k < 6; k++) {
		int count = 1 + k % 3;
		gm_p2p(g, 0, count, right, 6998, WORLD, true);
		status1(gm_p2p(g, 1, count, left, 6998, WORLD, false), left, 6998, 4 * count);
	}
}

static void collective(gen_mpi *g, int comm, unsigned size, unsigned myrank)
{
	static const unsigned fns[] = {52, 53, 65, 62, 58, 60, 54, 56};
	unsigned fn = fns[gen_below(&g->shared, sizeof fns / sizeof fns[0])];
	int root = (int)gen_below(&g->shared, size);
	int count = 1 + (int)gen_below(&g->shared, 16);
	REC(g, fn, {"comm", comm}, {"count", count}, {"datatype", T_INT}, {"sendcount", count}, {"recvcount", count},
	    {"sendtype", T_INT}, {"recvtype", T_INT}, {"root", root}, {"commrank", myrank});
}

void gm_sendrecv(gen_mpi *g, int tag, int count)
{
	int left = left_of(g);
	gm_rec *r = REC(g, 33, {"sendcount", count}, {"sendtype", T_INT}, {"dest", right_of(g)}, {"sendtag", tag},
			{"recvcount", count}, {"recvtype", T_INT}, {"source", left}, {"recvtag", tag}, {"comm", WORLD});
	status1(r, left, tag, 4 * count);
}

static void persistent(gen_mpi *g, int tag, int count)
{
	int32_t rs = (int32_t)g->next_req++, rr = (int32_t)g->next_req++;
	gm_set(gm_p2p(g, 26, count, right_of(g), tag, WORLD, true), "request", rs);
	gm_set(gm_p2p(g, 30, count, left_of(g), tag, WORLD, false), "request", rr);
	for (int round = 0; round < 2; round++) {
		all2(g, 32, rs, rr);
		gm_set_status(all2(g, 18, rs, rr), "statuses", (int32_t[]){0, 0, left_of(g), tag}, 2, 4 * count);
	}
	REC(g, 15, {"request", rs});
	REC(g, 15, {"request", rr});
}

/* MPI_Comm_split(world, rank % 2, rank), then work inside the half. */
static void subcomm(gen_mpi *g, int tag)
{
	unsigned color = g->rank % 2, size = color ? g->n / 2 : (g->n + 1) / 2, me = g->rank / 2;
	int nc = (int)g->next_comm++;
	REC(g, 86, {"oldcomm", WORLD}, {"color", color}, {"key", g->rank}, {"newcomm", nc});
	REC(g, 81, {"comm", nc}, {"size", size});
	REC(g, 82, {"comm", nc}, {"rank", me});
	collective(g, nc, size, me);
	int right = (int)((me + 1) % size), left = (int)((me + size - 1) % size);
	gm_p2p(g, 0, 3, right, tag, nc, true);
	status1(gm_p2p(g, 1, 3, left, tag, nc, false), left, tag, 12);
	REC(g, 87, {"comm", nc});
}

static void dup_phase(gen_mpi *g)
{
	int nc = (int)g->next_comm++;
	REC(g, 84, {"oldcomm", WORLD}, {"newcomm", nc});
	collective(g, nc, g->n, g->rank);
	REC(g, 87, {"comm", nc});
}

static void type_phase(gen_mpi *g)
{
	int nt = (int)g->next_type++;
	REC(g, 35, {"count", 4}, {"oldtype", T_INT}, {"newtype", nt});
	REC(g, 46, {"datatype", nt});
	REC(g, 43, {"datatype", nt}, {"size", 16});
	REC(g, 47, {"datatype", nt});
}

/* Counted collectives on world, consistent unless `bend` names one to bend
 * on rank 0 ("alltoall", "gatherv", "scatterv", "allgatherv", "alltoallv",
 * "alltoallw", "exscan", "reduce-scatter"; "alltoallv-twice": two blocks of rank
 * 0's MPI_Alltoallv, whose sums alone would point at a third); "in-place" gives rank 0
 * MPI_IN_PLACE-like send sides (count 0, MPI_DATATYPE_NULL). Block sizes:
 * from rank i to rank j, i + j + 1 elements (v-variants), 8 (Alltoall). */
static void counted_phase(gen_mpi *g, const char *bend)
{
	unsigned n = g->n < GM_ARR ? g->n : GM_ARR, me = g->rank;
	bool r0 = me == 0;
	int32_t to[GM_ARR], from[GM_ARR], disp[GM_ARR] = {0};
	for (unsigned j = 0; j < n; j++) to[j] = from[j] = (int32_t)(me + j + 1);
	bool in_place = r0 && is(bend, "in-place");
	REC(g, 60, {"sendcount", in_place ? 0 : r0 && is(bend, "alltoall") ? 4 : 8}, {"sendtype", in_place ? 1 : T_INT},
	    {"recvcount", 8}, {"recvtype", T_INT}, {"comm", WORLD});
	/* MPI_Gatherv to root 1: rank i sends i + 2 elements */
	gm_rec *r = REC(g, 55, {"commrank", me}, {"commsize", n}, {"sendcount", r0 && is(bend, "gatherv") ? 3 : (int)me + 2},
			{"sendtype", in_place && me == 1 ? 1 : T_INT}, {"root", 1}, {"comm", WORLD}, {"recvtype", T_INT});
	int32_t expect[GM_ARR];
	for (unsigned j = 0; j < n; j++) expect[j] = (int32_t)j + 2;
	gm_set_arr(r, "recvcounts", expect, n);
	gm_set_arr(r, "displs", disp, n);
	/* MPI_Scatterv from root 1: rank i receives i + 2 elements */
	r = REC(g, 57, {"commrank", me}, {"commsize", n}, {"sendtype", T_INT},
		{"recvcount", r0 && is(bend, "scatterv") ? 7 : (int)me + 2},
		{"recvtype", T_INT}, {"root", 1}, {"comm", WORLD});
	gm_set_arr(r, "sendcounts", expect, n);
	gm_set_arr(r, "displs", disp, n);
	/* MPI_Allgatherv: rank i contributes i + 2 elements */
	r = REC(g, 59, {"commsize", n}, {"sendcount", in_place ? 0 : r0 && is(bend, "allgatherv") ? 5 : (int)me + 2},
		{"sendtype", in_place ? 1 : T_INT},
		{"recvtype", T_INT}, {"comm", WORLD});
	gm_set_arr(r, "recvcounts", expect, n);
	gm_set_arr(r, "displs", disp, n);
	/* MPI_Alltoallv */
	int32_t bent[GM_ARR];
	memcpy(bent, to, sizeof bent);
	if (r0 && is(bend, "alltoallv") && n > 1) bent[1] += 3;
	if (r0 && is(bend, "alltoallv-twice") && n > 3) bent[1] += 3, bent[3] += 3;
	r = REC(g, 61, {"commsize", n}, {"sendtype", in_place ? 1 : T_INT}, {"recvtype", T_INT}, {"comm", WORLD});
	gm_set_arr(r, "sendcounts", bent, n);
	gm_set_arr(r, "senddispls", disp, n);
	gm_set_arr(r, "recvcounts", from, n);
	gm_set_arr(r, "recvdispls", disp, n);
	/* MPI_Alltoallw with MPI_INT everywhere: the same blocks as MPI_Alltoallv */
	if (n > 2 && r0 && is(bend, "alltoallw")) to[2] -= 1; /* rank 0 sends rank 2 one element less */
	int32_t types[GM_ARR];
	for (unsigned j = 0; j < n; j++) types[j] = T_INT;
	r = REC(g, 155, {"commsize", n}, {"comm", WORLD});
	gm_set_arr(r, "sendcounts", to, n);
	gm_set_arr(r, "senddispls", disp, n);
	gm_set_arr(r, "sendtypes", types, n);
	gm_set_arr(r, "recvcounts", from, n);
	gm_set_arr(r, "recvdispls", disp, n);
	gm_set_arr(r, "recvtypes", types, n);
	REC(g, 156, {"count", r0 && is(bend, "exscan") ? 6 : 5}, {"datatype", T_INT}, {"op", 0}, {"comm", WORLD});
	/* MPI_Reduce_scatter: rank i gets i + 2 elements */
	r = REC(g, 66, {"commsize", n}, {"datatype", T_INT}, {"comm", WORLD});
	if (r0 && is(bend, "reduce-scatter")) expect[n - 1]++;
	gm_set_arr(r, "recvcounts", expect, n);
}

/* The bent phase of a --break (rank 0 only, or ranks 0 and 1 for the
 * cross-rank rules; touches nothing other ranks see). */
static void break_phase(gen_mpi *g)
{
	const char *b = g->brk;
	if (is(b, "dumpi.rec.range-triplet")) {
		gm_rec *r = REC(g, 78, {"count", 2}); /* MPI_Group_range_incl, two ranges */
		if (r) r->shape_break = b;
	} else if (is(b, "dumpi.rec.spawn-array-length") || is(b, "dumpi.rec.reader-hazard-argvs-null")) {
		gm_rec *r = REC(g, 136, {"oldcommrank", 0}, {"root", 0}, {"count", 2}); /* at the root */
		if (r) r->shape_break = b;
	} else if (is(b, "dumpi.mpi.count-negative")) {
		REC(g, 35, {"count", -5}, {"oldtype", T_INT}, {"newtype", (int)g->next_type++}); /* MPI_Type_contiguous(-5) */
	} else if (is(b, "dumpi.mpi.rank-range")) {
		gm_p2p(g, 0, 1, (int)g->n, 5, WORLD, true); /* a send to rank n of world */
	} else if (is(b, "dumpi.mpi.tag-range")) {
		/* a receive with tag -3, cancelled */
		int id = (int)g->next_req++;
		gm_set(gm_p2p(g, 12, 1, ANY_SOURCE, -3, WORLD, false), "request", id);
		REC(g, 24, {"request", id});
		gm_wait_req(g, id, 0, 0, 0)->cancelled = true;
	} else if (is(b, "dumpi.mpi.handle-freed")) {
		/* MPI_Comm_size on a freed duplicate, whose index a recorded
		 * MPI_Comm_dup returns again afterwards: nothing held it between */
		int nc = (int)g->next_comm++;
		REC(g, 84, {"oldcomm", SELF}, {"newcomm", nc});
		REC(g, 87, {"comm", nc});
		REC(g, 81, {"comm", nc}, {"size", 1});
		REC(g, 84, {"oldcomm", SELF}, {"newcomm", nc});
		REC(g, 87, {"comm", nc});
	} else if (is(b, "dumpi.mpi.request-unknown")) {
		/* a persistent receive started twice without a completion between */
		int id = (int)g->next_req++;
		gm_set(gm_p2p(g, 30, 1, ANY_SOURCE, 5, WORLD, false), "request", id);
		REC(g, 31, {"request", id});
		REC(g, 31, {"request", id});
		REC(g, 24, {"request", id});
		gm_wait_req(g, id, 0, 0, 0)->cancelled = true;
		REC(g, 15, {"request", id});
	} else if (is(b, "dumpi.mpi.request-unrecorded")) {
		/* a wait for a request no recorded call made (an MPI_Ibarrier, which libdumpi does not record) */
		gm_wait_req(g, 999, 0, 0, 0);
	} else if (is(b, "dumpi.mpi.send-unmatched") || is(b, "dumpi.mpi.wildcard-unresolved")) {
		/* rank 0 sends to rank 1; for the wildcard, rank 1 takes it with MPI_ANY_SOURCE and no status */
		int tag = is(b, "dumpi.mpi.send-unmatched") ? 7777 : 7779;
		if (g->rank == 0) gm_p2p(g, 0, 2, 1, tag, WORLD, true);
		if (g->rank == 1 && tag == 7779)
			gm_set_status(gm_p2p(g, 1, 2, ANY_SOURCE, tag, WORLD, false), "status", (int32_t[]){0, 0}, 0, 0);
	} else if (is(b, "dumpi.mpi.recv-unmatched")) {
		if (g->rank == 1) status1(gm_p2p(g, 1, 2, 0, 7777, WORLD, false), 0, 7777, 8);
	} else if (is(b, "dumpi.mpi.truncation")) {
		if (g->rank == 0) gm_p2p(g, 0, 8, 1, 7778, WORLD, true);
		if (g->rank == 1) status1(gm_p2p(g, 1, 4, 0, 7778, WORLD, false), 0, 7778, 16);
	} else if (is(b, "dumpi.mpi.coll-sequence")) {
		if (g->rank == 0) REC(g, 52, {"comm", WORLD});
	} else if (is(b, "dumpi.mpi.coll-root") || is(b, "dumpi.mpi.coll-count")) {
		bool root = is(b, "dumpi.mpi.coll-root");
		REC(g, root ? 53 : 65, {"comm", WORLD}, {"datatype", T_INT}, {"count", !root && g->rank == 0 ? 4 : 8},
		    {"root", root && g->rank == 0 ? 1 : 0});
	} else if (b && strncmp(b, "dumpi.mpi.coll-count~", 21) == 0) {
		counted_phase(g, b + 21);
	} else if (is(b, "dumpi.mpi.comm-predefined-freed")) {
		REC(g, 87, {"comm", WORLD}); /* MPI_Comm_free(MPI_COMM_WORLD) */
	} else if (is(b, "dumpi.mpi.type-predefined-freed")) {
		REC(g, 47, {"datatype", T_INT}); /* MPI_Type_free(MPI_INT) */
	} else if (is(b, "dumpi.mpi.comm-unreconstructed")) {
		/* MPI_Comm_create: the group's contents are not in the trace */
		int nc = (int)g->next_comm++;
		REC(g, 85, {"oldcomm", WORLD}, {"group", 3}, {"newcomm", nc});
		REC(g, 87, {"comm", nc});
	} else if (is(b, "dumpi.mpi.request-leaked")) {
		/* an MPI_Irecv never waited: its id is created again (a shared
		 * handle) and that second instance completes (cancelled), so only
		 * a count of live instances per id sees the first one leak */
		int id = (int)g->next_req++;
		gm_set(gm_p2p(g, 12, 1, ANY_SOURCE, 5, WORLD, false), "request", id);
		gm_set(gm_p2p(g, 12, 1, ANY_SOURCE, 6, WORLD, false), "request", id);
		gm_wait_req(g, id, 0, 0, 0)->cancelled = true;
	} else if (is(b, "dumpi.mpi.request-leaked~many")) {
		/* 25 receives never waited for: 20 are listed, the rest counted */
		for (int i = 0; i < 25; i++)
			gm_set(gm_p2p(g, 12, 1, ANY_SOURCE, 5, WORLD, false), "request", (int)g->next_req++);
	}
}

/* --unrecorded: correct program steps whose calls libdumpi does not record
 * (the record shows only what is around them), in turn:
 *  0. a nonblocking collective (MPI_Ibarrier) waited for: its request gets
 *     the handle the last completed request had under MPICH (one recycled
 *     pool), a handle the trace never saw under Open MPI;
 *  1. a matched probe and receive (MPI_Mprobe, MPI_Mrecv) of the left
 *     neighbour's message: only MPI_Get_count on the probe's status is
 *     recorded, so the neighbour's send looks unmatched;
 *  2. a communicator made by MPI_Comm_split_type after a recorded one was
 *     freed: it gets the freed index;
 *  3. a datatype made by MPI_Type_create_hindexed_block, likewise. */
static void unrecorded_phase(gen_mpi *g, unsigned which, int tag, int count)
{
	int left = left_of(g), right = right_of(g);
	switch (which % 4) {
	case 0: {
		int32_t ra = (int32_t)g->next_req++, rb = (int32_t)g->next_req++;
		gm_set(gm_p2p(g, 12, count, left, tag, WORLD, false), "request", ra);
		gm_set(gm_p2p(g, 8, count, right, tag, WORLD, true), "request", rb);
		gm_rec *r = REC(g, 18, {"count", 2});
		gm_set_arr(r, "requests", (int32_t[]){ra, rb}, 2);
		gm_set_status(r, "statuses", (int32_t[]){left, tag, 0, 0}, 2, 4 * count);
		/* MPI_Ibarrier(world, &req) */
		gm_wait_req(g, g->mpich ? rb : (int32_t)g->next_req++, 0, 0, 0);
		break;
	}
	case 1:
		for (int k = 0; k < 2; k++) {
			int32_t rs = (int32_t)g->next_req++;
			gm_set(gm_p2p(g, 8, count, right, tag, WORLD, true), "request", rs);
			/* MPI_Mprobe(left, tag, world, &msg, &st) */
			status1(REC(g, 2, {"datatype", T_INT}, {"count", count}), left, tag, 4 * count);
			/* MPI_Mrecv(buf, count, MPI_INT, &msg, MPI_STATUS_IGNORE) */
			gm_wait_req(g, rs, 0, 0, 0);
		}
		break;
	case 2: {
		int nc = (int)g->next_comm++;
		REC(g, 84, {"oldcomm", WORLD}, {"newcomm", nc});
		REC(g, 52, {"comm", nc});
		REC(g, 87, {"comm", nc});
		/* MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, info, &nc) */
		REC(g, 65, {"comm", nc}, {"datatype", T_INT}, {"count", 1});
		REC(g, 52, {"comm", nc});
		REC(g, 87, {"comm", nc});
		break;
	}
	default: {
		int nt = (int)g->next_type++;
		REC(g, 35, {"count", 4}, {"oldtype", T_INT}, {"newtype", nt});
		REC(g, 46, {"datatype", nt});
		REC(g, 47, {"datatype", nt});
		/* MPI_Type_create_hindexed_block(2, 2, disp, MPI_INT, &nt) */
		REC(g, 46, {"datatype", nt});
		gm_rec *r = REC(g, 33, {"sendcount", 1}, {"sendtype", nt}, {"dest", right}, {"sendtag", tag},
				{"recvcount", 1}, {"recvtype", nt}, {"source", left}, {"recvtag", tag}, {"comm", WORLD});
		status1(r, left, tag, 16);
		REC(g, 47, {"datatype", nt});
		break;
	}
	}
}

static void next_phase(gen_mpi *g)
{
	int tag = 100 + (int)(g->phase % 16); /* few tags, as real programs use */
	int count = 1 + (int)gen_below(&g->shared, 64);
	if (g->unrecorded && g->phase % 4 == 1) {
		unrecorded_phase(g, g->phase / 4, tag, count);
		g->phase++;
		return;
	}
	unsigned kind = (unsigned)gen_below(&g->shared, 10);
	/* programs make their communicators early, not one per iteration */
	if ((kind == 5 || kind == 6) && g->phase >= 256) kind = 2;
	switch (kind) {
	case 0: ring(g, tag, count); break;
	case 1: nonblocking(g, tag, count, false); break;
	case 2: collective(g, WORLD, g->n, g->rank); break;
	case 3: gm_sendrecv(g, tag, count); break;
	case 4: persistent(g, tag, count); break;
	case 5: subcomm(g, tag); break;
	case 6: dup_phase(g); break;
	case 7: nonblocking(g, tag, count, true); break;
	case 8: type_phase(g); break;
	default: /* Function_enter / exit annotations */
		REC(g, 291, {"fn", 0x401000});
		REC(g, 292, {"fn", 0x401000});
		break;
	}
	g->phase++;
}

static void all_functions_next(gen_mpi *g)
{
	/* every id with a layout, in order, with neutral arguments */
	while (g->all_id < DUMPI_NFUNCS) {
		unsigned id = g->all_id++;
		const dumpi_layout *L = dumpi_layout_of(id);
		if (!L || !L->decodable || id == 124 || id == 125 || id == DUMPI_ALL_FUNCTIONS) continue;
		gm_rec *r = gm_push(g, id);
		/* destructors get a user handle: predefined ones cannot be freed */
		if (id == 87 || id == 132) gm_set(r, "comm", FIRST_COMM + 40 + (id == 132));
		if (id == 47) gm_set(r, "datatype", FIRST_TYPE + 40);
		return;
	}
}

bool gen_mpi_next(gen_mpi *g, gm_rec *out)
{
	while (!g->qn) {
		if (g->finished) return false;
		if (!g->started) {
			g->started = true;
			gm_push(g, 124);
			REC(g, 82, {"comm", WORLD}, {"rank", g->rank});
			REC(g, 81, {"comm", WORLD}, {"size", g->n});
		} else if (g->fl_waited < g->inflight) {
			/* --in-flight: post every pair first, then wait for them in order */
			int left = left_of(g);
			if (!g->fl_posted) g->fl_first = g->next_req;
			if (g->fl_posted < g->inflight) {
				gm_set(gm_p2p(g, 12, 4, left, 50, WORLD, false), "request", (int32_t)g->next_req++);
				gm_set(gm_p2p(g, 8, 4, right_of(g), 50, WORLD, true), "request", (int32_t)g->next_req++);
				g->fl_posted++;
			} else {
				for (int k = 0; k < 2; k++)
					gm_wait_req(g, (int32_t)(g->fl_first + 2 * g->fl_waited + (unsigned)k), k ? 0 : left, k ? 0 : 50, 16);
				g->fl_waited++;
			}
		} else if (g->rc_done < g->request_calls) {
			request_calls(g, g->rc_done++);
		} else if (g->rank == 0 && g->n >= 2 && g->um_sent < g->unmatched) {
			/* --unmatched: each its own tag, so every one is a channel of its own */
			gm_p2p(g, 0, 4, 1, (int)(100000 + g->um_sent), WORLD, true);
			g->um_sent++;
		} else if (g->all ? g->all_id < DUMPI_NFUNCS : g->phase < g->phases) {
			if (g->brk && !g->broke && g->phase >= g->phases / 2 && (g->n >= 2 || !gen_mpi_trace_breaks(g->brk))) {
				g->broke = true;
				break_phase(g);
			}
			if (g->all) all_functions_next(g);
			else if (g->stencil) gen_mpi_stencil_phase(g), g->phase++;
			else if (g->lammps) gen_mpi_lammps_phase(g), g->phase++;
			else next_phase(g);
		} else {
			g->finished = true;
			if (!is(g->brk, "dumpi.mpi.finalize-missing")) {
				gm_push(g, 125);
			} else { /* the stream ends cleanly, without MPI_Finalize */
				REC(g, 82, {"comm", WORLD}, {"rank", g->rank});
			}
		}
	}
	*out = g->q[g->qh];
	g->qh = (g->qh + 1) % (sizeof g->q / sizeof g->q[0]);
	g->qn--;
	return true;
}
