/* See digest.h. */
#include "digest.h"

#include "core/units.h"
#include "fileio.h"
#include "jobs.h"
#include "progress.h"
#include "validate_path.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* libcrypto is opened at the first certificate, not linked: mapping and
 * relocating it cost every hpcvet process ~5 ms of CPU (measured on the
 * 2-vCPU VM: 2.5 ms for an empty program, 8-10 ms with libcrypto linked),
 * as much as validating ~300k ovni events, for a library that only
 * --certify uses. The soname is the one of the headers built against. */
#define HV_STR2(x) #x
#define HV_STR(x) HV_STR2(x)
#ifdef OPENSSL_VERSION_MAJOR
#define HV_LIBCRYPTO "libcrypto.so." HV_STR(OPENSSL_VERSION_MAJOR)
#else
#define HV_LIBCRYPTO "libcrypto.so"
#endif

static struct {
	int (*init_crypto)(uint64_t, const OPENSSL_INIT_SETTINGS *);
	EVP_MD_CTX *(*ctx_new)(void);
	void (*ctx_free)(EVP_MD_CTX *);
	const EVP_MD *(*sha256)(void);
	int (*init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
	int (*update)(EVP_MD_CTX *, const void *, size_t);
	int (*final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
	bool ok;
	bool routed;              /* libcrypto allocates through core/alloc.h */
	char why[160];            /* why it could not be opened */
} crypto;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

/* libcrypto allocates through core/alloc.h (CONTRIBUTING, "A verdict only
 * from a complete check"): a failure there is a recorded fault like any
 * other, which fault injection reaches (the sanitizer build's hook), not a
 * NULL only OpenSSL sees. OpenSSL's own semantics are kept: no memory for
 * 0 bytes, realloc of NULL allocates, realloc to 0 frees. */
static atomic_ullong crypto_allocs, crypto_failures;

static void *crypto_malloc(size_t n, const char *file, int line)
{
	(void)file, (void)line;
	if (n == 0) return NULL;
	atomic_fetch_add(&crypto_allocs, 1);
	void *p = hv_malloc(n);
	if (!p) atomic_fetch_add(&crypto_failures, 1);
	return p;
}

static void crypto_free(void *p, const char *file, int line)
{
	(void)file, (void)line;
	free(p);
}

static void *crypto_realloc(void *p, size_t n, const char *file, int line)
{
	if (!p) return crypto_malloc(n, file, line);
	if (n == 0) {
		free(p);
		return NULL;
	}
	atomic_fetch_add(&crypto_allocs, 1);
	void *q = hv_realloc(p, n);
	if (!q) atomic_fetch_add(&crypto_failures, 1);
	return q;
}

void hv_digest_crypto_stats(bool *routed, unsigned long long *allocs, unsigned long long *failures)
{
	*routed = crypto.routed;
	*allocs = atomic_load(&crypto_allocs);
	*failures = atomic_load(&crypto_failures);
}

/* OpenSSL sets itself up at its first digest (its default library context,
 * providers, the SHA-256 method), and OpenSSL 3.0 does not survive every
 * failed allocation there: its context can be left with a lock it never
 * made, and the next fetch reads through NULL (found by failing each
 * allocation in turn, tests/test_digest_faults.c). So one digest of no
 * bytes is made here, before any certificate's, and if any allocation of
 * OpenSSL's failed meanwhile, libcrypto is not called again in this
 * process: its certificates have no digests (a fault of the input that
 * asked first, which thus has no verdict either). Its context is then
 * left as it is, unfreed, as nothing of a half-made OpenSSL is safe to call. */
static void crypto_warm_up(void)
{
	unsigned long long failed = atomic_load(&crypto_failures);
#define CRYPTO_CLEAN(ok) ((ok) && atomic_load(&crypto_failures) == failed)
	/* its global set-up alone first (what a first fetch does, the
	 * configuration included): a fetch right after a failure there is what
	 * reads through NULL */
	bool ok = CRYPTO_CLEAN(crypto.init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL) == 1);
	EVP_MD_CTX *c = ok ? crypto.ctx_new() : NULL;
	ok = CRYPTO_CLEAN(ok && c != NULL);
	const EVP_MD *md = ok ? crypto.sha256() : NULL;
	ok = CRYPTO_CLEAN(ok && md);
	ok = CRYPTO_CLEAN(ok && crypto.init(c, md, NULL) == 1);
	uint8_t out[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	ok = CRYPTO_CLEAN(ok && crypto.final(c, out, &len) == 1 && len == 32);
#undef CRYPTO_CLEAN
	if (ok) {
		crypto.ctx_free(c);
		return;
	}
	crypto.ok = false;
	snprintf(crypto.why, sizeof crypto.why, "libcrypto could not set itself up (%s)",
		 atomic_load(&crypto_failures) != failed ? "an allocation inside it failed" : "its first digest failed");
}

static void crypto_open(void)
{
	void *h = dlopen(HV_LIBCRYPTO, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(crypto.why, sizeof crypto.why, "%s", e ? e : HV_LIBCRYPTO " could not be opened");
		return;
	}
	/* The allocators first, before any other call into libcrypto: OpenSSL
	 * takes them only until its first allocation. A process that used
	 * libcrypto before (Python's hashlib or ssl beside the binding, an MPI
	 * library that loads it) keeps OpenSSL's own, and CRYPTO_set_mem_functions
	 * says so (0): the digests are the same, and a failed allocation there
	 * still fails the EVP call that made it, so the certificate is still
	 * withheld; only fault injection cannot reach it. */
	int (*set_mem)(void *(*)(size_t, const char *, int), void *(*)(void *, size_t, const char *, int),
		       void (*)(void *, const char *, int));
	*(void **)&set_mem = dlsym(h, "CRYPTO_set_mem_functions");
	crypto.routed = set_mem && set_mem(crypto_malloc, crypto_realloc, crypto_free) == 1;
	/* POSIX dlsym: a function's address through a void * */
	*(void **)&crypto.init_crypto = dlsym(h, "OPENSSL_init_crypto");
	*(void **)&crypto.ctx_new = dlsym(h, "EVP_MD_CTX_new");
	*(void **)&crypto.ctx_free = dlsym(h, "EVP_MD_CTX_free");
	*(void **)&crypto.sha256 = dlsym(h, "EVP_sha256");
	*(void **)&crypto.init = dlsym(h, "EVP_DigestInit_ex");
	*(void **)&crypto.update = dlsym(h, "EVP_DigestUpdate");
	*(void **)&crypto.final = dlsym(h, "EVP_DigestFinal_ex");
	crypto.ok = crypto.init_crypto && crypto.ctx_new && crypto.ctx_free && crypto.sha256 && crypto.init && crypto.update && crypto.final;
	if (!crypto.ok) snprintf(crypto.why, sizeof crypto.why, "%s lacks the EVP digest functions", HV_LIBCRYPTO);
	else crypto_warm_up();
	/* h stays open: the process may certify again */
}

static bool crypto_ready(void)
{
	pthread_once(&crypto_once, crypto_open);
	return crypto.ok;
}

struct hv_digest_file {
	EVP_MD_CTX *ctx;
	bool (*fetch)(void *io, uint64_t off, void *dst, size_t len); /* the reader's, thread-safe */
	void *io;
	const uint8_t *mem;
	uint64_t size;
	uint64_t hashed;       /* [0, hashed) is in the digest */
	bool failed;
	const char *name;
};

/* A file is read and hashed in pieces that stay in the core's cache: the
 * kernel's copy into a 1 MiB buffer (the size of the L2) ran at ~1.5 GB/s,
 * more CPU than the SHA-256 itself (an 800 MiB stream: the hashing thread
 * 1.14 s, `openssl dgst -sha256` 0.82 s); in 128 KiB pieces, 0.70 s. */
enum { CHUNK = 1u << 17 };

/* Hash what is left of one file, from memory or through its reader. */
static void hash_rest(hv_digest_file *d, uint8_t *buf)
{
	while (!d->failed && d->hashed < d->size) {
		uint64_t left = d->size - d->hashed;
		size_t len = left < CHUNK ? (size_t)left : CHUNK;
		const uint8_t *p = d->mem ? d->mem + d->hashed : buf;
		if (!d->mem && (!buf || !d->fetch || !d->fetch(d->io, d->hashed, buf, len))) d->failed = true;
		else if (crypto.update(d->ctx, p, len) != 1) d->failed = true;
		else d->hashed += len;
	}
}

/* Each hashing thread takes the next file of the largest-first order
 * until none is left; a file is one SHA-256 stream, hashed by one thread. */
static void hash_all(hv_digest_set *s)
{
	uint8_t *buf = NULL;
	for (;;) {
		size_t k = atomic_fetch_add(&s->next, 1);
		if (k >= s->nwork) break;
		hv_digest_file *d = &s->work[s->order[k]];
		if (!d->mem && !buf) buf = hv_malloc(CHUNK);
		hash_rest(d, buf);
	}
	free(buf);
}

static void *hasher_main(void *arg)
{
	hash_all(arg);
	hv_file_release_lazy(); /* the descriptor this thread's reads opened */
	return NULL;
}

/* How many hashing threads. At -jN (N > 1) N, the checks' own count. At
 * -j1 the checks take one core: one hasher beside them when the machine has
 * two cores, two when it has a third (an input of many files whose SHA-256
 * costs more than its checks, an ovni trace's streams, hashes on both).
 * Never a third thread on two cores: a database's checks and two hashers
 * shared the two cores, the hashers took 2/3 of them while they ran, and the
 * checks, the longer part, finished alone on one core (a 654 MiB database
 * by thread: the checks plus half a hasher, ~0.84 s on two quiet cores,
 * where one hasher beside the checks needs ~0.61 s; bench/RESULTS.md, the
 * HPCToolkit database's certify rows). When the checks end first, their
 * thread hashes the files no hasher has taken yet (hv_digest_end), so the
 * second core is not lost to an input of many files either. Never more
 * hashers than files, nor than HV_DIGEST_MAX_THREADS. */
static unsigned hasher_count(unsigned jobs, size_t nfiles, unsigned cores)
{
	unsigned n = jobs ? jobs : 1;
	if (n == 1 && cores >= 3) n = 2;
	if (n > HV_DIGEST_MAX_THREADS) n = HV_DIGEST_MAX_THREADS;
	if (n > nfiles) n = nfiles ? (unsigned)nfiles : 1;
	return n;
}

void hv_digest_begin(hv_digest_set *s, const char *label, hv_blob *blobs, size_t n, unsigned jobs)
{
	memset(s, 0, sizeof *s);
	s->label = label;
	s->work = hv_calloc(n ? n : 1, sizeof *s->work);
	s->order = hv_calloc(n ? n : 1, sizeof *s->order);
	if (!s->work || !s->order) {
		free(s->work);
		free(s->order);
		s->work = NULL;
		s->order = NULL;
		snprintf(s->problem, sizeof s->problem, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		hv_digest_file *d = &s->work[i];
		d->ctx = crypto_ready() ? crypto.ctx_new() : NULL;
		s->nwork++;
		d->name = blobs[i].name;
		d->size = blobs[i].size;
		d->mem = blobs[i].mem;
		d->fetch = blobs[i].fetch;
		d->io = blobs[i].io;
		if (!d->ctx || crypto.init(d->ctx, crypto.sha256(), NULL) != 1 || (!d->mem && !d->fetch))
			d->failed = true;
		s->order[i] = i;
	}
	/* largest first: the longest SHA-256 streams start at once, and the
	 * small files fill in beside them */
	hv_sized *by = hv_malloc((s->nwork ? s->nwork : 1) * sizeof *by);
	if (by) { /* else: in input order */
		for (size_t i = 0; i < s->nwork; i++) by[i] = (hv_sized){s->work[i].size, i};
		hv_sort_largest_first(by, s->nwork);
		for (size_t i = 0; i < s->nwork; i++) s->order[i] = by[i].i;
		free(by);
	}
	atomic_init(&s->next, 0);
	unsigned want = hasher_count(jobs, s->nwork, hv_jobs_default());
	while (s->nhashers < want && pthread_create(&s->hashers[s->nhashers], NULL, hasher_main, s) == 0)
		s->nhashers++;
}

static void finish_one(hv_digest_file *d, hv_cert_file *out, char *problem, size_t plen)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	if (!d->failed && crypto.final(d->ctx, md, &mdlen) == 1 && mdlen == 32) {
		for (unsigned k = 0; k < 32; k++) snprintf(out->sha256 + 2 * k, 3, "%02x", md[k]);
	} else {
		d->failed = true;
		out->sha256[0] = '\0';
		if (problem[0]) {
		} else if (crypto.why[0]) {
			snprintf(problem, plen, "%.40s: could not compute its SHA-256: %.80s", d->name ? d->name : "?",
				 crypto.why);
		} else {
			snprintf(problem, plen, "%s: could not compute its SHA-256", d->name ? d->name : "?");
		}
	}
	out->size = d->size;
}

static void join_hashers(hv_digest_set *s)
{
	for (unsigned k = 0; k < s->nhashers; k++) pthread_join(s->hashers[k], NULL);
	s->nhashers = 0;
}

void hv_digest_end(hv_digest_set *s)
{
	/* also the fallback when no thread could start: what is left is hashed here */
	if (s->work) hash_all(s);
	join_hashers(s);
	if (!s->work) {
		s->out.problem = s->problem;
		return;
	}
	s->out.files = hv_calloc(s->nwork ? s->nwork : 1, sizeof *s->out.files);
	if (!s->out.files) {
		snprintf(s->problem, sizeof s->problem, "out of memory");
		s->out.complete = false;
		s->out.problem = s->problem;
		return;
	}
	for (size_t i = 0; i < s->nwork; i++) {
		hv_cert_file *f = &s->out.files[s->out.n];
		f->name = hv_strdup(hv_cert_relative_name(s->label ? s->label : "", s->work[i].name ? s->work[i].name : ""));
		if (!f->name) {
			snprintf(s->problem, sizeof s->problem, "out of memory");
			break;
		}
		s->out.n++;
		finish_one(&s->work[i], f, s->problem, sizeof s->problem);
	}
	s->out.complete = s->problem[0] == '\0';
	s->out.problem = s->problem[0] ? s->problem : NULL;
}

void hv_digest_withhold(hv_digest_set *s, const hv_report *r)
{
	if (!r->unreadable && !r->internal_error) return;
	for (size_t i = 0; i < s->out.n; i++) free(s->out.files[i].name);
	free(s->out.files);
	s->out.files = NULL;
	s->out.n = 0;
	snprintf(s->problem, sizeof s->problem, "no digest: the input has no verdict");
	s->out.complete = false;
	s->out.problem = s->problem;
}

void hv_digest_free(hv_digest_set *s)
{
	join_hashers(s);
	for (size_t i = 0; i < s->nwork; i++)
		if (s->work[i].ctx) crypto.ctx_free(s->work[i].ctx);
	free(s->work);
	free(s->order);
	for (size_t i = 0; i < s->out.n; i++) free(s->out.files[i].name);
	free(s->out.files);
	memset(s, 0, sizeof *s);
}

typedef struct digest_obs {
	hv_progress pr;
	hv_digest_set *dg;
	unsigned jobs;
	bool progress;
} digest_obs;

static void obs_begin(void *ctx, const char *label, hv_blob *blobs, size_t n)
{
	digest_obs *o = ctx;
	hv_digest_begin(o->dg, label, blobs, n, o->jobs);
	hv_progress_begin(&o->pr, label, blobs, n, o->progress);
}

static void obs_end(void *ctx)
{
	digest_obs *o = ctx;
	hv_digest_end(o->dg);
	hv_progress_end(&o->pr);
}

void hv_validate_path_digest(const char *path, const hv_options *opt, hv_report *r, hv_digest_set *dg,
			     bool progress)
{
	/* -j's count when the checks of this input run on the pool too; when
	 * inputs are validated side by side (no runner) each gets the minimum,
	 * so N inputs at -jN do not start N x N hashing threads */
	digest_obs o = {.dg = dg, .jobs = opt && opt->runner ? opt->jobs : 1, .progress = progress};
	memset(dg, 0, sizeof *dg);
	hv_path_observer obs = {obs_begin, obs_end, &o};
	hv_validate_path(path, opt, r, &obs);
	/* A certificate binds a verdict to every file's SHA-256: a verdict whose
	 * digests could not all be computed (an allocation or a read libcrypto's
	 * hashing lost) is no verdict to certify, for the CLI, hpcvet-mpi and the
	 * library's certify alike. */
	if (dg->problem[0] && !r->unreadable && !r->internal_error)
		hv_report_internal(r, "no certificate: %s", dg->problem);
	hv_digest_withhold(dg, r);
	if (!dg->work && !dg->problem[0]) {
		/* never read (unreadable input): no digests, and the reason */
		snprintf(dg->problem, sizeof dg->problem, "input not read");
		dg->out.problem = dg->problem;
	}
}
