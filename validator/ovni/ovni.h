/* The ovni family: binary streams (stream.obs), metadata documents
 * (stream.json, metadata.json, thread.TID.json) and trace trees. */
#ifndef HV_OVNI_H
#define HV_OVNI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/validate.h"
#include "ovni/events/events.h"

/* Mark types are numbers in [0, 100) (ovniemu's mark.c). */
#define OVNI_MARK_TYPES 100

/* What a stream's events tell the tree checks. */
typedef struct ovni_obs_summary {
	bool walked;                    /* the header was usable and the events were walked */
	uint64_t nevents;
	uint64_t first_clock;           /* clock of the first event (nevents > 0) */
	uint32_t models;                /* bit i: the stream has events of ovni_models[i] */
	uint64_t model_off[OVNI_NMODELS]; /* offset of the first event of each model */
	/* Mark events (OM[ OM] OM=) by type, for the tree's declared-type check. */
	uint64_t mark_types[2];         /* bit t: a mark event of type t in [0, 100) */
	uint64_t mark_off[OVNI_MARK_TYPES];
	bool mark_bad_type;             /* a mark event with a type outside [0, 100) */
	int64_t mark_bad_type_value;
	uint64_t mark_bad_type_off;
} ovni_obs_summary;

/* Check one binary stream. `headerless_ok`: a v1 thread file may start
 * directly with events (libovni < 1.0). `out` may be NULL. */
void ovni_check_obs(hv_blob *b, hv_report *r, bool headerless_ok, ovni_obs_summary *out);
bool ovni_obs_sniff(hv_blob *b);
/* Tests only: false checks every event with the one-by-one path, for
 * comparison with the fast path (tests/test_ovni_fastpath.c). */
extern bool ovni_obs_fast_path;

/* The kinds of metadata documents. */
typedef enum ovni_doc_kind {
	OVNI_DOC_STREAM3,  /* stream.json, version 3 */
	OVNI_DOC_PROC,     /* v1/v2 metadata.json: version 1 or 2 */
	OVNI_DOC_THREAD2,  /* v2 thread.TID.json, version 2 */
} ovni_doc_kind;

/* One "ovni.mark" entry: a mark type or one of its value labels. */
typedef struct ovni_mark {
	int64_t type;
	int64_t value;        /* labels only */
	bool is_label;
	bool stack;           /* chan_type "stack" (else "single") */
	char text[128];       /* title, or label (truncated for comparison display) */
	size_t text_len;      /* full length, so truncation never hides a difference */
	uint32_t text_hash;
	uint64_t off;
	const char *file;
} ovni_mark;

typedef struct ovni_cpu {
	int64_t index, phyid;
	uint64_t off;      /* byte offset of the entry in its document */
	const char *file;  /* the document's display name */
} ovni_cpu;

/* The metadata a document carries, for the tree checks. Fields are valid
 * only when their has_ flag is set (and the per-document rule passed). */
typedef struct ovni_meta {
	bool ok;                        /* a JSON object was read */
	bool part_unknown;              /* ovni.part is a string other than "thread" */
	char part[32];
	int version;
	bool has_tid, has_pid, has_loom, has_app_id, has_rank, has_nranks, has_require, has_cpus;
	int64_t tid, pid, app_id, rank, nranks;
	char loom[512];
	uint32_t required;              /* bit i: ovni_models[i] is required */
	ovni_cpu *cpus;
	size_t ncpus;
	ovni_mark *marks;               /* types and labels from ovni.mark */
	size_t nmarks;
	uint64_t off_tid, off_pid, off_loom, off_app_id, off_rank, off_cpus;
} ovni_meta;

void ovni_check_json(hv_blob *b, hv_report *r, ovni_doc_kind kind, ovni_meta *out);
void ovni_meta_free(ovni_meta *m);
bool ovni_json_sniff(hv_blob *b);

/* "line L, column C" of a byte offset in a document, 1-based. */
void ovni_linecol(const uint8_t *text, size_t len, uint64_t off, unsigned long *line, unsigned long *col);

extern const hv_format hv_format_ovni_stream;
extern const hv_format hv_format_ovni_json;
extern const hv_family hv_family_ovni;

#endif
