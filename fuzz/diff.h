/* What the differential fuzz targets share (fuzz_diff_*.c): a finding is
 * any difference between two reports the validator must give alike (one
 * walk against units on threads, against units that travelled as bytes,
 * against chunks in any order, narrow against AVX-512 kernels), not only a
 * crash. fuzz_diff_reports compares two reports field by field and aborts
 * naming the first field that differs; the bytes of hv_report_save are
 * compared last, so nothing the report carries escapes the comparison.
 *
 * The runners here replace the CLI's (-j threads, hpcvet-mpi's ranks) with
 * ones the input steers: a thread count, an order of the tasks, which units
 * arrive as bytes from a "remote" run of the same input. */
#ifndef HV_FUZZ_DIFF_H
#define HV_FUZZ_DIFF_H

#include <pthread.h>
#include <stdatomic.h>

#include "container.h"
#include "core/units.h"
#include "core/wire.h"
#include "harness.h"

static inline bool fuzz_same_str(const char *a, const char *b)
{
	return (!a || !b) ? a == b : strcmp(a, b) == 0;
}

/* The first field where a and b differ, written into why; false when none. */
static inline bool fuzz_report_differs(const hv_report *a, const hv_report *b, char *why, size_t cap)
{
#define DIFF(...) return snprintf(why, cap, __VA_ARGS__), true
	if (a->internal_error != b->internal_error) DIFF("internal_error %d vs %d", a->internal_error, b->internal_error);
	if (a->unreadable != b->unreadable) DIFF("unreadable %d vs %d", a->unreadable, b->unreadable);
	if (strcmp(a->problem, b->problem) != 0) DIFF("problem \"%s\" vs \"%s\"", a->problem, b->problem);
	if (strcmp(a->format, b->format) != 0) DIFF("format \"%s\" vs \"%s\"", a->format, b->format);
	if (strcmp(a->edition, b->edition) != 0) DIFF("edition \"%s\" vs \"%s\"", a->edition, b->edition);
	if (strcmp(a->version, b->version) != 0) DIFF("version \"%s\" vs \"%s\"", a->version, b->version);
	for (int s = 0; s < 3; s++)
		if (a->count[s] != b->count[s])
			DIFF("count[%s] %llu vs %llu", hv_sev_name((enum hv_sev)s), (unsigned long long)a->count[s],
			     (unsigned long long)b->count[s]);
	if (a->suppressed != b->suppressed)
		DIFF("suppressed %llu vs %llu", (unsigned long long)a->suppressed, (unsigned long long)b->suppressed);
	size_t nd = a->ndiags < b->ndiags ? a->ndiags : b->ndiags;
	for (size_t k = 0; k < nd; k++) {
		const hv_diag *x = &a->diags[k], *y = &b->diags[k];
		if (x->rule != y->rule || x->sev != y->sev || x->offset != y->offset || x->length != y->length ||
		    !fuzz_same_str(x->file, y->file) || strcmp(x->path, y->path) != 0 || strcmp(x->msg, y->msg) != 0)
			DIFF("diagnostic %zu: %s %s@%llu+%llu %s \"%s\" vs %s %s@%llu+%llu %s \"%s\"", k, hv_rules[x->rule].id,
			     x->file ? x->file : "-", (unsigned long long)x->offset, (unsigned long long)x->length, x->path,
			     x->msg, hv_rules[y->rule].id, y->file ? y->file : "-", (unsigned long long)y->offset,
			     (unsigned long long)y->length, y->path, y->msg);
	}
	if (a->ndiags != b->ndiags) {
		const hv_diag *extra = a->ndiags > b->ndiags ? &a->diags[nd] : &b->diags[nd];
		DIFF("%zu vs %zu stored diagnostics (first unmatched: %s at %s+%llu, \"%s\")", a->ndiags, b->ndiags,
		     hv_rules[extra->rule].id, extra->file ? extra->file : "-", (unsigned long long)extra->offset, extra->msg);
	}
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		if (a->evaluated[i] != b->evaluated[i])
			DIFF("rule %s evaluated %llu vs %llu times", hv_rules[i].id, (unsigned long long)a->evaluated[i],
			     (unsigned long long)b->evaluated[i]);
		if (a->failed[i] != b->failed[i])
			DIFF("rule %s failed %llu vs %llu times", hv_rules[i].id, (unsigned long long)a->failed[i],
			     (unsigned long long)b->failed[i]);
		const hv_more *x = &a->more[i], *y = &b->more[i];
		if (a->max_per_rule && a->failed[i] > a->max_per_rule &&
		    (!fuzz_same_str(x->first_file, y->first_file) || x->first_off != y->first_off ||
		     !fuzz_same_str(x->last_file, y->last_file) || x->last_off != y->last_off))
			DIFF("rule %s: failures beyond the cap at %llu..%llu vs %llu..%llu", hv_rules[i].id,
			     (unsigned long long)x->first_off, (unsigned long long)x->last_off, (unsigned long long)y->first_off,
			     (unsigned long long)y->last_off);
	}
	if (a->nghosts != b->nghosts) DIFF("%zu vs %zu unstored failures kept", a->nghosts, b->nghosts);
	for (size_t k = 0; k < a->nghosts; k++) {
		const hv_ghost *x = &a->ghosts[k], *y = &b->ghosts[k];
		if (x->rule != y->rule || x->sev != y->sev || x->offset != y->offset || !fuzz_same_str(x->file, y->file))
			DIFF("unstored failure %zu: %s@%llu vs %s@%llu", k, hv_rules[x->rule].id, (unsigned long long)x->offset,
			     hv_rules[y->rule].id, (unsigned long long)y->offset);
	}
	if (a->nparts != b->nparts) DIFF("%zu vs %zu parts", a->nparts, b->nparts);
	for (size_t k = 0; k < a->nparts && k < HV_PARTS_MAX; k++)
		if (strcmp(a->parts[k].name, b->parts[k].name) != 0 || strcmp(a->parts[k].version, b->parts[k].version) != 0 ||
		    memcmp(a->parts[k].count, b->parts[k].count, sizeof a->parts[k].count) != 0)
			DIFF("part %zu: %s vs %s", k, a->parts[k].name, b->parts[k].name);
	/* whatever else the report carries: its bytes */
	hv_wbuf x = {0}, y = {0};
	hv_report_save(a, &x);
	hv_report_save(b, &y);
	bool differ = x.failed || y.failed || x.n != y.n || memcmp(x.p, y.p, x.n) != 0;
	bool oom = x.failed || y.failed;
	hv_wbuf_free(&x);
	hv_wbuf_free(&y);
	if (differ && !oom) DIFF("the saved report bytes (a field not compared above)");
#undef DIFF
	return false;
}

/* Abort when the two reports differ, naming the two ways and the field. */
static inline void fuzz_diff_reports(const hv_report *a, const char *how_a, const hv_report *b, const char *how_b)
{
	char why[4096];
	if (!fuzz_report_differs(a, b, why, sizeof why)) return;
	fprintf(stderr, "fuzz diff: %s and %s give different reports: %s\n", how_a, how_b, why);
	abort();
}

/* The container validated as one set into r (the caller frees it): its
 * names fixed by `fix`, or kept (NULL); r named `label`. */
static inline void fuzz_check_container(const uint8_t *data, size_t size, fuzz_name_fixer fix, const char *label,
					const hv_options *opt, hv_report *r)
{
	static fuzz_files ff;
	fuzz_unpack_fixed(data, size, &ff, fix);
	hv_report_init(r, label, opt->max_diags);
	hv_validate_set(opt, ff.blobs, ff.n, r);
	fuzz_check_report(r);
	for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
}

/* ---- control bytes: what the input chooses besides its files ---- */

typedef struct fuzz_ctl {
	const uint8_t *p;
	size_t n, at;
} fuzz_ctl;

static inline uint8_t fuzz_ctl_byte(fuzz_ctl *c) { return c->at < c->n ? c->p[c->at++] : 0; }

/* Small units so that even a fuzz-sized input splits into many. */
static inline uint64_t fuzz_unit_bytes(uint8_t pick)
{
	static const uint64_t sizes[16] = {1, 2, 3, 5, 8, 13, 17, 31, 64, 100, 128, 301, 512, 1000, 4096, 65536};
	return sizes[pick % 16];
}

/* ---- a runner the input steers: threads and order ---- */

typedef struct fuzz_runner {
	unsigned threads;     /* 1: on the calling thread */
	uint32_t order;       /* seed of the order tasks are taken in (0: as given) */
	_Atomic size_t calls, tasks; /* what it ran (runs nest: a task may call the runner) */
} fuzz_runner;

typedef struct fuzz_run_job {
	size_t n;
	hv_task_fn task;
	void *ctx;
	const size_t *perm;
	atomic_size_t next;
} fuzz_run_job;

static void *fuzz_run_worker(void *arg)
{
	fuzz_run_job *j = arg;
	for (size_t k; (k = atomic_fetch_add(&j->next, 1)) < j->n;) j->task(j->ctx, j->perm ? j->perm[k] : k);
	return NULL;
}

/* An order of [0, n) drawn from seed: reversed for 1, else shuffled. */
static inline size_t *fuzz_order(size_t n, uint32_t seed)
{
	if (seed == 0 || n < 2) return NULL;
	size_t *p = malloc(n * sizeof *p);
	if (!p) return NULL;
	for (size_t i = 0; i < n; i++) p[i] = seed == 1 ? n - 1 - i : i;
	uint32_t x = seed;
	for (size_t i = n - 1; seed != 1 && i > 0; i--) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		size_t k = x % (i + 1), t = p[i];
		p[i] = p[k], p[k] = t;
	}
	return p;
}

static void fuzz_runner_run(void *rctx, size_t n, hv_task_fn task, void *ctx)
{
	fuzz_runner *fr = rctx;
	fr->calls++;
	fr->tasks += n;
	size_t *perm = fuzz_order(n, fr->order);
	fuzz_run_job j = {.n = n, .task = task, .ctx = ctx, .perm = perm};
	atomic_init(&j.next, 0);
	pthread_t th[7];
	unsigned started = 0;
	for (unsigned t = 1; t < fr->threads && t <= 7 && t < n; t++)
		if (pthread_create(&th[started], NULL, fuzz_run_worker, &j) == 0) started++;
	fuzz_run_worker(&j);
	for (unsigned t = 0; t < started; t++) pthread_join(th[t], NULL);
	free(perm);
}

static inline void fuzz_use_runner(hv_options *opt, fuzz_runner *fr)
{
	opt->runner = fuzz_runner_run;
	opt->runner_ctx = fr;
	opt->jobs = fr->threads ? fr->threads : 1;
}

/* ---- units that travel as bytes (hpcvet-mpi's exchange, in one process) ----
 *
 * The same input is checked twice. The "remote" run checks every unit and
 * records each one's bytes (hv_unit_save), per exchange (a family may run
 * several sets of units per input). The "local" run checks the units it
 * owns and loads the others from what the remote run recorded
 * (hv_unit_load), as a rank loads what the others sent: the report must be
 * the one walk's. Which units are remote is the input's choice (`mask`). */

#define FUZZ_WIRE_EXCHANGES 64

typedef struct fuzz_wire {
	hv_units_runner base;
	bool recording;
	uint8_t mask;          /* unit i is remote when bit i%8 is set */
	size_t exchange;       /* the next exchange */
	size_t nunits[FUZZ_WIRE_EXCHANGES];
	hv_wbuf *bytes[FUZZ_WIRE_EXCHANGES];
	size_t loaded, mismatched;
} fuzz_wire;

static inline bool fuzz_wire_remote(const fuzz_wire *fw, size_t i) { return (fw->mask >> (i % 8)) & 1; }

static void fuzz_wire_run(hv_units_runner *self, const hv_options *opt, const hv_units *u)
{
	fuzz_wire *fw = (fuzz_wire *)self;
	size_t x = fw->exchange++;
	if (fw->recording) {
		hv_for_each(opt, u->n, u->check, u->ctx);
		if (x >= FUZZ_WIRE_EXCHANGES) return;
		fw->nunits[x] = u->n;
		fw->bytes[x] = calloc(u->n, sizeof(hv_wbuf));
		for (size_t i = 0; fw->bytes[x] && i < u->n; i++) hv_unit_save(u, i, &fw->bytes[x][i]);
		return;
	}
	bool have = x < FUZZ_WIRE_EXCHANGES && fw->bytes[x] && fw->nunits[x] == u->n;
	if (x < FUZZ_WIRE_EXCHANGES && fw->bytes[x] && !have) {
		/* the same input split differently by two runs: the units of
		 * hpcvet-mpi's ranks would not match */
		fprintf(stderr, "fuzz diff: exchange %zu has %zu units, %zu when recorded\n", x, u->n, fw->nunits[x]);
		abort();
	}
	for (size_t i = 0; i < u->n; i++) {
		if (have && fuzz_wire_remote(fw, i) && !fw->bytes[x][i].failed) {
			hv_rbuf r = hv_rbuf_of(fw->bytes[x][i].p, fw->bytes[x][i].n);
			if (!hv_unit_load(u, i, &r) || r.at != r.n) {
				fprintf(stderr, "fuzz diff: unit %zu of exchange %zu did not load from its own bytes\n", i, x);
				abort();
			}
			fw->loaded++;
		} else {
			u->check(u->ctx, i);
		}
	}
}

static inline void fuzz_wire_init(fuzz_wire *fw, uint8_t mask)
{
	memset(fw, 0, sizeof *fw);
	fw->base.run = fuzz_wire_run;
	fw->mask = mask;
	fw->recording = true;
}

/* From recording to loading: the next run replays the same exchanges. */
static inline void fuzz_wire_replay(fuzz_wire *fw)
{
	fw->recording = false;
	fw->exchange = 0;
}

static inline void fuzz_wire_free(fuzz_wire *fw)
{
	for (size_t x = 0; x < FUZZ_WIRE_EXCHANGES; x++) {
		if (!fw->bytes[x]) continue;
		for (size_t i = 0; i < fw->nunits[x]; i++) hv_wbuf_free(&fw->bytes[x][i]);
		free(fw->bytes[x]);
	}
	memset(fw->bytes, 0, sizeof fw->bytes);
}

/* FUZZ_DIFF_STATS=1 in the environment: one line per input saying what
 * was compared (tests use it to prove a comparison was not vacuous). */
static inline bool fuzz_diff_stats(void)
{
	static int on = -1;
	if (on < 0) on = getenv("FUZZ_DIFF_STATS") != NULL;
	return on;
}

#endif
