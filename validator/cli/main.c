/* hpcvet: the command-line front end. Parses options, turns paths into
 * blobs (fileio.c), runs the checking core and prints reports. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/simd.h"
#include "core/validate.h"
#include "output/certify.h"
#include "output/output.h"
#include "dumpi/mpi/layer.h"
#include "hpctoolkit/values/values.h"
#include "ovni/model/model.h"
#include "hooks.h"
#include "corpus_cases.h"
#include "digest.h"
#include "dump_cmd.h"
#include "explain.h"
#include "fileio.h"
#include "jobs.h"
#include "progress.h"
#include "validate_path.h"
#include "verify.h"

const hv_cli_hooks *hv_cli_active_hooks; /* set by hpcvet-mpi only */

enum { EXIT_CONFORMING = 0, EXIT_NONCONFORMING = 1, EXIT_USAGE = 2, EXIT_UNREADABLE = 3, EXIT_INTERNAL = 4 };

static void usage(FILE *out)
{
	fputs("usage: hpcvet [OPTIONS] PATH...\n"
	      "       hpcvet rules [--format=text|json|markdown]\n"
	      "       hpcvet explain RULE-ID\n"
	      "       hpcvet certify [OPTIONS] PATH...   (same as --certify)\n"
	      "       hpcvet certify --verify CERT.json [--base=DIR] [PATH]\n"
	      "       hpcvet dump [--format=text|json] [--select=...] [--max-items=N] PATH  (decoded structure)\n"
	      "\n"
	      "Validate HPCToolkit databases (meta.db, profile.db, cct.db, trace.db, or a\n"
	      "database directory), ovni traces (stream.obs, stream.json, trace trees) and\n"
	      "SST DUMPI traces (.bin, .meta, trace folders). Files are recognised by content.\n"
	      "\n"
	      "  --format=FORMAT          report format: text (default), json, sarif (SARIF 2.1.0),\n"
	      "                           junit (JUnit XML), github (GitHub Actions annotations\n"
	      "                           of errors and warnings), html (one self-contained page:\n"
	      "                           filters, pictures of where the findings are, the bytes)\n"
	      "  --github-notes           github: notes become ::notice annotations too\n"
	      "  --color=auto|always|never  colour in text reports (auto: on a terminal,\n"
	      "                           unless NO_COLOR is set)\n"
	      "  --context, --no-context  hex view of the offending bytes under each text\n"
	      "                           diagnostic (default: on a terminal)\n"
	      "  --edition=auto|draft|release\n"
	      "                           HPCToolkit v4.0 edition (default: detect)\n"
	      "  --strict                 warnings make the exit code 1\n"
	      "  --ovni-all-models        every ovni model enabled, as `ovniemu -a` runs a\n"
	      "                           trace (events of a model no thread requires pass)\n"
	      "  --mpi=auto|mpich|openmpi the MPI library that ran a DUMPI-traced program (its\n"
	      "                           MPI_PROC_NULL and MPI_ANY_SOURCE values differ; default:\n"
	      "                           inferred from the records)\n"
	      "  --mpi-replay             DUMPI: the trace must be replayable (SST-macro): findings\n"
	      "                           that calls libdumpi does not record could explain are\n"
	      "                           warnings, not notes\n"
	      "  --max-diagnostics=N      diagnostics shown per input (default 100)\n"
	      "  --max-per-rule=N         diagnostics shown per rule and input (default 10, 0: no\n"
	      "                           limit); the rest are counted, with the first and last\n"
	      "                           place, in one closing line per rule\n"
	      "  -j N, --jobs=N           validate inputs, and the files of one input, on N\n"
	      "                           threads (default: the number of cores); the report\n"
	      "                           is the same for every N\n"
	      "  -q, --quiet              summary lines only\n"
	      "  --certify                a certificate per input: every rule with its\n"
	      "                           result, the rule-table version, the verdict,\n"
	      "                           each file's size and SHA-256\n"
	      "  -h, --help               this text\n"
	      "  --version                print the version\n"
	      "\n"
	      "hpcvet certify --verify CERT.json [--base=DIR] [PATH] validates again and says\n"
	      "whether the JSON certificate still holds: same bytes, same rule table, same\n"
	      "verdict (exit 0 holds, 1 does not). A relative certified path is found under\n"
	      "DIR, else the current folder, else the certificate's folder. Subcommands\n"
	      "(rules, explain, certify, dump) come first.\n"
	      "\n"
	      "exit: 0 conforming, 1 nonconforming, 2 usage error, 3 input unreadable,\n"
	      "      4 internal error; with several inputs the highest wins.\n",
	      out);
}

static bool parse_size(const char *s, size_t *out)
{
	if (!*s) return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || s[0] == '-') return false;
	*out = (size_t)v;
	return true;
}

static int cmd_rules(int argc, char **argv)
{
	bool json = false, markdown = false;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--format=json") == 0) json = true;
		else if (strcmp(argv[i], "--format=text") == 0) json = false;
		else if (strcmp(argv[i], "--format=markdown") == 0) markdown = true;
		else {
			fprintf(stderr, "hpcvet rules: unknown option '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (json) return hv_write_rules_json(stdout, hv_corpus_cases) ? EXIT_CONFORMING : EXIT_INTERNAL;
	if (markdown) hv_write_rules_markdown(stdout);
	else hv_write_rules_text(stdout);
	return EXIT_CONFORMING;
}

static int cmd_explain(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: hpcvet explain RULE-ID\n", stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[2], "dumpi.mpi") == 0) { /* the MPI layer as a whole, then its rules */
		fputs(mpi_layer_explain(), stdout);
		for (int i = 0; i < HV_RULE_COUNT; i++)
			if (strncmp(hv_rules[i].id, "dumpi.mpi.", 10) == 0)
				printf("  %-34s %-7s %s\n", hv_rules[i].id, hv_sev_name(hv_rules[i].severity), hv_rules[i].summary);
		return EXIT_CONFORMING;
	}
	if (!hv_cli_explain(stdout, argv[2])) {
		fprintf(stderr, "hpcvet explain: no rule '%s' (see 'hpcvet rules')\n", argv[2]);
		return EXIT_USAGE;
	}
	return EXIT_CONFORMING;
}

/* Report formats and the text report's look, chosen by options; kept
 * together so main() only parses. */
enum out_format { OUT_TEXT, OUT_JSON, OUT_SARIF, OUT_JUNIT, OUT_GITHUB, OUT_HTML };
enum tristate { TRI_AUTO, TRI_ON, TRI_OFF };

static bool parse_output_option(const char *a, enum out_format *fmt, enum tristate *color, enum tristate *context)
{
	static const struct {
		const char *opt;
		enum out_format f;
	} formats[] = {{"--format=text", OUT_TEXT},	{"--format=json", OUT_JSON},
		       {"--format=sarif", OUT_SARIF},	{"--format=junit", OUT_JUNIT},
		       {"--format=github", OUT_GITHUB},	{"--format=html", OUT_HTML}};
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(a, formats[i].opt) == 0) {
			*fmt = formats[i].f;
			return true;
		}
	if (strcmp(a, "--color=auto") == 0) *color = TRI_AUTO;
	else if (strcmp(a, "--color=always") == 0) *color = TRI_ON;
	else if (strcmp(a, "--color=never") == 0) *color = TRI_OFF;
	else if (strcmp(a, "--context") == 0) *context = TRI_ON;
	else if (strcmp(a, "--no-context") == 0) *context = TRI_OFF;
	else return false;
	return true;
}

static void setup_text_look(hv_output_opts *oo, enum tristate color, enum tristate context)
{
	/* under mpirun a rank's stdout looks like a terminal wherever it goes */
	bool tty = isatty(STDOUT_FILENO) && !hv_cli_active_hooks;
	const char *no_color = getenv("NO_COLOR");
	bool no_color_set = no_color && no_color[0];
	oo->color = color == TRI_ON || (color == TRI_AUTO && tty && !no_color_set);
	oo->context = context == TRI_ON || (context == TRI_AUTO && tty);
	oo->read_bytes = hv_read_range;
	oo->read_ctx = NULL;
}

static bool write_reports(enum out_format fmt, hv_report **rp, size_t n, const hv_output_opts *oo)
{
	switch (fmt) {
	case OUT_JSON: return hv_write_json(stdout, rp, n, oo);
	case OUT_SARIF: return hv_write_sarif(stdout, rp, n, oo);
	case OUT_JUNIT: hv_write_junit(stdout, rp, n, oo); return true;
	case OUT_GITHUB: hv_write_github(stdout, rp, n, oo); return true;
	case OUT_HTML: return hv_write_html(stdout, rp, n, oo);
	case OUT_TEXT: break;
	}
	hv_write_text(stdout, rp, n, oo);
	return true;
}

/* The progress line wraps the blobs of each input while it is checked. */
static void progress_begin(void *ctx, const char *label, hv_blob *blobs, size_t n)
{
	hv_progress_begin(ctx, label, blobs, n, true);
}

static void progress_end(void *ctx)
{
	hv_progress_end(ctx);
}

/* Certificates bind the verdict to the bytes: with `dg`, every file read
 * is also hashed (digest.c). */
static void validate_path(const char *path, const hv_options *opt, hv_report *r, hv_digest_set *dg)
{
	if (dg) {
		hv_validate_path_digest(path, opt, r, dg, true);
		return;
	}
	hv_progress pr;
	hv_path_observer obs = {progress_begin, progress_end, &pr};
	hv_validate_path(path, opt, r, hv_cli_active_hooks ? NULL : &obs);
}

/* -j: several inputs are validated at once, one per task; a single input
 * hands the runner to the core, which checks its independent files in
 * parallel. Never both, so at most `jobs` threads run. */
typedef struct input_tasks {
	const char **paths;
	const hv_options *opt;
	hv_report *reps;
	hv_digest_set *dgs; /* NULL: no digests */
} input_tasks;

static void input_task(void *ctx, size_t i)
{
	input_tasks *it = ctx;
	validate_path(it->paths[i], it->opt, &it->reps[i], it->dgs ? &it->dgs[i] : NULL);
}

/* hpcvet-mpi (hooks.h): input i with the hook's options, with digests
 * only where the hook asks (rank 0). */
static void input_one(void *ctx, size_t i, const hv_options *opt, bool digest)
{
	input_tasks *it = ctx;
	validate_path(it->paths[i], opt, &it->reps[i], digest && it->dgs ? &it->dgs[i] : NULL);
}

static bool is_subcommand(const char *a)
{
	return !strcmp(a, "rules") || !strcmp(a, "explain") || !strcmp(a, "dump") || !strcmp(a, "certify");
}

/* What is wrong with option `a`, and what it takes, in one line. */
static const char *why_bad_option(const char *a, bool certify, const char *next)
{
	static char buf[320];
	const char *eq = strchr(a, '=');
	size_t nl = eq ? (size_t)(eq - a) : strlen(a);
	const char *v = eq ? eq + 1 : "";
#define IS(name) (nl == strlen(name) && strncmp(a, name, nl) == 0)
	if (IS("--edition")) snprintf(buf, sizeof buf, "--edition=%s: the edition is auto, draft or release", v);
	else if (IS("--format")) snprintf(buf, sizeof buf, "--format=%s: the report format is text, json, sarif, junit, github or html", v);
	else if (IS("--color")) snprintf(buf, sizeof buf, "--color=%s: colour is auto, always or never", v);
	else if (IS("--jobs") || (strncmp(a, "-j", 2) == 0 && !eq))
		snprintf(buf, sizeof buf, "%s%s%s: -j and --jobs take a number of threads from 1 to 1024 (-j 4, -j4, --jobs=4)", a,
			 !strcmp(a, "-j") && next ? " " : "", !strcmp(a, "-j") && next ? next : "");
	else if (IS("--max-diagnostics") || IS("--max-per-rule"))
		snprintf(buf, sizeof buf, "%.*s=%s: takes a count (a whole number, 0 or more)", (int)nl, a, v);
	else if (IS("--verify") && !certify)
		snprintf(buf, sizeof buf, "--verify goes with certify: hpcvet certify --verify CERT.json [PATH]");
	else if (IS("--verify"))
		snprintf(buf, sizeof buf, "--verify needs the certificate: hpcvet certify --verify CERT.json [PATH]%s",
			 next ? "" : " (no file given)");
	else snprintf(buf, sizeof buf, "unknown option '%s'", a);
#undef IS
	return buf;
}

static bool parse_jobs(const char *s, unsigned *jobs)
{
	size_t v;
	if (!parse_size(s, &v) || v < 1 || v > 1024) return false;
	*jobs = (unsigned)v;
	return true;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "rules") == 0) return cmd_rules(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "explain") == 0) return cmd_explain(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "dump") == 0) return hv_cmd_dump(argc, argv);

	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 100};
	hv_output_opts oo = {0};
	bool end_of_options = false, certify = false;
	const char *verify_cert = NULL, *verify_base = NULL;
	enum out_format fmt = OUT_TEXT;
	enum tristate color = TRI_AUTO, context = TRI_AUTO;
	unsigned jobs = hv_jobs_default();
	/* `hpcvet certify PATH...` is `hpcvet --certify PATH...`. */
	int first = 1;
	if (argc >= 2 && strcmp(argv[1], "certify") == 0) certify = true, first = 2;
	const char **paths = hv_calloc((size_t)argc, sizeof *paths);
	size_t npaths = 0;
	if (!paths) return EXIT_INTERNAL;

	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		if (end_of_options || a[0] != '-' || a[1] == '\0') {
			paths[npaths++] = a;
		} else if (strcmp(a, "--") == 0) {
			end_of_options = true;
		} else if (parse_output_option(a, &fmt, &color, &context)) {
			/* parsed */
		} else if (strcmp(a, "--edition=auto") == 0) {
			opt.edition = HV_EDITION_AUTO;
		} else if (strcmp(a, "--edition=draft") == 0) {
			opt.edition = HV_EDITION_DRAFT;
		} else if (strcmp(a, "--edition=release") == 0) {
			opt.edition = HV_EDITION_RELEASE;
		} else if (strcmp(a, "--certify") == 0) {
			certify = true;
		} else if (certify && strcmp(a, "--verify") == 0 && i + 1 < argc) {
			verify_cert = argv[++i];
		} else if (certify && strncmp(a, "--verify=", 9) == 0 && a[9]) {
			verify_cert = a + 9;
		} else if (certify && strncmp(a, "--base=", 7) == 0 && a[7]) {
			verify_base = a + 7;
		} else if (strcmp(a, "--strict") == 0) {
			oo.strict = true;
		} else if (strcmp(a, "--ovni-all-models") == 0) {
			opt.ovni_all_models = true;
		} else if (strcmp(a, "--mpi=auto") == 0) {
			opt.dumpi_mpi = HV_MPI_AUTO;
		} else if (strcmp(a, "--mpi=mpich") == 0) {
			opt.dumpi_mpi = HV_MPI_MPICH;
		} else if (strcmp(a, "--mpi=openmpi") == 0) {
			opt.dumpi_mpi = HV_MPI_OPENMPI;
		} else if (strcmp(a, "--mpi-replay") == 0) {
			opt.dumpi_replay = true;
		} else if (strcmp(a, "--github-notes") == 0) {
			oo.github_notes = true;
		} else if (strncmp(a, "--max-per-rule=", 15) == 0 && parse_size(a + 15, &hv_max_per_rule)) {
		} else if (strncmp(a, "--max-diagnostics=", 18) == 0 && parse_size(a + 18, &opt.max_diags)) {
			/* parsed */
		} else if ((strncmp(a, "--jobs=", 7) == 0 && parse_jobs(a + 7, &jobs)) ||
			   (strncmp(a, "-j", 2) == 0 && a[2] && parse_jobs(a + 2, &jobs)) ||
			   (strcmp(a, "-j") == 0 && i + 1 < argc && parse_jobs(argv[i + 1], &jobs) && ++i)) {
			/* parsed */
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			oo.quiet = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			free(paths);
			return EXIT_CONFORMING;
		} else if (strcmp(a, "--version") == 0) {
			printf("hpcvet %s\n", HV_VERSION);
			free(paths);
			return EXIT_CONFORMING;
		} else {
			fprintf(stderr, "hpcvet: %s (hpcvet --help lists the options)\n", why_bad_option(a, certify, i + 1 < argc ? argv[i + 1] : NULL));
			free(paths);
			return EXIT_USAGE;
		}
	}
	/* `hpcvet -q rules`: a subcommand after an option is read as a path */
	for (size_t k = 0; k < npaths; k++) {
		struct stat st;
		if (is_subcommand(paths[k]) && stat(paths[k], &st) != 0) {
			fprintf(stderr, "hpcvet: '%s' is a subcommand: subcommands come first (hpcvet %s ...)\n", paths[k],
				paths[k]);
			free(paths);
			return EXIT_USAGE;
		}
	}
	if (verify_cert) {
		int vs = EXIT_USAGE;
		if (npaths > 1 || (fmt != OUT_TEXT && fmt != OUT_JSON))
			fprintf(stderr, "hpcvet certify --verify CERT.json [PATH]: one PATH at most, text or JSON\n");
		else vs = hv_cmd_verify(stdout, stderr, true, verify_cert, npaths ? paths[0] : NULL, verify_base, &opt,
					   fmt == OUT_JSON);
		free(paths);
		return vs;
	}
	if (npaths == 0) {
		usage(stderr);
		free(paths);
		return EXIT_USAGE;
	}
	if (certify && fmt != OUT_TEXT && fmt != OUT_JSON && fmt != OUT_HTML) {
		fprintf(stderr, "hpcvet: a certificate is written as text, JSON or HTML only\n");
		free(paths);
		return EXIT_USAGE;
	}

	hv_report *reps = hv_calloc(npaths, sizeof *reps);
	hv_report **rp = hv_calloc(npaths, sizeof *rp);
	hv_digest_set *dgs = certify ? hv_calloc(npaths, sizeof *dgs) : NULL;
	hv_cert_files *cfs = certify ? hv_calloc(npaths, sizeof *cfs) : NULL;
	if (!reps || !rp || (certify && (!dgs || !cfs))) {
		free(dgs);
		free(cfs);
		free(paths);
		free(reps);
		free(rp);
		return EXIT_INTERNAL;
	}
	int status = EXIT_CONFORMING;
	for (size_t i = 0; i < npaths; i++) {
		hv_report_init(&reps[i], paths[i], opt.max_diags);
		rp[i] = &reps[i];
	}
	opt.jobs = jobs;
	/* A report that shows bytes reads them again: only from files that are
	 * still what was judged (fileio.h, hv_judged_*). */
	setup_text_look(&oo, color, context);
	hv_judged_keep((fmt == OUT_TEXT && oo.context && !oo.quiet && !certify) || fmt == OUT_HTML);
	/* units of work of this many bytes (core/units.h; tests force tiny ones) */
	const char *unit_bytes = getenv("HPCVET_UNIT_BYTES");
	size_t ub;
	if (unit_bytes && parse_size(unit_bytes, &ub)) opt.unit_bytes = ub;
	/* the propagated values' slots in groups of this many bytes
	 * (hpctoolkit/values/values.h; tests force many groups) */
	const char *value_budget = getenv("HPCVET_VALUE_BUDGET");
	size_t vb;
	if (value_budget && parse_size(value_budget, &vb)) hpctk_vbudget = vb;
	/* the narrow vector paths only (core/simd.h; tests compare the reports) */
	if (getenv("HPCVET_NO_AVX512")) hv_simd_allow_avx512(false);
	/* the ovni replay the one-thread way only (ovni/model/model.h) */
	const char *split = getenv("HPCVET_OVNI_SPLIT");
	if (split && strcmp(split, "0") == 0) ovni_split_on = false;
	if (hv_cli_active_hooks) {
		if (jobs > 1) {
			opt.runner = hv_jobs_run;
			opt.runner_ctx = &jobs;
		}
		input_tasks it = {paths, &opt, reps, dgs};
		hv_cli_active_hooks->validate(paths, npaths, reps, &opt, dgs != NULL, input_one, &it);
	} else if (npaths > 1 && jobs > 1) {
		input_tasks it = {paths, &opt, reps, dgs};
		hv_jobs_run(&jobs, npaths, input_task, &it);
	} else {
		if (jobs > 1) {
			opt.runner = hv_jobs_run;
			opt.runner_ctx = &jobs;
		}
		for (size_t i = 0; i < npaths; i++) validate_path(paths[i], &opt, &reps[i], dgs ? &dgs[i] : NULL);
	}
	for (size_t i = 0; i < npaths; i++) {
		int s = hv_report_exit_code(&reps[i], oo.strict);
		if (s > status) status = s;
	}
	char cwd[4096];
	oo.base_dir = getcwd(cwd, sizeof cwd) ? cwd : NULL;
	for (size_t i = 0; cfs && i < npaths; i++) {
		hv_digest_withhold(&dgs[i], &reps[i]); /* hpcvet-mpi: another rank's finding may have come since */
		cfs[i] = dgs[i].out;
	}
	oo.cert_files = cfs;
	/* A writer that could not allocate leaves a field or a diagnostic out
	 * of what it prints (cJSON's adders fail quietly): the report is then
	 * not the report, and the exit code says so. */
	hv_fault_scope writing;
	hv_fault_scope_enter(&writing);
	if (hv_cli_active_hooks && hv_cli_active_hooks->silent) {
		/* another process writes the report */
	} else if (certify && fmt == OUT_JSON) {
		if (!hv_write_certify_json(stdout, rp, npaths, &oo)) status = EXIT_INTERNAL;
	} else if (certify && fmt == OUT_HTML) {
		/* the report with each input's digests (oo.cert_files) */
		if (!hv_write_html(stdout, rp, npaths, &oo)) status = EXIT_INTERNAL;
	} else if (certify) {
		hv_write_certify_text(stdout, rp, npaths, &oo);
	} else if (!write_reports(fmt, rp, npaths, &oo)) {
		status = EXIT_INTERNAL;
	}
	hv_fault_scope_leave(&writing);
	if (atomic_load(&writing.failed)) {
		fprintf(stderr, "hpcvet: out of memory writing the report (an allocation of %zu bytes failed): it is incomplete\n",
			atomic_load(&writing.bytes));
		status = EXIT_INTERNAL;
	}
	if (fflush(stdout) != 0) status = EXIT_INTERNAL;
	for (size_t i = 0; i < npaths; i++) hv_report_free(&reps[i]);
	hv_judged_free();
	for (size_t i = 0; dgs && i < npaths; i++) hv_digest_free(&dgs[i]);
	free(dgs);
	free(cfs);
	free(reps);
	free(rp);
	free(paths);
	return status;
}
