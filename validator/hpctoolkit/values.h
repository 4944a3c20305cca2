/* HPCToolkit value semantics (rules hpctkdb.values.*, values_rules.def):
 * propagated values of every thread profile and summary statistics of the
 * summary profile, checked against what the release spec derives them
 * from.
 *
 * The model is built from meta.db (metadb_values.c) while meta.db is in
 * memory: the context tree as parent links in breadth-first order (node 0
 * is the global context, then the entry points, then every {Ctx}), each
 * node's propagation bitmask and a short label for diagnostics, and what
 * each metric id means. The checker (values_check.c) takes profile.db's
 * values profile by profile as the walk streams them: it holds one
 * profile's values, a few doubles per tree node, and one entry per
 * (context, statistic) pair of the summary. Nothing walks the tree
 * recursively: every check is an equation between a node and its
 * children, which is evaluated by adding each child's value into its
 * parent's slot. */
#ifndef HV_HPCTK_VALUES_H
#define HV_HPCTK_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/report.h"

#define HPCTK_VNONE UINT32_MAX

/* Tolerance of every value rule: |found - expected| <= ABS + REL * magnitude. */
#define HPCTK_VALUES_REL_TOL 1e-9
#define HPCTK_VALUES_ABS_TOL 1e-300

typedef struct hpctk_vnode {
	uint32_t ctx;      /* ctxId (0 for the global context) */
	uint32_t parent;   /* node index, HPCTK_VNONE for the global context */
	uint32_t label;    /* pool offset of its name (functions, entry points), or its line (loops, lines) */
	uint16_t prop;     /* propagation bitmask (0 for entry points and the global context) */
	uint8_t lex;       /* lexicalType, or HPCTK_VLEX_ENTRY / HPCTK_VLEX_GLOBAL */
} hpctk_vnode;

enum { HPCTK_VLEX_ENTRY = 254, HPCTK_VLEX_GLOBAL = 255 };

/* What a propMetricId is. */
enum { HPCTK_VP_NONE, HPCTK_VP_POINT, HPCTK_VP_EXEC, HPCTK_VP_TRANS, HPCTK_VP_CUSTOM, HPCTK_VP_AMBIGUOUS };

/* A recognised summary formula: f(x) = scale * x^power. */
typedef struct hpctk_vformula {
	bool ok;
	double scale, power;
} hpctk_vformula;

typedef struct hpctk_vstat {
	uint16_t pid;        /* the summarised propMetricId */
	uint16_t stat;       /* statMetricId */
	uint8_t combine;     /* 0 sum, 1 min, 2 max */
	hpctk_vformula f;
	uint32_t metric;     /* index into metric names */
	uint32_t formula;    /* pool offset of the formula text */
} hpctk_vstat;

typedef struct hpctk_vmodel {
	hpctk_vnode *node;
	uint32_t n;
	uint32_t *by_ctx;            /* node indices sorted by ctxId */
	char *pool;                  /* NUL-terminated labels and names */
	size_t pool_len, pool_cap;
	uint32_t *metric_name;       /* pool offsets, one per {MD} */
	uint32_t nmetrics;
	/* By propMetricId: HPCTK_VP_*, the metric, the transitive bit, the
	 * point propMetricId of the same metric (valid when has_point). */
	uint8_t kind[65536];
	uint8_t bit[65536];
	bool has_point[65536];
	uint16_t point_of[65536];
	uint32_t metric_of[65536];
	uint32_t scope_name[65536];  /* pool offset of the scope's name */
	hpctk_vstat *stats;          /* sorted by pid */
	size_t nstats;
	uint32_t first_stat[65537];  /* stats of pid p: [first_stat[p], first_stat[p+1]) */
	/* Once-per-database notes found while building (custom scope, formula,
	 * no point scope): pool offsets of a description, 0 when none. */
	uint32_t note_custom, note_formula, note_nopoint;
	const char *meta_name;       /* meta.db's name (the blob outlives the model) */
	uint8_t stat_known[8192];    /* bit per statMetricId meta.db lists */
} hpctk_vmodel;

void hpctk_vmodel_free(hpctk_vmodel *vm);
/* Node of ctxId, HPCTK_VNONE when the tree does not list it. */
uint32_t hpctk_vmodel_find(const hpctk_vmodel *vm, uint32_t ctx);
/* "…/main/loop@42" (the last few labels above and at node `n`). */
void hpctk_vmodel_path(const hpctk_vmodel *vm, uint32_t n, char *out, size_t cap);
/* Parse a formula ("$$", "$$^2", ...). */
hpctk_vformula hpctk_vformula_parse(const char *s);

/* One value of profile.db, as the checker buffers it (24 bytes: the
 * buffer of one profile costs 2.4 times its {Val} bytes). */
typedef struct hpctk_vent {
	double v;
	uint64_t off;
	uint32_t key;      /* node index, or the ctxId when `elided` (not in meta.db's tree) */
	uint16_t pid;
	bool elided;
} hpctk_vent;

/* A (context, statistic) pair of the summary check. */
typedef struct hpctk_vsum {
	uint32_t ctx;
	uint16_t stat;
	bool has_found;
	uint32_t count;        /* threads that contributed */
	double acc, mag, found;
	uint64_t off;
} hpctk_vsum;

typedef struct hpctk_vcheck {
	const hpctk_vmodel *vm;
	hv_report *r;
	const char *file;            /* profile.db's name */
	bool on;
	/* the profile being read */
	bool cur_set, cur_summary;
	uint32_t cur;
	hpctk_vent *e;
	size_t n, cap;
	uint32_t last_ctx, last_node;
	bool last_valid;
	/* per node scratch */
	double *acc, *mag, *found;
	uint64_t *found_off;
	uint8_t *mark;               /* bit 0: touched, bit 1: has found */
	uint32_t *touched;
	size_t ntouched;
	uint32_t *count;             /* grouping by pid, in place (65537 ends, 65536 cursors) */
	uint32_t *next;
	uint32_t *dfirst;            /* derived pids of point pid p: dlist[dfirst[p] .. dfirst[p+1]) */
	uint16_t *dlist;
	/* the summary pairs: open addressing on (ctx, stat) */
	hpctk_vsum *sum;
	size_t sum_cap, sum_n;
	bool sum_overflow;
	bool cur_tainted;            /* the profile names a metric id meta.db does not list */
	bool sum_tainted;            /* some profile did: the summary check is left out */
	uint64_t threads_seen;
	bool oom;
} hpctk_vcheck;

void hpctk_vcheck_init(hpctk_vcheck *c, const hpctk_vmodel *vm, hv_report *r, const char *file);
/* One value (the walk's slow path). */
void hpctk_vcheck_value(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, uint16_t pid, uint64_t bits,
			uint64_t off);
/* A run of raw {Val} entries (u16 metricId, f64 value; 10 bytes each) of one
 * context, at file offset off0 (the walk's fast path). */
void hpctk_vcheck_run(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, const uint8_t *vals, uint64_t cnt,
		      uint64_t off0);
/* After the walk: the last profile, then the summary statistics when
 * every value was read (`complete`); `nthreads`: thread profiles in the file. */
void hpctk_vcheck_finish(hpctk_vcheck *c, bool complete, uint32_t nthreads);
void hpctk_vcheck_free(hpctk_vcheck *c);

#endif
