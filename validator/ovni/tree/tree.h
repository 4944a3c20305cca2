/* A trace tree as data: the streams, processes and clock offsets found in
 * a directory input, which the event model (model/) replays and the
 * trace's checks (trace.h) walk. The tree's own checks: marks.c, clkoff.c. */
#ifndef HV_OVNI_TREE_H
#define HV_OVNI_TREE_H

#include "ovni/ovni.h"

typedef struct ovni_stream {
	const char *rel;        /* relative path of its metadata (or binary) file */
	hv_blob *json, *obs;
	int version;            /* 3; or 1/2 in older trees */
	ovni_meta meta;         /* stream.json (v3) or thread.TID.json (v2) */
	int proc;               /* v1/v2: index into the trace's procs, else -1 */
	bool thread;            /* a thread stream whose ids are usable */
	bool tid_ok, pid_ok, loom_ok;
	int64_t tid, pid;
	char loom[512];
	ovni_obs_summary sum;
} ovni_stream;

typedef struct ovni_proc {     /* v1/v2 process: proc.PID/metadata.json */
	hv_blob *json;
	ovni_meta meta;
	char loom[512];
	bool loom_ok, pid_ok;
	int64_t pid;
} ovni_proc;

typedef struct ovni_trace {
	hv_report *r;
	ovni_stream *s;
	size_t ns;
	ovni_proc *p;
	size_t np;
	hv_blob *clkoff;        /* clock-offsets.txt at the top, or NULL */
	struct ovni_ahead *ahead; /* streams checked ahead in parallel (ovni/trace.c) */
	struct ovni_fused *fx;  /* streams checked by the fused replay (fused.c) */
	hv_report *fused;       /* that replay's model report, merged if the trace has no error */
	bool all_models;        /* hv_options.ovni_all_models: no model needs a thread to require it */
	/* the model's mark kinds (ovni_model_mark_kinds), found once for every
	 * loom: NULL, each loom looks them up over every stream of the trace */
	const int8_t *mark_kind;
} ovni_trace;

/* ovni.mark declarations merged over threads, and mark events against them. */
void ovni_tree_marks(ovni_trace *t);

/* Parse clock-offsets.txt; fills per-stream offsets (0 when none). */
void ovni_clock_offsets(ovni_trace *t, int64_t *offsets);

/* Fill a v3 stream's thread, process and loom ids from its stream.json. */
void ovni_stream_ids_from_meta(ovni_stream *s);

/* The display path of a file relative to the input. */
const char *ovni_relpath(const hv_report *r, const char *name);

/* Hostname of a loom: its name up to the first dot. */
void ovni_loom_host(const char *loom, char *out, size_t outlen);

#endif
