/* Positions inside a JSON document. cJSON parses values but keeps no byte
 * offsets, so this scanner walks the same text once, without interpreting
 * values, and records where every object key and array element starts, by
 * its path ("ovni.loom_cpus[3].phyid"). It also blanks comments, which
 * ovniemu's parser accepts and cJSON does not. */
#ifndef HV_OVNI_JSON_SCAN_H
#define HV_OVNI_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ovni_jpos {
	char *path;
	uint64_t off;   /* the key's opening quote, or the element's first byte */
	uint64_t len;   /* the key token's length (quotes included), or 1 */
} ovni_jpos;

typedef struct ovni_jdoc {
	const uint8_t *text;
	size_t len;
	char *clean;            /* text with comments blanked, NUL-terminated */
	bool has_comment;
	uint64_t comment_off;
	ovni_jpos *pos;
	size_t npos, cap;
	size_t path_bytes;        /* bytes of the recorded paths, at most path_budget */
	size_t path_budget;       /* OVNI_JSCAN_MAX_PATH_BYTES, or less for a small document */
	bool oom, truncated;      /* positions beyond OVNI_JSCAN_MAX_POS are not recorded */
	/* The positions by path (built at the end of the scan), so that a find
	 * costs no walk of them all: a report of a thousand findings in a
	 * document of a million keys located each by its path made a billion
	 * string compares. `head` is an open-addressed table of the first
	 * position of each path (UINT32_MAX: empty), `next_same` the next
	 * position of the same path (UINT32_MAX: none). NULL when there was no
	 * memory for them: finds then walk the positions, with the same answers. */
	uint32_t *head, *next_same;
	size_t head_mask;
	uint64_t *nl;             /* offsets of every '\n', built on first use */
	size_t nnl;
	bool nl_built;
} ovni_jdoc;

/* Bounded memory for huge documents: later keys fall back to the position
 * of their nearest recorded ancestor. */
#define OVNI_JSCAN_MAX_POS 1000000u
/* Paths are stored whole, and a path grows with the nesting: a 4 MB
 * document of a million elements 900 arrays deep would hold 2.7 GB of
 * paths. Past this many bytes of paths, or 4 per byte of the document
 * (and 64 KiB), positions are not recorded either: libovni's documents hold
 * about one byte of path per byte of text, and a 184 KB document nested
 * 1,000 deep held 32 MB of paths. */
#define OVNI_JSCAN_MAX_PATH_BYTES (32u << 20)
#define OVNI_JSCAN_PATH_BYTES_PER_BYTE 4u
#define OVNI_JSCAN_PATH_BYTES_MIN (64u << 10)

/* False only when memory runs out. */
bool ovni_jdoc_init(ovni_jdoc *d, const uint8_t *text, size_t len);
/* Record key and element positions of the cleaned text. */
void ovni_jdoc_scan(ovni_jdoc *d);
void ovni_jdoc_free(ovni_jdoc *d);

/* Offset and length of the nth (0-based) occurrence of `path`; false when
 * absent (the caller then points at the enclosing value). */
bool ovni_jdoc_find(const ovni_jdoc *d, const char *path, unsigned nth, uint64_t *off, uint64_t *len);

/* Like ovni_jdoc_find, searching forward from record `*from`; on success
 * *from is moved past the hit, so walking an array in order is linear. */
bool ovni_jdoc_find_next(const ovni_jdoc *d, const char *path, size_t *from, uint64_t *off);

/* 1-based line and column of a byte offset (binary search over newlines). */
void ovni_jdoc_linecol(ovni_jdoc *d, uint64_t off, unsigned long *line, unsigned long *col);

#endif
