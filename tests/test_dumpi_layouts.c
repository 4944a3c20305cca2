/* The DUMPI argument-layout table and its interpreter: every record id has a
 * well-formed layout, version-dependent layouts decode as the reader does,
 * a trace holding every function id validates, the windowed (big-file) path
 * gives the same verdict as the in-memory one, and damaged files never crash. */
#include <stdlib.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "tap.h"
#include "testlib.h"

static void check_table(void)
{
	unsigned known = 0;
	for (unsigned id = 0; id < DUMPI_NFUNCS + 5; id++) {
		const dumpi_layout *L = dumpi_layout_of(id);
		bool want = id < DUMPI_NFUNCS && id != DUMPI_ALL_FUNCTIONS;
		CHECK((L != NULL) == want, "id %u: layout %s", id, L ? "present" : "absent");
		if (!L) continue;
		CHECK(L->decodable == (id != 128), "id %u (%s): decodable %d", id, L->name, L->decodable);
		known += L->decodable;
		for (unsigned k = 0; k < L->nfields; k++) {
			const dumpi_field *f = &L->fields[k];
			CHECK(strchr("bhiqrtIHBCDEJSxyAa", f->kind) != NULL && f->name_len > 0, "id %u field %u kind %c", id,
			      k, f->kind);
		}
		for (unsigned other = 0; other < id; other++) {
			const dumpi_layout *O = dumpi_layout_of(other);
			if (O && strcmp(O->name, L->name) == 0) CHECK(false, "ids %u and %u share the name %s", other, id, L->name);
		}
	}
	CHECK(known == 291, "%u decodable record ids, want 291 (0-289 without Pcontrol, 291, 292)", known);
	CHECK(strcmp(dumpi_function_name(0), "MPI_Send") == 0, "id 0 is MPI_Send");
	CHECK(strcmp(dumpi_function_name(124), "MPI_Init") == 0, "id 124 is MPI_Init");
	CHECK(strcmp(dumpi_function_name(146), "MPI_Win_fence") == 0, "id 146 is MPI_Win_fence");
	CHECK(strcmp(dumpi_function_name(282), "MPIO_Test") == 0, "id 282 is MPIO_Test");
	CHECK(strcmp(dumpi_function_name(291), "Function_enter") == 0, "id 291 is Function_enter");
}

/* Decode `len` bytes of arguments of `fn`; returns the bytes consumed, or -1. */
static long decode(unsigned fn, uint8_t mask, const uint8_t ver[3], const uint8_t *bytes, size_t len)
{
	hv_blob b = hv_blob_from_memory("args", bytes, len);
	hv_window w;
	hv_window_init(&w, &b, 4096);
	dumpi_cur c = {.w = &w, .pos = 0, .limit = len};
	dumpi_argfail why;
	bool ok = dumpi_decode_args(dumpi_layout_of(fn), mask, ver, &c, &why);
	hv_window_free(&w);
	return ok ? (long)c.pos : -1;
}

static void check_versions(void)
{
	const uint8_t v069[3] = {0, 6, 9}, v068[3] = {0, 6, 8}, v062[3] = {0, 6, 2}, v061[3] = {0, 6, 1},
		      v100[3] = {1, 0, 0};
	/* MPI_Type_struct: count, lengths[2], indices, oldtypes[2], newtype */
	uint8_t ts_new[] = {0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 4,
			    0, 0, 0, 2, 0, 9, 0, 9, 0, 30};
	CHECK(decode(40, 0x4f, v069, ts_new, sizeof ts_new) == (long)sizeof ts_new, "Type_struct 0.6.9: indices array");
	uint8_t ts_old[] = {0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0,
			    0, 0, 0, 2, 0, 9, 0, 9, 0, 30};
	CHECK(decode(40, 0x4f, v068, ts_old, sizeof ts_old) == (long)sizeof ts_old, "Type_struct 0.6.8: one index");
	/* MPI_Cart_get: ndim, comm, maxdims, dims[1], periods[1], coords */
	uint8_t cg_new[] = {0, 0, 0, 1, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0,
			    0, 0, 0, 1, 0, 0, 0, 3};
	CHECK(decode(105, 0x4f, v068, cg_new, sizeof cg_new) == (long)sizeof cg_new, "Cart_get 0.6.8: coords array");
	CHECK(decode(105, 0x4f, v062, cg_new, sizeof cg_new) == (long)sizeof cg_new - 4, "Cart_get 0.6.2: one coord");
	/* MPI_Wait: request, one status of 14 bytes (10 before 0.6.3) */
	uint8_t wait[] = {0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 9};
	CHECK(decode(13, 0x4f, v100, wait, sizeof wait) == 22, "Wait: status with tag");
	CHECK(decode(13, 0x4f, v062, wait, sizeof wait) == 18, "Wait 0.6.2: status without tag");
	CHECK(decode(13, 0x4c, v100, wait, sizeof wait) == 4, "Wait without status bits: no status block");
	/* MPI_Init: argc, [argc again before 0.6.2], argv */
	uint8_t init_new[] = {0, 0, 0, 1, 0, 0, 0, 5, '.', '/', 'm', 'p', 'i'};
	CHECK(decode(124, 0x4f, v100, init_new, sizeof init_new) == (long)sizeof init_new, "Init argv");
	uint8_t init_old[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 5, '.', '/', 'm', 'p', 'i'};
	CHECK(decode(124, 0x4f, v061, init_old, sizeof init_old) == (long)sizeof init_old, "Init 0.6.1: argc twice");
	uint8_t init_neg[] = {0xff, 0xff, 0xff, 0xff};
	CHECK(decode(124, 0x4f, v100, init_neg, sizeof init_neg) == 4, "Init: negative argc reads no strings");
	/* MPI_Gather: root-only recvcount and recvtype */
	uint8_t g_root[] = {0, 0, 0, 1, 0, 0, 0, 8, 0, 9, 0, 0, 0, 1, 0, 2, 0, 0, 0, 32, 0, 9};
	CHECK(decode(54, 0x4f, v100, g_root, sizeof g_root) == 22, "Gather at the root: recv arguments");
	uint8_t g_leaf[] = {0, 0, 0, 1, 0, 0, 0, 8, 0, 9, 0, 0, 0, 0, 0, 2};
	CHECK(decode(54, 0x4f, v100, g_leaf, sizeof g_leaf) == 16, "Gather off the root: no recv arguments");
	/* A count larger than the bytes left fails instead of reading on. */
	uint8_t big[] = {0, 0, 0, 3, 0x7f, 0xff, 0xff, 0xff, 0, 0};
	CHECK(decode(18, 0x4f, v100, big, sizeof big) == -1, "Waitall with a huge request count fails");
}

static void check_all_functions(void)
{
	for (unsigned minor = 0; minor <= 1; minor++)
		for (uint64_t seed = 1; seed <= 2; seed++) {
			gen_params p;
			gen_params_default(&p);
			p.what = "dumpi-bin";
			p.functions = 1; /* every function id */
			p.minor = minor;
			p.seed = seed;
			gen_output out;
			char err[256] = "";
			CHECK(gen_generate(&p, &out, err, sizeof err) == 0, "generate: %s", err);
			hv_options opt = {.max_diags = 100};
			hv_report r;
			tl_validate(&out, &opt, &r);
			CHECK(hv_report_exit_code(&r, false) == 0 && r.count[HV_SEV_ERROR] == 0,
			      "every-function trace (minor %u seed %llu) conforms", minor, (unsigned long long)seed);
			CHECK(r.evaluated[HV_R_DUMPI_FOOTER_RECORDS_MATCH] == DUMPI_ALL_FUNCTIONS,
			      "records of all 290 MPI functions compared with the footer");
			if (r.count[HV_SEV_ERROR]) tl_dump(&r);
			/* every decodable id occurs */
			hv_blob b = hv_blob_from_memory("all", out.files[0].data, out.files[0].len);
			dumpi_bin_info info;
			hv_report r2;
			hv_report_init(&r2, "all", 10);
			dumpi_check_bin(&opt, &b, &r2, &info);
			hv_report_free(&r2);
			dumpi_iter it;
			unsigned seen[DUMPI_NFUNCS] = {0};
			dumpi_record rec;
			dumpi_iter_init(&it, &b, info.off[DS_BODY] + 8, info.off[DS_HEADER], info.version);
			while (dumpi_iter_next(&it, &rec)) seen[rec.fn]++;
			dumpi_iter_free(&it);
			unsigned missing = 0;
			for (unsigned id = 0; id < DUMPI_NFUNCS; id++)
				if (dumpi_layout_of(id) && dumpi_layout_of(id)->decodable && !seen[id]) missing++;
			CHECK(missing == 0, "%u function ids never written", missing);
			hv_report_free(&r);
			gen_output_free(&out);
		}
}


/* A trace larger than the window, read through fetch (as the CLI does for
 * files over 16 MiB), gives exactly the in-memory result. */
static void check_windowed(void)
{
	const char *breaks[] = {NULL, "dumpi.time.thread-order", "dumpi.rec.contained", "dumpi.footer.records-match"};
	for (size_t k = 0; k < 4; k++) {
		gen_params p;
		gen_params_default(&p);
		p.what = "dumpi-bin";
		p.contexts = 40000;
		p.depth = 3;
		p.break_rule = breaks[k];
		gen_output out;
		char err[256] = "";
		CHECK(gen_generate(&p, &out, err, sizeof err) == 0, "generate: %s", err);
		CHECK(out.files[0].len > 4 * HV_WINDOW_DEFAULT, "trace of %zu bytes spans many windows", out.files[0].len);
		hv_options opt = {.max_diags = 100};
		hv_report a, w;
		hv_blob mb = hv_blob_from_memory("t.bin", out.files[0].data, out.files[0].len);
		hv_report_init(&a, "t.bin", 100);
		hv_validate_blob(&opt, &mb, &a);
		tl_memio io = {.d = out.files[0].data, .n = out.files[0].len};
		hv_blob wb = {.name = "t.bin", .size = out.files[0].len, .fetch = tl_mem_fetch, .io = &io};
		hv_report_init(&w, "t.bin", 100);
		hv_validate_blob(&opt, &wb, &w);
		CHECK(memcmp(a.failed, w.failed, sizeof a.failed) == 0 && memcmp(a.evaluated, w.evaluated, sizeof a.evaluated) == 0,
		      "windowed and in-memory validation agree (%s)", breaks[k] ? breaks[k] : "valid");
		CHECK((hv_report_exit_code(&w, false) == 0) == (breaks[k] == NULL), "verdict (%s)",
		      breaks[k] ? breaks[k] : "valid");
		hv_report_free(&a);
		hv_report_free(&w);
		gen_output_free(&out);
	}
}

/* Random damage: never a crash, never an internal error. */
static void check_damage(void)
{
	gen_params p;
	gen_params_default(&p);
	p.what = "dumpi-bin";
	p.contexts = 60;
	p.seed = 2;
	gen_output out;
	char err[256] = "";
	CHECK(gen_generate(&p, &out, err, sizeof err) == 0, "generate: %s", err);
	size_t n = out.files[0].len;
	uint8_t *copy = malloc(n);
	gen_rng g = {42};
	unsigned internal = 0;
	for (int round = 0; round < 1500; round++) {
		memcpy(copy, out.files[0].data, n);
		size_t len = n;
		int edits = 1 + (int)gen_below(&g, 4);
		for (int e = 0; e < edits; e++) copy[gen_below(&g, n)] = (uint8_t)gen_rand(&g);
		if (round % 5 == 0) len = (size_t)gen_below(&g, n + 1);
		hv_blob b = hv_blob_from_memory("damaged.bin", copy, len);
		hv_report r;
		hv_report_init(&r, "damaged.bin", 20);
		hv_validate_blob(&(hv_options){.max_diags = 20}, &b, &r);
		internal += r.internal_error;
		hv_report_free(&r);
	}
	CHECK(internal == 0, "%u damaged inputs caused an internal error", internal);
	free(copy);
	gen_output_free(&out);

	/* Damaged .meta files within a whole trace. */
	p.what = "dumpi-trace";
	p.contexts = 10;
	CHECK(gen_generate(&p, &out, err, sizeof err) == 0, "generate: %s", err);
	gen_file *meta = &out.files[out.n - 1];
	CHECK(strstr(meta->name, ".meta") != NULL, "the trace has a .meta");
	uint8_t *orig = malloc(meta->len);
	memcpy(orig, meta->data, meta->len);
	size_t full = meta->len;
	internal = 0;
	unsigned rejected = 0;
	for (int round = 0; round < 500; round++) {
		memcpy(meta->data, orig, full);
		meta->len = round % 3 == 0 ? (size_t)gen_below(&g, full + 1) : full;
		for (int e = 0; e < 3; e++)
			meta->data[gen_below(&g, full)] = round % 2 ? (uint8_t)gen_rand(&g) : (uint8_t)"=\n0a"[gen_below(&g, 4)];
		hv_options opt = {.max_diags = 20};
		hv_report r;
		tl_validate(&out, &opt, &r);
		internal += r.internal_error;
		rejected += hv_report_exit_code(&r, false) != 0;
		hv_report_free(&r);
	}
	CHECK(internal == 0, "%u damaged .meta files caused an internal error", internal);
	CHECK(rejected > 150, "many damaged .meta files are rejected (%u of 500)", rejected);
	meta->len = full;
	free(orig);
	gen_output_free(&out);
}

/* A long run (--trace-len) wraps the u16 seconds: warnings, never errors. */
static void check_long_trace(void)
{
	gen_params p;
	gen_params_default(&p);
	p.what = "dumpi-bin";
	p.contexts = 100;
	p.depth = 1;
	p.trace_len = 200000; /* 2000 s per record: crosses 65536 s three times */
	gen_output out;
	char err[256] = "";
	CHECK(gen_generate(&p, &out, err, sizeof err) == 0, "generate: %s", err);
	hv_options opt = {.max_diags = 100};
	hv_report r;
	tl_validate(&out, &opt, &r);
	CHECK(r.failed[HV_R_DUMPI_TIME_WRAP] == 3, "%llu wraps reported, want 3",
	      (unsigned long long)r.failed[HV_R_DUMPI_TIME_WRAP]);
	CHECK(r.count[HV_SEV_ERROR] == 0 && r.count[HV_SEV_WARNING] == 3, "only the wrap warnings (%llu errors, %llu warnings)",
	      (unsigned long long)r.count[HV_SEV_ERROR], (unsigned long long)r.count[HV_SEV_WARNING]);
	if (r.count[HV_SEV_ERROR]) tl_dump(&r);
	hv_report_free(&r);
	gen_output_free(&out);
	p.trace_len = 100ull * 40000;
	CHECK(gen_generate(&p, &out, err, sizeof err) != 0, "steps of 40000 s are refused by the generator");
}

int main(void)
{
	check_long_trace();
	check_table();
	check_versions();
	check_all_functions();
	check_windowed();
	check_damage();
	TAP_DONE();
}
