/* hpcvet-gen: write valid or deliberately broken files of every format. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/rules.h"
#include "gen.h"

static void usage(FILE *out)
{
	fputs("usage: hpcvet-gen [OPTIONS] -o PATH\n"
	      "       hpcvet-gen --list\n"
	      "\n"
	      "  --what=KIND          what to write (default metadb); --list shows the kinds\n"
	      "  --edition=draft|release   HPCToolkit v4.0 edition (default release)\n"
	      "  --minor=N            write a newer minor version N (larger strides, junk in gaps)\n"
	      "  --seed=N             pseudo-random seed (default 1); output is deterministic\n"
	      "  --contexts=N --depth=N --metrics=N --modules=N --files=N --functions=N\n"
	      "  --profiles=N --trace-len=N    shape and scale\n"
	      "  --ctx-ids=spread|levels|postorder  HPCToolkit ctxIds spread over the tree at random\n"
	      "                       (default), level by level from the deepest (children first), or in\n"
	      "                       depth-first post-order, as hpcprof numbers them (`tree`: levels)\n"
	      "  --trace-bounds=samples|measurement  HPCToolkit trace.db bounds: the samples' first and last\n"
	      "                       timestamps (default), or looser, as hpcprof writes them\n"
	      "  --in-flight=N        dumpi: each rank posts N Isend/Irecv pairs before waiting on any\n"
	      "  --request-calls=N    dumpi: each rank also makes N rounds of MPI_Waitany/Testany,\n"
	      "                       Waitsome/Testsome, a cancelled receive and one channel of changing sizes\n"
	      "  --unmatched=N        dumpi-trace: rank 0 also sends N messages (each its own tag) that no\n"
	      "                       rank receives (dumpi.mpi.send-unmatched)\n"
	      "  --mpi=mpich|openmpi  dumpi: the MPI library's habits (MPI_PROC_NULL -1 or -2, shared and\n"
	      "                       recycled request handles; default: no MPI_PROC_NULL, no library shown)\n"
	      "  --unrecorded         dumpi: the program also makes calls libdumpi does not record\n"
	      "                       (MPI_Ibarrier, MPI_Mprobe/Mrecv, MPI_Comm_split_type, ...)\n"
	      "  --pattern=mix|stencil3d|lammps  dumpi-trace: the program the ranks run: a mix of phases\n"
	      "                       (default), a 3-D stencil code (per iteration a halo exchange with\n"
	      "                       the six neighbours of a Cartesian decomposition, MPI_Alltoall on\n"
	      "                       the row communicators of an MPI_Comm_split, MPI_Allreduce and a\n"
	      "                       ring step), or a LAMMPS run (per step the ghost-atom swaps as\n"
	      "                       MPI_Irecv/MPI_Send/MPI_Wait with counts that vary by step, MPI_Wtime\n"
	      "                       timers, an MPI_Allreduce; MPI_Bcast every tenth step);\n"
	      "                       --contexts=N records per rank (about), --profiles=N ranks (up to\n"
	      "                       1048576; rank files are written as they are made)\n"
	      "  --open-tasks=N       ovni-trace-runtime: a worker also creates N tasks that never run\n"
	      "  --looms=N            ovni-trace-runtime: N looms (nodes, default 1) of --profiles=N streams\n"
	      "                       each (3 to 1024, default 10): 2 processes, 4 from 32 streams on, each a\n"
	      "                       main thread and workers of --trace-len=N events (4 x (1 + 96): 388)\n"
	      "  --busy-workers=N     ovni-trace-runtime: N workers of each process run the loop, the others\n"
	      "                       are nearly idle (a scheduler poll, then asleep, every ~1000 busy events)\n"
	      "  --break=RULE-ID      write an input that breaks exactly that rule\n"
	      "  --break=RULE-ID~inside-tolerance  (hpctkdb.values.execution, .summary) a value off by just\n"
	      "                       less than the rule's tolerance: an input that must be accepted\n"
	      "  -o PATH              output file, or directory for multi-file kinds\n",
	      out);
}

static int mkdirs(const char *path)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/') continue;
		*p = '\0';
		if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
	return 0;
}

static int write_file(const char *path, const uint8_t *d, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f) return -1;
	size_t w = n ? fwrite(d, 1, n, f) : 0;
	int rc = fclose(f);
	return (w == n && rc == 0) ? 0 : -1;
}

/* PATH/NAME, with NAME's directories made. */
static int put_in_dir(const char *dir, const char *name, const uint8_t *d, size_t n)
{
	char full[4096];
	if ((size_t)snprintf(full, sizeof full, "%s/%s", dir, name) >= sizeof full) {
		errno = ENAMETOOLONG;
		return -1;
	}
	char *slash = strrchr(full, '/');
	*slash = '\0';
	if (mkdirs(full) != 0) return -1;
	*slash = '/';
	return write_file(full, d, n);
}

/* The output as it comes: the first file is kept (a single-file output is
 * written to PATH itself, known only at the end), the second makes PATH a
 * directory and both go into it, and so on. */
typedef struct out_sink {
	const char *path;
	uint8_t *first;
	size_t first_len, count;
	char first_name[128];
	bool failed;
	int err;
} out_sink;

static int sink_file(void *ctx, const char *name, const uint8_t *data, size_t len)
{
	out_sink *s = ctx;
	int rc = 0;
	if (s->count++ == 0) {
		s->first = malloc(len ? len : 1);
		if (!s->first) {
			errno = ENOMEM;
			rc = -1;
		} else {
			if (len) memcpy(s->first, data, len);
			s->first_len = len;
			snprintf(s->first_name, sizeof s->first_name, "%s", name);
		}
	} else {
		if (s->first) {
			rc = put_in_dir(s->path, s->first_name, s->first, s->first_len);
			free(s->first);
			s->first = NULL;
		}
		if (rc == 0) rc = put_in_dir(s->path, name, data, len);
	}
	if (rc) {
		s->failed = true;
		s->err = errno;
	}
	return rc;
}

static bool num_opt(const char *a, const char *name, unsigned long long *v)
{
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0 || a[n] != '=') return false;
	char *end;
	errno = 0;
	*v = strtoull(a + n + 1, &end, 0);
	if (errno || *end || !a[n + 1]) {
		fprintf(stderr, "hpcvet-gen: bad number in '%s'\n", a);
		exit(2);
	}
	return true;
}

int main(int argc, char **argv)
{
	gen_params p;
	gen_params_default(&p);
	const char *outpath = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long long v;
		if (strcmp(a, "-o") == 0 && i + 1 < argc) outpath = argv[++i];
		else if (strncmp(a, "--what=", 7) == 0) p.what = a + 7;
		else if (strcmp(a, "--edition=draft") == 0) p.edition = HV_EDITION_DRAFT;
		else if (strcmp(a, "--edition=release") == 0) p.edition = HV_EDITION_RELEASE;
		else if (strncmp(a, "--break=", 8) == 0) p.break_rule = a + 8;
		else if (num_opt(a, "--minor", &v)) p.minor = (unsigned)v;
		else if (num_opt(a, "--seed", &v)) p.seed = v;
		else if (num_opt(a, "--contexts", &v)) p.contexts = (unsigned)v;
		else if (num_opt(a, "--depth", &v)) p.depth = (unsigned)v;
		else if (num_opt(a, "--metrics", &v)) p.metrics = (unsigned)v;
		else if (num_opt(a, "--modules", &v)) p.modules = (unsigned)v;
		else if (num_opt(a, "--files", &v)) p.files = (unsigned)v;
		else if (num_opt(a, "--functions", &v)) p.functions = (unsigned)v;
		else if (num_opt(a, "--profiles", &v)) p.profiles = (unsigned)v;
		else if (num_opt(a, "--trace-len", &v)) p.trace_len = (unsigned)v;
		else if (num_opt(a, "--in-flight", &v)) p.in_flight = (unsigned)v;
		else if (num_opt(a, "--unmatched", &v)) p.unmatched = (unsigned)v;
		else if (num_opt(a, "--request-calls", &v)) p.request_calls = (unsigned)v;
		else if (strcmp(a, "--mpi=mpich") == 0) p.mpi_lib = GEN_MPI_MPICH;
		else if (strcmp(a, "--mpi=openmpi") == 0) p.mpi_lib = GEN_MPI_OPENMPI;
		else if (strcmp(a, "--unrecorded") == 0) p.unrecorded = true;
		else if (strcmp(a, "--pattern=stencil3d") == 0) p.pattern = GEN_PATTERN_STENCIL3D;
		else if (strcmp(a, "--pattern=mix") == 0) p.pattern = GEN_PATTERN_MIX;
		else if (strcmp(a, "--pattern=lammps") == 0) p.pattern = GEN_PATTERN_LAMMPS;
		else if (num_opt(a, "--open-tasks", &v)) p.open_tasks = (unsigned)v;
		else if (num_opt(a, "--looms", &v)) p.looms = v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
		else if (num_opt(a, "--busy-workers", &v)) p.busy = v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
		else if (strcmp(a, "--trace-bounds=measurement") == 0) p.measured_bounds = true;
		else if (strcmp(a, "--trace-bounds=samples") == 0) p.measured_bounds = false;
		else if (strcmp(a, "--ctx-ids=levels") == 0 || strcmp(a, "--ctx-ids=tree") == 0) p.ctx_ids = GEN_IDS_LEVELS;
		else if (strcmp(a, "--ctx-ids=postorder") == 0) p.ctx_ids = GEN_IDS_POSTORDER;
		else if (strcmp(a, "--ctx-ids=spread") == 0) p.ctx_ids = GEN_IDS_SPREAD;
		else if (strcmp(a, "--list") == 0) {
			for (size_t f = 0; gen_families[f]; f++)
				for (size_t k = 0; gen_families[f]->whats[k]; k++)
					printf("%s\n", gen_families[f]->whats[k]);
			return 0;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "hpcvet-gen: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	if (!outpath) {
		usage(stderr);
		return 2;
	}
	/* Files are written as the writer produces them (a trace of 65,536 rank
	 * files is never in memory at once); the first is held until a second
	 * one says the output is a directory. */
	out_sink sk = {.path = outpath};
	gen_output out;
	char err[256] = "";
	if (gen_generate_to(&p, &out, sink_file, &sk, err, sizeof err) != 0) {
		if (sk.failed) fprintf(stderr, "hpcvet-gen: cannot write %s: %s\n", outpath, strerror(sk.err));
		else fprintf(stderr, "hpcvet-gen: %s\n", err[0] ? err : "generation failed");
		free(sk.first);
		return 1;
	}
	int rc = 0;
	if (sk.count == 0 && mkdirs(outpath) != 0) rc = 1, sk.err = errno; /* an empty set */
	if (sk.first) { /* one file: the output itself, or a directory holding it */
		rc = out.is_set ? put_in_dir(outpath, sk.first_name, sk.first, sk.first_len)
				: write_file(outpath, sk.first, sk.first_len);
		if (rc) sk.err = errno;
	}
	if (rc) fprintf(stderr, "hpcvet-gen: cannot write %s: %s\n", outpath, strerror(sk.err));
	free(sk.first);
	gen_output_free(&out);
	return rc;
}
