/* Per-file size and SHA-256 for certificates, computed while the input is
 * validated: a file the reader holds in memory is hashed from that memory;
 * a file read through windows is hashed as its windows pass by (the fetch
 * callback is wrapped, as the progress line does), and only bytes the
 * checks never read in order are read once more at the end. The digests
 * are libcrypto's (OpenSSL EVP); this file is the only user of it and it is
 * linked into the hpcvet program only, not into libhpcvet. */
#ifndef HV_DIGEST_H
#define HV_DIGEST_H

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
} hv_digest_set;

/* Before validation: start a digest per blob and wrap windowed blobs'
 * fetch (the blobs must be validated through the wrapped copies).
 * `label` is the path the user gave: names are made relative to it. */
void hv_digest_begin(hv_digest_set *s, const char *label, hv_blob *blobs, size_t n);
/* After validation, while the files are still open: hash what the checks
 * did not read in order and fill s->out. */
void hv_digest_end(hv_digest_set *s);
void hv_digest_free(hv_digest_set *s);

/* hv_validate_path with digests of every file read into `dg` (and the
 * progress line on a terminal). `dg` is freed with hv_digest_free. */
void hv_validate_path_digest(const char *path, const hv_options *opt, hv_report *r, hv_digest_set *dg);

#endif
