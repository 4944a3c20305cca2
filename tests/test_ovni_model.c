/* The ovni event model replays the streams of a loom merged in clock order,
 * not one stream after the other: two threads that share a CPU conflict
 * only when their running times overlap, and OAr finds the other thread in
 * the state it has at that clock (and refuses to move it to the CPU it is
 * on). Traces of two thread streams are written here event by event. */
#include <stdlib.h>

#include "core/hv_int.h"
#include "../golden/ovni/writer.h"
#include "tap.h"
#include "testlib.h"

typedef struct ev {
	const char *mcv;
	uint64_t clock;
	int32_t a, b; /* payload words for OHx (cpu), OAs (cpu), OAr (cpu, tid) and OCn (count, maxcpu) */
} ev;

static void put(gen_buf *b, const ev *e)
{
	uint8_t h[28] = {0};
	size_t plen = 0;
	if (!strcmp(e->mcv, "OHx")) plen = 16;
	if (!strcmp(e->mcv, "OAs")) plen = 4;
	if (!strcmp(e->mcv, "OAr")) plen = 8;
	if (!strcmp(e->mcv, "OCn")) plen = 8; /* as nOS-V 4.1 writes it; the 1.14 table says OCn(i32 cpu) */
	h[0] = (uint8_t)(plen ? plen - 1 : 0);
	memcpy(h + 1, e->mcv, 3);
	hv_put_le64(h + 4, e->clock);
	hv_put_le32(h + 12, (uint32_t)e->a);
	hv_put_le32(h + 16, (uint32_t)e->b);
	gen_buf_append(b, h, 12 + plen);
}

static void add_buf(gen_output *out, const char *name, gen_buf *b)
{
	uint8_t *d = b->data ? b->data : malloc(1);
	gen_add_file(out, name, d, b->len);
	memset(b, 0, sizeof *b);
}

/* More ovni.require entries for the next traces, or NULL. */
static const char *g_require;

/* One loom, one process, threads 11, 12, ... on a loom of 2 CPUs. */
static void trace_n(gen_output *out, const ev *const *evs, const size_t *ns, int nth)
{
	memset(out, 0, sizeof *out);
	out->is_set = true;
	for (int t = 0; t < nth; t++) {
		govni_meta m = {.version = 3, .tid = 11 + t, .pid = 10, .app_id = 1, .loom = "node0.x",
				.with_app_id = true, .with_cpus = true, .ncpus = 2, .require_more = g_require};
		gen_buf jb = {0}, ob = {0};
		govni_write_meta(&m, &jb);
		gen_buf_append(&ob, "ovni\1\0\0\0", 8);
		for (size_t i = 0; i < ns[t]; i++) put(&ob, &evs[t][i]);
		char name[80];
		snprintf(name, sizeof name, "loom.node0.x/proc.10/thread.%d/stream.json", 11 + t);
		add_buf(out, name, &jb);
		snprintf(name, sizeof name, "loom.node0.x/proc.10/thread.%d/stream.obs", 11 + t);
		add_buf(out, name, &ob);
	}
}

static void trace(gen_output *out, const ev *t11, size_t n11, const ev *t12, size_t n12)
{
	const ev *evs[2] = {t11, t12};
	size_t ns[2] = {n11, n12};
	trace_n(out, evs, ns, 2);
}

/* Validate and return the single rule that failed: "" for none, "many". */
static const char *verdict(gen_output *out)
{
	static char got[64];
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 100};
	hv_report r;
	tl_validate(out, &opt, &r);
	int n = 0;
	snprintf(got, sizeof got, "%s", "");
	for (int j = 0; j < HV_RULE_COUNT; j++)
		if (r.failed[j]) {
			n++;
			snprintf(got, sizeof got, "%s", hv_rules[j].id);
		}
	if (n > 1) {
		tl_dump(&r);
		snprintf(got, sizeof got, "many");
	}
	hv_report_free(&r);
	gen_output_free(out);
	return got;
}

#define N(a) (sizeof(a) / sizeof *(a))

int main(void)
{
	gen_output out;
	/* one CPU, one after the other: thread 12's stream comes second but runs first */
	{
		ev a[] = {{"OHx", 300, 0, 0}, {"OHe", 400, 0, 0}};
		ev b[] = {{"OHx", 100, 0, 0}, {"OHe", 200, 0, 0}};
		trace(&out, a, N(a), b, N(b));
		const char *v = verdict(&out);
		CHECK(!strcmp(v, ""), "threads taking turns on CPU 0 are accepted (got \"%s\")", v);
	}
	/* one CPU, overlapping: each stream alone is fine, merged they conflict */
	{
		ev a[] = {{"OHx", 100, 0, 0}, {"OHe", 400, 0, 0}};
		ev b[] = {{"OHx", 200, 0, 0}, {"OHe", 300, 0, 0}};
		trace(&out, a, N(a), b, N(b));
		const char *v = verdict(&out);
		CHECK(!strcmp(v, "ovni.model.cpu-shared"), "overlapping threads on CPU 0 are refused (got \"%s\")", v);
	}
	/* ... unless the first one pauses for the time the other runs */
	{
		ev a[] = {{"OHx", 100, 0, 0}, {"OHp", 150, 0, 0}, {"OHr", 350, 0, 0}, {"OHe", 400, 0, 0}};
		ev b[] = {{"OHx", 200, 0, 0}, {"OHe", 300, 0, 0}};
		trace(&out, a, N(a), b, N(b));
		const char *v = verdict(&out);
		CHECK(!strcmp(v, ""), "a paused thread leaves its CPU to another (got \"%s\")", v);
	}
	/* OAr sees the other thread as it is at that clock */
	{
		ev a[] = {{"OHx", 100, 0, 0}, {"OAr", 250, -1, 12}, {"OHe", 400, 0, 0}};
		ev b[] = {{"OHx", 200, 1, 0}, {"OHe", 300, 0, 0}};
		trace(&out, a, N(a), b, N(b));
		const char *v = verdict(&out);
		CHECK(!strcmp(v, ""), "OAr moves a thread that runs at that clock (got \"%s\")", v);
		ev c[] = {{"OHx", 100, 0, 0}, {"OAr", 150, -1, 12}, {"OHe", 400, 0, 0}};
		trace(&out, c, N(c), b, N(b));
		v = verdict(&out);
		CHECK(!strcmp(v, "ovni.model.remote-thread"), "OAr before the other thread started is refused (got \"%s\")", v);
	}
	/* ovniemu 1.14 takes an OAs to the thread's own CPU (its handler returns
	 * at once) but refuses an OAr to the CPU the thread is on, whatever its
	 * state: the thread's CPU channel refuses its own value */
	{
		ev a[] = {{"OHx", 100, 0, 0}, {"OAs", 150, 0, 0}, {"OAs", 160, 1, 0}, {"OAs", 170, 1, 0}, {"OHe", 400, 0, 0}};
		const ev *evs[1] = {a};
		size_t ns[1] = {N(a)};
		trace_n(&out, evs, ns, 1);
		const char *v = verdict(&out);
		CHECK(!strcmp(v, ""), "OAs to the CPU the thread is on is accepted (got \"%s\")", v);
		ev b[] = {{"OHx", 100, 0, 0}, {"OAr", 150, 0, 11}, {"OHe", 400, 0, 0}};
		evs[0] = b;
		ns[0] = N(b);
		trace_n(&out, evs, ns, 1);
		v = verdict(&out);
		CHECK(!strcmp(v, "ovni.model.remote-same-cpu"), "OAr moving the running thread itself to its CPU is refused (got \"%s\")", v);
		ev c[] = {{"OHx", 100, 0, 0}, {"OAr", 250, 1, 12}, {"OHe", 400, 0, 0}};
		ev d[] = {{"OHx", 200, 1, 0}, {"OHp", 210, 0, 0}, {"OHr", 300, 0, 0}, {"OHe", 350, 0, 0}};
		trace(&out, c, N(c), d, N(d));
		v = verdict(&out);
		CHECK(!strcmp(v, "ovni.model.remote-same-cpu"), "OAr moving a paused thread to its CPU is refused (got \"%s\")", v);
		c[1].a = -1; /* to the loom's virtual CPU */
		trace(&out, c, N(c), d, N(d));
		v = verdict(&out);
		CHECK(!strcmp(v, ""), "OAr moving a paused thread to another CPU is accepted (got \"%s\")", v);
	}
	/* nOS-V 4.1 writes OCn with 8 bytes; ovniemu 1.14 ignores the event
	 * ("ignoring old event OCn"), so its size is not judged: no warning */
	{
		ev a[] = {{"OHx", 100, 0, 0}, {"OCn", 110, 2, 1}, {"OHe", 400, 0, 0}};
		const ev *evs[1] = {a};
		size_t ns[1] = {N(a)};
		trace_n(&out, evs, ns, 1);
		const char *v = verdict(&out);
		CHECK(!strcmp(v, ""), "OCn with 8 payload bytes passes --strict (got \"%s\")", v);
	}
	/* a thread that never ends */
	{
		ev a[] = {{"OHx", 100, 0, 0}, {"OHe", 400, 0, 0}};
		ev b[] = {{"OHx", 200, 1, 0}};
		trace(&out, a, N(a), b, N(b));
		const char *v = verdict(&out);
		CHECK(!strcmp(v, "ovni.model.thread-not-dead"), "a thread without OHe is refused (got \"%s\")", v);
	}
	/* equal clocks across streams: the stream earlier in path order first
	 * (ovniemu's heap compares clocks only and leaves ties to its heap) */
	{
		ev a[] = {{"OHx", 100, 0, 0}, {"OHe", 200, 0, 0}};
		ev b[] = {{"OHx", 200, 0, 0}, {"OHe", 300, 0, 0}};
		trace(&out, a, N(a), b, N(b));
		const char *v = verdict(&out);
		CHECK(!strcmp(v, ""), "at one clock, thread 11 ends before thread 12 starts on its CPU (got \"%s\")", v);
		trace(&out, b, N(b), a, N(a));
		v = verdict(&out);
		CHECK(!strcmp(v, "ovni.model.cpu-shared"),
		      "at one clock, thread 11 starts before thread 12 leaves the CPU (got \"%s\")", v);
	}
	/* a loom of more streams than the scanned merge takes (the heap): 18
	 * threads, 16 of them on the virtual CPU, interleaved in clock order;
	 * the first and the last share CPU 0, in turns or overlapping */
	for (int overlap = 0; overlap < 2; overlap++) {
		enum { NT = 18 };
		ev t[NT][4];
		const ev *evs[NT];
		size_t ns[NT];
		for (int i = 0; i < NT; i++) {
			uint64_t c = 1000 + (uint64_t)i;
			t[i][0] = (ev){"OHx", c, -1, 0};
			t[i][1] = (ev){"OHp", c + 100, 0, 0};
			t[i][2] = (ev){"OHr", c + 200, 0, 0};
			t[i][3] = (ev){"OHe", c + 300, 0, 0};
			evs[i] = t[i];
			ns[i] = 4;
		}
		t[0][0].a = t[NT - 1][0].a = 0; /* CPU 0 */
		if (!overlap) /* runs, pauses, resumes and ends while thread 11 is paused */
			for (int k = 0; k < 4; k++) t[NT - 1][k].clock = 1150 + 10 * (uint64_t)k;
		trace_n(&out, evs, ns, NT);
		const char *v = verdict(&out);
		if (overlap)
			CHECK(!strcmp(v, "ovni.model.cpu-shared"), "18 streams: two threads run on CPU 0 at once (got \"%s\")", v);
		else
			CHECK(!strcmp(v, ""), "18 streams: two threads take turns on CPU 0 (got \"%s\")", v);
	}
	/* ovniemu 1.14 takes Nanos6 events from an active thread (cooling and
	 * warming included), but MPI, TAMPI, NODES and OpenMP events only from
	 * a running one */
	g_require = "\"mpi\": \"1.0.0\", \"nanos6\": \"1.1.0\", \"tampi\": \"1.0.0\", \"openmp\": \"1.2.1\"";
	{
		const char *const in_cooling[][2] = {{"6C[", "6C]"}, {"Mss", "MsS"}, {"TRc", "TRC"}, {"PA[", "PA]"}};
		const char *const want[] = {"", "ovni.model.thread-inactive", "ovni.model.thread-inactive",
					    "ovni.model.thread-inactive"};
		for (int k = 0; k < 4; k++) {
			ev a[] = {{"OHx", 100, 0, 0}, {"OHc", 150, 0, 0}, {in_cooling[k][0], 200, 0, 0},
				  {in_cooling[k][1], 210, 0, 0}, {"OHp", 250, 0, 0}, {"OHw", 260, 0, 0},
				  {"OHr", 270, 0, 0}, {"OHe", 300, 0, 0}};
			const ev *evs[1] = {a};
			size_t ns[1] = {N(a)};
			trace_n(&out, evs, ns, 1);
			const char *v = verdict(&out);
			CHECK(!strcmp(v, want[k]), "%s from a cooling thread: want \"%s\", got \"%s\"", in_cooling[k][0],
			      want[k], v);
			/* the same events from the running thread are accepted */
			ev b[] = {{"OHx", 100, 0, 0}, {in_cooling[k][0], 200, 0, 0}, {in_cooling[k][1], 210, 0, 0},
				  {"OHe", 300, 0, 0}};
			evs[0] = b;
			ns[0] = N(b);
			trace_n(&out, evs, ns, 1);
			v = verdict(&out);
			CHECK(!strcmp(v, ""), "%s from a running thread is accepted (got \"%s\")", in_cooling[k][0], v);
		}
	}
	g_require = NULL;
	TAP_DONE();
}
