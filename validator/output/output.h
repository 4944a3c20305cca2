/* Report writers. They format finished reports; they never look at input. */
#ifndef HV_OUTPUT_H
#define HV_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/report.h"

#define HV_VERSION "0.1.0"

/* Copies up to `len` bytes of `file` at `off` into dst and returns how many
 * it copied (0 when the file cannot be read). The writers never open files:
 * the CLI supplies this so the text report can show the offending bytes. */
typedef size_t (*hv_read_bytes_fn)(void *ctx, const char *file, uint64_t off, uint8_t *dst, size_t len);
/* What a reader returns instead of a count when it will not show bytes that
 * may not be the ones the report judged: the file is not the one checked
 * any more (changed, replaced, removed), or the reader does not know what
 * was checked (another process checked it). The writers then show no bytes
 * and say why. */
#define HV_READ_CHANGED ((size_t)-1)
#define HV_READ_UNJUDGED ((size_t)-2)

typedef struct hv_output_opts {
	bool quiet;   /* summary lines only */
	bool strict;  /* warnings count as failures */
	bool color;   /* text: ANSI colours */
	bool context; /* text: hex view of the offending bytes (needs read_bytes) */
	hv_read_bytes_fn read_bytes;
	void *read_ctx;
	/* Absolute directory that relative paths are relative to (the working
	 * directory); SARIF and GitHub paths under it are made relative. May be NULL. */
	const char *base_dir;
	/* Certificates: per input (same order as the reports), its files'
	 * sizes and SHA-256 digests; NULL when not computed. */
	const struct hv_cert_files *cert_files;
	/* GitHub: notes become ::notice annotations too (default: errors and
	 * warnings only; a note is no pull-request annotation unless asked). */
	bool github_notes;
} hv_output_opts;

/* The closing line of a rule whose failures beyond the per-rule cap are
 * only counted: "N more RULE diagnostics not shown (first at FILE:0xOFF,
 * last at FILE:0xOFF; --max-per-rule=K)"; false when the rule has none. */
bool hv_more_line(const hv_report *r, int rule, char *out, size_t cap);

/* "conforming", "nonconforming", "unreadable", "internal-error". */
const char *hv_verdict(const hv_report *r, bool strict);

void hv_write_text(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);
/* Returns false when the JSON document could not be built (out of memory). */
bool hv_write_json(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);

/* JSON building blocks shared by the report and the certificate. Strings
 * that may carry input bytes are made valid UTF-8 first (hv_out_clean). */
struct cJSON;
void hv_json_add_clean(struct cJSON *o, const char *key, const char *s);
/* path, format, edition, version, verdict of an input (report and certificate). */
void hv_json_add_identity(struct cJSON *o, const hv_report *r, bool strict);
/* file, offset, length, struct_path, message of a diagnostic. */
void hv_json_add_location(struct cJSON *o, const hv_diag *d);
/* {"name": "hpcvet", "version": ...} under `key`. */
void hv_json_add_tool(struct cJSON *o, const char *key);
/* An array `key` with one(report, strict) for each report; false when any
 * could not be built. */
bool hv_json_add_inputs(struct cJSON *o, const char *key, hv_report *const *reps, size_t n, bool strict,
			struct cJSON *(*one)(const hv_report *r, bool strict));
/* An array "not_shown" (only when a rule has failures beyond --max-per-rule):
 * per such rule an object with its "rule" and "count", then what
 * more(object, report, rule) adds. */
void hv_json_add_not_shown(struct cJSON *o, const hv_report *r,
			   void (*more)(struct cJSON *m, const hv_report *r, int rule));
/* Print `root` (indented, a newline after it) and free it; false when it
 * is NULL or could not be printed. */
bool hv_json_print_and_free(FILE *out, struct cJSON *root);

/* SARIF 2.1.0 log (one run, every rule of the table as a reportingDescriptor). */
bool hv_write_sarif(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);
/* JUnit XML: a testsuite per input, a testcase per rule evaluated. */
void hv_write_junit(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);
/* GitHub Actions workflow commands (::error file=...,title=RULE::message). */
void hv_write_github(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);

/* The hex view of a diagnostic's bytes (text report with context on), or
 * the line that says why none are shown. */
void hv_write_hex_context(FILE *out, const hv_diag *d, const hv_output_opts *o);
/* The bytes that view shows: whole rows of 16 from the one holding the
 * diagnostic's offset, at most HV_HEX_ROWS of them, read through
 * o->read_bytes into buf; returns how many were read (0: none, no reader;
 * HV_READ_CHANGED or HV_READ_UNJUDGED: none, and why) and sets *first to
 * the offset of buf[0]. */
#define HV_HEX_ROWS 2
#define HV_HEX_BYTES (HV_HEX_ROWS * 16)
size_t hv_hex_window(const hv_diag *d, const hv_output_opts *o, uint64_t *first, uint8_t buf[HV_HEX_BYTES]);

/* The HTML report (html.c): one self-contained page (inline style, script
 * and SVG) holding the reports as data, with filters, pictures of where the
 * findings are and each diagnostic's bytes and rule. Like every writer it
 * only formats finished reports; the bytes come from o->read_bytes. Returns
 * false when out of memory. */
bool hv_write_html(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);

/* One summary line per input ("PATH: conforming (...)"), as the text report ends. */
void hv_write_summary_line(FILE *out, const hv_report *r, bool strict);

/* Helpers (oututil.c). hv_out_clean copies `in` as valid UTF-8 without
 * control characters other than \n and \t (others become the text \xNN). */
void hv_out_clean(const char *in, char *out, size_t cap);
/* `path` without a leading "./" and, when under base_dir, relative to it. */
const char *hv_out_relative(const char *path, const char *base_dir);
/* A URI reference for a path: percent-encoded, "file://" for absolute paths. */
bool hv_out_uri(const char *path, char *out, size_t cap);

/* A report's stored diagnostics by rule, found in one pass over them
 * (rule_index.c): what the writers ask of every rule of the table --
 * which of its diagnostics are stored, the first, their severities --
 * without scanning the diagnostics once per rule. Build one per report
 * and free it; nothing it holds outlives the report. */
typedef struct hv_rule_index {
	const hv_report *r;
	size_t *order;                    /* indices into r->diags by rule, each rule's in report order; NULL
					     (none stored, or out of memory): found between first and last */
	size_t start[HV_RULE_COUNT + 1];  /* rule i's are order[start[i]] .. order[start[i + 1] - 1] */
	size_t first[HV_RULE_COUNT];      /* index of rule i's first stored diagnostic; SIZE_MAX: none */
	size_t last[HV_RULE_COUNT];       /* ... and its last */
	unsigned char sevs[HV_RULE_COUNT]; /* bit 1 << sev for each severity rule i's stored ones carry */
} hv_rule_index;
void hv_rule_index_build(hv_rule_index *x, const hv_report *r);
void hv_rule_index_free(hv_rule_index *x);
/* Stored diagnostics of `rule`; its first (NULL: none). */
size_t hv_rule_shown(const hv_rule_index *x, int rule);
const hv_diag *hv_rule_first(const hv_rule_index *x, int rule);
/* The rule's stored diagnostics in report order: start with *pos = 0,
 * each call returns the next (NULL: no more). */
const hv_diag *hv_rule_next(const hv_rule_index *x, int rule, size_t *pos);
/* Whether a stored diagnostic of `rule` carries severity `sev`. */
bool hv_rule_stored_sev(const hv_rule_index *x, int rule, enum hv_sev sev);
/* Whether `rule` makes the input fail (an error, or a warning under
 * strict), and how many rules of the table do. */
bool hv_rule_fails(const hv_rule_index *x, int rule, bool strict);
size_t hv_rules_failing(const hv_rule_index *x, bool strict);
/* Diagnostics the index builds have read so far, for the tests: a writer
 * reads each report's once or twice, never once per rule. */
size_t hv_rule_index_scanned(void);
/* Whether diagnostic d is about its file or directory as a whole, not
 * bytes of it: offset 0 and length 0 (a DUMPI trace folder without its
 * .meta, an ovni stream.obs without its stream.json, a .meta without a
 * key). Writers then show the file without a byte position (no ":0x0"). */
bool hv_diag_whole(const hv_diag *d);

/* A rule's case in the conformance corpus (golden/cases): `hpcvet rules
 * --format=json` lists them per rule. Arrays of these end with {NULL, NULL}. */
typedef struct hv_rule_case {
	const char *rule;  /* rule ID */
	const char *path;  /* case path relative to golden/cases */
} hv_rule_case;

void hv_write_rules_text(FILE *out);
/* `cases` may be NULL (every rule then lists no case). */
bool hv_write_rules_json(FILE *out, const hv_rule_case *cases);
void hv_write_rules_markdown(FILE *out);
/* False when `id` names no rule. */
bool hv_write_rule_explain(FILE *out, const char *id);
/* What hv_write_rule_explain prints for rule index k, as a string (malloc'd;
 * NULL when out of memory or k is no rule). */
char *hv_rule_explain_text(int k);

#endif
