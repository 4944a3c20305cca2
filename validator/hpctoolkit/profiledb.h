/* profile.db: open (header, Profile Info section header), then walk (every
 * profile's {PI}, its value block, the identifier tuples). The database
 * check opens all files first, then walks them with visitors that carry the
 * cross-file checks. */
#ifndef HV_HPCTK_PROFILEDB_H
#define HV_HPCTK_PROFILEDB_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/blob.h"
#include "../core/report.h"
#include "../core/validate.h"
#include "crossdb_array.h"
#include "fileheader.h"
#include "profiledb_svb.h"

#define HPCTK_PI_END_DRAFT 0x28u
#define HPCTK_PI_END_RELEASE 0x30u

typedef struct hpctk_prof_visitor {
	void *arg;
	/* One {Idx} entry of profile `prof` (a summary profile when `summary`). */
	void (*index)(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint64_t off);
	void (*value)(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint16_t metric, uint64_t bits, uint64_t off);
	/* One identification of an identifier tuple. */
	void (*kind)(void *arg, uint8_t kind, uint64_t off);
	/* [0] for thread profiles, [1] for summary profiles; NULL: `value` is
	 * called for every value (see hpctk_svb_fast). */
	const hpctk_svb_fast *fast;
} hpctk_prof_visitor;

typedef struct hpctk_profiledb {
	hv_blob *b;
	hpctk_header h;
	enum hv_edition evidence;  /* edition the structure shows (szProfile), AUTO if none */
	enum hv_edition edition;   /* edition it is checked as */
	hpctk_array pi;            /* the {PI} array: pProfiles, nProfiles, szProfile */
	bool complete;             /* after walk: every value was visited */
	uint32_t nsummary;         /* after walk: profiles read as summary profiles */
} hpctk_profiledb;

/* What a profile.db's structure says about its edition (cheap; no report). */
enum hv_edition hpctk_profiledb_evidence(hv_blob *b);

/* `ed`: the edition to check as when the file itself shows none (AUTO: release). */
bool hpctk_profiledb_open(const hv_options *opt, hv_blob *b, hv_report *r, enum hv_edition ed, hpctk_profiledb *p);
void hpctk_profiledb_walk(hpctk_profiledb *p, hv_report *r, const hpctk_prof_visitor *v);

extern const hv_format hv_format_hpctk_profiledb;

#endif
