/* The common collectives' paths with their fields at libdumpi's places
 * (mpi/fused.c, mpi_fused_coll_path: MPI_Barrier, MPI_Bcast, MPI_Gather,
 * MPI_Scatter, MPI_Allgather, MPI_Alltoall, MPI_Reduce, MPI_Allreduce,
 * MPI_Scan, MPI_Exscan) must judge a rank as the role-indexed path that
 * reads them through each function's roles (mpi_fused_coll, whose counts
 * colls.c's mpi_coll_enter finds) judges it. The same records, drawn from
 * counts, datatypes (built-in, user, freed, null), roots (inside, outside,
 * the constants DUMPI writes), communicators (world, self, a duplicate,
 * one never made) and the root's own fields present or not, are fed to
 * two ranks, one of them with mpi_fused_coll as every collective's path,
 * and the reports (evaluations and findings) and the communicator
 * instances (digests, calls, the kept calls) are compared. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpi/mpi/checks.h"
#include "mpi_feed.h"
#include "tap.h"

enum { COMM_SIZE = 81, COMM_RANK = 82, COMM_DUP = 84, CONTIGUOUS = 35, TYPE_FREE = 47 };
static const unsigned colls[] = {52, 53, 54, 56, 58, 60, 62, 65, 67, 156};

/* One record's values, by field name; commrank == root makes the root's
 * own fields (root-only) present, as the walk's decoder does. */
typedef struct vals {
	int64_t count, sendcount, recvcount, root, commrank;
	uint64_t datatype, sendtype, recvtype, comm, newcomm, size, rank, oldtype, newtype;
} vals;

static bool value(const dumpi_field *f, void *ctx, uint64_t *v)
{
	const vals *x = ctx;
	if (f->root_only && x->commrank != x->root) return false;
	static const struct { const char *name; size_t at; bool i32; } names[] = {
		{"count", offsetof(vals, count), true},       {"sendcount", offsetof(vals, sendcount), true},
		{"recvcount", offsetof(vals, recvcount), true}, {"root", offsetof(vals, root), true},
		{"commrank", offsetof(vals, commrank), true}, {"datatype", offsetof(vals, datatype), false},
		{"sendtype", offsetof(vals, sendtype), false}, {"recvtype", offsetof(vals, recvtype), false},
		{"comm", offsetof(vals, comm), false},         {"newcomm", offsetof(vals, newcomm), false},
		{"size", offsetof(vals, size), false},         {"rank", offsetof(vals, rank), false},
		{"oldtype", offsetof(vals, oldtype), false},   {"newtype", offsetof(vals, newtype), false},
	};
	*v = 0;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		if (!mpi_field_is(f, names[k].name)) continue;
		const char *p = (const char *)x + names[k].at;
		if (names[k].i32) {
			int64_t s;
			memcpy(&s, p, sizeof s);
			*v = (uint32_t)(int32_t)s;
		} else {
			memcpy(v, p, sizeof *v);
		}
	}
	return true;
}

typedef struct rank_run {
	hv_blob b;
	hv_report rep;
	mpi_rank *m;
	uint64_t next;
	dumpi_layer_path *paths[DUMPI_NFUNCS];
} rank_run;

/* A rank; `roles`: every collective through mpi_fused_coll. */
static void start(rank_run *t, bool roles)
{
	static const uint8_t empty[1];
	t->m = mpi_feed_rank(&t->rep, &t->b, empty, 0, 100000);
	t->next = 0;
	if (!roles || !t->m) return;
	memcpy(t->paths, t->m->entry.paths, sizeof t->paths);
	for (size_t k = 0; k < sizeof colls / sizeof colls[0]; k++) t->paths[colls[k]] = mpi_fused_coll;
	t->m->entry.paths = t->paths;
}

static void feed(rank_run *t, unsigned fn, vals *x) { mpi_feed(t->m, t->next++, fn, value, x); }

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static const char *same_reports(const hv_report *a, const hv_report *b)
{
	if (memcmp(a->evaluated, b->evaluated, sizeof a->evaluated)) return "evaluations";
	if (a->ndiags != b->ndiags) return "number of findings";
	for (size_t i = 0; i < a->ndiags; i++) {
		const hv_diag *x = &a->diags[i], *y = &b->diags[i];
		if (x->rule != y->rule || x->offset != y->offset || strcmp(x->msg, y->msg)) return "a finding";
	}
	return NULL;
}

static const char *same_instances(const mpi_rank *a, const mpi_rank *b)
{
	if (a->ninst != b->ninst) return "number of instances";
	for (uint32_t i = 0; i < a->ninst; i++) {
		const mpi_inst *x = &a->inst[i], *y = &b->inst[i];
		if (x->ncoll != y->ncoll || x->digest != y->digest || x->cdigest != y->cdigest || x->cmixed != y->cmixed ||
		    x->coll_rec != y->coll_rec || x->coll_off != y->coll_off || x->ref.max != y->ref.max)
			return "an instance's digests";
		uint64_t kept = x->ncoll < COLL_KEEP ? x->ncoll : COLL_KEEP;
		if (!x->ops || !y->ops) {
			if (x->ops != y->ops) return "kept calls";
			continue;
		}
		for (uint64_t k = 0; k < kept; k++) {
			const mpi_coll *p = &x->ops[k], *q = &y->ops[k];
			if (p->fn != q->fn || p->dtype != q->dtype || p->root != q->root || p->count != q->count ||
			    p->count2 != q->count2 || p->role0 != q->role0 || p->role1 != q->role1 ||
			    p->vflags != q->vflags || p->vself != q->vself || p->rec != q->rec || p->off != q->off)
				return "a kept call";
		}
	}
	return NULL;
}

int main(void)
{
	for (uint64_t seed = 1; seed <= 40; seed++) {
		rank_run t[2];
		start(&t[0], false);
		start(&t[1], true);
		CHECK(t[0].m && t[1].m, "seed %llu: ranks made", (unsigned long long)seed);
		if (!t[0].m || !t[1].m) return 1;
		CHECK(t[0].m->entry.paths[53] != mpi_fused_coll && t[0].m->entry.paths[54] != mpi_fused_coll,
		      "seed %llu: MPI_Bcast and MPI_Gather take paths of their own", (unsigned long long)seed);
		uint64_t s = seed;
		/* set-up, alike in both: the world's size unless the seed says
		 * not (roots then kept for the cross-rank stage), a duplicate
		 * (comm 4), datatypes 40 (made) and 41 (made and freed) */
		for (int r = 0; r < 2; r++) {
			vals x = {.comm = MPI_D_COMM_WORLD, .size = 4, .rank = 1, .newcomm = 4, .count = 2,
				  .oldtype = 9, .root = -9, .commrank = -8};
			if (seed % 4) feed(&t[r], COMM_SIZE, &x);
			feed(&t[r], COMM_RANK, &x);
			feed(&t[r], COMM_DUP, &x);
			x.newtype = 40;
			feed(&t[r], CONTIGUOUS, &x);
			x.newtype = 41;
			feed(&t[r], CONTIGUOUS, &x);
			x.datatype = 41;
			feed(&t[r], TYPE_FREE, &x);
		}
		static const int64_t counts[] = {3, 8, 0, -1, 3, 8};
		static const uint64_t types[] = {9, 10, 9, 1, 0, 40, 41, 9};
		static const int64_t roots[] = {0, 1, 3, 1, 5, -1, -2, 0};
		static const uint64_t comms[] = {MPI_D_COMM_WORLD, MPI_D_COMM_WORLD, 4, MPI_D_COMM_SELF, 77};
		for (unsigned i = 0; i < 300; i++) {
			vals x;
			x.count = counts[lcg(&s) % 6];
			x.sendcount = counts[lcg(&s) % 6];
			x.recvcount = counts[lcg(&s) % 6];
			x.datatype = types[lcg(&s) % 8];
			x.sendtype = types[lcg(&s) % 8];
			x.recvtype = types[lcg(&s) % 8];
			x.root = roots[lcg(&s) % 8];
			x.commrank = lcg(&s) % 2 ? x.root : (x.root + 1) % 4;
			x.comm = comms[lcg(&s) % 5];
			unsigned fn = colls[lcg(&s) % (sizeof colls / sizeof colls[0])];
			for (int r = 0; r < 2; r++) {
				vals y = x;
				feed(&t[r], fn, &y);
			}
		}
		const char *why = same_instances(t[0].m, t[1].m);
		CHECK(!why, "seed %llu: instances alike (%s)", (unsigned long long)seed, why ? why : "-");
		why = same_reports(&t[0].rep, &t[1].rep);
		CHECK(!why, "seed %llu: reports alike before the end (%s)", (unsigned long long)seed, why ? why : "-");
		for (int r = 0; r < 2; r++) mpi_feed_end(t[r].m, &t[r].next);
		why = same_reports(&t[0].rep, &t[1].rep);
		CHECK(!why, "seed %llu: reports alike at the end (%s)", (unsigned long long)seed, why ? why : "-");
		for (int r = 0; r < 2; r++) mpi_feed_free(t[r].m, &t[r].rep);
	}
	TAP_DONE();
}
