/* HPCToolkit value semantics (rules hpctkdb.values.*, rules.def):
 * propagated values of every thread profile and summary statistics of the
 * summary profile, checked against what the release spec derives them
 * from.
 *
 * The model is built from meta.db (metadb/value_model.c) while meta.db is in
 * memory: the context tree as parent links in breadth-first order (node 0
 * is the global context, then the entry points, then every {Ctx}), each
 * node's propagation bitmask and a short label for diagnostics, and what
 * each metric id means. Propagated values are checked from profile.db,
 * profile by profile as the walk streams them (check.c); summary
 * statistics from cct.db, context by context (summary.c). Nothing
 * walks the tree recursively: every check is an equation between a node
 * and its children, which is evaluated by adding each child's value into
 * its parent's slot. */
#ifndef HV_HPCTK_VALUES_H
#define HV_HPCTK_VALUES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/report.h"

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
	uint8_t eager;     /* every child's ctxId is below its own (hpctk_vmodel_index): in a profile's
			    * ctxId order its children's runs come before its own, so its equations
			    * are complete when its own run ends */
} hpctk_vnode;

enum { HPCTK_VLEX_ENTRY = 254, HPCTK_VLEX_GLOBAL = 255 };

/* A node as the propagation checker sees it: by its place in ctxId order
 * (its rank), which is the order of a profile's runs, so that the records
 * and this table are walked in address order whatever the tree's shape
 * (node indices follow meta.db's breadth-first order, far from it). */
typedef struct hpctk_vrank {
	uint32_t ctx;      /* ctxId */
	uint32_t parent;   /* the parent's rank, HPCTK_VNONE for the global context */
	uint16_t prop;     /* propagation bitmask */
	uint8_t eager;     /* as hpctk_vnode's */
	uint8_t pad;
	/* Its records' place in the checker's pool (HPCTK_VNONE: a leaf, which
	 * never has one). Records are lent for a stretch of ranks: an eager
	 * node's from its first child's rank to its own, so nodes whose
	 * stretches do not overlap share a place; any other node keeps one
	 * for the whole profile. In hpcprof's depth-first order the pool is
	 * about as deep as the tree, so it stays in the cache. */
	uint32_t slot;
} hpctk_vrank;

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
	hpctk_vrank *byrank;         /* the nodes in ctxId order, as the propagation checker walks them (hpctk_vmodel_index) */
	uint32_t npool;              /* places in the checker's pool of records (hpctk_vrank.slot) */
	char *pool;                  /* NUL-terminated labels and names */
	size_t pool_len, pool_cap;
	uint32_t *metric_name;       /* pool offsets, one per {MD} */
	uint32_t nmetrics;
	/* By propMetricId, for the ids below npid (1 + the largest meta.db
	 * lists; every other id is HPCTK_VP_NONE: read kind through
	 * hpctk_vkind): HPCTK_VP_*, the metric, the transitive bit, the point
	 * propMetricId of the same metric (valid when has_point). The tables
	 * are sized by what meta.db lists (hpctk_vmodel_tables), so a small
	 * database costs a small model. */
	uint32_t npid;
	uint8_t *kind;
	uint8_t *bit;
	bool *has_point;
	uint16_t *point_of;
	uint32_t *metric_of;
	uint32_t *scope_name;        /* pool offset of the scope's name */
	hpctk_vstat *stats;          /* sorted by pid */
	size_t nstats;
	uint32_t *first_stat;        /* npid + 1: stats of pid p: [first_stat[p], first_stat[p+1]) */
	/* Once-per-database notes found while building (custom scope, formula,
	 * no point scope): pool offsets of a description, 0 when none. */
	uint32_t note_custom, note_formula, note_nopoint;
	const char *meta_name;       /* meta.db's name (the blob outlives the model) */
	/* By statMetricId, for the ids below nsid (1 + the largest meta.db
	 * lists): a bit per id meta.db lists (hpctk_vstat_known), and its
	 * statistic (index into stats; HPCTK_VNONE: none, HPCTK_VNONE - 1: twice). */
	uint32_t nsid;
	uint8_t *stat_known;
	uint32_t *stat_of;
	/* The checkers' indexes (hpctk_vmodel_index, after the above are set):
	 * the derived propMetricIds (execution and transitive scopes with a
	 * point scope) numbered densely as slots 0 .. nd-1, in pid order; the
	 * slots each point pid feeds; and, when the ctxIds are dense enough, a
	 * direct ctxId -> node map. */
	uint32_t nd;
	uint16_t *dslot;             /* npid; HPCTK_VNOSLOT: not derived */
	uint16_t *dpid;              /* npid (nd used): slot -> pid */
	uint32_t *pfirst;            /* npid + 1: slots of point pid p: plist[pfirst[p] .. pfirst[p+1]) */
	uint16_t *plist;             /* npid (nd used) */
	uint32_t *kid;               /* n + 1: node q's children are kid[q] .. kid[q+1]-1 (breadth first) */
	uint32_t *dense;             /* ctxId -> node for ctxId < ndense, NULL: search by_ctx */
	uint32_t ndense;
	void *tables;                /* the one allocation of the tables above (hpctk_vmodel_tables) */
} hpctk_vmodel;

#define HPCTK_VNOSLOT UINT16_MAX

void hpctk_vmodel_free(hpctk_vmodel *vm);
/* Allocate the per-pid and per-statistic tables, zeroed, for npid
 * propMetricIds and nsid statMetricIds (each at most 65536); false when
 * out of memory. */
bool hpctk_vmodel_tables(hpctk_vmodel *vm, uint32_t npid, uint32_t nsid);
static inline uint8_t hpctk_vkind(const hpctk_vmodel *vm, uint32_t pid)
{
	return pid < vm->npid ? vm->kind[pid] : (uint8_t)HPCTK_VP_NONE;
}
static inline bool hpctk_vstat_known(const hpctk_vmodel *vm, uint32_t sid)
{
	return sid < vm->nsid && (vm->stat_known[sid / 8] >> (sid % 8) & 1);
}
/* Node of ctxId, HPCTK_VNONE when the tree does not list it. */
uint32_t hpctk_vmodel_find(const hpctk_vmodel *vm, uint32_t ctx);
static inline uint32_t hpctk_vmodel_node(const hpctk_vmodel *vm, uint32_t ctx)
{
	return ctx < vm->ndense ? vm->dense[ctx] : vm->dense ? HPCTK_VNONE : hpctk_vmodel_find(vm, ctx);
}
/* "…/main/loop@42" (the last few labels above and at node `n`). */
void hpctk_vmodel_path(const hpctk_vmodel *vm, uint32_t n, char *out, size_t cap);
/* The checks the model cannot make (custom scope, no point scope,
 * unrecognised formula; found while building), as notes into r, once per
 * database. */
void hpctk_vmodel_notes(const hpctk_vmodel *vm, hv_report *r, const char *file);
/* Build the checkers' indexes (above); false when out of memory. */
bool hpctk_vmodel_index(hpctk_vmodel *vm);
/* Parse a formula ("$$", "$$^2", ...). */
hpctk_vformula hpctk_vformula_parse(const char *s);

/* --- thread profiles: propagated values (check.c, groups.c,
 * negative.c) -------------------------------------------------------
 *
 * One checker per range of profiles (a unit of work). A profile's values
 * are folded as they stream in (ctxId order): a node's own run adds its
 * point values to the expected sums of its own record and sets its found
 * values, and pushes the found values that propagate into its parent's
 * record. A node whose children all have lower ctxIds (hpcprof numbers
 * children first: nearly every node) has every term when its own run
 * ends, and is evaluated and cleared then, while its record is in the
 * cache; the other nodes touched are evaluated at the profile's end. A
 * record is a header and `g` slots, one per derived scope of the group;
 * the records are one pool (made when the first value arrives, all zero
 * between profiles) in which a node has a place only while it can be
 * pushed into (hpctk_vrank.slot), and an eager node's own run (a leaf's,
 * say) is folded in a scratch record instead. Nodes are known to the
 * checker by rank (their place in ctxId order), so the pool, the rank
 * table and a profile's runs are all walked in one order. Memory: at most
 * HPCTK_VBUDGET bytes of slots for the whole tree (at least one a node;
 * the pool, usually far smaller than the tree, takes its share) and a
 * 32-byte header per place: when all nd slots of every node would not fit, the slots are
 * taken in groups of g, the first during the stream, the others by
 * reading the profile's runs again from the file (kept as 16 bytes per
 * run: where each is). */
#define HPCTK_VBUDGET (32u << 20)
/* The budget in force: HPCTK_VBUDGET, or what the CLI's HPCVET_VALUE_BUDGET
 * sets before a walk (tests force many groups and compare the reports). */
extern size_t hpctk_vbudget;

/* The slots hold doubles and no flags: values are non-zero (a stored 0.0
 * breaks its own rule), so a found value is there when non-zero, and a
 * slot is touched when its found or expected value is, or it had a
 * negative term. The magnitude of the terms (for the tolerance) is expect
 * + 2 x the sum of the negative terms' magnitudes, kept aside in a small
 * table because negative values are rare. The offsets for diagnostics are
 * found again on a failure, by reading the node's own run.
 *
 * Two records per place, each a 16-byte header and g doubles: what is
 * pushed into the node (hpctk_vrec: when the profile first touched the
 * node, 2 x the run's number for its own run, 2 x a child's run's number
 * + 1 for a child's that propagates into it; the first value that touched
 * it; then the expected sums), and, for a node evaluated at the profile's
 * end, its own run (hpctk_vown: where the run is, then the found values).
 * A push touches only the first; an eager node's own run is folded in
 * the scratch pair. */
typedef struct hpctk_vrec {
	uint64_t key, first_off;
} hpctk_vrec;
typedef struct hpctk_vown {
	uint64_t own_off;
	uint32_t own_cnt, pad;
} hpctk_vown;

/* The units of one database's profile.db each make a checker, whose
 * records (a header and g slots per place of the pool) are the same size
 * in all of them and all zero when a checker is done: a spare set of
 * records handed from one unit to the next saves making and zeroing them
 * again (the kernel's page faults dominate a unit's start on a big tree).
 * Shared by the units (which may run on several threads): taken and
 * given back by atomic exchange. */
typedef struct hpctk_vspare {
	_Atomic(void *) recs;
} hpctk_vspare;
/* Free the spare records, if any (the database's end). */
void hpctk_vspare_free(hpctk_vspare *sp, const hpctk_vmodel *vm);

/* What a value of one propMetricId does in the slot group being folded:
 * nothing, add into the slots pk[pa .. pb) (a point scope), or be the
 * found value of slot k (a derived scope; it propagates on bit `shift` of
 * the node's mask or'ed with 1 << 16). */
typedef struct hpctk_vact {
	uint8_t type, shift;
	uint16_t k;
	uint32_t pa, pb;
} hpctk_vact;

/* What a node's evaluation reads and adds to besides its records
 * (lanes.c): gp slots, the profile's per-slot rows (whole 64-byte
 * lines), which slots are execution scopes. */
typedef struct hpctk_vlanes {
	uint32_t gp;
	const double *pos, *neg, *elmag;
	double *tot, *totmag;
	const int64_t *isexec;       /* per slot: -1 execution, 0 transitive */
	const uint8_t *execmask;     /* the same, a bit per slot */
} hpctk_vlanes;
/* True when every slot is within tolerance; nev[0] / nev[1] count the
 * touched transitive / execution slots. Two slots at a time on every
 * machine (SSE2 on x86-64, 128-bit SIMD in the web page's WebAssembly);
 * eight on x86-64 only where core/simd.h finds AVX-512. Both give the
 * same results. */
bool hpctk_vlanes_2(const hpctk_vlanes *l, const double *ex, const double *x2, const double *found, uint64_t nev[2]);
bool hpctk_vlanes_avx512(const hpctk_vlanes *l, const double *ex, const double *x2, const double *found, uint64_t nev[2]);

/* An equation out of tolerance when it was evaluated, decided at the
 * profile's end (verdict.c): its terms, and where its node's values
 * are (for the diagnostic's offset). */
typedef struct hpctk_vfail {
	uint64_t key;    /* the node's first touch (hpctk_vrec.key) */
	uint32_t k, node;
	uint64_t own_off, first_off;
	uint32_t own_cnt;
	double found, expect, mag;
} hpctk_vfail;

/* A verdict decided in a slot group when there are several, held until the
 * profile's last group: one group reports its failures in the order the
 * nodes were first touched, slot by slot within a node, then the execution
 * totals slot by slot, so many groups must report theirs in that order too,
 * not group after group (the stored diagnostics, and which ones survive
 * --max-diagnostics, would differ). */
typedef struct hpctk_vpend {
	uint64_t key;    /* the node's first touch in the first group; UINT64_MAX: an execution total */
	uint32_t k;      /* the slot, counted over every group */
	uint32_t node;
	int rule;
	uint16_t pid;
	uint64_t off;
	double found, expect, lo, hi;  /* a total: found, expect = tot, allowed */
} hpctk_vpend;

typedef struct hpctk_vcheck {
	const hpctk_vmodel *vm;
	hv_report *r;
	hv_blob *b;                  /* profile.db (re-read for a diagnostic's offset), may be NULL */
	hv_window w;
	bool w_ok;
	const char *file;            /* profile.db's name */
	bool on, oom;
	bool cur_set, cur_summary, cur_tainted;
	uint32_t cur;
	uint32_t g, g0;              /* slots per group, the group being folded */
	uint32_t gp;                 /* g rounded up to whole pairs: the doubles per record */
	uint32_t gw;                 /* gp rounded up to whole 64-byte lines: the per-slot arrays' rows (pos ...) */
	size_t stride;               /* bytes per record: a 16-byte header + g doubles */
	uint8_t *recs;               /* per node its hpctk_vrec, then per node its hpctk_vown; NULL until a value arrives */
	hpctk_vspare *spare;         /* where the records come from and go back to, or NULL */
	uint8_t *scratch;            /* an hpctk_vrec and an hpctk_vown: an eager node's own run */
	uint8_t *hasrec, *done;      /* bits per node, this profile: its record is in use; it was evaluated */
	uint32_t *made;              /* the nodes whose record is in use, in the order they were made */
	uint32_t *owner;             /* per place in the pool: the node that last took it */
	uint32_t nmade;
	bool open;                   /* a node's own run is being folded: node `open_n` into `open_r` and `open_o` */
	uint32_t open_n;
	hpctk_vrec *open_r;
	hpctk_vown *open_o;
	uint64_t seq;                /* runs folded in the profile (touch order) */
	uint64_t nev[2];             /* evaluations of the profile's group: transitive, execution */
	uint8_t *kshift;             /* per slot of the group: propagation bit (16: execution, always) */
	int64_t *isexec;             /* per slot of the group (gp): -1 for an execution scope, else 0 */
	uint8_t *execmask;           /* the same, a bit per slot (eight to a byte) */
	bool wide;                   /* the evaluation takes eight slots at a time (core/simd.h) */
	hpctk_vlanes lanes;          /* the evaluation's view of the above */
	double *zero;                /* gp zeros */
	hpctk_vact *act;             /* per propMetricId below the model's npid, for the group */
	uint64_t *code;              /* the same, as one word each for the fold (check.c) */
	uint16_t *pk;                /* the point scopes' slots in the group (act's pa .. pb) */
	double *pos, *neg, *elmag;   /* per slot of the group: elided raw values */
	uint64_t *negk;              /* (node << 16 | slot) + 1 of the negative terms, 0: free */
	double *negv;                /* their magnitudes' sums */
	size_t negn, negcap;
	hpctk_vfail *fail;           /* equations out of tolerance so far, decided and reported at the end */
	size_t nfail, fail_cap;
	hpctk_vpend *pend;           /* verdicts of the groups so far, when there are several */
	size_t npend, pend_cap;
	uint64_t *key0;              /* several groups: each node's first touch in the profile's first group */
	uint32_t *stamp0, pseq;      /* the profile (counted by flush) each key0 is of */
	uint32_t last_ctx, last_node; /* the last run's ctxId and its rank */
	uint32_t cursor;             /* ranks below it have ctxIds below the last run's */
	bool last_valid;
	/* the profile's runs, kept only when nd > g (replayed per group): where
	 * they are in the file (16 bytes a run), or their bytes too without it */
	uint8_t *keep;
	size_t keep_n, keep_cap;
	/* verdict.c: where each propMetricId first appears in the run of the
	 * node whose failures are being placed (read once the node has a
	 * second failure: a context where every metric fails would otherwise
	 * read its run once per metric). run_seen[id] == run_seq: run_at[id]
	 * holds it; NULL: no memory, each failure reads the run itself. */
	uint64_t run_off;            /* the run read last (its own_off; 0: none) */
	uint32_t run_cnt, run_seq;
	bool run_mapped;             /* run_at holds that run's places */
	uint32_t *run_seen;          /* npid */
	uint64_t *run_at;            /* npid */
} hpctk_vcheck;

/* `b`: profile.db (NULL: diagnostics point at the node's first value). */
void hpctk_vcheck_init(hpctk_vcheck *c, const hpctk_vmodel *vm, hv_report *r, hv_blob *b, const char *file);
/* One value (the walk's slow path). Summary profiles are ignored here. */
void hpctk_vcheck_value(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, uint16_t pid, uint64_t bits,
			uint64_t off);
/* A run of raw {Val} entries (u16 metricId, f64 value; 10 bytes each) of one
 * context, at file offset off0 (the walk's fast path). */
void hpctk_vcheck_run(hpctk_vcheck *c, uint32_t prof, bool summary, uint32_t ctx, const uint8_t *vals, uint64_t cnt,
		      uint64_t off0);
/* At the end of a profile's values: its equations, decided and reported
 * now (not when the next profile's first value arrives), so a profile's
 * verdicts sit at the same place in the report whether the profiles after
 * it are walked by the same checker or by another unit's. */
void hpctk_vcheck_end_profile(hpctk_vcheck *c);
/* After the walk: the last profile's equations (if not ended already). */
void hpctk_vcheck_finish(hpctk_vcheck *c);
/* The verdicts (verdict.c): keep an equation out of tolerance so
 * far; and at the end of a profile's slot group, with its elided raw
 * values complete, count the evaluations, report the kept equations still
 * out of the widened interval (in the order their nodes were first
 * touched) and the execution totals that do not add up to the elided
 * values. The caller clears what they read. */
void hpctk_vcheck_keep_fail(hpctk_vcheck *c, const hpctk_vfail *f);
void hpctk_vcheck_verdicts(hpctk_vcheck *c);
/* The verdicts held over a profile's groups, reported in one group's order. */
void hpctk_vcheck_report_held(hpctk_vcheck *c);
void hpctk_vcheck_free(hpctk_vcheck *c);

/* The checker's parts, for its own files. What a value of a propMetricId
 * does in the group (hpctk_vact.type), and the same as one word for the
 * fold (hpctk_vcheck.code): a point scope adds into slot bits 0-15 and,
 * unless HPCTK_VCODE_NOK, slot bits 16-31 (or into its act's list, with
 * HPCTK_VCODE_LIST); a derived scope is slot bits 0-15's found value and
 * propagates on bit (bits 16-20) of the node's mask. A derived scope of
 * another group (HPCTK_VCODE_ELSEWHERE, its bit in bits 16-20) adds nothing
 * here, but a run holding one touches its parent as it does in one group:
 * which run touched a node first orders its diagnostics and gives the
 * offset of one without a run of its own, so that must not depend on the
 * group. */
enum { HPCTK_VA_NONE, HPCTK_VA_POINT, HPCTK_VA_DERIVED };
#define HPCTK_VCODE_POINT (1ull << 62)
#define HPCTK_VCODE_DERIVED (2ull << 62)
#define HPCTK_VCODE_ELSEWHERE (1ull << 61)
#define HPCTK_VCODE_LIST (1ull << 32)
#define HPCTK_VCODE_NOK 0xffffu
/* Fold a run of raw {Val} entries of node n (HPCTK_VNONE: an elided
 * context) into the slots of the current group (check.c). */
void hpctk_vcheck_fold(hpctk_vcheck *c, uint32_t n, const uint8_t *vals, uint64_t cnt, uint64_t off0);
/* The slot groups (groups.c): set up the group starting at g0; keep
 * a run for the groups after the first; fold the kept runs again. */
void hpctk_vgroup_set(hpctk_vcheck *c);
void hpctk_vgroup_keep(hpctk_vcheck *c, uint32_t n, const uint8_t *vals, uint64_t cnt, uint64_t off0);
void hpctk_vgroup_replay(hpctk_vcheck *c);
/* The negative terms (negative.c): the sum of the magnitudes of
 * node n's negative terms in slot k (-1: none); a run's negative terms
 * noted (pm: the node's propagation mask, as the fold has it). */
double hpctk_vneg_get(hpctk_vcheck *c, uint32_t n, uint32_t k);
void hpctk_vneg_terms(hpctk_vcheck *c, uint32_t n, uint32_t parent, uint32_t pm, const uint8_t *vals, uint64_t cnt);

/* --- summary statistics (summary.c) -------------------------------
 *
 * Checked context by context from cct.db, which holds every thread's value
 * of a context together: each cct.db block's values are folded, through
 * their statistics' formulas, into one accumulator per statistic, and at
 * the block's end compared with the summary profile's values of that
 * context (a view of profile.db's summary profile, read before the walks).
 * The usual metric has one clean run per context: its statistics come from
 * one pass over it and are compared as soon as it is folded, with the
 * summary value looked up at the context's first value, so a block whose
 * statistics all agree ends without a second look. The pass sums in
 * another order than the file's (several accumulators): such a sum is used
 * only when a bound on the reordering proves that the file-order sum
 * agrees too, else the run is summed again in file order; anything
 * reported is in file order (the same bits as value by value).
 * Memory: one accumulator and one found value per statistic of meta.db. A difference is not
 * reported at once but kept (hpctk_vsum_miss): the statistic is defined
 * over profile.db's thread values and computed here from cct.db's, so a
 * context whose cct.db values are not profile.db's transpose (found only
 * after both walks) reports that instead. Units of cct.db's contexts merge
 * by concatenating their misses, in context order. */

/* Where the summary profile's values are: its {Idx} array (proven sorted
 * and in range when made, a sequential read of 12 bytes per context) and
 * its {Val} array (read context by context through each checker's own
 * windows, so the view costs no memory and splits with cct.db). */
typedef struct hpctk_vsumview {
	bool ok;
	hv_blob *b;
	uint64_t pidx, nidx;         /* {Idx}: u32 ctxId, u64 startIndex */
	uint64_t pval, nval;         /* {Val}: u16 statId, f64 */
	uint32_t nthreads;           /* thread profiles (not summaries) in profile.db */
	uint8_t *is_summary;         /* bitmap by profIndex, NULL: only profile 0 */
	uint32_t nprof;
} hpctk_vsumview;

typedef struct hpctk_vsum_miss {
	uint32_t ctx;
	uint16_t stat;
	bool has_found;
	uint32_t count;
	double found, a, b;
	uint64_t off;
} hpctk_vsum_miss;

/* One pass over a clean run of cct.db {Val} entries (fuse.c),
 * computing what the fused statistics of its metric need (a mask of
 * HPCTK_VF_*): hpctk_vfuse_fn in file order, exactly as a statistic folded
 * alone (reportable); hpctk_vfuse2_fn with several accumulators (its sums
 * in another order: only to prove agreement, summary.c certify).
 * Entry 0 of each table is NULL. */
enum { HPCTK_VF_SUM1 = 1, HPCTK_VF_SUM2 = 2, HPCTK_VF_MIN = 4, HPCTK_VF_MAX = 8 };
typedef struct hpctk_vfused {
	double s1, a1, s2, mn, mx;   /* sum x, sum |x|, sum x^2, min x, max x */
} hpctk_vfused;
extern void (*const hpctk_vfuse_fn[16])(const uint8_t *vals, uint64_t cnt, hpctk_vfused *g);
extern void (*const hpctk_vfuse2_fn[16])(const uint8_t *vals, uint64_t cnt, hpctk_vfused *g);

typedef struct hpctk_vsum_acc {
	double acc, mag;
	uint32_t count;
	bool cert;                   /* agreed with the value found as its one run was folded (summary.c) */
	bool part;                   /* acc and mag are partial sums (in another order than the file's) */
	uint64_t roff;               /* when cert and part: where its run is in cct.db (to fold it in order after all) */
} hpctk_vsum_acc;

typedef struct hpctk_vsum {
	const hpctk_vmodel *vm;
	const hpctk_vsumview *sv;
	hv_report *r;                /* the unit's report (evaluations that pass) */
	bool on, oom;
	uint32_t ctx;                /* the context being folded */
	bool tainted;                /* it had a non-finite value */
	bool foreign;                /* some value's metric id is not meta.db's (hpctkdb.metric.prop-known
				      * fired): its statistics are somewhere else, none is reported */
	hpctk_vsum_acc *acc;         /* per statistic (index into vm->stats) */
	uint8_t *mode;               /* per statistic: VS_SKIP, VS_CLEAN, VS_SLOW, VS_F_* (summary.c) */
	uint8_t *fuse;               /* per propMetricId: what one pass over its run computes (HPCTK_VF_*), 0: none */
	/* The checked statistics (mode not VS_SKIP) of propMetricId p, in
	 * statistic order: plan[plan_first[p] .. plan_first[p + 1]); and by
	 * statMetricId below vm->nsid, its checked statistic or a VSID_*
	 * code (summary.c): one lookup a value found instead of three. */
	uint32_t *plan, *plan_first;
	uint32_t *sid_code;
	uint32_t *touched;
	size_t ntouched;
	hv_window wi, wv;            /* over the view's {Idx} and {Val} */
	hv_window wp;                /* the binary search's probes of {Idx}: a page each, not a whole window */
	hv_blob *cct;                /* cct.db (a certified run read again), may be NULL */
	hv_window wc;
	bool wc_ok;
	/* The summary profile's run of the context being folded, looked up at
	 * its first value: [from, to) of {Val} when found_ok (readable and
	 * sound), and by statistic the value found (found[k].f, when
	 * found[k].stamp is stamp). */
	bool prepared, found_ok;
	uint64_t from, to;
	struct hpctk_vsum_found {
		double f;
		uint32_t stamp;
	} *found;
	uint32_t stamp;
	/* statistics folded that agreed (fold), those of them with a value
	 * found, and the checked statistics with a value found */
	size_t ncert, nfound_cert, nfound;
	uint64_t at;                 /* cursor into the view's {Idx} */
	bool at_valid;
	hpctk_vsum_miss *miss;
	size_t nmiss, miss_cap;
} hpctk_vsum;

/* The view of profile.db's summary profile (blob `b`, its {PI} array at
 * pi_p with stride pi_sz, n profiles, flags at 0x28 when release); !ok
 * when it is not well formed (its own rules report that). */
void hpctk_vsumview_make(hpctk_vsumview *sv, hv_blob *b, uint64_t body_end, uint64_t pi_p, uint64_t pi_sz,
			 uint32_t nprof, const hpctk_vmodel *vm);
void hpctk_vsumview_free(hpctk_vsumview *sv);

/* `cct`: cct.db's blob (NULL: every sum is folded in file order). */
void hpctk_vsum_init(hpctk_vsum *s, const hpctk_vmodel *vm, const hpctk_vsumview *sv, hv_report *r, hv_blob *cct);
/* A run of cct.db {Val} entries (u32 profIndex, f64; 12 bytes each) of
 * context `ctx`, metric `pid`, at cct.db offset off0; or one value (the
 * slow path). */
void hpctk_vsum_run(hpctk_vsum *s, uint32_t ctx, uint16_t pid, const uint8_t *vals, uint64_t cnt, uint64_t off0);
void hpctk_vsum_value(hpctk_vsum *s, uint32_t ctx, uint16_t pid, uint32_t prof, uint64_t bits);
/* The end of context ctx's block: compared when `whole` (every value of it
 * was visited), else dropped. */
void hpctk_vsum_block_end(hpctk_vsum *s, uint32_t ctx, bool whole);
void hpctk_vsum_free(hpctk_vsum *s);
/* Free all but the kept differences (a unit's end). */
void hpctk_vsum_release(hpctk_vsum *s);
/* Keep a difference (also: one that arrived from another unit). */
void hpctk_vsum_keep(hpctk_vsum *s, const hpctk_vsum_miss *m);
/* After the walks, into `r`: the kept differences, except at contexts
 * `skip` says (the transpose differs there). */
void hpctk_vsum_report(const hpctk_vmodel *vm, hv_report *r, const char *file, uint32_t nthreads,
		       const hpctk_vsum_miss *m, size_t n, bool (*skip)(const void *arg, uint32_t ctx), const void *arg);
#endif
