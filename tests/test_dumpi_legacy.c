/* DUMPI traces of writers older than 0.6.6, and MPI_Pcontrol:
 *  - rank files as 0.6.5 (56-byte index), 0.3.0 (48) and 0.2.0 (40) wrote
 *    them, every function id included, are accepted with only the legacy
 *    note, and the sections their index lacks are absent;
 *  - the index is found as libundumpi finds it, so a modern file cut by 8,
 *    16 or 24 bytes reads as an older index -- and is still rejected --
 *    while appended bytes leave no index at all;
 *  - the index layout is compared with the header version at 0.6.6 only;
 *  - headers before 0.5 carry no mesh sizes;
 *  - a record with id 128 (MPI_Pcontrol, which libdumpi never writes) is
 *    rejected with its own explanation, alone. */
#include <stdlib.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "tap.h"
#include "testlib.h"

static bool gen(gen_params *p, gen_output *out)
{
	char err[256] = "";
	int rc = gen_generate(p, out, err, sizeof err);
	CHECK(rc == 0, "%s: generator failed: %s", p->what, err);
	return rc == 0 && out->n == 1;
}

static void check_bin(const uint8_t *d, size_t len, hv_report *r, dumpi_bin_info *info)
{
	hv_blob b = hv_blob_from_memory("gen/rank-0000.bin", d, len);
	hv_options opt = {.max_diags = 100};
	hv_report_init(r, "gen/rank-0000.bin", opt.max_diags);
	dumpi_check_bin(&opt, &b, r, info);
	hv_blob_release(&b);
}

/* A default rank file of kind `what`, validated once for its layout. */
static bool load(const char *what, gen_output *out, dumpi_bin_info *info, int *rules_fired);

static int fired(const hv_report *r)
{
	int n = 0;
	for (int j = 0; j < HV_RULE_COUNT; j++) n += r->failed[j] > 0;
	return n;
}

static const struct {
	const char *what;
	unsigned index_size;
	uint8_t version[3];
} legacy[] = {
	{"dumpi-bin-0.6.5", 56, {0, 6, 5}},
	{"dumpi-bin-0.3.0", 48, {0, 3, 0}},
	{"dumpi-bin-0.2.0", 40, {0, 2, 0}},
};

static void check_legacy_kinds(void)
{
	for (size_t k = 0; k < sizeof legacy / sizeof *legacy; k++)
		for (unsigned seed = 1; seed <= 4; seed++) {
			gen_params p;
			gen_params_default(&p);
			p.what = legacy[k].what;
			p.seed = seed;
			p.functions = seed == 4; /* every function id, version-dependent layouts included */
			gen_output out;
			if (!gen(&p, &out)) continue;
			hv_report r;
			dumpi_bin_info info;
			check_bin(out.files[0].data, out.files[0].len, &r, &info);
			/* every function id: the neutral peers are Open MPI's MPI_PROC_NULL
			 * (-2), which the library note says */
			int want = p.functions ? 2 : 1;
			CHECK(r.failed[HV_R_DUMPI_INDEX_LEGACY_LAYOUT] == 1 && fired(&r) == want &&
				      (r.failed[HV_R_DUMPI_TRACE_MPI_LIBRARY] > 0) == p.functions &&
				      hv_report_exit_code(&r, true) == 0,
			      "%s seed %u: only the legacy note%s (%d rules fired)", p.what, seed,
			      p.functions ? " and the library's" : "", fired(&r));
			if (fired(&r) != want) tl_dump(&r);
			CHECK(info.index_ok && info.index_size == legacy[k].index_size, "%s: index of %u bytes, want %u", p.what,
			      info.index_size, legacy[k].index_size);
			CHECK(info.header_ok && memcmp(info.version, legacy[k].version, 3) == 0, "%s: header version", p.what);
			CHECK(info.off[DS_SIZELBL] == 0, "%s: no datatype sizes before 0.6.6", p.what);
			CHECK((info.off[DS_ADDRLBL] != 0) == (legacy[k].index_size >= 56), "%s: addrlbl from 0.4 only", p.what);
			CHECK((info.off[DS_PERFLBL] != 0) == (legacy[k].index_size >= 48), "%s: perflbl from 0.3 only", p.what);
			/* The walk reached the end label just before the header, decoding
			 * every record with this version's layouts. */
			CHECK(r.evaluated[HV_R_DUMPI_FOOTER_RECORDS_MATCH] > 0 && r.failed[HV_R_DUMPI_FOOTER_RECORDS_MATCH] == 0,
			      "%s: records counted against the footer", p.what);
			hv_report_free(&r);
			gen_output_free(&out);
		}
	gen_params p;
	gen_params_default(&p);
	p.what = "dumpi-bin-0.6.5";
	p.minor = 1;
	gen_output out;
	char err[256];
	CHECK(gen_generate(&p, &out, err, sizeof err) != 0, "a legacy kind refuses --minor");
}

static bool load(const char *what, gen_output *out, dumpi_bin_info *info, int *rules_fired)
{
	gen_params p;
	gen_params_default(&p);
	p.what = what;
	if (!gen(&p, out)) return false;
	hv_report r;
	check_bin(out->files[0].data, out->files[0].len, &r, info);
	if (rules_fired) *rules_fired = fired(&r);
	hv_report_free(&r);
	return true;
}

/* The reader's search for the index: a modern file cut short by 8k bytes
 * puts the magic at EOF-64+8k, where an older index would start. */
static void check_index_search(void)
{
	gen_output out;
	dumpi_bin_info info;
	int nfired;
	if (!load("dumpi-bin", &out, &info, &nfired)) return;
	uint8_t *d = out.files[0].data;
	size_t len = out.files[0].len;
	hv_report r;
	CHECK(nfired == 0 && info.index_size == 64, "the modern file: 64-byte index, nothing fires");
	for (unsigned cut = 8; cut <= 24; cut += 8) {
		check_bin(d, len - cut, &r, &info);
		CHECK(info.index_size == 64 - cut, "cut by %u: read as a %u-byte index (got %u)", cut, 64 - cut, info.index_size);
		CHECK(hv_report_exit_code(&r, false) == 1, "cut by %u: rejected", cut);
		CHECK(r.failed[HV_R_DUMPI_INDEX_LEGACY_LAYOUT] == 1, "cut by %u: the legacy note explains the reading", cut);
		hv_report_free(&r);
	}
	uint8_t *longer = malloc(len + 64);
	memcpy(longer, d, len);
	for (unsigned extra = 1; extra <= 64; extra++) {
		memset(longer + len, 0, extra);
		check_bin(longer, len + extra, &r, &info);
		CHECK(r.failed[HV_R_DUMPI_INDEX_MAGIC] == 1 && fired(&r) == 1 && !info.index_ok,
		      "%u appended bytes: no index anywhere (%d rules)", extra, fired(&r));
		hv_report_free(&r);
	}
	free(longer);
	gen_output_free(&out);
}

/* Only the 0.6.6 boundary is compared with the index layout. */
static void check_layout_version(void)
{
	static const struct {
		const char *what;
		uint8_t version[3];
		bool warn;
	} cases[] = {
		{"dumpi-bin-0.6.5", {0, 6, 6}, true},   /* a 56-byte index claims 0.6.6 */
		{"dumpi-bin-0.6.5", {0, 4, 0}, false},  /* 0.4 wrote the 56-byte index */
		{"dumpi-bin-0.3.0", {0, 5, 9}, false},  /* before 0.6.6: not compared */
		{"dumpi-bin", {0, 6, 6}, false},        /* 0.6.6 wrote the 64-byte index */
		{"dumpi-bin", {0, 6, 5}, true},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		gen_output out;
		dumpi_bin_info info;
		if (!load(cases[i].what, &out, &info, NULL)) continue;
		uint8_t *d = out.files[0].data;
		memcpy(d + info.off[DS_HEADER], cases[i].version, 3);
		hv_report r;
		check_bin(d, out.files[0].len, &r, &info);
		CHECK((r.failed[HV_R_DUMPI_INDEX_LAYOUT_VERSION] > 0) == cases[i].warn,
		      "%s as %u.%u.%u: layout-version %s", cases[i].what, cases[i].version[0], cases[i].version[1],
		      cases[i].version[2], cases[i].warn ? "missing" : "fired");
		hv_report_free(&r);
		gen_output_free(&out);
	}
}

/* Mesh sizes came with 0.5: a 0.3 header ends with meshdim and the
 * coordinates (none here), and its size array is neither read nor counted. */
static void check_old_mesh(void)
{
	const char *kinds[] = {"dumpi-bin-0.3.0", "dumpi-bin-0.6.5"};
	for (int k = 0; k < 2; k++) {
		gen_output out;
		hv_report r;
		dumpi_bin_info info;
		if (!load(kinds[k], &out, &info, NULL)) continue;
		check_bin(out.files[0].data, out.files[0].len, &r, &info);
		uint64_t meshdim_at = info.off[DS_HEADER] + 3 + 8 + 2 + 6 + 2 + 6; /* version, starttime, "node01", "hpcvet" */
		uint64_t header_end = meshdim_at + 4 + (k ? 4 : 0);
		CHECK(hv_be32(out.files[0].data + meshdim_at) == 0 && header_end == info.off[DS_FOOTER],
		      "%s: the header ends after meshdim%s", kinds[k], k ? " and the size count" : "");
		CHECK((r.evaluated[HV_R_DUMPI_HDR_MESH_COUNT] > 0) == (k == 1), "%s: mesh sizes counted only from 0.5",
		      kinds[k]);
		hv_report_free(&r);
		gen_output_free(&out);
	}
}

static void check_pcontrol(void)
{
	gen_output out;
	dumpi_bin_info info;
	if (!load("dumpi-bin", &out, &info, NULL)) return;
	uint8_t *d = out.files[0].data;
	size_t len = out.files[0].len;
	hv_report r;
	/* The last record is MPI_Finalize (no arguments); make it id 128. */
	hv_blob b = hv_blob_from_memory("t.bin", d, len);
	dumpi_iter it;
	dumpi_record rec, last = {0};
	CHECK(dumpi_iter_init(&it, &b, info.off[DS_BODY] + 8, info.off[DS_HEADER], info.version), "iterator");
	while (dumpi_iter_next(&it, &rec)) last = rec;
	dumpi_iter_free(&it);
	CHECK(last.fn == 125, "the last record is MPI_Finalize (%u)", last.fn);
	hv_put_be16(d + last.offset, DUMPI_PCONTROL);
	check_bin(d, len, &r, &info);
	CHECK(r.failed[HV_R_DUMPI_REC_FUNCTION_KNOWN] == 1 && fired(&r) == 1, "a record with id 128: function-known alone (%d)",
	      fired(&r));
	CHECK(r.ndiags == 1 && strstr(r.diags[0].msg, "MPI_Pcontrol") && strstr(r.diags[0].msg, "291/292"),
	      "the message explains MPI_Pcontrol");
	hv_report_free(&r);
	CHECK(strcmp(dumpi_function_name(DUMPI_PCONTROL), "MPI_Pcontrol") == 0, "id 128 is named");
	CHECK(dumpi_layout_of(DUMPI_PCONTROL) && !dumpi_layout_of(DUMPI_PCONTROL)->decodable, "id 128 has no layout");
	gen_output_free(&out);
}

int main(void)
{
	check_legacy_kinds();
	check_index_search();
	check_layout_version();
	check_old_mesh();
	check_pcontrol();
	TAP_DONE();
}
