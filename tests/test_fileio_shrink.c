/* A file that shrinks while hpcvet reads it gives exit 3 (unreadable), never
 * a crash or SIGBUS: the CLI's reader (validator/cli/fileio.c, compiled into
 * this test) reads big files through pread windows, never mmap. Real files
 * are written, opened exactly as the CLI opens them, truncated between open
 * and the check, then validated: a windowed single file, a database whose
 * profile.db / cct.db / trace.db shrinks, and a DUMPI trace whose rank file
 * shrinks (sequentially and with a runner). Also: the directory reader keeps
 * data files windowed (bounded memory) and reads small files whole. */
#include "cli/fileio.c"

#include <stdarg.h>
#include <stdlib.h>

#include "tap.h"
#include "testlib.h"

/* CHECK as an expression, for early returns. */
__attribute__((format(printf, 2, 3))) static bool ok(bool c, const char *fmt, ...)
{
	if (c) {
		tap_passed++;
	} else {
		tap_failed++;
		va_list ap;
		va_start(ap, fmt);
		printf("FAIL: ");
		vprintf(fmt, ap);
		printf("\n");
		va_end(ap);
	}
	return c;
}

#define is_int(got, want, ...) (ok((got) == (want), __VA_ARGS__) || (printf("    got %d, want %d\n", (got), (want)), 0))

static char g_dir[256];

static bool write_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f) return false;
	bool ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

/* Generate `what` into g_dir/name (a file, or a directory for a set). */
static bool generate(const char *what, unsigned contexts, unsigned profiles, unsigned trace_len, const char *name,
		     char *path, size_t plen)
{
	gen_params p;
	gen_params_default(&p);
	p.what = what;
	p.contexts = contexts;
	p.profiles = profiles;
	p.trace_len = trace_len;
	gen_output out;
	char err[256];
	if (gen_generate(&p, &out, err, sizeof err) != 0) {
		printf("# generate %s: %s\n", what, err);
		return false;
	}
	snprintf(path, plen, "%s/%s", g_dir, name);
	bool ok = true;
	if (out.is_set) {
		ok = mkdir(path, 0755) == 0;
		for (size_t i = 0; ok && i < out.n; i++) {
			char fp[512];
			snprintf(fp, sizeof fp, "%s/%s", path, out.files[i].name);
			char *slash = strrchr(fp, '/'); /* metrics/default.yaml: its folder first */
			if (slash && slash > fp + strlen(path)) {
				*slash = '\0';
				ok = mkdir(fp, 0755) == 0 || errno == EEXIST;
				*slash = '/';
			}
			ok = ok && write_file(fp, out.files[i].data, out.files[i].len);
		}
	} else {
		ok = write_file(path, out.files[0].data, out.files[0].len);
	}
	gen_output_free(&out);
	return ok;
}

static int code_of(hv_report *r) { return hv_report_exit_code(r, false); }

static void single_file(void)
{
	char path[512];
	if (!ok(generate("ovni-stream", 0, 0, 1200000, "big.obs", path, sizeof path), "generate a 30 MB stream")) return;
	hv_file f;
	const char *why;
	hv_options opt = {.max_diags = 100};
	hv_report r;

	ok(hv_file_open(&f, path, &why), "open the stream");
	ok(f.blob.mem == NULL && f.blob.size > HV_SLURP_MAX, "a file over %u bytes is read in windows", HV_SLURP_MAX);
	hv_report_init(&r, path, opt.max_diags);
	hv_validate_blob(&opt, &f.blob, &r);
	is_int(code_of(&r), 0, "the untouched stream conforms");
	hv_report_free(&r);
	hv_file_close(&f);

	ok(hv_file_open(&f, path, &why), "open again");
	ok(truncate(path, (off_t)(f.blob.size / 2)) == 0, "truncate it to half between open and read");
	hv_report_init(&r, path, opt.max_diags);
	hv_validate_blob(&opt, &f.blob, &r);
	is_int(code_of(&r), 3, "a stream that shrank is unreadable (exit 3)");
	ok(r.unreadable && strstr(r.problem, "read error") != NULL, "the problem says read error: %s", r.problem);
	hv_report_free(&r);
	hv_file_close(&f);
}

/* Open `dir` as the CLI does, truncate the file named `victim`, validate. */
static void shrink_in_set(const char *dir, const char *victim, const hv_options *opt, const char *what)
{
	hv_dir d;
	const char *why;
	if (!ok(hv_dir_open(&d, dir, &why), "open %s", what)) return;
	hv_file *v = NULL;
	size_t windowed = 0, whole = 0;
	for (size_t i = 0; i < d.n; i++) {
		if (strstr(d.files[i].path, victim)) v = &d.files[i];
		if (d.files[i].blob.mem) whole++;
		else windowed++;
	}
	if (!ok(v != NULL, "%s: %s found", what, victim)) {
		hv_dir_close(&d);
		return;
	}
	ok(v->blob.mem == NULL, "%s: %s (%llu bytes) is read in windows", what, victim, (unsigned long long)v->blob.size);
	ok(whole > 0 && windowed > 0, "%s: small files whole (%zu), big ones windowed (%zu)", what, whole, windowed);
	ok(truncate(v->path, (off_t)(v->blob.size / 3)) == 0, "%s: truncate %s", what, victim);
	hv_blob *blobs = calloc(d.n, sizeof *blobs);
	for (size_t i = 0; i < d.n; i++) blobs[i] = d.files[i].blob;
	hv_report r;
	hv_report_init(&r, dir, opt->max_diags);
	hv_validate_set(opt, blobs, d.n, &r);
	is_int(code_of(&r), 3, "%s: a shrunk %s makes the input unreadable (exit 3)", what, victim);
	hv_report_free(&r);
	for (size_t i = 0; i < d.n; i++) hv_blob_release(&blobs[i]);
	free(blobs);
	hv_dir_close(&d);
}

/* A runner that runs tasks in reverse order: checks that the result does
 * not depend on the order tasks run in. */
static void reverse_runner(void *rc, size_t n, hv_task_fn task, void *ctx)
{
	(void)rc;
	for (size_t i = n; i-- > 0;) task(ctx, i);
}

static void sets(void)
{
	char path[512];
	hv_options opt = {.max_diags = 100};
	const char *victims[] = {"profile.db", "cct.db", "trace.db"};
	for (int k = 0; k < 3; k++) {
		char name[32];
		snprintf(name, sizeof name, "db%d", k);
		if (!ok(generate("hpctoolkit-db", 4000, 24, 20000, name, path, sizeof path), "generate a database")) return;
		shrink_in_set(path, victims[k], &opt, "database");
	}
	for (int k = 0; k < 2; k++) {
		char name[32];
		snprintf(name, sizeof name, "dumpi%d", k);
		if (!ok(generate("dumpi-trace", 60000, 4, 0, name, path, sizeof path), "generate a DUMPI trace")) return;
		hv_options o = opt;
		if (k == 1) o.runner = reverse_runner, o.jobs = 2;
		shrink_in_set(path, "-0002.bin", &o, k ? "DUMPI trace (runner)" : "DUMPI trace");
	}
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(g_dir, sizeof g_dir, "%s/hv-shrink.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(g_dir)) {
		printf("cannot create a temporary directory\n");
		return 1;
	}
	single_file();
	sets();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
	if (system(cmd) != 0) printf("# could not remove %s\n", g_dir);
	TAP_DONE();
}
