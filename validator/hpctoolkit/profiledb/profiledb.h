/* profile.db: open (header, Profile Info section header), then walk (every
 * profile's {PI}, its value block, the identifier tuples). The database
 * check opens all files first, then walks them with visitors that carry the
 * cross-file checks. */
#ifndef HV_HPCTK_PROFILEDB_H
#define HV_HPCTK_PROFILEDB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/report.h"
#include "core/validate.h"
#include "hpctoolkit/format/array.h"
#include "hpctoolkit/format/fileheader.h"
#include "hpctoolkit/format/svb.h"

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
	/* After the values of profile `prof` (hpctk_profiledb_range, once per
	 * profile it reaches; may be NULL). A check that holds a profile's
	 * verdicts until its values are complete reports them here, so they
	 * follow that profile's own diagnostics and precede the next
	 * profile's, however the profiles are split into units. */
	void (*profile_end)(void *arg, uint32_t prof);
} hpctk_prof_visitor;

typedef struct hpctk_profiledb {
	hv_blob *b;
	hpctk_header h;
	enum hv_edition evidence;  /* edition the structure shows (szProfile), AUTO if none */
	enum hv_edition edition;   /* edition it is checked as */
	hpctk_array pi;            /* the {PI} array: pProfiles, nProfiles, szProfile */
	bool complete;             /* after walk: every value was visited */
} hpctk_profiledb;

/* A walk in parts, for units of work: prepare (the identifier tuples,
 * every {PI} and its block's layout, the overlap sweep: small, run by
 * every process), then the values of ranges of profiles, each into its
 * own report, then free. */
typedef struct hpctk_prof_walk {
	hpctk_svb_env e;           /* after phases 1 and 2, read-only during the ranges */
	hv_window w;
	bool w_ok, env_init, env_ok, release;
	unsigned need;             /* {PI} bytes read */
	bool complete;             /* the prepare read everything it had to */
} hpctk_prof_walk;

/* What a profile.db's structure says about its edition (cheap; no report). */
enum hv_edition hpctk_profiledb_evidence(hv_blob *b);

/* `ed`: the edition to check as when the file itself shows none (AUTO: release). */
bool hpctk_profiledb_open(const hv_options *opt, hv_blob *b, hv_report *r, enum hv_edition ed, hpctk_profiledb *p);
void hpctk_profiledb_walk(hpctk_profiledb *p, hv_report *r, const hpctk_prof_visitor *v);
/* False: nothing to walk (no ranges). */
bool hpctk_profiledb_prepare(hpctk_profiledb *p, hv_report *r, const hpctk_prof_visitor *v, hpctk_prof_walk *pw);
/* Profiles [first, last): true when every value of them was visited. */
bool hpctk_profiledb_range(hpctk_profiledb *p, const hpctk_prof_walk *pw, hv_report *r, const hpctk_prof_visitor *v,
			   uint32_t first, uint32_t last);
void hpctk_profiledb_prepared_free(hpctk_prof_walk *pw);
/* Bytes of value data of profile i's block ({PI} read again; 0 when unreadable). */
uint64_t hpctk_profiledb_block_bytes(hpctk_profiledb *p, hv_window *w, uint32_t i);

extern const hv_format hv_format_hpctk_profiledb;

#endif
