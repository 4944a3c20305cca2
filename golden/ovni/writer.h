/* Shared by the ovni writers: one binary stream and one metadata document,
 * each with the breaks that concern it. */
#ifndef HV_GEN_OVNI_H
#define HV_GEN_OVNI_H

#include <stdbool.h>
#include <stdint.h>

#include "../gen.h"

/* One thread stream to write. */
typedef struct govni_stream {
	uint64_t seed;
	unsigned nevents;
	uint64_t clock0;          /* first clock */
	int cpu;                  /* logical CPU index the thread runs on (OHx, OAs) */
	long long tid;            /* task and type ids are derived from it */
	bool header;              /* v1 files may have no 8-byte header */
	bool nosv_events;         /* emit V events (the thread requires nosv) */
	bool newer_event;         /* minor > 0: an event not in the 1.14 table */
	int mark_type;            /* emit OM[ OM= OM] of this type; -1: none */
	int undeclared_mark;      /* break: one more mark event of this type; -1: none */
	bool steady;              /* no pause/cool events (the thread runs throughout) */
	const char *brk;          /* an ovni.obs.* rule to break, or NULL */
	const char *model_brk;    /* an ovni.model.* rule to break, or NULL */
} govni_stream;

/* Write stream.obs into b. */
void govni_write_obs(const govni_stream *s, gen_buf *b);

/* One thread's metadata. */
typedef struct govni_meta {
	int version;              /* 3 for stream.json, 2 for v2 thread.TID.json */
	long long tid, pid, app_id, rank, nranks;
	const char *loom;
	bool with_app_id, with_rank, with_cpus;
	unsigned ncpus;
	int cpu_index_shift;      /* break: indices start at this value */
	bool cpu_phyid_clash;     /* break: phyid 0 gets index 1 */
	bool require_nosv;
	bool require_kernel, require_openmp, require_nanos6; /* for the event-model breaks that need them */
	int mark_decl;            /* ovni.mark: 0 none, 1 type 3 with labels, 2 type 3 with one label */
	bool mark_other_title;    /* break: type 3 under another title */
	unsigned nosv_minor;      /* 7, or newer for minor > 0 */
	const char *require_more; /* more ovni.require entries ("\"mpi\": \"1.0.0\""), or NULL */
	const char *brk;          /* an ovni.json.* rule to break, or NULL */
} govni_meta;

/* Write a JSON document (stream.json, thread.TID.json) into b, NUL excluded. */
void govni_write_meta(const govni_meta *m, gen_buf *b);

/* v1/v2 process metadata.json. */
/* Process metadata.json of a v1/v2 tree; `brk`: an ovni.json.* rule of it to break, or NULL. */
void govni_write_proc(int version, long long app_id, long long rank, long long nranks, unsigned ncpus, const char *brk,
		      gen_buf *b);

/* --what=ovni-trace-mix (mix.c): the measured shape of real traces. */
int govni_gen_mix(const gen_params *p, gen_output *out);
/* --what=ovni-trace-runtime (runtime.c): one loom shaped like a task runtime's trace. */
int govni_gen_runtime(const gen_params *p, gen_output *out);
/* Whether --profiles (streams a loom) and --looms give a runtime trace; else
 * says why in err. */
bool govni_runtime_shape(const gen_params *p, char *err, size_t errlen);

bool govni_is(const char *a, const char *b);
bool govni_prefix(const char *rule, const char *prefix);
/* Append one event to a stream: `plen` bytes of payload (normal: 0 or 2..16)
 * or of `jumbo` data. Returns the event's offset. */
size_t govni_put_event(gen_buf *b, const char *mcv, uint64_t clock, const uint8_t *payload, size_t plen, bool jumbo);

#endif
