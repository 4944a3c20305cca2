/* A deterministic random HPCToolkit v4 database, in memory: the one model
 * that the meta.db, profile.db, cct.db and trace.db writers all serialise,
 * so the four files of a generated database agree with each other.
 *
 * What is stored: everything meta.db describes (identifier names, scopes,
 * metrics with their prop/stat metric ids, load modules, source files,
 * functions, entry points and the context tree) and the list of profiles.
 * Memory is proportional to that (about 48 bytes per context).
 *
 * What is NOT stored: metric values and trace samples. They are pure
 * functions of (seed, profile, context, metric) and (seed, profile, index),
 * so a writer can stream a database of any size (profile-major for
 * profile.db, context-major for cct.db) without holding the data.
 *
 * Conventions that mirror hpcprof (research/hpctoolkit.md §3):
 *  - ctxIds are unique, non-zero, not dense and not in tree order; 0 is the
 *    implicit global context and never names a context of the tree.
 *  - Scopes: "point" (type 1), "function" (type 3, transitive, bit 0),
 *    "lex_aware" (type 0, custom), "execution" (type 2); propagationIndex is
 *    255 for every non-transitive scope.
 *  - propMetricIds are unique among propMetricIds, statMetricIds among
 *    statMetricIds; the two sets share one number space and overlap.
 *  - A context's `propagation` is 1 exactly when its relation is 0.
 *  - Profile 0 is the summary profile (no id tuple); profiles 1.. are
 *    application threads with id tuples.
 *
 * The draft edition has no entry points: its writer emits each entry point
 * as a root {Ctx} with the entry's ctxId (lexicalType function, relation
 * call, no flags, no flex words), so the set of ctxIds is the same in both
 * editions and the other files need not care.
 *
 * The API is stable: fields and functions are only ever added. */
#ifndef HV_HPCTK_MODEL_H
#define HV_HPCTK_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../gen.h"

#define HPCTK_NONE UINT32_MAX /* "no such element" for indices */

/* Enumerations as the specs define them. */
enum { HPCTK_SCOPE_CUSTOM = 0, HPCTK_SCOPE_POINT = 1, HPCTK_SCOPE_EXECUTION = 2, HPCTK_SCOPE_TRANSITIVE = 3 };
enum { HPCTK_COMBINE_SUM = 0, HPCTK_COMBINE_MIN = 1, HPCTK_COMBINE_MAX = 2 };
enum { HPCTK_ENTRY_UNKNOWN = 0, HPCTK_ENTRY_MAIN_THREAD = 1, HPCTK_ENTRY_APP_THREAD = 2 };
enum { HPCTK_REL_LEXICAL = 0, HPCTK_REL_CALL = 1, HPCTK_REL_INLINED_CALL = 2 };
enum { HPCTK_LEX_FUNCTION = 0, HPCTK_LEX_LOOP = 1, HPCTK_LEX_LINE = 2, HPCTK_LEX_INSTRUCTION = 3 };
enum { HPCTK_CTX_HAS_FUNCTION = 1, HPCTK_CTX_HAS_SRCLOC = 2, HPCTK_CTX_HAS_POINT = 4 };
/* Identifier kinds, hpcprof's numbering (meta.db IdNames index). */
enum {
	HPCTK_KIND_SUMMARY = 0, HPCTK_KIND_NODE = 1, HPCTK_KIND_RANK = 2, HPCTK_KIND_THREAD = 3,
	HPCTK_KIND_GPUDEVICE = 4, HPCTK_KIND_GPUCONTEXT = 5, HPCTK_KIND_GPUSTREAM = 6, HPCTK_KIND_CORE = 7,
};

typedef struct hpctk_scope {
	const char *name;      /* "point", "function", "lex_aware", "execution" */
	uint8_t type;          /* HPCTK_SCOPE_* */
	uint8_t prop_index;    /* propagation bit for transitive scopes, else 255 */
} hpctk_scope;

typedef struct hpctk_scope_inst {
	uint16_t scope;          /* index into model->scopes */
	uint16_t prop_metric_id;
} hpctk_scope_inst;

typedef struct hpctk_summary {
	uint16_t scope;          /* index into model->scopes; always one of the metric's scope insts */
	const char *formula;     /* "$$" or "$$^2" (METRICS.yaml inputs:formula) */
	uint8_t combine;         /* HPCTK_COMBINE_* */
	uint16_t stat_metric_id;
	uint16_t inst;           /* index into the metric's insts whose values it summarises */
} hpctk_summary;

typedef struct hpctk_metric {
	char *name;
	uint16_t n_insts;
	hpctk_scope_inst *insts;
	uint16_t n_summaries;
	hpctk_summary *summaries;  /* grouped by scope, in the order of insts */
} hpctk_metric;

typedef struct hpctk_module {
	char *path;
	uint32_t flags;            /* reserved, 0 */
} hpctk_module;

typedef struct hpctk_file {
	char *path;
	uint32_t flags;            /* bit 0: copied */
} hpctk_file;

typedef struct hpctk_function {
	char *name;                /* NULL: anonymous (pName = 0) */
	uint32_t module;           /* index or HPCTK_NONE */
	uint64_t offset;
	uint32_t file;             /* index or HPCTK_NONE */
	uint32_t line;
} hpctk_function;              /* at least one of name, module, file is set */

typedef struct hpctk_entry {
	uint32_t ctx_id;
	uint16_t kind;             /* HPCTK_ENTRY_* */
	const char *pretty_name;   /* "main thread", ... */
	uint32_t first_child;      /* index into model->ctx of the first child; children are contiguous */
	uint32_t n_children;
} hpctk_entry;

/* One {Ctx} of the tree below the entry points. model->ctx is in
 * breadth-first order and the children of every context (and of every
 * entry point) are a contiguous index range, so a writer lays out a
 * children array by walking [first_child, first_child + n_children). */
typedef struct hpctk_ctx {
	uint32_t ctx_id;
	uint32_t parent;           /* index into model->ctx, or HPCTK_NONE below an entry point */
	uint32_t entry;            /* index of the entry point above it */
	uint32_t first_child, n_children;
	uint8_t flags;             /* HPCTK_CTX_HAS_* */
	uint8_t relation;          /* HPCTK_REL_* */
	uint8_t lexical_type;      /* HPCTK_LEX_* */
	uint8_t n_flex_words;      /* exactly what the flags need (0..5) */
	uint16_t propagation;      /* 1 iff relation == 0 */
	uint32_t function;         /* index, valid when HAS_FUNCTION */
	uint32_t file, line;       /* valid when HAS_SRCLOC */
	uint32_t module;           /* valid when HAS_POINT */
	uint64_t offset;           /* valid when HAS_POINT */
} hpctk_ctx;

#define HPCTK_MAX_IDS 4

typedef struct hpctk_id {
	uint8_t kind;              /* HPCTK_KIND_* */
	uint16_t flags;            /* bit 0: isPhysical */
	uint32_t logical_id;
	uint64_t physical_id;      /* == logical_id unless isPhysical */
} hpctk_id;

typedef struct hpctk_profile {
	bool is_summary;           /* profile 0 only */
	uint16_t n_ids;            /* 0 for the summary */
	hpctk_id ids[HPCTK_MAX_IDS];
	uint32_t trace_len;        /* number of trace samples (0 for the summary) */
} hpctk_profile;

typedef struct hpctk_model {
	uint64_t seed;
	enum hv_edition edition;   /* DRAFT or RELEASE */

	const char *title, *description;

	uint8_t n_kinds;
	const char *const *kind_names;    /* n_kinds names, "SUMMARY" first */

	uint16_t n_scopes;
	hpctk_scope *scopes;
	uint32_t n_metrics;
	hpctk_metric *metrics;
	uint16_t *prop_metric_ids;        /* every propMetricId, sorted */
	size_t n_prop_metric_ids;
	uint16_t *stat_metric_ids;        /* every statMetricId, sorted */
	size_t n_stat_metric_ids;

	uint32_t n_modules, n_files, n_functions;
	hpctk_module *modules;
	hpctk_file *files;
	hpctk_function *functions;

	uint16_t n_entries;
	hpctk_entry *entries;
	uint32_t n_ctx;                   /* {Ctx} below the entry points */
	hpctk_ctx *ctx;
	uint32_t depth;                   /* longest chain of {Ctx} below an entry point */
	uint32_t max_ctx_id;
	uint32_t *ctx_ids_sorted;         /* every ctxId of entries and contexts, sorted (no 0) */
	size_t n_ctx_ids;                 /* n_entries + n_ctx */

	/* Lookups by metric id: which metric and which inst/summary it names
	 * (HPCTK_NONE where no id); sized max id + 1. */
	uint32_t *prop_owner, *prop_inst;   /* by propMetricId */
	uint32_t *stat_owner, *stat_summary;/* by statMetricId */
	size_t prop_lookup_len, stat_lookup_len;

	uint32_t n_profiles;              /* summary + threads */
	hpctk_profile *profiles;
	uint64_t trace_t0, trace_period;  /* sample i of any trace lies in [t0 + i*period, t0 + i*period + period/2] */
} hpctk_model;

/* Build the model for p (edition, seed, contexts, depth, metrics, modules,
 * files, functions, profiles, trace_len; 0 = default). Deterministic from
 * p->seed. Returns 0, or -1 with a reason in err (impossible shape, out of
 * memory). p->minor and p->break_rule do not affect the model;
 * p->plain_metrics leaves out the custom scope and gives every metric that
 * propagates a point scope. */
int hpctk_model_build(hpctk_model *m, const gen_params *p, char *err, size_t errlen);
void hpctk_model_free(hpctk_model *m);

/* Defaults used for a 0 in gen_params. */
#define HPCTK_DEFAULT_CONTEXTS 60
#define HPCTK_DEFAULT_DEPTH 8
#define HPCTK_DEFAULT_METRICS 3
#define HPCTK_DEFAULT_MODULES 4
#define HPCTK_DEFAULT_FILES 6
#define HPCTK_DEFAULT_FUNCTIONS 12
#define HPCTK_DEFAULT_PROFILES 4   /* application-thread profiles (plus the summary) */
#define HPCTK_DEFAULT_TRACE_LEN 64

/* ---- Values (not stored: computed on demand, deterministic) ----
 *
 * Thread profiles (prof >= 1) carry propagated values keyed by
 * propMetricId; the summary profile (prof 0) carries summary statistics
 * keyed by statMetricId, computed from the thread values exactly as the
 * summary's formula and combine say. ctx_id is 0 (global context) or a
 * ctxId of the tree; the global context has values in every profile.
 * Every value returned is finite and non-zero. */

/* The value of (prof, ctx_id, metric_id); false when it is absent (a
 * sparse zero) or metric_id is not a metric id of that profile's kind. */
bool hpctk_value(const hpctk_model *m, uint32_t prof, uint32_t ctx_id, uint16_t metric_id, double *value);

/* True when profile `prof` has any value for ctx_id (cheap pre-test). */
bool hpctk_ctx_active(const hpctk_model *m, uint32_t prof, uint32_t ctx_id);

/* Profile-major iteration (profile.db order): ctxIds ascending, starting
 * with the global context 0, and inside a context metric ids ascending. */
typedef struct hpctk_value_iter {
	const hpctk_model *m;
	uint32_t prof;
	size_t ctx_pos;            /* 0 = global context, k = ctx_ids_sorted[k-1] */
	size_t metric_pos;
	bool ctx_checked, ctx_on;
} hpctk_value_iter;

void hpctk_values_begin(const hpctk_model *m, uint32_t prof, hpctk_value_iter *it);
bool hpctk_values_next(hpctk_value_iter *it, uint32_t *ctx_id, uint16_t *metric_id, double *value);

/* ---- Trace lines (not stored) ----
 * Samples of thread profile prof (1..n_profiles-1): profiles[prof].trace_len
 * samples, timestamps non-decreasing (strictly increasing in fact) within
 * [trace_t0, trace_t0 + max_len*period]; ctxIds are 0 (no context) or
 * ctxIds of the tree; two consecutive samples are never both 0. */
typedef struct hpctk_trace_iter {
	const hpctk_model *m;
	uint32_t prof;
	uint32_t i;
	bool prev_zero;
} hpctk_trace_iter;

void hpctk_trace_begin(const hpctk_model *m, uint32_t prof, hpctk_trace_iter *it);
bool hpctk_trace_next(hpctk_trace_iter *it, uint64_t *timestamp, uint32_t *ctx_id);
/* Bounds every sample of every trace lies within (minTimestamp/maxTimestamp). */
/* Timestamp of sample i of profile prof's trace (what hpctk_trace_next gives). */
uint64_t hpctk_trace_ts(const hpctk_model *m, uint32_t prof, uint32_t i);
void hpctk_trace_bounds(const hpctk_model *m, uint64_t *min_ts, uint64_t *max_ts);

/* A stateless 64-bit mix (for writers that derive their own choices). */
uint64_t hpctk_mix(uint64_t a, uint64_t b);

#endif
