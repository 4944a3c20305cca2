/* The record walk's hot path: a record decoded straight from the read
 * window (dumpi_decode_direct) must be what the field-by-field walk makes
 * of it, record by record: the same function, mask, thread, clocks and
 * length, and every argument's presence, offset and value. Checked on
 * generated traces of each program (mix, stencil, LAMMPS-shaped, under
 * both MPI libraries' habits) and on rank files of older versions (10-byte
 * statuses, older indexes). */
#include <stdlib.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "tap.h"
#include "testlib.h"

static bool same_clock(dumpi_clock a, dumpi_clock b) { return a.sec == b.sec && a.nsec == b.nsec; }

/* Walk one rank file twice: `fast` as the validator does, `slow` with its
 * view dropped before each record, so that every record takes the cursor
 * walk. Returns the records the fast walk decoded straight from memory. */
static unsigned compare_walks(const char *what, const uint8_t *d, size_t len)
{
	hv_blob b = hv_blob_from_memory("gen/rank.bin", d, len);
	hv_options opt = {.max_diags = 100};
	hv_report r;
	hv_report_init(&r, "gen/rank.bin", opt.max_diags);
	dumpi_bin_info info;
	dumpi_check_bin(&opt, &b, &r, &info);
	CHECK(info.index_ok && info.header_ok, "%s: the rank file's index and header read", what);
	hv_report_free(&r);
	dumpi_iter fast, slow;
	uint64_t body = info.off[DS_BODY] + 8, end = info.off[DS_HEADER];
	if (!dumpi_iter_init(&fast, &b, body, end, info.version)) return 0;
	if (!dumpi_iter_init(&slow, &b, body, end, info.version)) {
		dumpi_iter_free(&fast);
		return 0;
	}
	unsigned n = 0, direct = 0, bad = 0;
	for (;;) {
		dumpi_record a, c;
		bool more = dumpi_iter_next(&fast, &a);
		slow.cur.view = NULL;
		bool more_slow = dumpi_iter_next(&slow, &c);
		if (more != more_slow) {
			bad++;
			break;
		}
		if (!more) break;
		n++;
		direct += fast.args.bytes != NULL;
		bool same = a.index == c.index && a.offset == c.offset && a.fn == c.fn && a.mask == c.mask &&
			    a.thread == c.thread && same_clock(a.cpu_start, c.cpu_start) &&
			    same_clock(a.cpu_stop, c.cpu_stop) && same_clock(a.wall_start, c.wall_start) &&
			    same_clock(a.wall_stop, c.wall_stop) && a.perf_count == c.perf_count && a.length == c.length &&
			    fast.args.n == slow.args.n && fast.args.bad_row == slow.args.bad_row;
		for (unsigned i = 0; same && i < fast.args.n; i++) {
			same = fast.args.f[i].present == slow.args.f[i].present;
			if (same && fast.args.f[i].present)
				same = dumpi_arg_at(&fast.args, a.fn, i) == dumpi_arg_at(&slow.args, c.fn, i) &&
				       fast.args.f[i].v == slow.args.f[i].v;
		}
		if (!same && bad++ == 0) CHECK(false, "%s: record %u (%s) decodes alike both ways", what, n - 1,
					       dumpi_function_name(a.fn));
	}
	CHECK(bad == 0 && fast.at_end && slow.at_end && fast.cur.pos == slow.cur.pos,
	      "%s: %u records alike both ways, both at the end label", what, n);
	dumpi_iter_free(&fast);
	dumpi_iter_free(&slow);
	hv_blob_release(&b);
	return direct;
}

static void check_output(const char *what, gen_params *p)
{
	gen_output out;
	char err[256] = "";
	if (gen_generate(p, &out, err, sizeof err) != 0) {
		CHECK(false, "%s: generator failed: %s", what, err);
		return;
	}
	unsigned bins = 0, direct = 0;
	for (size_t i = 0; i < out.n; i++) {
		size_t nl = strlen(out.files[i].name);
		if (nl < 4 || strcmp(out.files[i].name + nl - 4, ".bin") != 0) continue;
		bins++;
		direct += compare_walks(what, out.files[i].data, out.files[i].len);
	}
	CHECK(bins > 0 && direct > 0, "%s: %u rank files, %u records decoded straight from memory", what, bins, direct);
	gen_output_free(&out);
}

int main(void)
{
	static const struct {
		const char *what;
		unsigned pattern, lib;
	} traces[] = {
		{"dumpi-trace", GEN_PATTERN_MIX, GEN_MPI_DEFAULT},
		{"dumpi-trace", GEN_PATTERN_MIX, GEN_MPI_MPICH},
		{"dumpi-trace", GEN_PATTERN_STENCIL3D, GEN_MPI_DEFAULT},
		{"dumpi-trace", GEN_PATTERN_LAMMPS, GEN_MPI_OPENMPI},
		{"dumpi-bin", GEN_PATTERN_MIX, GEN_MPI_DEFAULT},
		{"dumpi-bin-0.6.5", GEN_PATTERN_MIX, GEN_MPI_DEFAULT},
		{"dumpi-bin-0.3.0", GEN_PATTERN_MIX, GEN_MPI_DEFAULT},
		{"dumpi-bin-0.2.0", GEN_PATTERN_MIX, GEN_MPI_DEFAULT},
	};
	for (size_t k = 0; k < sizeof traces / sizeof *traces; k++) {
		gen_params p;
		gen_params_default(&p);
		p.what = traces[k].what;
		p.pattern = traces[k].pattern;
		p.mpi_lib = traces[k].lib;
		p.seed = 7 + k;
		if (strcmp(p.what, "dumpi-trace") == 0) p.profiles = 3, p.contexts = 2000;
		char label[96];
		snprintf(label, sizeof label, "%s pattern %u library %u", p.what, p.pattern, p.mpi_lib);
		check_output(label, &p);
	}
	TAP_DONE();
}
