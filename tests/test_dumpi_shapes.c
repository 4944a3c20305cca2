/* Every record hpcvet-gen writes into a DUMPI trace has an argument shape
 * libdumpi writes, so sst-dumpi's readers (libundumpi, dumpi2ascii) can read
 * every generated trace: MPI_Group_range_incl/excl hold `count` rows of 3
 * ints, and MPI_Comm_spawn_multiple at the root holds commands, argvs,
 * maxprocs and info of `count` entries, errcodes of totprocs entries, and
 * totprocs = the sum of maxprocs (0 off the root). The shapes are read here
 * from the raw bytes at each field's offset, apart from the validator's own
 * shape check (validator/dumpi/format/shapes.c); each shape --break must
 * then be found by this reader too, so the check can fail. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "tap.h"
#include "testlib.h"

extern const gen_family gen_family_dumpi;

typedef struct span { const uint8_t *p; size_t len; } span;

/* u32 at `at`, big-endian; false past the end. */
static bool u32(span s, uint64_t at, uint32_t *v)
{
	if (at > s.len || s.len - at < 4) return false;
	*v = hv_be32(s.p + at);
	return true;
}

static int field(const dumpi_layout *L, const char *name)
{
	for (unsigned i = 0; i < L->nfields; i++)
		if (L->fields[i].name_len == strlen(name) && memcmp(L->fields[i].name, name, L->fields[i].name_len) == 0)
			return (int)i;
	return -1;
}

typedef struct tally { unsigned ranges, spawn_roots, spawn_leaves, bad; } tally;

static void bad(tally *t, const char *what, const char *file, uint64_t rec_at)
{
	t->bad++;
	if (t->bad <= 5) printf("# %s: record at 0x%llx: %s\n", file, (unsigned long long)rec_at, what);
}

/* (first, last, stride) rows: `count` of them, 3 ints each. */
static void check_ranges(tally *t, span s, const char *file, const dumpi_record *rec, const dumpi_args *a)
{
	const dumpi_layout *L = dumpi_layout_of(rec->fn);
	int ic = field(L, "count"), ir = field(L, "ranges");
	uint32_t count, rows, len;
	if (ic < 0 || ir < 0 || !u32(s, dumpi_arg_at(a, rec->fn, (unsigned)ic), &count) ||
	    !u32(s, dumpi_arg_at(a, rec->fn, (unsigned)ir), &rows)) {
		bad(t, "range fields unreadable", file, rec->offset);
		return;
	}
	t->ranges++;
	if (rows != count) bad(t, "range rows != count", file, rec->offset);
	uint64_t at = dumpi_arg_at(a, rec->fn, (unsigned)ir) + 4;
	for (uint32_t j = 0; j < rows; j++) {
		if (!u32(s, at, &len)) {
			bad(t, "range row unreadable", file, rec->offset);
			return;
		}
		if (len != 3) bad(t, "range row not 3 ints", file, rec->offset);
		at += 4 + 4ull * len;
	}
}

static void check_spawn(tally *t, span s, const char *file, const dumpi_record *rec, const dumpi_args *a)
{
	const dumpi_layout *L = dumpi_layout_of(rec->fn);
	int itot = field(L, "totprocs"), ic = field(L, "count"), im = field(L, "maxprocs"), ie = field(L, "errcodes");
	uint32_t totprocs, count, n;
	if (!u32(s, dumpi_arg_at(a, rec->fn, (unsigned)itot), &totprocs)) {
		bad(t, "totprocs unreadable", file, rec->offset);
		return;
	}
	if (!a->f[ic].present) { /* off the root: libdumpi sums maxprocs only at the root */
		t->spawn_leaves++;
		if (totprocs != 0) bad(t, "totprocs != 0 off the root", file, rec->offset);
		return;
	}
	t->spawn_roots++;
	if (!u32(s, dumpi_arg_at(a, rec->fn, (unsigned)ic), &count)) {
		bad(t, "count unreadable", file, rec->offset);
		return;
	}
	static const char *const arrays[] = {"commands", "argvs", "maxprocs", "info"};
	for (size_t k = 0; k < 4; k++) {
		int i = field(L, arrays[k]);
		if (!u32(s, dumpi_arg_at(a, rec->fn, (unsigned)i), &n) || n != count) bad(t, arrays[k], file, rec->offset);
	}
	uint64_t sum = 0;
	for (uint32_t j = 0; j < count && u32(s, dumpi_arg_at(a, rec->fn, (unsigned)im), &n) && j < n; j++) {
		uint32_t v;
		if (u32(s, dumpi_arg_at(a, rec->fn, (unsigned)im) + 4 + 4ull * j, &v)) sum += v;
	}
	if (sum != totprocs) bad(t, "totprocs != sum of maxprocs", file, rec->offset);
	if (!u32(s, dumpi_arg_at(a, rec->fn, (unsigned)ie), &n) || n != totprocs) bad(t, "errcodes != totprocs", file, rec->offset);
}

/* Walk every record of every .bin of `out`. */
static void walk(gen_output *out, tally *t)
{
	for (size_t f = 0; f < out->n; f++) {
		size_t nl = strlen(out->files[f].name);
		if (nl < 4 || strcmp(out->files[f].name + nl - 4, ".bin") != 0) continue;
		span s = {out->files[f].data, out->files[f].len};
		hv_blob b = hv_blob_from_memory(out->files[f].name, s.p, s.len);
		hv_options opt = {.max_diags = 10};
		hv_report r;
		hv_report_init(&r, "shapes", 10);
		dumpi_bin_info info;
		dumpi_check_bin(&opt, &b, &r, &info);
		hv_report_free(&r);
		CHECK(info.index_ok && info.header_ok, "%s: index and header read", out->files[f].name);
		dumpi_iter it;
		dumpi_record rec;
		dumpi_iter_init(&it, &b, info.off[DS_BODY] + 8, info.off[DS_HEADER], info.version);
		while (dumpi_iter_next(&it, &rec)) {
			if (rec.fn == 78 || rec.fn == 79) check_ranges(t, s, out->files[f].name, &rec, &it.args);
			if (rec.fn == 136) check_spawn(t, s, out->files[f].name, &rec, &it.args);
		}
		CHECK(it.at_end, "%s: every record decoded up to the end label", out->files[f].name);
		dumpi_iter_free(&it);
	}
}

static void every_kind(void)
{
	tally all = {0};
	unsigned traces = 0;
	for (const char *const *w = gen_family_dumpi.whats; *w; w++)
		for (unsigned fns = 0; fns <= 1; fns++)
			for (unsigned minor = 0; minor <= 1; minor++)
				for (uint64_t seed = 1; seed <= 4; seed++) {
					if (minor && strncmp(*w, "dumpi-bin-", 10) == 0) continue; /* one old version each */
					gen_params p;
					gen_params_default(&p);
					p.what = *w;
					p.functions = fns; /* 1: every function id, neutral arguments */
					p.minor = minor;
					p.seed = seed;
					gen_output out;
					char err[256] = "";
					int rc = gen_generate(&p, &out, err, sizeof err);
					CHECK(rc == 0, "generate %s: %s", *w, err);
					if (rc != 0) continue;
					tally t = {0};
					walk(&out, &t);
					CHECK(t.bad == 0, "%s (functions %u, minor %u, seed %llu): %u record(s) of a shape libdumpi "
					      "does not write", *w, fns, minor, (unsigned long long)seed, t.bad);
					all.ranges += t.ranges, all.spawn_roots += t.spawn_roots, all.spawn_leaves += t.spawn_leaves;
					traces++;
					gen_output_free(&out);
				}
	/* the walk met the shapes it checks, at and off the root */
	CHECK(traces >= 40, "%u traces generated", traces);
	CHECK(all.ranges > 0 && all.spawn_roots > 0 && all.spawn_leaves > 0,
	      "checked %u range records, %u spawn_multiple at the root, %u off it", all.ranges, all.spawn_roots,
	      all.spawn_leaves);
}

/* Each shape break writes exactly one record this reader rejects (or, for
 * MPI_ARGVS_NULL, the argvs array of 0 entries libdumpi writes), and the
 * validator reports exactly that rule. */
static void breaks(void)
{
	static const struct { const char *rule; int sev; } cases[] = {
		{"dumpi.rec.range-triplet", HV_SEV_ERROR},
		{"dumpi.rec.spawn-array-length", HV_SEV_ERROR},
		{"dumpi.rec.reader-hazard-argvs-null", HV_SEV_NOTE},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		gen_params p;
		gen_params_default(&p);
		p.what = "dumpi-bin";
		p.break_rule = cases[k].rule;
		gen_output out;
		char err[256] = "";
		int rc = gen_generate(&p, &out, err, sizeof err);
		CHECK(rc == 0, "generate --break=%s: %s", cases[k].rule, err);
		if (rc != 0) continue;
		tally t = {0};
		walk(&out, &t);
		CHECK(t.bad == 1, "--break=%s: %u record(s) of a shape libdumpi does not write, want 1", cases[k].rule,
		      t.bad);
		hv_options opt = {.max_diags = 20};
		hv_report r;
		tl_validate(&out, &opt, &r);
		int rule = hv_rule_find(cases[k].rule);
		CHECK(rule >= 0 && r.failed[rule] == 1, "--break=%s: the rule fires once", cases[k].rule);
		CHECK(r.count[cases[k].sev] == 1 && r.count[HV_SEV_ERROR] + r.count[HV_SEV_WARNING] + r.count[HV_SEV_NOTE] == 1,
		      "--break=%s: nothing else is reported", cases[k].rule);
		hv_report_free(&r);
		gen_output_free(&out);
	}
}

int main(void)
{
	every_kind();
	breaks();
	TAP_DONE();
}
