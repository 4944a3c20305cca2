/* hpcvet.h — the public C API of hpcvet, the validator for HPCToolkit
 * databases, ovni traces and SST DUMPI traces.
 *
 * Link with `pkg-config --cflags --libs hpcvet` (shared library
 * libhpcvet.so.0, or `--static` for libhpcvet.a). Only the symbols declared
 * here are exported; everything else in the library is hidden.
 *
 * Usage:
 *
 *     hpcvet_options opt;
 *     hpcvet_options_init(&opt);
 *     hpcvet_report *r = hpcvet_validate_path("db", &opt);
 *     if (!r) { out of memory }
 *     hpcvet_diagnostic d;
 *     for (size_t i = 0; hpcvet_report_diagnostic(r, i, &d) == 0; i++)
 *         printf("%s:0x%llx: %s: %s\n", d.file, (unsigned long long)d.offset, d.rule_id, d.message);
 *     int verdict = hpcvet_report_verdict(r);   // HPCVET_CONFORMING, ...
 *     hpcvet_report_free(r);
 *
 * Stability: this is API/ABI version 0 (soname libhpcvet.so.0). Functions
 * and enumerators are only added. hpcvet_options carries its size, so new
 * fields can be appended without breaking callers built against an older
 * header. The layouts of hpcvet_diagnostic and hpcvet_rule_info change only
 * with a new soname. Rule IDs are stable strings: never renamed or reused.
 *
 * Thread safety: separate reports may be produced concurrently from
 * different threads. A report is not safe to use from two threads at once.
 *
 * I/O: hpcvet_validate_buffer and hpcvet_validate_buffers never touch the
 * file system. hpcvet_validate_path opens the path read-only (files larger
 * than 16 MiB are read through bounded windows, so memory stays small). */
#ifndef HPCVET_H
#define HPCVET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define HPCVET_API __attribute__((visibility("default")))
#else
#define HPCVET_API
#endif

#define HPCVET_VERSION_MAJOR 0
#define HPCVET_VERSION_MINOR 1
#define HPCVET_VERSION_PATCH 0
#define HPCVET_VERSION_STRING "0.1.0"

/* The library's version, "MAJOR.MINOR.PATCH" (may differ from the header's
 * HPCVET_VERSION_STRING when a newer library is loaded). */
HPCVET_API const char *hpcvet_version(void);

typedef enum hpcvet_severity {
	HPCVET_SEV_NOTE = 0,    /* information */
	HPCVET_SEV_WARNING = 1, /* legal but suspicious, or not checkable (newer minor version) */
	HPCVET_SEV_ERROR = 2    /* breaks the spec, or the reference reader would refuse or misread it */
} hpcvet_severity;

typedef enum hpcvet_edition {
	HPCVET_EDITION_AUTO = 0,   /* detect the HPCToolkit v4.0 edition from structure */
	HPCVET_EDITION_DRAFT = 1,  /* the early draft layout */
	HPCVET_EDITION_RELEASE = 2 /* the layout hpcprof writes */
} hpcvet_edition;

/* The verdict on one input. The values are the CLI's exit codes. */
typedef enum hpcvet_verdict {
	HPCVET_CONFORMING = 0,     /* no error (and no warning when strict) */
	HPCVET_NONCONFORMING = 1,  /* at least one error (or warning when strict) */
	HPCVET_UNREADABLE = 3,     /* the input could not be read (missing, permission, I/O error) */
	/* The validator failed, not the input: a check could not allocate the
	 * memory it needed (the report's problem says how much, and for what),
	 * so not every rule was checked and there is no verdict -- never
	 * conforming or nonconforming from fewer rules. (To see cJSON's
	 * allocations fail too, the first validation sets cJSON's hooks,
	 * cJSON_InitHooks, to malloc and free: a program that sets its own
	 * should set them after it.) */
	HPCVET_INTERNAL_ERROR = 4
} hpcvet_verdict;

typedef struct hpcvet_options {
	size_t struct_size;       /* sizeof(hpcvet_options): set by hpcvet_options_init */
	hpcvet_edition edition;   /* default HPCVET_EDITION_AUTO */
	size_t max_diagnostics;   /* diagnostics stored per report (default 100); the rest are only counted */
	int strict;               /* nonzero: warnings make the verdict nonconforming (default 0) */
	/* Appended fields (an older, shorter struct gets their defaults): */
	unsigned jobs;            /* threads for the independent files of one input, as the
				     CLI's -j (default 1: the calling thread only) */
	int ovni_all_models;      /* nonzero: every ovni model enabled, as `ovniemu -a` (default 0) */
	int mpi;                  /* DUMPI: the traced program's MPI library, as --mpi:
				     0 inferred (default), 1 MPICH, 2 Open MPI */
	int mpi_replay;           /* DUMPI: nonzero as --mpi-replay (default 0) */
} hpcvet_options;

/* Fill `opt` with the defaults. Always call it before setting fields. */
HPCVET_API void hpcvet_options_init(hpcvet_options *opt);

/* The result of validating one input. Opaque; free with hpcvet_report_free. */
typedef struct hpcvet_report hpcvet_report;

/* Validate one file held in memory. `name` is the display name used in
 * diagnostics and, when the content is too damaged to be recognised, to
 * choose the format by its standard file name ("meta.db"). The buffer is
 * only read during the call. `opt` may be NULL for the defaults. Returns
 * NULL only when memory runs out. */
HPCVET_API hpcvet_report *hpcvet_validate_buffer(const char *name, const void *data, size_t size,
						 const hpcvet_options *opt);

/* Validate several files held in memory that form one input: the files of
 * an HPCToolkit database, of an ovni trace tree, or of a DUMPI trace.
 * names[i] is the path of file i below the input ("meta.db",
 * "loom.x/proc.1/thread.1/stream.obs"); `input_name` names the whole. */
HPCVET_API hpcvet_report *hpcvet_validate_buffers(const char *input_name, size_t n, const char *const *names,
						  const void *const *data, const size_t *sizes,
						  const hpcvet_options *opt);

/* Validate a file or a directory (walked recursively, as the CLI does).
 * A DUMPI .meta path validates the whole trace it describes. An input that
 * cannot be read gives a report with verdict HPCVET_UNREADABLE. */
HPCVET_API hpcvet_report *hpcvet_validate_path(const char *path, const hpcvet_options *opt);

HPCVET_API void hpcvet_report_free(hpcvet_report *r);

HPCVET_API hpcvet_verdict hpcvet_report_verdict(const hpcvet_report *r);
/* "conforming", "nonconforming", "unreadable", "internal-error". */
HPCVET_API const char *hpcvet_verdict_name(hpcvet_verdict v);

/* What the input was recognised as ("hpctoolkit meta.db", "hpctoolkit
 * database", "ovni trace", "dumpi trace", ...; "unknown" when nothing
 * matched), the HPCToolkit edition ("draft", "release" or "") and the format
 * version found ("4.0", or ""). Valid until the report is freed. */
HPCVET_API const char *hpcvet_report_format(const hpcvet_report *r);
HPCVET_API const char *hpcvet_report_edition(const hpcvet_report *r);
HPCVET_API const char *hpcvet_report_format_version(const hpcvet_report *r);
/* Why the input is unreadable or the validator failed; "" otherwise. */
HPCVET_API const char *hpcvet_report_problem(const hpcvet_report *r);

/* Failures of the given severity, including diagnostics not stored. */
HPCVET_API uint64_t hpcvet_report_count(const hpcvet_report *r, hpcvet_severity sev);
/* Diagnostics counted but not stored (over max_diagnostics). */
HPCVET_API uint64_t hpcvet_report_suppressed(const hpcvet_report *r);
/* Distinct rules evaluated on the input. */
HPCVET_API size_t hpcvet_report_rules_checked(const hpcvet_report *r);

typedef struct hpcvet_diagnostic {
	const char *rule_id;       /* stable rule ID, e.g. "metadb.ctx.children-contained" */
	hpcvet_severity severity;
	const char *file;          /* the file the bytes belong to */
	uint64_t offset;           /* byte offset of the offending bytes */
	uint64_t length;           /* their length; 0 for a missing structure at offset */
	const char *struct_path;   /* e.g. "meta.db/ContextTree/ctx[12]/pChildren"; may be "" */
	const char *message;       /* values found and expected */
} hpcvet_diagnostic;

/* Stored diagnostics, in the order found. */
HPCVET_API size_t hpcvet_report_diagnostic_count(const hpcvet_report *r);
/* Fill *d with diagnostic i (0-based). Returns 0, or -1 when i is out of
 * range. The strings stay valid until the report is freed. */
HPCVET_API int hpcvet_report_diagnostic(const hpcvet_report *r, size_t i, hpcvet_diagnostic *d);

typedef struct hpcvet_rule_info {
	const char *id;
	hpcvet_severity severity;  /* the rule's default severity */
	const char *format;        /* "meta.db", "ovni stream", ... */
	const char *clause;        /* where the spec says it */
	const char *summary;       /* one line */
	const char *detail;        /* full explanation */
} hpcvet_rule_info;

/* Text the library allocates (hpcvet_reports_json, hpcvet_reports_text, hpcvet_reports_html,
 * hpcvet_rule_explain, hpcvet_certify_json, hpcvet_certificate_verify):
 * free it with hpcvet_string_free, never with another allocator's free. */
HPCVET_API void hpcvet_string_free(char *s);

/* The reports as the CLI's `--format=json` prints them for the same inputs
 * (docs/report.schema.json), one document for the n reports in order, with
 * its closing newline. All n must have been made with the same `strict`.
 * NULL when n is 0, a report is NULL, the reports differ in `strict`, or
 * memory runs out. Free with hpcvet_string_free. */
HPCVET_API char *hpcvet_reports_json(const hpcvet_report *const *reps, size_t n);

/* The reports as the CLI's text report prints them (`hpcvet --color=never
 * --no-context`, or `-q` when `quiet` is nonzero): diagnostics, then one
 * summary line per input. NULL as for hpcvet_reports_json. */
HPCVET_API char *hpcvet_reports_text(const hpcvet_report *const *reps, size_t n, int quiet);

/* The reports as the CLI's HTML report shows them (`hpcvet --format=html`:
 * one self-contained page with the filters and the pictures), without
 * each finding's bytes (the CLI reads them from the files; the library's
 * reports may come from memory). NULL as for hpcvet_reports_json. */
HPCVET_API char *hpcvet_reports_html(const hpcvet_report *const *reps, size_t n);

/* The explanation of a rule, as `hpcvet explain RULE-ID` begins it (ID,
 * severity, format, clause, summary, then the full text); NULL when no
 * rule has that ID or memory runs out. Free with hpcvet_string_free. */
HPCVET_API char *hpcvet_rule_explain(const char *id);

/* Receives the dump's text in pieces, in order; returns 0 to go on, nonzero
 * to have the rest of the output dropped (decoding still ends normally). */
typedef int (*hpcvet_write_fn)(void *ctx, const char *data, size_t len);

/* `hpcvet dump` of a path: validate it (with `opt`), then write the decoded
 * structure of its files with the validation's diagnostics through `write`:
 * JSON (docs/dump.schema.json) when `json` is nonzero, else text. `select`
 * is the CLI's --select value (NULL or "": everything), `max_items` its
 * --max-items (0: no limit). The output is produced as it is decoded, so
 * memory stays bounded whatever the input's size. Returns the verdict, or
 * -1 when `select` is malformed (nothing written; `why`, when not NULL,
 * receives the reason, up to `why_len` bytes) or an argument is NULL. */
HPCVET_API int hpcvet_dump_path(const char *path, const char *select, uint64_t max_items, int json,
				const hpcvet_options *opt, hpcvet_write_fn write, void *ctx, char *why,
				size_t why_len);

/* A certificate for the n paths, as `hpcvet certify --format=json PATH...`
 * prints it (every rule with its result, the rule-table version, the
 * verdict, each file's size and SHA-256). *status (when not NULL) receives
 * the CLI's exit code: the highest verdict, or HPCVET_INTERNAL_ERROR. NULL
 * when no document could be made (out of memory, no path). The digests
 * need libcrypto (libssl3), opened at the first call; without it the
 * certificate says why it has no digests. Free with hpcvet_string_free. */
HPCVET_API char *hpcvet_certify_json(const char *const *paths, size_t n, const hpcvet_options *opt, int *status);

/* Whether the JSON certificate at `cert_path` still holds, as `hpcvet
 * certify --verify CERT.json --format=json [--base=BASE] [PATH]`: `path`
 * NULL verifies each certified input at its recorded path (a relative one
 * against `base` when not NULL, else the current folder, else the
 * certificate's folder). Returns the CLI's exit code: 0 holds, 1 does not,
 * 2 usage (a PATH for a certificate of several inputs), 3 certificate or
 * input unreadable, 4 internal error. *json receives the verification
 * document (NULL when none was written), *problem what the CLI would print
 * on stderr ("" when nothing); both may be NULL, and are freed with
 * hpcvet_string_free. */
HPCVET_API int hpcvet_certificate_verify(const char *cert_path, const char *path, const char *base,
					 const hpcvet_options *opt, char **json, char **problem);

/* The rule catalogue (what `hpcvet rules` lists). */
HPCVET_API size_t hpcvet_rule_count(void);
/* Fill *info with rule i; 0, or -1 when out of range. Static strings. */
HPCVET_API int hpcvet_rule_get(size_t i, hpcvet_rule_info *info);
/* Index of the rule with this ID, or -1. */
HPCVET_API long hpcvet_rule_find(const char *id);

#ifdef __cplusplus
}
#endif

#endif
