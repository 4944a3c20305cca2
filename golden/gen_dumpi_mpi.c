/* The SPMD program written into generated DUMPI traces (see gen_dumpi_mpi.h).
 * Every rank draws the same phases from a shared generator, so collectives
 * line up and every send has its receive; a --break of a dumpi.mpi.* rule
 * adds one bent phase on rank 0 that violates exactly that rule. */
#include <string.h>

#include "gen_dumpi_mpi.h"

static bool is(const char *a, const char *b) { return a && strcmp(a, b) == 0; }

/* DUMPI's encodings (validator/dumpi/mpi_check.h). */
enum { WORLD = 2, SELF = 3, FIRST_COMM = 4, REQ_NULL = 1, FIRST_REQ = 2, T_INT = 9, FIRST_TYPE = 28 };
#define PROC_NULL (-2) /* Open MPI's MPI_PROC_NULL, as libdumpi writes it */

static const char *const mpi_breaks[] = {
	"dumpi.mpi.count-negative", "dumpi.mpi.rank-range", "dumpi.mpi.tag-range",
	"dumpi.mpi.handle-freed", "dumpi.mpi.request-unknown", "dumpi.mpi.request-leaked",
	"dumpi.mpi.finalize-missing", NULL,
};
/* Rules that need several ranks (written as dumpi-trace). */
static const char *const mpi_trace_breaks[] = {
	"dumpi.mpi.send-unmatched", "dumpi.mpi.recv-unmatched", "dumpi.mpi.truncation",
	"dumpi.mpi.coll-sequence", "dumpi.mpi.coll-root", "dumpi.mpi.coll-count",
	"dumpi.mpi.comm-unreconstructed", "dumpi.mpi.wildcard-unresolved", NULL,
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
		if (name_is(f, "dest") || name_is(f, "source")) return PROC_NULL;
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

/* ---- building records ---- */

static gm_rec *push(gen_mpi *g, unsigned fn)
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

static void set(gm_rec *r, const char *name, int64_t v)
{
	int i = r ? field(r->fn, name) : -1;
	if (i < 0) return;
	r->set[i] = true;
	r->v[i] = v;
}

static void set_arr(gm_rec *r, const char *name, const int32_t *v, unsigned n)
{
	int i = r ? field(r->fn, name) : -1;
	if (i < 0) return;
	if (n > GM_ARR) n = GM_ARR;
	r->aset[i] = true;
	r->alen[i] = (uint8_t)n;
	memcpy(r->arr[i], v, n * sizeof *v);
}

/* Statuses: (source, tag) pairs. */
static void set_status(gm_rec *r, const char *name, const int32_t *src_tag, unsigned n, int32_t bytes)
{
	int i = r ? field(r->fn, name) : -1;
	if (i < 0) return;
	if (n > GM_ARR) n = GM_ARR;
	r->aset[i] = true;
	r->alen[i] = (uint8_t)n;
	memcpy(r->arr[i], src_tag, 2 * n * sizeof *src_tag);
	r->bytes = bytes;
}

static void p2p(gm_rec *r, int count, int type, int peer, int tag, int comm, bool send)
{
	set(r, "count", count);
	set(r, "datatype", type);
	set(r, send ? "dest" : "source", peer);
	set(r, "tag", tag);
	set(r, "comm", comm);
}

/* ---- the phases ---- */

static void ring(gen_mpi *g, int tag, int count)
{
	int right = (int)((g->rank + 1) % g->n), left = (int)((g->rank + g->n - 1) % g->n);
	p2p(push(g, 0), count, T_INT, right, tag, WORLD, true);
	gm_rec *r = push(g, 1);
	p2p(r, count, T_INT, left, tag, WORLD, false);
	set_status(r, "status", (int32_t[]){left, tag}, 1, 4 * count);
}

static void nonblocking(gen_mpi *g, int tag, int count, bool test_first)
{
	int right = (int)((g->rank + 1) % g->n), left = (int)((g->rank + g->n - 1) % g->n);
	int32_t ra = (int32_t)g->next_req++, rb = (int32_t)g->next_req++;
	gm_rec *r = push(g, 12);
	p2p(r, count, T_INT, left, tag, WORLD, false);
	set(r, "request", ra);
	r = push(g, 8);
	p2p(r, count, T_INT, right, tag, WORLD, true);
	set(r, "request", rb);
	if (test_first) {
		r = push(g, 14); /* MPI_Test, not yet complete */
		set(r, "request", ra);
		set(r, "flag", 0);
		set_status(r, "status", (int32_t[]){0, 0}, 1, 0);
		r = push(g, 13);
		set(r, "request", rb);
		set_status(r, "status", (int32_t[]){0, 0}, 1, 0);
		r = push(g, 13);
		set(r, "request", ra);
		set_status(r, "status", (int32_t[]){left, tag}, 1, 4 * count);
		return;
	}
	r = push(g, 18);
	set(r, "count", 2);
	set_arr(r, "requests", (int32_t[]){ra, rb}, 2);
	set_status(r, "statuses", (int32_t[]){left, tag, 0, 0}, 2, 4 * count);
}

static void collective(gen_mpi *g, int comm, unsigned size, unsigned myrank)
{
	static const unsigned fns[] = {52, 53, 65, 62, 58, 60, 54, 56};
	unsigned fn = fns[gen_below(&g->shared, sizeof fns / sizeof fns[0])];
	int root = (int)gen_below(&g->shared, size);
	int count = 1 + (int)gen_below(&g->shared, 16);
	gm_rec *r = push(g, fn);
	set(r, "comm", comm);
	set(r, "count", count);
	set(r, "datatype", T_INT);
	set(r, "sendcount", count);
	set(r, "recvcount", count);
	set(r, "sendtype", T_INT);
	set(r, "recvtype", T_INT);
	set(r, "root", root);
	set(r, "commrank", myrank);
}

static void sendrecv(gen_mpi *g, int tag, int count)
{
	int right = (int)((g->rank + 1) % g->n), left = (int)((g->rank + g->n - 1) % g->n);
	gm_rec *r = push(g, 33);
	set(r, "sendcount", count);
	set(r, "sendtype", T_INT);
	set(r, "dest", right);
	set(r, "sendtag", tag);
	set(r, "recvcount", count);
	set(r, "recvtype", T_INT);
	set(r, "source", left);
	set(r, "recvtag", tag);
	set(r, "comm", WORLD);
	set_status(r, "status", (int32_t[]){left, tag}, 1, 4 * count);
}

static void persistent(gen_mpi *g, int tag, int count)
{
	int right = (int)((g->rank + 1) % g->n), left = (int)((g->rank + g->n - 1) % g->n);
	int32_t rs = (int32_t)g->next_req++, rr = (int32_t)g->next_req++;
	gm_rec *r = push(g, 26);
	p2p(r, count, T_INT, right, tag, WORLD, true);
	set(r, "request", rs);
	r = push(g, 30);
	p2p(r, count, T_INT, left, tag, WORLD, false);
	set(r, "request", rr);
	for (int round = 0; round < 2; round++) {
		r = push(g, 32);
		set(r, "count", 2);
		set_arr(r, "requests", (int32_t[]){rs, rr}, 2);
		r = push(g, 18);
		set(r, "count", 2);
		set_arr(r, "requests", (int32_t[]){rs, rr}, 2);
		set_status(r, "statuses", (int32_t[]){0, 0, left, tag}, 2, 4 * count);
	}
	set(push(g, 15), "request", rs);
	set(push(g, 15), "request", rr);
}

/* MPI_Comm_split(world, rank % 2, rank), then work inside the half. */
static void subcomm(gen_mpi *g, int tag)
{
	unsigned color = g->rank % 2, size = color ? g->n / 2 : (g->n + 1) / 2, me = g->rank / 2;
	int nc = (int)g->next_comm++;
	gm_rec *r = push(g, 86);
	set(r, "oldcomm", WORLD);
	set(r, "color", color);
	set(r, "key", g->rank);
	set(r, "newcomm", nc);
	r = push(g, 81);
	set(r, "comm", nc);
	set(r, "size", size);
	r = push(g, 82);
	set(r, "comm", nc);
	set(r, "rank", me);
	collective(g, nc, size, me);
	int right = (int)((me + 1) % size), left = (int)((me + size - 1) % size);
	p2p(push(g, 0), 3, T_INT, right, tag, nc, true);
	r = push(g, 1);
	p2p(r, 3, T_INT, left, tag, nc, false);
	set_status(r, "status", (int32_t[]){left, tag}, 1, 12);
	set(push(g, 87), "comm", nc);
}

static void dup_phase(gen_mpi *g)
{
	int nc = (int)g->next_comm++;
	gm_rec *r = push(g, 84);
	set(r, "oldcomm", WORLD);
	set(r, "newcomm", nc);
	collective(g, nc, g->n, g->rank);
	set(push(g, 87), "comm", nc);
}

static void type_phase(gen_mpi *g)
{
	int nt = (int)g->next_type++;
	gm_rec *r = push(g, 35);
	set(r, "count", 4);
	set(r, "oldtype", T_INT);
	set(r, "newtype", nt);
	set(push(g, 46), "datatype", nt);
	r = push(g, 43);
	set(r, "datatype", nt);
	set(r, "size", 16);
	set(push(g, 47), "datatype", nt);
}

/* The bent phase of a --break (rank 0 only; touches nothing other ranks see). */
static void break_phase(gen_mpi *g)
{
	const char *b = g->brk;
	gm_rec *r;
	if (is(b, "dumpi.mpi.count-negative")) {
		r = push(g, 35); /* MPI_Type_contiguous(-5, ...) */
		set(r, "count", -5);
		set(r, "oldtype", T_INT);
		set(r, "newtype", (int)g->next_type++);
	} else if (is(b, "dumpi.mpi.rank-range")) {
		r = push(g, 0); /* a send to rank n of world */
		p2p(r, 1, T_INT, (int)g->n, 5, WORLD, true);
	} else if (is(b, "dumpi.mpi.tag-range")) {
		r = push(g, 0); /* a send with tag -3 to MPI_PROC_NULL */
		p2p(r, 1, T_INT, PROC_NULL, -3, WORLD, true);
	} else if (is(b, "dumpi.mpi.handle-freed")) {
		int nc = (int)g->next_comm++;
		r = push(g, 84);
		set(r, "oldcomm", SELF);
		set(r, "newcomm", nc);
		set(push(g, 87), "comm", nc);
		r = push(g, 81); /* MPI_Comm_size on the freed duplicate */
		set(r, "comm", nc);
		set(r, "size", 1);
	} else if (is(b, "dumpi.mpi.request-unknown")) {
		r = push(g, 13);
		set(r, "request", 999);
		set_status(r, "status", (int32_t[]){0, 0}, 1, 0);
	} else if (is(b, "dumpi.mpi.send-unmatched") || is(b, "dumpi.mpi.wildcard-unresolved")) {
		/* rank 0 sends to rank 1; for the wildcard, rank 1 takes it with MPI_ANY_SOURCE and no status */
		int tag = is(b, "dumpi.mpi.send-unmatched") ? 7777 : 7779;
		if (g->rank == 0) p2p(push(g, 0), 2, T_INT, 1, tag, WORLD, true);
		if (g->rank == 1 && tag == 7779) {
			r = push(g, 1);
			p2p(r, 2, T_INT, -1, tag, WORLD, false);
			set_status(r, "status", (int32_t[]){0, 0}, 0, 0);
		}
	} else if (is(b, "dumpi.mpi.recv-unmatched")) {
		if (g->rank == 1) {
			r = push(g, 1);
			p2p(r, 2, T_INT, 0, 7777, WORLD, false);
			set_status(r, "status", (int32_t[]){0, 7777}, 1, 8);
		}
	} else if (is(b, "dumpi.mpi.truncation")) {
		if (g->rank == 0) p2p(push(g, 0), 8, T_INT, 1, 7778, WORLD, true);
		if (g->rank == 1) {
			r = push(g, 1);
			p2p(r, 4, T_INT, 0, 7778, WORLD, false);
			set_status(r, "status", (int32_t[]){0, 7778}, 1, 16);
		}
	} else if (is(b, "dumpi.mpi.coll-sequence")) {
		if (g->rank == 0) set(push(g, 52), "comm", WORLD);
	} else if (is(b, "dumpi.mpi.coll-root") || is(b, "dumpi.mpi.coll-count")) {
		bool root = is(b, "dumpi.mpi.coll-root");
		r = push(g, root ? 53 : 65);
		set(r, "comm", WORLD);
		set(r, "datatype", T_INT);
		set(r, "count", !root && g->rank == 0 ? 4 : 8);
		set(r, "root", root && g->rank == 0 ? 1 : 0);
	} else if (is(b, "dumpi.mpi.comm-unreconstructed")) {
		/* MPI_Comm_create: the group's contents are not in the trace */
		int nc = (int)g->next_comm++;
		r = push(g, 85);
		set(r, "oldcomm", WORLD);
		set(r, "group", 3);
		set(r, "newcomm", nc);
		set(push(g, 87), "comm", nc);
	} else if (is(b, "dumpi.mpi.request-leaked")) {
		r = push(g, 12); /* an MPI_Irecv from MPI_PROC_NULL never waited */
		p2p(r, 1, T_INT, PROC_NULL, 5, WORLD, false);
		set(r, "request", (int)g->next_req++);
	}
}

static void next_phase(gen_mpi *g)
{
	int tag = 100 + (int)(g->phase % 16); /* few tags, as real programs use */
	int count = 1 + (int)gen_below(&g->shared, 64);
	unsigned kind = (unsigned)gen_below(&g->shared, 10);
	/* programs make their communicators early, not one per iteration */
	if ((kind == 5 || kind == 6) && g->phase >= 256) kind = 2;
	switch (kind) {
	case 0: ring(g, tag, count); break;
	case 1: nonblocking(g, tag, count, false); break;
	case 2: collective(g, WORLD, g->n, g->rank); break;
	case 3: sendrecv(g, tag, count); break;
	case 4: persistent(g, tag, count); break;
	case 5: subcomm(g, tag); break;
	case 6: dup_phase(g); break;
	case 7: nonblocking(g, tag, count, true); break;
	case 8: type_phase(g); break;
	default: {
		gm_rec *r = push(g, 291); /* Function_enter / exit annotations */
		set(r, "fn", 0x401000);
		r = push(g, 292);
		set(r, "fn", 0x401000);
		break;
	}
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
		push(g, id);
		return;
	}
}

bool gen_mpi_next(gen_mpi *g, gm_rec *out)
{
	while (!g->qn) {
		if (g->finished) return false;
		if (!g->started) {
			g->started = true;
			push(g, 124);
			gm_rec *r = push(g, 82);
			set(r, "comm", WORLD);
			set(r, "rank", g->rank);
			r = push(g, 81);
			set(r, "comm", WORLD);
			set(r, "size", g->n);
		} else if (g->fl_waited < g->inflight) {
			/* --in-flight: post every pair first, then wait for them in order */
			int right = (int)((g->rank + 1) % g->n), left = (int)((g->rank + g->n - 1) % g->n);
			if (!g->fl_posted) g->fl_first = g->next_req;
			if (g->fl_posted < g->inflight) {
				gm_rec *r = push(g, 12);
				p2p(r, 4, T_INT, left, 50, WORLD, false);
				set(r, "request", (int32_t)g->next_req++);
				r = push(g, 8);
				p2p(r, 4, T_INT, right, 50, WORLD, true);
				set(r, "request", (int32_t)g->next_req++);
				g->fl_posted++;
			} else {
				for (int k = 0; k < 2; k++) {
					gm_rec *r = push(g, 13);
					set(r, "request", (int32_t)(g->fl_first + 2 * g->fl_waited + (unsigned)k));
					set_status(r, "status", (int32_t[]){k ? 0 : left, k ? 0 : 50}, 1, 16);
				}
				g->fl_waited++;
			}
		} else if (g->all ? g->all_id < DUMPI_NFUNCS : g->phase < g->phases) {
			if (g->brk && !g->broke && g->phase >= g->phases / 2 && (g->n >= 2 || !gen_mpi_trace_breaks(g->brk))) {
				g->broke = true;
				break_phase(g);
			}
			if (g->all) all_functions_next(g);
			else next_phase(g);
		} else {
			g->finished = true;
			if (!is(g->brk, "dumpi.mpi.finalize-missing")) {
				push(g, 125);
			} else { /* the stream ends cleanly, without MPI_Finalize */
				gm_rec *r = push(g, 82);
				set(r, "comm", WORLD);
				set(r, "rank", g->rank);
			}
		}
	}
	*out = g->q[g->qh];
	g->qh = (g->qh + 1) % (sizeof g->q / sizeof g->q[0]);
	g->qn--;
	return true;
}
