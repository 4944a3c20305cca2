/* The common file structure of all four HPCToolkit *.db files: the 16-byte
 * identification (magic, format code, major, minor), the {sz,p} section
 * table, and the 8-byte footer. One implementation, parameterised by a
 * per-file descriptor that names that file's own rule IDs. */
#ifndef HV_HPCTK_FILEHEADER_H
#define HV_HPCTK_FILEHEADER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/report.h"

#define HPCTK_MAX_SECTIONS 8
#define HPCTK_MAJOR 4
#define HPCTK_KNOWN_MINOR 0

typedef struct hpctk_section_desc {
	const char *name;  /* "General", used in struct paths */
	unsigned align;    /* required alignment of the section pointer */
} hpctk_section_desc;

typedef struct hpctk_file_desc {
	const char *file;        /* "meta.db" */
	char code[5];            /* "meta" */
	char footer[9];          /* "_meta.db" */
	unsigned nsections;
	hpctk_section_desc sections[HPCTK_MAX_SECTIONS];
	/* This file's rule IDs. */
	int r_magic, r_major, r_minor_newer, r_truncated, r_footer;
	int r_sec_contained, r_sec_aligned, r_sec_overlap;
} hpctk_file_desc;

typedef struct hpctk_header {
	uint8_t major, minor;
	bool newer_minor;         /* minor > HPCTK_KNOWN_MINOR: forward-compatible reading */
	bool usable;              /* identification is right: the body can be interpreted */
	uint64_t body_end;        /* first byte after the last byte sections may use */
	uint64_t sz[HPCTK_MAX_SECTIONS], p[HPCTK_MAX_SECTIONS];
	bool sec_ok[HPCTK_MAX_SECTIONS]; /* section lies inside [header end, body_end) */
} hpctk_header;

/* Size of the file header for a descriptor: 16 + 16 per section. */
static inline uint64_t hpctk_header_size(const hpctk_file_desc *d) { return 16u + 16u * d->nsections; }

/* Check identification, footer and section table. `expect_footer` is false
 * for files whose edition has no footer (draft trace.db); otherwise the
 * footer is the last 8 bytes and sections must end before it. Returns
 * h->usable: false when the identification is wrong or the header is cut,
 * in which case nothing in the body can be interpreted. */
bool hpctk_check_header(const hpctk_file_desc *d, hv_blob *b, hv_report *r, bool expect_footer, hpctk_header *h);

/* True when the first 14 bytes are "HPCTOOLKIT" followed by `code`. */
bool hpctk_sniff(hv_blob *b, const char code[4]);

#endif
