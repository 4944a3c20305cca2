#include "units.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/fileio.h"
#include "core/alloc.h"
#include "exchange.h"

static void out_of_memory(void)
{
	fputs("hpcvet-mpi: out of memory planning the units\n", stderr);
	MPI_Abort(MPI_COMM_WORLD, 4);
}

typedef struct own_units {
	const hv_units *u;
	size_t *idx;
} own_units;

/* A unit checked here travels to the other ranks as its report: a fault
 * in its check (core/alloc.h) goes with it as the report's internal error,
 * so the rank that prints does not take the unit for complete. */
static void own_task(void *ctx, size_t k)
{
	own_units *o = ctx;
	hv_fault_scope s;
	hv_fault_scope_enter(&s);
	o->u->check(o->u->ctx, o->idx[k]);
	hv_fault_scope_leave(&s);
	if (atomic_load(&s.failed))
		hv_report_internal(o->u->report(o->u->ctx, o->idx[k]),
				   "out of memory: an allocation of %zu bytes failed while checking a unit of this input "
				   "on another rank, so not every rule was checked and there is no verdict",
				   atomic_load(&s.bytes));
}

/* HPCVET_MPI_STATS=1: rank 0 prints, per exchange of units, how many
 * units and bytes each rank was planned (the bench's imbalance figure, and
 * the tests' proof that units are spread, not replicated); =2 also lists
 * every unit's rank, "unit I rank R" (tests/mpi_share.test.sh: the two ends
 * of a cross-rank finding were checked by different processes). */
static void print_plan(const hv_units *u, const unsigned *owner, int nranks)
{
	const char *e = getenv("HPCVET_MPI_STATS");
	if (!e || (strcmp(e, "1") != 0 && strcmp(e, "2") != 0)) return;
	if (e[0] == '2')
		for (size_t i = 0; i < u->n; i++) fprintf(stderr, "hpcvet-mpi: unit %zu rank %u\n", i, owner[i]);
	fprintf(stderr, "hpcvet-mpi: %zu units:", u->n);
	for (int r = 0; r < nranks; r++) {
		size_t k = 0;
		uint64_t bytes = 0;
		for (size_t i = 0; i < u->n; i++)
			if (owner[i] == (unsigned)r) k++, bytes += u->size ? u->size(u->ctx, i) : 0;
		fprintf(stderr, " rank %d %zu (%llu B)", r, k, (unsigned long long)bytes);
	}
	fputc('\n', stderr);
}

/* What the other ranks sent back, after an exchange: a sequence of
 * (index, payload) per rank. Each index must be one that rank owns and that
 * has not arrived yet, and `load` reads its payload (false: malformed, the
 * rest of that rank's bytes are dropped); got[i] marks what arrived. Every
 * rank sees the same bytes, so every rank marks the same items. */
typedef bool (*item_load)(void *ctx, size_t i, int from, hv_rbuf *rb);

static void read_back(const hv_gathered *g, size_t n, const unsigned *owner, bool *got, item_load load, void *ctx)
{
	for (int r = 0; r < g->nranks; r++) {
		if (r == g->me || g->lost[r]) continue;
		hv_rbuf rb = hv_rbuf_of(g->buf + g->off[r], (size_t)g->len[r]);
		while (rb.at < rb.n) {
			uint64_t i = hv_get_u64(&rb);
			if (rb.failed || i >= n || owner[i] != (unsigned)r || got[i]) break;
			got[i] = true;
			if (!load(ctx, (size_t)i, r, &rb)) break;
		}
	}
}

static bool load_unit(void *ctx, size_t i, int from, hv_rbuf *rb)
{
	(void)from;
	return hv_unit_load(ctx, i, rb);
}

static void units_run(hv_units_runner *self, const hv_options *opt, const hv_units *u)
{
	(void)self;
	int nranks, me;
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	unsigned *owner = hv_malloc(u->n * sizeof *owner);
	size_t *idx = hv_malloc(u->n * sizeof *idx);
	bool *got = hv_calloc(u->n, sizeof *got);
	if (!owner || !idx || !got || !hv_units_plan(u, (unsigned)nranks, owner, NULL)) out_of_memory();
	if (me == 0) print_plan(u, owner, nranks);
	size_t nown = 0;
	for (size_t i = 0; i < u->n; i++)
		if (owner[i] == (unsigned)me) idx[nown++] = i, got[i] = true;
	own_units o = {u, idx};
	hv_for_each(opt, nown, own_task, &o);

	hv_wbuf w = {0};
	for (size_t k = 0; k < nown; k++) {
		hv_put_u64(&w, idx[k]);
		hv_unit_save(u, idx[k], &w);
	}
	hv_gathered g;
	hv_exchange(HV_X_UNITS, u->n, &w, &g);
	hv_wbuf_free(&w);
	read_back(&g, u->n, owner, got, load_unit, (void *)u);
	for (size_t i = 0; i < u->n; i++)
		if (!got[i])
			hv_report_internal(u->report(u->ctx, i), "the report of a unit checked by rank %u was lost (out of memory)",
					   owner[i]);
	hv_gathered_free(&g);
	free(owner);
	free(idx);
	free(got);
}

/* The collectives of a partitioned stage after the units (core/units.h). */
static bool stage_gather(hv_units_runner *self, uint64_t step, const hv_wbuf *mine, hv_gathered *g)
{
	(void)self;
	return hv_exchange(HV_X_STAGE, step, mine, g);
}

static bool stage_route(hv_units_runner *self, uint64_t step, const hv_wbuf *to, hv_gathered *g)
{
	(void)self;
	return hv_exchange_route(HV_X_STAGE, step, to, g);
}

hv_units_runner hv_mpi_units_runner = {units_run, stage_gather, stage_route};

/* A report's bytes hashed, to check that every rank ended with the same. */
static uint64_t report_hash(const hv_report *r)
{
	hv_wbuf w = {0};
	hv_report_save(r, &w);
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < w.n; i++) h = (h ^ w.p[i]) * 1099511628211ull;
	if (w.failed) h = 0;
	hv_wbuf_free(&w);
	return h;
}

/* The identities of the files this rank opened for the input (each at its
 * first opening, fileio.h), sorted by path, so every rank lists them alike. */
typedef struct idents {
	hv_file_ident *v;
	size_t n;
	bool ok;
} idents;

static int cmp_ident(const void *a, const void *b)
{
	return strcmp(((const hv_file_ident *)a)->path, ((const hv_file_ident *)b)->path);
}

static void put_ident(hv_wbuf *w, const hv_file_ident *e)
{
	const hv_file_id *d = &e->id;
	hv_put_str(w, e->path);
	uint64_t f[7] = {d->dev, d->ino, d->size, (uint64_t)d->mtime_s, (uint64_t)d->mtime_ns, (uint64_t)d->ctime_s,
			 (uint64_t)d->ctime_ns};
	for (int k = 0; k < 7; k++) hv_put_u64(w, f[k]);
}

static bool get_ident(hv_rbuf *rb, char *path, size_t cap, hv_file_id *d)
{
	if (!hv_get_str(rb, path, cap)) return false;
	uint64_t f[7];
	for (int k = 0; k < 7; k++) f[k] = hv_get_u64(rb);
	*d = (hv_file_id){f[0], f[1], f[2], (int64_t)f[3], (int64_t)f[4], (int64_t)f[5], (int64_t)f[6]};
	return !rb->failed;
}

static uint64_t idents_hash(const idents *ids)
{
	hv_wbuf w = {0};
	for (size_t i = 0; i < ids->n; i++) put_ident(&w, &ids->v[i]);
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < w.n; i++) h = (h ^ w.p[i]) * 1099511628211ull;
	if (w.failed || !ids->ok) h = 0; /* a rank that could not keep them agrees with no one */
	hv_wbuf_free(&w);
	return h;
}

/* The ranks' identities differ (their hashes did): every rank sends its
 * list, and every rank finds the first file some rank opened with another
 * identity than rank 0 (or not at all), the same one everywhere. Each
 * rank's own openings compared their identity with its first one; this
 * compares the first ones across ranks: a file rewritten after one rank
 * read it and before another opened it gave each consistent bytes, but
 * not the same. */
static void idents_differ(hv_report *rep, const idents *mine)
{
	hv_wbuf w = {0};
	hv_put_u64(&w, mine->n);
	for (size_t i = 0; i < mine->n; i++) put_ident(&w, &mine->v[i]);
	hv_gathered g;
	hv_exchange(HV_X_END, 2, &w, &g);
	hv_wbuf_free(&w);
	char p0[4096], pr[4096];
	/* a rank that could not read the input at all opened fewer files:
	 * its own reason (already merged) says more than this */
	for (int r = 1; r < g.nranks && !g.lost[0] && !rep->unreadable; r++) {
		if (g.lost[r]) continue;
		hv_rbuf a = hv_rbuf_of(g.buf + g.off[0], (size_t)g.len[0]);
		hv_rbuf b = hv_rbuf_of(g.buf + g.off[r], (size_t)g.len[r]);
		uint64_t na = hv_get_u64(&a), nb = hv_get_u64(&b);
		for (uint64_t k = 0; k < na || k < nb; k++) {
			hv_file_id ia, ib;
			bool ha = k < na && get_ident(&a, p0, sizeof p0, &ia);
			bool hb = k < nb && get_ident(&b, pr, sizeof pr, &ib);
			if (ha && hb && strcmp(p0, pr) == 0 && hv_file_id_equal(&ia, &ib)) continue;
			const char *path = ha ? p0 : hb ? pr : "a file of the input";
			rep->internal_error = false;
			hv_report_unreadable(rep, "%s: changed while it was read (rank %d opened it as another file than rank 0)",
					     path, r);
			hv_gathered_free(&g);
			return;
		}
	}
	/* the hashes differed but the lists did not arrive: still not one set of bytes */
	if (rep->unreadable) {
		hv_gathered_free(&g);
		return;
	}
	rep->internal_error = false;
	hv_report_unreadable(rep, "%s: changed while it was read (the ranks opened its files with different identities)",
			     rep->input_path ? rep->input_path : "the input");
	hv_gathered_free(&g);
}

/* After one input checked by all ranks: a read error or internal error that
 * happened on one rank only (outside a unit) reaches every rank's report;
 * a file that any rank found changed, or that two ranks opened with
 * different identities, makes the input unreadable everywhere; reports
 * that differ otherwise are a bug in a summary's travel, reported as an
 * internal error rather than a silently wrong report. */
/* Whether the input is unreadable because a file changed while it was read
 * (validate_path.c's message). A rank whose unit read a rewritten file
 * reports a read error; the rank that saw the change names it, and that
 * name is the one a producer can act on, so it wins over the read error. */
static bool changed_problem(const hv_report *rep)
{
	return rep->unreadable && strstr(rep->problem, ": changed while it was read") != NULL;
}

static void end_input(hv_report *rep)
{
	idents ids;
	ids.ok = hv_fileio_take_identities(&ids.v, &ids.n);
	if (ids.n > 1) qsort(ids.v, ids.n, sizeof *ids.v, cmp_ident);
	hv_wbuf w = {0};
	hv_put_u64(&w, idents_hash(&ids));
	hv_put_u64(&w, rep->unreadable);
	hv_put_u64(&w, rep->internal_error);
	hv_put_u64(&w, changed_problem(rep));
	hv_put_str(&w, rep->problem);
	hv_put_u64(&w, report_hash(rep));
	hv_gathered g;
	hv_exchange(HV_X_END, 1, &w, &g);
	hv_wbuf_free(&w);
	bool fault = false, same_files = true;
	uint64_t h0 = 0, ih0 = 0;
	for (int r = 0; r < g.nranks; r++) {
		if (g.lost[r]) continue;
		hv_rbuf rb = hv_rbuf_of(g.buf + g.off[r], (size_t)g.len[r]);
		uint64_t ih = hv_get_u64(&rb);
		if (r == 0) ih0 = ih;
		if (ih != ih0 || ih == 0) same_files = false;
		bool unreadable = hv_get_bool(&rb), internal = hv_get_bool(&rb), changed = hv_get_bool(&rb);
		char problem[sizeof rep->problem];
		hv_get_str(&rb, problem, sizeof problem);
		uint64_t h = hv_get_u64(&rb);
		fault |= unreadable || internal;
		if (r == 0) h0 = h;
		if (unreadable && (!rep->unreadable || (changed && !changed_problem(rep)))) {
			rep->internal_error = false;
			hv_report_unreadable(rep, "%s (rank %d)", problem, r);
		}
		if (internal && !rep->internal_error) hv_report_internal(rep, "%s (rank %d)", problem, r);
	}
	/* every rank saw the same hashes: all take this exchange or none */
	if (!same_files) {
		idents_differ(rep, &ids);
		fault = true;
	}
	hv_fileio_free_identities(ids.v, ids.n);
	for (int r = 1; r < g.nranks && !fault; r++) {
		if (g.lost[r]) continue;
		hv_rbuf rb = hv_rbuf_of(g.buf + g.off[r] + g.len[r] - 8, 8);
		if (hv_get_u64(&rb) != h0) {
			hv_report_internal(rep, "rank %d ended with another report than rank 0", r);
			break;
		}
	}
	hv_gathered_free(&g);
}

static uint64_t input_size(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

typedef struct inputs {
	const char **paths;
} inputs;

static uint64_t inputs_size(void *ctx, size_t i) { return input_size(((inputs *)ctx)->paths[i]); }

static bool load_report(void *ctx, size_t i, int from, hv_rbuf *rb)
{
	hv_report *rep = &((hv_report *)ctx)[i];
	if (hv_report_load(rep, rb)) return true;
	hv_report_internal(rep, "the report from rank %d arrived malformed", from);
	return false;
}

void hv_mpi_validate(const char **paths, size_t n, hv_report *reps, hv_options *opt, bool digests,
		     hv_cli_validate_one one, void *ctx)
{
	int nranks, me;
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	/* HPCVET_MPI_SPLIT=1: every input is split over all ranks, one after
	 * the other, even when there are several (the tests use it to run the
	 * whole corpus through the units path in one job). */
	const char *split = getenv("HPCVET_MPI_SPLIT");
	if (n == 1 || digests || (split && strcmp(split, "1") == 0)) {
		opt->units = &hv_mpi_units_runner;
		/* every rank opens the input's files: their identities are
		 * compared across the ranks after each input (end_input) */
		hv_fileio_log_identities(true);
		for (size_t i = 0; i < n; i++) {
			hv_file_ident *old;
			size_t nold;
			hv_fileio_take_identities(&old, &nold); /* not this input's */
			hv_fileio_free_identities(old, nold);
			one(ctx, i, opt, digests && me == 0);
			end_input(&reps[i]);
		}
		hv_fileio_log_identities(false);
		return;
	}
	/* Several inputs: each checked whole by one rank (its own units on
	 * its threads), the reports exchanged once. */
	inputs in = {paths};
	hv_units plan = {.n = n, .ctx = &in, .size = inputs_size};
	unsigned *owner = hv_malloc(n * sizeof *owner);
	bool *got = hv_calloc(n, sizeof *got);
	if (!owner || !got || !hv_units_plan(&plan, (unsigned)nranks, owner, NULL)) out_of_memory();
	hv_wbuf w = {0};
	for (size_t i = 0; i < n; i++) {
		if (owner[i] != (unsigned)me) continue;
		one(ctx, i, opt, false);
		got[i] = true;
		hv_put_u64(&w, i);
		hv_report_save(&reps[i], &w);
	}
	hv_gathered g;
	hv_exchange(HV_X_INPUTS, n, &w, &g);
	hv_wbuf_free(&w);
	read_back(&g, n, owner, got, load_report, reps);
	for (size_t i = 0; i < n; i++)
		if (!got[i]) hv_report_internal(&reps[i], "the report checked by rank %u was lost (out of memory)", owner[i]);
	hv_gathered_free(&g);
	free(owner);
	free(got);
}
