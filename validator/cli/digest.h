/* Per-file size and SHA-256 for certificates, computed while the input is
 * validated, on threads of their own: SHA-256 costs more CPU than
 * validating an ovni stream, so hashing in the checks' pass would almost
 * double the time to a certificate; beside them it overlaps. The files of
 * an input (an ovni trace's streams, a DUMPI trace's ranks, a database's
 * four files) are handed out largest first to a small pool (at -j1 one
 * thread beside the checks on a 2-core machine, two on a larger one; at
 * -jN N); each file stays one plain SHA-256 stream, hashed by one thread.
 * A file the reader holds in memory is hashed from that memory (no copy);
 * a file read through windows is read by its hashing thread through its
 * own reader (128 KiB at a time, from the page cache the checks warm). The checking
 * core is not involved and does no I/O. When validation ends first, its
 * thread hashes the files no hasher has taken yet; when no thread can be
 * started that is all of them. The digests are libcrypto's
 * (OpenSSL EVP, opened with dlopen at the first certificate, its
 * allocations routed through core/alloc.h); this file is the only user of
 * it. */
#ifndef HV_DIGEST_H
#define HV_DIGEST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/validate.h"
#include "output/certify.h"

typedef struct hv_digest_file hv_digest_file;

/* Hashing threads per input, at most. */
#define HV_DIGEST_MAX_THREADS 16

/* The digests of one input (a file, a directory, a DUMPI trace). */
typedef struct hv_digest_set {
	const char *label;
	hv_digest_file *work; /* state while validating, one per blob */
	size_t nwork;
	hv_cert_files out;    /* the finished list, names relative to the input */
	char problem[160];    /* why a digest could not be computed (else "") */
	size_t *order;        /* work indices, largest file first */
	atomic_size_t next;   /* the next position in `order` to hash */
	pthread_t hashers[HV_DIGEST_MAX_THREADS];
	unsigned nhashers;    /* running: joined by hv_digest_end */
} hv_digest_set;

/* Before validation: start a digest per blob and the hashing threads
 * (`jobs` of them; at -j1 one, or two where a third core exists; at most
 * one per file). `label` is the path the user gave: names are made relative
 * to it. */
void hv_digest_begin(hv_digest_set *s, const char *label, hv_blob *blobs, size_t n, unsigned jobs);
/* After validation, while the files are still open: hash what no thread
 * has taken yet, wait for the hashing threads and fill s->out. */
void hv_digest_end(hv_digest_set *s);
void hv_digest_free(hv_digest_set *s);
/* A certificate binds digests to a verdict: an input without one
 * (unreadable, among others because a file changed while it was read
 * and hashed, or an internal error) gets no digest at all, so no
 * certificate of it names bytes. Called once its report is final. */
void hv_digest_withhold(hv_digest_set *s, const hv_report *r);

/* Whether libcrypto allocates through core/alloc.h (set at its opening,
 * the first certificate; false in a process that used libcrypto before),
 * and how many of its allocations were made that way and failed. */
void hv_digest_crypto_stats(bool *routed, unsigned long long *allocs, unsigned long long *failures);

/* hv_validate_path with digests of every file read into `dg` (and, with
 * `progress`, the progress line on a terminal: the CLI's, never the
 * library's). `dg` is freed with hv_digest_free. */
void hv_validate_path_digest(const char *path, const hv_options *opt, hv_report *r, hv_digest_set *dg,
			     bool progress);

#endif
