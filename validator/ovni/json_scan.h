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
	bool oom;
} ovni_jdoc;

/* False only when memory runs out. */
bool ovni_jdoc_init(ovni_jdoc *d, const uint8_t *text, size_t len);
/* Record key and element positions of the cleaned text. */
void ovni_jdoc_scan(ovni_jdoc *d);
void ovni_jdoc_free(ovni_jdoc *d);

/* Offset and length of the nth (0-based) occurrence of `path`; false when
 * absent (the caller then points at the enclosing value). */
bool ovni_jdoc_find(const ovni_jdoc *d, const char *path, unsigned nth, uint64_t *off, uint64_t *len);

#endif
