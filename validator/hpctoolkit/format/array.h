/* What profile.db, cct.db and trace.db share past the file header: their
 * first section starts with a header {pArray u64, nElems u32, szElem u8}
 * naming one array of fixed-stride structures ({PI}, {CI}, trace headers),
 * checked the same way in each (section long enough, array aligned and
 * inside the section, stride holding the structure) with that file's rule
 * IDs and names; and the name and version a lone file's report carries. */
#ifndef HV_HPCTK_ARRAY_H
#define HV_HPCTK_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/report.h"
#include "fileheader.h"

typedef struct hpctk_array {
	uint64_t p;  /* pProfiles, pCtxs, pTraces */
	uint32_t n;  /* nProfiles, nCtxs, nTraces */
	uint8_t sz;  /* szProfile, szCtx, szTrace */
	bool ok;     /* inside the section with a stride holding the structure: it can be walked */
} hpctk_array;

typedef struct hpctk_array_desc {
	const char *section;   /* "profile.db/ProfileInfos" */
	const char *size_name; /* "szProfileInfos": the section table's size field */
	const char *p_name, *sz_name;  /* "pProfiles", "szProfile" */
	const char *what;      /* "{PI} array" */
	const char *body;      /* "the Profile Info section body" */
	const char *structure; /* "the {PI} structure" */
	int r_short, r_aligned, r_contained, r_stride;
} hpctk_array_desc;

/* Check the header of section 0 (`shdr` bytes, copied to `sh`, at most 32)
 * and its array; `min_stride` is the structure's size, `shdr_note` and
 * `stride_note` finish the messages (" (pProfiles, nProfiles, szProfile)",
 * " in the release edition"). False when the section header cannot be
 * read (too short: reported; I/O): the file has no array then. */
bool hpctk_check_array(const hpctk_array_desc *d, hv_blob *b, hv_report *r, const hpctk_header *h, unsigned shdr,
		       uint8_t *sh, unsigned min_stride, const char *shdr_note, const char *stride_note, hpctk_array *a);

/* A lone file's report: its version (4.0 when the header is unreadable)
 * and, when known, its edition. */
void hpctk_name_file(hv_report *r, const hpctk_header *h, enum hv_edition ed);

#endif
