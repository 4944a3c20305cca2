/* Per-file size and SHA-256 for certificates, computed while the input is
 * validated, on a thread of its own: SHA-256 costs about as much CPU as
 * validating an ovni stream, so hashing in the checks' pass would almost
 * double the time to a certificate; beside them it overlaps. A file the
 * reader holds in memory is hashed from that memory (no copy); a file read
 * through windows is read by the hashing thread through its own reader
 * (1 MiB at a time, from the page cache the checks warm). The checking
 * core is not involved and does no I/O. When no thread can be started the
 * files are hashed after validation instead. The digests are libcrypto's
 * (OpenSSL EVP); this file is the only user of it and it is linked into
 * the hpcvet program only, not into libhpcvet. */
#ifndef HV_DIGEST_H
#define HV_DIGEST_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/blob.h"
#include "../core/validate.h"
#include "../output/certify.h"

typedef struct hv_digest_file hv_digest_file;

/* The digests of one input (a file, a directory, a DUMPI trace). */
typedef struct hv_digest_set {
	const char *label;
	hv_digest_file *work; /* state while validating, one per blob */
	size_t nwork;
	hv_cert_files out;    /* the finished list, names relative to the input */
	char problem[160];    /* why a digest could not be computed (else "") */
	pthread_t hasher;
	bool hashing;         /* hasher runs: joined by hv_digest_end */
} hv_digest_set;

/* Before validation: start a digest per blob and the hashing thread.
 * `label` is the path the user gave: names are made relative to it. */
void hv_digest_begin(hv_digest_set *s, const char *label, hv_blob *blobs, size_t n);
/* After validation, while the files are still open: wait for the hashing
 * thread (or hash, when it could not start) and fill s->out. */
void hv_digest_end(hv_digest_set *s);
void hv_digest_free(hv_digest_set *s);

/* hv_validate_path with digests of every file read into `dg` (and the
 * progress line on a terminal). `dg` is freed with hv_digest_free. */
void hv_validate_path_digest(const char *path, const hv_options *opt, hv_report *r, hv_digest_set *dg);

#endif
