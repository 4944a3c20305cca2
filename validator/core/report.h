/* Diagnostics and per-rule counters for one input.
 *
 * Checks record every rule they evaluate (hv_eval) and every failure
 * (hv_emit). Failures are counted without limit but stored only up to
 * max_per_rule per rule (the rest of a rule's failures are counted, with
 * where the first and last of them are) and max_diags in all, so a corrupt
 * 4 GiB file cannot flood memory or the terminal. A failure that will not
 * be stored costs a few counter updates: hv_emit is a macro that evaluates
 * its path and message arguments only for a failure that is stored. */
#ifndef HV_REPORT_H
#define HV_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

#define HV_PATH_MAX 192
#define HV_MSG_MAX 320

typedef struct hv_diag {
	int rule;
	enum hv_sev sev;
	const char *file;      /* display path of the file, owned by the report's string pool */
	uint64_t offset;
	uint64_t length;
	char path[HV_PATH_MAX];
	char msg[HV_MSG_MAX];
} hv_diag;

enum hv_edition { HV_EDITION_AUTO = 0, HV_EDITION_DRAFT, HV_EDITION_RELEASE };

/* Runs task(ctx, i) for every i in [0, n) and returns when all are done;
 * tasks may run concurrently. The core never creates threads itself: the
 * reader (the CLI's -j) supplies a runner, and without one tasks run in
 * order on the calling thread. */
typedef void (*hv_task_fn)(void *ctx, size_t i);
typedef void (*hv_runner_fn)(void *runner_ctx, size_t n, hv_task_fn task, void *ctx);

typedef struct hv_options {
	enum hv_edition edition;  /* forced edition, or AUTO to detect */
	size_t max_diags;         /* stored diagnostics per input */
	hv_runner_fn runner;      /* NULL: sequential */
	void *runner_ctx;
	unsigned jobs;            /* tasks the runner runs at once (a hint for batch sizes) */
	/* Units of work spread over processes (hpcvet-mpi, core/units.h);
	 * NULL: units run through `runner`. */
	struct hv_units_runner *units;
	uint64_t unit_bytes;      /* split inputs into units of about this many bytes (0: default) */
	bool ovni_all_models;     /* every ovni model enabled, as `ovniemu -a` runs a trace */
	/* DUMPI: the MPI library that ran the traced program (HV_MPI_*; AUTO:
	 * inferred from the records), and whether findings that calls libdumpi
	 * does not record could explain are warnings (a replayable trace
	 * wanted) rather than notes. */
	enum hv_mpi_lib { HV_MPI_AUTO = 0, HV_MPI_MPICH, HV_MPI_OPENMPI } dumpi_mpi;
	bool dumpi_replay;
} hv_options;

/* Run task(ctx, i) for i in [0, n) through opt's runner, else in order. */
void hv_for_each(const hv_options *opt, size_t n, hv_task_fn task, void *ctx);

/* One trace of several an input holds (a folder with two DUMPI traces):
 * its own verdict line. Counts are the diagnostics its check added. */
#define HV_PARTS_MAX 16
typedef struct hv_part {
	char name[96];
	char version[16];
	uint64_t count[3];
} hv_part;

/* A failure counted among its rule's first max_per_rule but not stored,
 * because max_diags diagnostics were stored before it: kept (bounded by
 * max_per_rule per rule) so that merging reports gives the report one
 * sequence of checks would have given. */
typedef struct hv_ghost {
	int rule;
	enum hv_sev sev;
	const char *file;
	uint64_t offset;
} hv_ghost;

/* Where a rule's failures beyond its first max_per_rule are: set while
 * failed[rule] > max_per_rule. */
typedef struct hv_more {
	const char *first_file, *last_file;
	uint64_t first_off, last_off;
} hv_more;

/* Stored diagnostics per rule and input unless told otherwise (the CLI's
 * --max-per-rule sets it once, before any check). 0: no per-rule limit. */
extern size_t hv_max_per_rule;
#define HV_MAX_PER_RULE_DEFAULT 10

typedef struct hv_report {
	const char *input_path;
	char format[48];          /* "hpctoolkit meta.db", "hpctoolkit database", ... */
	char edition[16];         /* "draft", "release", or "" when not applicable */
	char version[16];         /* "4.0", ... */
	hv_diag *diags;
	size_t ndiags, diag_cap, max_diags;
	uint64_t count[3];        /* by severity, including suppressed ones */
	uint64_t suppressed;      /* failures among their rule's first max_per_rule not stored (max_diags) */
	size_t max_per_rule;      /* 0: no per-rule limit */
	hv_ghost *ghosts;         /* the suppressed failures' places, in order */
	size_t nghosts, ghost_cap;
	hv_more more[HV_RULE_COUNT];
	uint64_t evaluated[HV_RULE_COUNT];
	uint64_t failed[HV_RULE_COUNT];
	bool unreadable;          /* an input could not be read (exit 3) */
	bool internal_error;      /* the validator failed, not the input (exit 4) */
	char problem[256];        /* why unreadable / internal_error */
	char **files;             /* string pool for diag->file */
	const char *last_raw, *last_interned; /* the file a check named last, and its copy in the pool */
	size_t nfiles, files_cap;
	uint32_t *file_slots;     /* open addressing over files (index + 1, 0: empty), by name */
	size_t file_slots_cap;    /* a power of two, at least twice nfiles; 0: none yet */
	const char *last_pooled;  /* the pool's name interned last (a run of failures names one file) */
	hv_part parts[HV_PARTS_MAX]; /* the traces of the input, when it holds several */
	size_t nparts;            /* parts recorded (beyond HV_PARTS_MAX only counted) */
} hv_report;

void hv_report_init(hv_report *r, const char *input_path, size_t max_diags);
void hv_report_free(hv_report *r);

/* Count one evaluation of `rule` and return `ok` unchanged, so checks read
 * `if (!hv_eval(r, RULE, cond)) hv_emit(...)`. */
static inline bool hv_eval(hv_report *r, int rule, bool ok)
{
	r->evaluated[rule]++;
	return ok;
}

/* n evaluations of `rule` that passed, counted at once (a loop over many). */
static inline void hv_eval_n(hv_report *r, int rule, uint64_t n) { r->evaluated[rule] += n; }

/* Record a failure of `rule` at [offset, offset+length) of `file`, with the
 * rule's table severity. `path` is the structural path. hv_emit and
 * hv_emit_sev are macros: the path and the message's arguments are
 * evaluated only when the failure is stored (hv_stores); any other failure
 * is counted by hv_count_failure. */
void (hv_emit)(hv_report *r, int rule, const char *file, uint64_t offset, uint64_t length, const char *path,
	     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Same, with an explicit severity (forward compatibility downgrades errors
 * about unknown enumeration values to warnings at a newer minor version). */
void (hv_emit_sev)(hv_report *r, int rule, enum hv_sev sev, const char *file, uint64_t offset, uint64_t length,
		   const char *path, const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* The next failure of `rule` is stored (it is among the rule's first
 * max_per_rule and fewer than max_diags are stored). */
static inline bool hv_stores(const hv_report *r, int rule)
{
	return rule >= 0 && rule < HV_RULE_COUNT && (r->max_per_rule == 0 || r->failed[rule] < r->max_per_rule) &&
	       r->ndiags < r->max_diags;
}

/* The rule has failed max_per_rule times already: its next failures are
 * neither stored nor listed as suppressed (ghosts), only counted with
 * their first and last place, so counting several rules' failures in any
 * order gives the same report. */
static inline bool hv_past_cap(const hv_report *r, int rule)
{
	return rule >= 0 && rule < HV_RULE_COUNT && r->max_per_rule && r->failed[rule] >= r->max_per_rule;
}

/* Count a failure that is not stored, keeping what the report needs of its
 * place (a rule's first and last failure beyond the per-rule cap). */
void hv_count_failure(hv_report *r, int rule, int sev, const char *file, uint64_t offset); /* sev -1: the table's */

/* hv_count_failure, inline for the common case of a long run of one
 * rule's failures in one file beyond the rule's cap: counters and the
 * last place. */
static inline void hv_count_quiet(hv_report *r, int rule, int sev, const char *file, uint64_t offset)
{
	if (rule >= 0 && rule < HV_RULE_COUNT && r->max_per_rule && r->failed[rule] > r->max_per_rule && file &&
	    file == r->last_raw && sev < 3) {
		r->failed[rule]++;
		r->count[sev < 0 ? (int)hv_rules[rule].severity : sev]++;
		r->more[rule].last_file = r->last_interned;
		r->more[rule].last_off = offset;
		return;
	}
	hv_count_failure(r, rule, sev, file, offset);
}

/* n failures of `rule` (table severity), none of them stored or listed
 * (the caller saw hv_past_cap), at first, first + stride, ...: what n hv_count_quiet
 * calls would record, in one step once the rule is past its cap in the
 * file it last named (a long run of one damaged structure). */
static inline void hv_count_quiet_n(hv_report *r, int rule, const char *file, uint64_t first, uint64_t stride,
				    uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		if (i && r->max_per_rule && r->failed[rule] > r->max_per_rule && file == r->last_raw) {
			r->failed[rule] += n - i;
			r->count[hv_rules[rule].severity] += n - i;
			r->more[rule].last_file = r->last_interned;
			r->more[rule].last_off = first + (n - 1) * stride;
			return;
		}
		hv_count_quiet(r, rule, -1, file, first + i * stride);
	}
}

#define hv_emit(r, rule, file, offset, length, ...)                                                              \
	(hv_stores((r), (rule)) ? (hv_emit)((r), (rule), (file), (offset), (length), __VA_ARGS__)               \
				: hv_count_quiet((r), (rule), -1, (file), (offset)))
#define hv_emit_sev(r, rule, sev, file, offset, length, ...)                                                     \
	(hv_stores((r), (rule)) ? (hv_emit_sev)((r), (rule), (sev), (file), (offset), (length), __VA_ARGS__)    \
				: hv_count_quiet((r), (rule), (int)(sev), (file), (offset)))

/* Count one failure of d's rule and severity and keep it as one sequence of
 * checks would have: stored (a copy), suppressed or counted beyond its
 * rule's cap. */
void hv_report_admit(hv_report *dst, const hv_diag *d);

/* After admitting src's stored diagnostics (and its ghosts) into dst:
 * everything else src recorded -- its evaluations, its failures beyond each
 * rule's cap with their places, its state -- as hv_report_merge does. */
void hv_report_merge_rest(hv_report *dst, const hv_report *src);
void hv_report_admit_ghost(hv_report *dst, const hv_ghost *g);

/* For a report rebuilt from bytes (wire.c), as it was: one stored
 * diagnostic, one ghost, one rule's places beyond its cap (no counter is
 * touched). */
void hv_report_append_diag(hv_report *dst, const hv_diag *d);
void hv_report_append_ghost(hv_report *dst, const hv_ghost *g);
void hv_report_set_more(hv_report *dst, int rule, const hv_more *m);

/* Failures of `rule` not shown: beyond its per-rule cap. */
static inline uint64_t hv_report_hidden(const hv_report *r, int rule)
{
	return r->max_per_rule && r->failed[rule] > r->max_per_rule ? r->failed[rule] - r->max_per_rule : 0;
}

/* Append everything `src` recorded to `dst`, as if src's evaluations and
 * failures had been made on dst at this point, in src's order: counters add
 * up, diagnostics beyond dst's max_diags become suppressed, an unreadable or
 * internal-error state and the format/edition/version strings src set carry
 * over. Lets independent files be checked into
 * their own reports in parallel and merged in a fixed order, so the output
 * does not depend on scheduling. */
void hv_report_merge(hv_report *dst, const hv_report *src);
/* Whether merging r would add its evaluation counts and nothing else (no
 * diagnostic, failure, severity count, name, part or problem): such a
 * report may be kept as its counts alone until it is merged. */
bool hv_report_only_counts(const hv_report *r);


/* A note stored once on each of two or more files of the input becomes
 * one diagnostic, its message saying on how many files (the counts stay). */
void hv_report_fold_file_notes(hv_report *r);

/* No rule of the finished report failed more often than it was evaluated
 * (evaluations may be counted in bulk after the failures they cover). */
bool hv_report_counts_consistent(const hv_report *r);

/* Record part `name` of the input: what was counted since `before` (a copy
 * of r->count taken when the part's check began), with r's version now. */
void hv_report_add_part(hv_report *r, const char *name, const uint64_t before[3]);

/* Number of distinct rules evaluated at least once. */
size_t hv_report_rules_checked(const hv_report *r);

void hv_report_unreadable(hv_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hv_report_internal(hv_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Exit code contribution of this input: 0 conforming, 1 nonconforming,
 * 3 unreadable, 4 internal error. */
int hv_report_exit_code(const hv_report *r, bool strict);

#endif
