/* The web page's reader: the files a user dropped, turned into blobs for
 * the checking core, as the CLI's fileio.c turns paths into blobs. The
 * bytes live in the browser (File objects held by the worker, worker.js);
 * the core reads them through the blob's fetch callback, which calls the
 * JavaScript import hpcvet.read: a synchronous FileReaderSync read of one
 * slice. So a large file is read by windows, as the CLI reads it with
 * pread, and the browser never holds it whole. The blob's will_read hint
 * (core/blob.h) calls hpcvet.will_read, with which the page starts reads
 * ahead of a jump the core announces. */
#ifndef HV_WEB_READER_H
#define HV_WEB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/blob.h"

/* One file of an input: its name as the report shows it, its size, and
 * the index of its File object in the worker's list. */
typedef struct hvw_file {
	char *name;
	uint64_t size;
	uint32_t js_id;
	uint8_t *data; /* the whole content, when it was read at once */
	char sha256[65]; /* for a certificate: lowercase hex from the page's WebCrypto, or "" */
} hvw_file;

typedef struct hvw_input {
	char *label;     /* the input's path: a folder, a file, a DUMPI .meta */
	bool set;        /* validated as a set of files (a folder, a .meta's folder) */
	hvw_file *files;
	size_t n, cap;
	hv_blob *blobs;  /* made by hvw_input_open */
	char *problem;   /* why the page could not gather its files (a folder too deep), or NULL */
} hvw_input;

bool hvw_input_add(hvw_input *in, const char *name, uint64_t size, uint32_t js_id);
/* Sort a set's files by name and read the small ones whole, with the
 * CLI's limits (fileio.h): a single file up to HV_SLURP_MAX, a set's files
 * up to HV_DIR_SLURP_MAX while their total stays within HV_DIR_SLURP_BUDGET;
 * all others are read through windows. False with *why set when a file
 * could not be read or the set is larger than the CLI accepts. */
bool hvw_input_open(hvw_input *in, char *why, size_t why_len);
void hvw_input_free(hvw_input *in);

/* Copy up to `len` bytes of the file named `name` of `in` at `off`; the
 * count copied (0 on failure). For writers that show a finding's bytes. */
size_t hvw_input_read_range(hvw_input *in, const char *name, uint64_t off, uint8_t *dst, size_t len);

/* Bytes the core asked the browser for so far (the page's progress). */
uint64_t hvw_bytes_read(void);

#endif
