/* The event model keeps a record only for a task that runs or is paused;
 * an ended task is a state in its slot, and where it was created or last
 * ended is found again in the streams when a message shows it. These
 * traces (one process, threads 11 and 12 on CPUs 0 and 1) end a task in
 * one stream and misuse it in the other, and the messages must name the
 * event the emulator's order replayed last (clock, then stream order), as
 * a record kept to the end would: for ids in the dense array and in the
 * hashed map, with the streams in memory and read through windows. */
#include <stdlib.h>

#include "core/hv_int.h"
#include "../golden/ovni/writer.h"
#include "tap.h"
#include "testlib.h"

typedef struct tev {
	const char *mcv;
	uint64_t clock;
	uint32_t a, b; /* OHx: the CPU; task events: id, then type (create) or body (nOS-V) */
} tev;

static uint32_t g_id; /* the task id the traces use */

static void put(gen_buf *b, const tev *e)
{
	uint8_t pl[24] = {0};
	size_t n = 0;
	bool jumbo = false;
	uint32_t a = e->a == 5 && e->mcv[0] != 'O' ? g_id : e->a;
	hv_put_le32(pl, a);
	hv_put_le32(pl + 4, e->b);
	if (!strcmp(e->mcv, "OHx")) n = 16;
	else if (e->mcv[2] == 'c' && (e->mcv[1] == 'Y' || e->mcv[1] == 'O')) { /* type: id and a label, as jumbo data */
		memcpy(pl + 4, "t", 2);
		n = 6;
		jumbo = true;
	} else if (e->mcv[1] == 'T' || !strncmp(e->mcv, "PP", 2))
		n = e->mcv[2] == 'c' || e->mcv[2] == 'C' || e->mcv[0] == 'V' ? 8 : 4;
	govni_put_event(b, e->mcv, e->clock, pl, n, jumbo);
}

static gen_output g_out;

static void trace2(const tev *t11, size_t n11, const tev *t12, size_t n12)
{
	const tev *evs[2] = {t11, t12};
	size_t ns[2] = {n11, n12};
	memset(&g_out, 0, sizeof g_out);
	g_out.is_set = true;
	for (int t = 0; t < 2; t++) {
		govni_meta m = {.version = 3, .tid = 11 + t, .pid = 10, .app_id = 1, .loom = "node0.x",
				.with_app_id = true, .with_cpus = true, .ncpus = 2, .require_nosv = true, .nosv_minor = 7,
				.require_more = "\"nanos6\": \"1.1.0\", \"openmp\": \"1.2.1\""};
		gen_buf jb = {0}, ob = {0};
		govni_write_meta(&m, &jb);
		gen_buf_append(&ob, "ovni\1\0\0\0", 8);
		for (size_t i = 0; i < ns[t]; i++) put(&ob, &evs[t][i]);
		char name[80];
		snprintf(name, sizeof name, "loom.node0.x/proc.10/thread.%d/stream.json", 11 + t);
		gen_add_file(&g_out, name, jb.data, jb.len);
		snprintf(name, sizeof name, "loom.node0.x/proc.10/thread.%d/stream.obs", 11 + t);
		gen_add_file(&g_out, name, ob.data ? ob.data : malloc(1), ob.len);
	}
}

/* Validate the trace (in memory, or every file through a fetch callback)
 * and check that `rule` alone fired, with `want` in its message. */
static void expect(bool windowed, const char *rule, const char *want, const char *what)
{
	static hv_blob blobs[GEN_MAX_FILES];
	static tl_memio io[GEN_MAX_FILES];
	static char names[GEN_MAX_FILES][160];
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 100};
	hv_report r;
	for (size_t i = 0; i < g_out.n; i++) {
		snprintf(names[i], sizeof names[i], "gen/%s", g_out.files[i].name);
		io[i] = (tl_memio){.d = g_out.files[i].data, .n = g_out.files[i].len};
		blobs[i] = windowed ? (hv_blob){.name = names[i], .size = io[i].n, .fetch = tl_mem_fetch, .io = &io[i]}
				    : hv_blob_from_memory(names[i], g_out.files[i].data, g_out.files[i].len);
	}
	hv_report_init(&r, "gen", opt.max_diags);
	hv_validate_set(&opt, blobs, g_out.n, &r);
	int n = 0, k = -1;
	for (int j = 0; j < HV_RULE_COUNT; j++)
		if (r.failed[j]) n++;
	for (size_t i = 0; i < r.ndiags; i++)
		if (!strcmp(hv_rules[r.diags[i].rule].id, rule)) k = (int)i;
	bool ok = n == 1 && k >= 0 && strstr(r.diags[k].msg, want);
	CHECK(ok, "%s (%s, id %u): %s with \"%s\"", what, windowed ? "windowed" : "in memory", g_id, rule, want);
	if (!ok) tl_dump(&r);
	hv_report_free(&r);
	for (size_t i = 0; i < g_out.n; i++) hv_blob_release(&blobs[i]);
}

#define N(a) (sizeof(a) / sizeof *(a))

/* Offsets: the stream header is 8 bytes, OHx 28 (so the next event is at
 * 0x24), a type (jumbo) 22, a create 20, a Nanos6 body event 16, a nOS-V
 * one 20. */
int main(void)
{
	const uint32_t ids[] = {5, 4000000000u}; /* dense, then far from any other: the map */
	for (size_t ii = 0; ii < N(ids); ii++) {
		g_id = ids[ii];
		for (int windowed = 0; windowed < 2; windowed++) {
			/* Nanos6: ended by thread 11, run again by thread 12 */
			{
				tev a[] = {{"OHx", 100, 0, 0}, {"6Yc", 110, 1, 0}, {"6Tc", 120, 5, 1}, {"6Tx", 130, 5, 0},
					   {"6Te", 140, 5, 0}, {"OHe", 300, 0, 0}};
				tev b[] = {{"OHx", 105, 1, 0}, {"6Tx", 200, 5, 0}, {"OHe", 310, 0, 0}};
				trace2(a, N(a), b, N(b));
				expect(windowed, "ovni.model.body-rerun", "it ended by 6Te at 0x5e (clock 140)",
				       "a Nanos6 task run again on another thread");
				gen_output_free(&g_out);
			}
			/* nOS-V: ended by 11, run again and ended by 12 (a later end, in the
			 * other stream), then paused by 11 */
			{
				tev a[] = {{"OHx", 100, 0, 0}, {"VYc", 110, 1, 0}, {"VTc", 120, 5, 1}, {"VTx", 130, 5, 0},
					   {"VTe", 140, 5, 0}, {"VTp", 170, 5, 0}, {"OHe", 300, 0, 0}};
				tev b[] = {{"OHx", 105, 1, 0}, {"VTx", 150, 5, 0}, {"VTe", 160, 5, 0}, {"OHe", 310, 0, 0}};
				trace2(a, N(a), b, N(b));
				expect(windowed, "ovni.model.body-state", "must be running but is dead since VTe at 0x38 (clock 160)",
				       "a nOS-V task's last end is in the other stream");
				gen_output_free(&g_out);
			}
			/* equal clocks: thread 12's run of the task at the clock of thread
			 * 11's pause comes after it (stream order): not replayed yet, so
			 * the last event on the body is thread 11's second end */
			{
				tev a[] = {{"OHx", 100, 0, 0}, {"VYc", 110, 1, 0}, {"VTc", 120, 5, 1}, {"VTx", 130, 5, 0},
					   {"VTe", 140, 5, 0}, {"VTx", 150, 5, 0}, {"VTe", 160, 5, 0}, {"VTp", 170, 5, 0},
					   {"OHe", 300, 0, 0}};
				tev b[] = {{"OHx", 105, 1, 0}, {"VTx", 170, 5, 0}, {"VTe", 180, 5, 0}, {"OHe", 310, 0, 0}};
				trace2(a, N(a), b, N(b));
				expect(windowed, "ovni.model.body-state", "must be running but is dead since VTe at 0x8a (clock 160)",
				       "an end at the same clock in a later stream is not yet replayed");
				/* the other way round: thread 12's end at clock 170 comes first, and is the last */
				tev c[] = {{"OHx", 100, 0, 0}, {"VTx", 165, 5, 0}, {"VTe", 170, 5, 0}, {"OHe", 310, 0, 0}};
				tev d[] = {{"OHx", 105, 1, 0}, {"VYc", 110, 1, 0}, {"VTc", 120, 5, 1}, {"VTx", 130, 5, 0},
					   {"VTe", 140, 5, 0}, {"VTx", 150, 5, 0}, {"VTe", 160, 5, 0}, {"VTp", 170, 5, 0},
					   {"OHe", 300, 0, 0}};
				gen_output_free(&g_out);
				trace2(c, N(c), d, N(d));
				expect(windowed, "ovni.model.body-state", "must be running but is dead since VTe at 0x38 (clock 170)",
				       "an end at the same clock in an earlier stream is replayed first");
				gen_output_free(&g_out);
			}
			/* created by 11, ended, created again by 12 */
			{
				tev a[] = {{"OHx", 100, 0, 0}, {"6Yc", 110, 1, 0}, {"6Tc", 120, 5, 1}, {"6Tx", 130, 5, 0},
					   {"6Te", 140, 5, 0}, {"OHe", 300, 0, 0}};
				tev b[] = {{"OHx", 105, 1, 0}, {"6Tc", 200, 5, 1}, {"OHe", 310, 0, 0}};
				trace2(a, N(a), b, N(b));
				expect(windowed, "ovni.model.task-duplicate", "it was created by 6Tc at 0x3a (clock 120)",
				       "a Nanos6 task created again on another thread");
				gen_output_free(&g_out);
			}
			/* OpenMP: ended by 12 after a rerun there, then ended again by 11 */
			{
				tev a[] = {{"OHx", 100, 0, 0}, {"POc", 110, 1, 0}, {"PPc", 120, 5, 1}, {"PPx", 130, 5, 0},
					   {"PPe", 140, 5, 0}, {"PPe", 200, 5, 0}, {"OHe", 300, 0, 0}};
				tev b[] = {{"OHx", 105, 1, 0}, {"PPx", 150, 5, 0}, {"PPe", 160, 5, 0}, {"OHe", 310, 0, 0}};
				trace2(a, N(a), b, N(b));
				expect(windowed, "ovni.model.body-state", "must be running but is dead since PPe at 0x34 (clock 160)",
				       "an OpenMP task ended twice");
				gen_output_free(&g_out);
			}
			/* a task created and never run has no body to pause */
			{
				tev a[] = {{"OHx", 100, 0, 0}, {"6Yc", 110, 1, 0}, {"6Tc", 120, 5, 1}, {"6Tp", 130, 5, 0},
					   {"OHe", 300, 0, 0}};
				tev b[] = {{"OHx", 105, 1, 0}, {"OHe", 310, 0, 0}};
				trace2(a, N(a), b, N(b));
				expect(windowed, "ovni.model.task-unknown", "has no body 1 (it never executed)",
				       "a Nanos6 task paused before it ran");
				gen_output_free(&g_out);
			}
		}
	}
	TAP_DONE();
}
