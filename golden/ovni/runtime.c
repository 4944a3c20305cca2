/* `--what=ovni-trace-runtime`: one loom shaped like a task runtime's trace,
 * after ../shared/real-samples/ovni/libovni-runtime-mix (libovni 1.14 under a
 * runtime-like program; users' traces are mostly this: one node, many
 * threads, long). Two processes, one with the nOS-V model and one with
 * Nanos6 (both with the kernel model): a main thread that creates the
 * workers and pauses (nOS-V's first counts the CPUs with an 8-byte OCn, as
 * nOS-V 4.1 writes it), and RT_WORKERS (4) worker threads each, every worker looping
 * over iterations of the sample's habits: marks (OM[ OM]) around scheduler
 * and task phases, tasks created in pairs then run, nested tasks (the
 * parent paused while its child runs), blocking pauses that give the CPU up
 * and take another (OHc OHp OHw OHr OAs), nOS-V parallel tasks (4 bodies),
 * hardware-counter jumbo events (VWC), progress states, kernel context
 * switches (KCO KCI), every 14 iterations a CPU hand-off (OAr to another
 * worker, then a pause), every 60 a flush (OF[ OF]) after an (empty, as
 * after ovnisort) OU[ OU] region. Task ids come from one counter per
 * process; each worker starts with a burst of tasks that the next worker
 * runs, one every 32 iterations once its clock is past their creation.
 * --trace-len is events per worker stream: any size.
 *
 * At width (--profiles=N streams a loom, --looms=L; by default one loom of
 * 10): a node runs 2 processes (1 under 6 streams), or 4 from 32 streams on
 * (a runtime per socket), alternately nOS-V and Nanos6, each a main thread and the rest of
 * its share of the N streams as workers (4 x (1 + 96) = 388 streams: the 4
 * processes of 96 workers of a 2-socket node). Every worker writes the same
 * --trace-len events at any width, so work per event compares across
 * widths. Each stream is written on its own: its last events come after
 * every other stream's last clock of the loom, so a loom is made twice,
 * first for the clocks alone, and memory holds one stream, not a loom.
 *
 * Target numbers (bench/ovni-runtime-stats.py on the sample; on the generated
 * trace at --trace-len=10000, seed 1, in brackets; tests/ovni_runtime.test.sh
 * keeps the rates per 1000 events and the merge runs within a factor 2):
 *   events: Nanos6 52.1% [46.3%], nOS-V 38.7% [44.9%], ovni 8.5% [8.2%],
 *   kernel 0.7% [0.6%]; events per task created 16.8 [15.9]
 *   bodies per task 1, 4 for parallel tasks (40 of 5448 tasks) [36 of 5044]
 *   tasks paused once 22% [20%]; depth 2 at 11% of task starts [10%]
 *   bodies run by another thread than the creator's 1.5% [0.8%]
 *   per 1000 events: OHp/OHr 8.2 [8.0], OHc/OHw 3.0 [3.1], OAs 6.5 [6.2],
 *   OAr 1.6 [1.7], KCO/KCI 3.3 [3.1], OF[ 0.4 [0.3], OU[ 0.4 [0.4],
 *   jumbo 3.7 [4.0] (VWC 16 bytes, type names 21-24)
 *   the loom's clock-ordered merge (bench/ovni-mix.py): 2.9 [3.1] events
 *   in a row from one stream on average, 110 [125] weighted by events, runs
 *   of up to 388 [385] while the others are away (idle() below)
 * CPUs: every worker has four of its own (4w..4w+3): it runs on the first
 * two, taking the other one at each blocking pause, and only the worker
 * before it moves it (OAr) to the last two, one then the other, so no two
 * running threads meet on a CPU and no move is to the CPU the thread is on
 * (ovniemu 1.14 panics on that: "cannot modify dirty channel"), whatever
 * the streams' relative clocks. Model-valid under --strict, and ovniemu
 * 1.14 -l accepts it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "writer.h"

#define RT_WORKERS 4u /* per process, by default */
#define RT_CLOCK0 6474802000000ull
#define RT_MAX_STREAMS 1024u /* a loom's */
#define RT_MAX_LOOMS 4096u
#define RT_MAX_PROCS 4u
/* pids and tids of loom l start at 18821 + l * RT_LOOM_IDS: every loom's
 * threads have ids of their own */
#define RT_LOOM_IDS 1100u
/* --busy-workers: an idle worker wakes once per RT_IDLE_EVENTS events of a
 * busy one, which take about RT_IDLE_NS of its clock (~1 us an event, its
 * pauses and kernel switches included) */
#define RT_IDLE_EVENTS 1000u
#define RT_IDLE_NS 1300000u

typedef struct rt_stream {
	gen_buf b;
	gen_rng rng;
	uint64_t clock;
	unsigned n;       /* events written */
	uint32_t ntask;   /* tasks this worker created */
	uint32_t wix;     /* the worker's index in its process, 0.. */
	uint32_t nw;      /* the busy workers of its process, which create tasks and hand them round */
	uint32_t type0;   /* the first of the 4 task types this worker declared */
	uint32_t handed;  /* tasks of the previous worker's burst this one ran */
	uint32_t nhand;   /* tasks in each worker's burst */
	uint64_t hand0;   /* the previous worker's first clock */
	bool dry;         /* clocks only, no bytes: the loom's last clock first */
} rt_stream;

/* Task ids come from one counter per process, as a runtime's atomic one:
 * the c-th task of worker x of the nw that create tasks (the busy ones) is
 * c * nw + x + 1 (dense, interleaved). */
static uint32_t task_id(uint32_t c, uint32_t x, uint32_t nw) { return c * nw + x + 1; }
static uint32_t new_task(rt_stream *s) { return task_id(s->ntask++, s->wix, s->nw); }

/* A bound on the clock of the j-th creation of a worker's burst (three
 * events each, gaps under 150, after at most 10 start events). */
static uint64_t burst_clock(uint64_t start, uint32_t j) { return start + 1500 + (3 * (uint64_t)j + 3) * 150; }

/* A task type the worker declared itself: declared before any creation. */
static uint32_t rt_type(rt_stream *s) { return s->type0 + (uint32_t)gen_below(&s->rng, 4); }

static uint64_t next(rt_stream *s) { return s->clock += 30 + gen_below(&s->rng, 120); }

/* Time the thread spends away (out of its CPU, paused, flushing), about
 * `ns` as in the sample: the other threads lead the loom's merge then, in
 * runs of many events (the sample's merge: 2.9 events per run, some runs
 * of hundreds). */
static void idle(rt_stream *s, uint64_t ns) { s->clock += ns / 2 + gen_below(&s->rng, ns); }

static void ev(rt_stream *s, const char *mcv, const uint8_t *pl, size_t n, bool jumbo)
{
	uint64_t c = next(s);
	if (!s->dry) govni_put_event(&s->b, mcv, c, pl, n, jumbo);
	s->n++;
}
static void e0(rt_stream *s, const char *mcv) { ev(s, mcv, NULL, 0, false); }
static void e32(rt_stream *s, const char *mcv, uint32_t a)
{
	uint8_t p[4];
	hv_put_le32(p, a);
	ev(s, mcv, p, 4, false);
}
static void e2(rt_stream *s, const char *mcv, uint32_t a, uint32_t c)
{
	uint8_t p[8];
	hv_put_le32(p, a);
	hv_put_le32(p + 4, c);
	ev(s, mcv, p, 8, false);
}
static void e3(rt_stream *s, const char *mcv, uint32_t a, uint32_t c, uint32_t d)
{
	uint8_t p[12];
	hv_put_le32(p, a);
	hv_put_le32(p + 4, c);
	hv_put_le32(p + 8, d);
	ev(s, mcv, p, 12, false);
}
static void e4(rt_stream *s, const char *mcv, uint32_t a, uint32_t c, uint32_t d, uint32_t f)
{
	uint8_t p[16];
	hv_put_le32(p, a);
	hv_put_le32(p + 4, c);
	hv_put_le32(p + 8, d);
	hv_put_le32(p + 12, f);
	ev(s, mcv, p, 16, false);
}
static void mark(rt_stream *s, bool open, uint32_t v) { e3(s, open ? "OM[" : "OM]", v, 0, 1); }
static void type_ev(rt_stream *s, const char *mcv, uint32_t id, const char *name)
{
	uint8_t j[64];
	size_t n = strlen(name) + 1;
	hv_put_le32(j, id);
	memcpy(j + 4, name, n);
	ev(s, mcv, j, 4 + n, true);
}
static void hwc(rt_stream *s, uint64_t ins, uint64_t cyc)
{
	uint8_t j[16];
	hv_put_le64(j, ins);
	hv_put_le64(j + 8, cyc);
	ev(s, "VWC", j, 16, true);
}

/* The next task of the previous worker's burst exists by now. */
static bool handed_ready(const rt_stream *s)
{
	return s->handed < s->nhand && s->clock > burst_clock(s->hand0, s->handed);
}

/* The blocking pause: the thread gives its CPU up and comes back on the
 * other CPU of its pair, cooling and warming (OHc, OHw) or not, both as
 * often as in the sample. */
static void block(rt_stream *s, unsigned cpu, unsigned *on, bool cool)
{
	if (cool) e0(s, "OHc");
	e0(s, "OHp");
	if (cool) e0(s, "OHw");
	e0(s, "OHr");
	*on = *on == cpu ? cpu + 1 : cpu;
	e32(s, "OAs", *on);
}

/* One nOS-V worker iteration k. `partner`: the tid of another worker of
 * the process, whose hand-off CPUs are `pcpu` and `pcpu` + 1. */
static void nosv_iter(rt_stream *s, unsigned k, unsigned cpu, unsigned *on, uint32_t partner, unsigned pcpu)
{
	static const char *const prog[] = {"VPr", "VPp", "VPa"};
	uint32_t v = 1 + (k & 1);
	mark(s, true, v);
	if (k % 8 == 5) e0(s, "KCO"), idle(s, 300000), e0(s, "KCI");
	if (k % 50 == 0) e0(s, prog[(k / 50) % 3]);
	e0(s, "VS["), e0(s, gen_below(&s->rng, 2) ? "VSr" : "VS@"), e0(s, "VS]");
	uint32_t t1 = new_task(s), t2 = new_task(s);
	e0(s, "VAr"), e2(s, "VTc", t1, rt_type(s)), e0(s, "VAR"), e0(s, "VAs"), e0(s, "VAS");
	e0(s, "VAr"), e2(s, "VTc", t2, rt_type(s)), e0(s, "VAR"), e0(s, "VAs"), e0(s, "VAS");
	if (k % 4 == 1) hwc(s, 1000 + gen_below(&s->rng, 5000), 2000 + gen_below(&s->rng, 9000));
	switch (k % 4) { /* nested, blocking: 1 in 4 iterations each, as in the sample */
	case 0: /* plain bodies */
		e2(s, "VTx", t1, 0), e0(s, "VMa"), e0(s, "VMA"), e0(s, "VAl"), e0(s, "VAL"), e0(s, "VAu"), e0(s, "VAU"), e2(s, "VTe", t1, 0);
		e2(s, "VTx", t2, 0), e0(s, "VMa"), e0(s, "VMA"), e0(s, "VAy"), e0(s, "VAY"), e2(s, "VTe", t2, 0);
		break;
	case 1: { /* nested: t1 pauses while its child runs */
		uint32_t t3 = new_task(s);
		e2(s, "VTx", t1, 0), e0(s, "VMa"), e0(s, "VMA");
		e0(s, "VAr"), e2(s, "VTc", t3, rt_type(s)), e0(s, "VAR"), e2(s, "VTp", t1, 0), e0(s, "VAs");
		e2(s, "VTx", t3, 0), e0(s, "VMf"), e0(s, "VMF"), e2(s, "VTe", t3, 0), e0(s, "VAS"), e2(s, "VTr", t1, 0), e2(s, "VTe", t1, 0);
		e2(s, "VTx", t2, 0), e0(s, "VMa"), e0(s, "VMA"), e0(s, "VAl"), e0(s, "VAL"), e0(s, "VAu"), e0(s, "VAU"), e2(s, "VTe", t2, 0);
		break;
	}
	case 2: /* a blocking pause, then a body that waits */
		e2(s, "VTx", t1, 0), e0(s, "VMa"), e0(s, "VMA"), e0(s, "VAp"), e2(s, "VTp", t1, 0);
		block(s, cpu, on, k % 8 == 2);
		e2(s, "VTr", t1, 0), e0(s, "VAP"), e2(s, "VTe", t1, 0);
		e2(s, "VTx", t2, 0), e0(s, "VMa"), e0(s, "VMA"), e0(s, "VAw"), e0(s, "VAW"), e0(s, "VAc"), e0(s, "VAC"), e2(s, "VTe", t2, 0);
		break;
	default: { /* a parallel task: 4 bodies */
		uint32_t t3 = new_task(s);
		e2(s, "VTx", t1, 0), e0(s, "VMa"), e0(s, "VMA"), e2(s, "VTe", t1, 0);
		e2(s, "VTx", t2, 0), e0(s, "VMa"), e0(s, "VMA"), e2(s, "VTe", t2, 0);
		if (k % 32 == 3) {
			e0(s, "VAr"), e2(s, "VTC", t3, rt_type(s)), e0(s, "VAR");
			for (uint32_t body = 1; body <= 4; body++) e2(s, "VTx", t3, body), e0(s, "VMa"), e0(s, "VMA"), e2(s, "VTe", t3, body);
		} else {
			e0(s, "VAr"), e2(s, "VTc", t3, rt_type(s)), e0(s, "VAR");
			e2(s, "VTx", t3, 0), e0(s, "VMa"), e0(s, "VMA"), e0(s, "VAy"), e0(s, "VAY"), e2(s, "VTe", t3, 0);
		}
		break;
	}
	}
	if (k % 32 == 7 && handed_ready(s)) { /* a task the previous worker created */
		uint32_t t = task_id(s->handed++, (s->wix + s->nw - 1) % s->nw, s->nw);
		e2(s, "VTx", t, 0), e0(s, "VMa"), e0(s, "VMA"), e2(s, "VTe", t, 0);
	}
	mark(s, false, v);
	if (k % 60 == 59) e0(s, "OU["), e0(s, "OU]"), e0(s, "OF["), idle(s, 15000), e0(s, "OF]"); /* the buffer flush */
	if (k % 14 == 13) { /* a CPU hand-off to another worker */
		e2(s, "OAr", pcpu + (k / 14) % 2, partner);
		e0(s, "OHp"), idle(s, 60000), e0(s, "OHr");
	}
}

static void n6_body(rt_stream *s, uint32_t t, const char *a, const char *z)
{
	e0(s, "6Wt"), e0(s, "6t["), e32(s, "6Tx", t), e0(s, "6Ma"), e0(s, "6MA"), e0(s, a), e0(s, z), e32(s, "6Te", t), e0(s, "6t]"), e0(s, "6WT");
}

static void n6_create(rt_stream *s, uint32_t t)
{
	e0(s, "6C["), e2(s, "6Tc", t, rt_type(s)), e0(s, "6C]");
}

static void nanos6_iter(rt_stream *s, unsigned k, unsigned cpu, unsigned *on, uint32_t partner, unsigned pcpu)
{
	static const char *const prog[] = {"6Pr", "6Pp", "6Pa"};
	uint32_t v = 1 + (k & 1);
	mark(s, true, v);
	if (k % 8 == 5) e0(s, "KCO"), idle(s, 300000), e0(s, "KCI");
	if (k % 50 == 0) e0(s, prog[(k / 50) % 3]);
	e0(s, "6S["), e0(s, gen_below(&s->rng, 2) ? "6Sr" : "6S@"), e0(s, "6S]");
	uint32_t t1 = new_task(s), t2 = new_task(s);
	n6_create(s, t1), e0(s, "6U["), e0(s, "6Sa"), e0(s, "6SA"), e0(s, "6U]");
	n6_create(s, t2), e0(s, "6U["), e0(s, "6Sa"), e0(s, "6SA"), e0(s, "6U]");
	switch (k % 4) { /* nested, blocking: 1 in 4 iterations each, as in the sample */
	case 0:
		n6_body(s, t1, "6Dr", "6DR"), n6_body(s, t2, "6Bw", "6BW");
		break;
	case 1: { /* nested */
		uint32_t t3 = new_task(s);
		e0(s, "6Wt"), e0(s, "6t["), e32(s, "6Tx", t1), e0(s, "6Ma"), e0(s, "6MA");
		n6_create(s, t3), e32(s, "6Tp", t1);
		e0(s, "6Wt"), e0(s, "6t["), e32(s, "6Tx", t3), e0(s, "6Mf"), e0(s, "6MF"), e32(s, "6Te", t3), e0(s, "6t]"), e0(s, "6WT");
		e32(s, "6Tr", t1), e32(s, "6Te", t1), e0(s, "6t]"), e0(s, "6WT");
		n6_body(s, t2, "6Dr", "6DR");
		break;
	}
	case 2: /* blocking */
		e0(s, "6Wt"), e0(s, "6t["), e32(s, "6Tx", t1), e0(s, "6Ma"), e0(s, "6MA"), e0(s, "6Bb"), e32(s, "6Tp", t1);
		block(s, cpu, on, k % 8 == 2);
		e32(s, "6Tr", t1), e0(s, "6BB"), e32(s, "6Te", t1), e0(s, "6t]"), e0(s, "6WT");
		n6_body(s, t2, "6Du", "6DU");
		break;
	default: {
		uint32_t t3 = new_task(s);
		n6_create(s, t3);
		n6_body(s, t1, "6Dr", "6DR"), n6_body(s, t2, "6Bw", "6BW"), n6_body(s, t3, "6Dr", "6DR");
		break;
	}
	}
	if (k % 32 == 7 && handed_ready(s)) {
		uint32_t t = task_id(s->handed++, (s->wix + s->nw - 1) % s->nw, s->nw);
		n6_body(s, t, "6Dr", "6DR");
	}
	mark(s, false, v);
	if (k % 60 == 59) e0(s, "OU["), e0(s, "OU]"), e0(s, "OF["), idle(s, 15000), e0(s, "OF]");
	if (k % 14 == 13) {
		e2(s, "OAr", pcpu + (k / 14) % 2, partner);
		e0(s, "OHp"), idle(s, 60000), e0(s, "OHr");
	}
}

static const char mark_json[] =
	"        \"mark\": {\n"
	"            \"1\": {\n"
	"                \"title\": \"Iteration phase\",\n"
	"                \"chan_type\": \"stack\",\n"
	"                \"labels\": { \"1\": \"Produce\", \"2\": \"Consume\", \"3\": \"Drain\" }\n"
	"            }\n"
	"        },\n";

/* The loom's layout: processes, and where each one's streams and workers
 * start (a process's streams are its main thread, then its workers). */
typedef struct rt_shape {
	unsigned looms, streams, procs, workers, ncpus, n;
	unsigned first[RT_MAX_PROCS + 1];  /* a process's first stream (its main thread) */
	unsigned wfirst[RT_MAX_PROCS + 1]; /* its first worker, counted over the loom */
} rt_shape;

bool govni_runtime_shape(const gen_params *p, char *err, size_t errlen)
{
	unsigned s = p->profiles ? p->profiles : 2 * (1 + RT_WORKERS);
	if (s < 3 || s > RT_MAX_STREAMS || p->looms > RT_MAX_LOOMS) {
		snprintf(err, errlen, "ovni-trace-runtime: --profiles is 3 to %u streams a loom, --looms at most %u", RT_MAX_STREAMS,
			 RT_MAX_LOOMS);
		return false;
	}
	return true;
}

static void shape_of(const gen_params *p, rt_shape *sh)
{
	memset(sh, 0, sizeof *sh);
	sh->looms = p->looms ? p->looms : 1;
	sh->streams = p->profiles ? p->profiles : 2 * (1 + RT_WORKERS);
	sh->procs = sh->streams >= 32 ? 4 : sh->streams >= 6 ? 2 : 1; /* each a main thread and 2 workers or more */
	sh->n = p->trace_len ? p->trace_len : 2000;
	for (unsigned k = 0; k < sh->procs; k++) {
		unsigned share = sh->streams / sh->procs + (k < sh->streams % sh->procs);
		sh->first[k + 1] = sh->first[k] + share;
		sh->wfirst[k + 1] = sh->wfirst[k] + share - 1;
	}
	sh->workers = sh->wfirst[sh->procs];
	sh->ncpus = 4 * sh->workers + sh->procs;
}

static unsigned proc_of(const rt_shape *sh, unsigned i)
{
	unsigned k = 0;
	while (i >= sh->first[k + 1]) k++;
	return k;
}

static long long pid_of(unsigned loom, unsigned proc) { return 18821 + (long long)loom * RT_LOOM_IDS + proc; }

/* Thread w of process `proc` (0: its main thread, whose tid is the pid);
 * the workers' tids interleave over the processes, as threads started
 * side by side get them. */
static long long tid_of(const rt_shape *sh, unsigned loom, unsigned proc, unsigned w)
{
	if (w == 0) return pid_of(loom, proc);
	return 18821 + (long long)loom * RT_LOOM_IDS + sh->procs + proc + (long long)sh->procs * (w - 1);
}

/* `minor` > 0: a newer nOS-V model version than 1.14 knows (2.7). */
static void meta(gen_buf *b, const rt_shape *sh, unsigned loom, unsigned proc, unsigned w, unsigned minor)
{
	char t[512], req[40];
	bool nosv = proc % 2 == 0;
	snprintf(req, sizeof req, "\"nosv\": \"2.%u.0\"", 7 + minor);
	snprintf(t, sizeof t,
		 "{\n    \"version\": 3,\n    \"ovni\": {\n        \"lib\": { \"version\": \"1.14.0\", \"commit\": \"hpcvet-gen\" },\n"
		 "        \"part\": \"thread\",\n        \"tid\": %lld,\n        \"pid\": %lld,\n        \"loom\": \"node%u\",\n"
		 "        \"app_id\": %u,\n        \"require\": { \"ovni\": \"1.1.0\", %s, \"kernel\": \"1.0.0\" },\n",
		 tid_of(sh, loom, proc, w), pid_of(loom, proc), loom, proc + 1, nosv ? req : "\"nanos6\": \"1.1.0\"");
	gen_buf_append(b, t, strlen(t));
	gen_buf_append(b, mark_json, sizeof mark_json - 1);
	if (w == 0) {
		snprintf(t, sizeof t, "        \"rank\": %u,\n        \"nranks\": %u,\n        \"loom_cpus\": [", loom * sh->procs + proc,
			 sh->looms * sh->procs);
		gen_buf_append(b, t, strlen(t));
		for (unsigned c = 0; c < sh->ncpus; c++) {
			snprintf(t, sizeof t, "%s\n            { \"index\": %u, \"phyid\": %u }", c ? "," : "", c, c);
			gen_buf_append(b, t, strlen(t));
		}
		gen_buf_append(b, "\n        ],\n", 11);
	}
	gen_buf_append(b, "        \"finished\": 1\n    }", 27);
	if (nosv) {
		static const char hw[] = ",\n    \"nosv\": {\n        \"can_breakdown\": true,\n        \"hwc\": { \"0\": { \"name\": "
					 "\"PAPI_TOT_INS\" }, \"1\": { \"name\": \"PAPI_TOT_CYC\" } }\n    }";
		gen_buf_append(b, hw, sizeof hw - 1);
	}
	gen_buf_append(b, "\n}\n", 3);
}

/* A nearly idle worker (--busy-workers): asleep but for a scheduler poll
 * that finds nothing, `wakes` times over the loom's span, as the workers
 * of a node's runtime that has more cores than work: it warms, resumes,
 * polls the scheduler, cools and pauses again (the real samples' idle
 * workers: OHx VHw VS[ VS@ VS] OHc OHp OHr ...). */
static void idle_worker(rt_stream *s, bool nosv, unsigned wakes)
{
	for (unsigned k = 0; k < wakes; k++) {
		if (k) e0(s, "OHw"), e0(s, "OHr");
		if (nosv) e0(s, "VS["), e0(s, "VS@"), e0(s, "VS]");
		else e0(s, "6S["), e0(s, "6S@"), e0(s, "6S]");
		e0(s, "OHc"), e0(s, "OHp");
		idle(s, RT_IDLE_NS);
	}
	e0(s, "OHw"), e0(s, "OHr");
}

/* Stream i of loom `loom` up to its last events (which wait for the loom's
 * last clock): into s->b, or only its clocks when s->dry. False: a bug
 * (the burst's clock bound is wrong). */
static bool body(const gen_params *p, const rt_shape *sh, unsigned loom, unsigned i, rt_stream *s)
{
	unsigned proc = proc_of(sh, i), w = i - sh->first[proc], nw = sh->first[proc + 1] - sh->first[proc] - 1;
	unsigned n = sh->n, wf = sh->wfirst[proc];
	unsigned nb = p->busy && p->busy < nw ? p->busy : nw; /* the busy workers: the first nb */
	bool nosv = proc % 2 == 0;
	s->rng.s = p->seed * 7919 + 17 * ((uint64_t)loom * sh->streams + i) + 1;
	s->clock = RT_CLOCK0 + 1000 * (uint64_t)i;
	s->nw = nb; /* task ids: one counter per process, over the workers that create tasks */
	if (!s->dry) gen_buf_append(&s->b, "ovni\x01\x00\x00\x00", 8);
	if (w == 0) { /* main: creates the workers, pauses until the end */
		e4(s, "OHx", 4 * sh->workers + proc, UINT32_MAX, 0, 0);
		/* nOS-V 4.1 counts the CPUs at its start: OCn with 8 bytes (count,
		 * highest CPU), where the 1.14 table declares OCn(i32 cpu); ovniemu
		 * ignores the event */
		if (nosv) e2(s, "OCn", sh->ncpus, sh->ncpus - 1), e0(s, "VAa"), e0(s, "VAA");
		else e0(s, "6Hm");
		for (unsigned c = 1; c <= nw; c++) e3(s, "OHC", 4 * (wf + c - 1), (uint32_t)tid_of(sh, loom, proc, c), 0);
		e0(s, "OHp");
		return true;
	}
	unsigned cpu = 4 * (wf + w - 1), on = cpu;
	unsigned pw = w % nb + 1; /* the next busy worker of the process */
	uint32_t partner = (uint32_t)tid_of(sh, loom, proc, pw);
	unsigned pcpu = 4 * (wf + pw - 1) + 2;
	s->clock += 100000; /* after the main thread's OHC */
	s->wix = w - 1;
	s->type0 = 1 + 4 * (w - 1);
	s->nhand = n / 1500 + 1;
	s->hand0 = RT_CLOCK0 + 1000 * (uint64_t)(sh->first[proc] + (w + nb - 2) % nb + 1) + 100000;
	uint64_t start = s->clock;
	e4(s, "OHx", cpu, (uint32_t)pid_of(loom, proc), 0, 0);
	if (w > nb) {
		if (nosv) e0(s, "VHw");
		else e0(s, "6Hw"), e0(s, "6W[");
		idle_worker(s, nosv, n / RT_IDLE_EVENTS + 1);
		if (nosv) e0(s, "VHW");
		else e0(s, "6W]"), e0(s, "6HW");
		return true;
	}
	if (nosv) {
		e0(s, "VHw");
		for (uint32_t t = 1; t <= 4; t++) {
			char name[40];
			snprintf(name, sizeof name, "nosv_r%u_w%u_type%u", proc, w - 1, t);
			type_ev(s, "VYc", t + 4 * (w - 1), name);
		}
		hwc(s, 0, 0);
		e0(s, "VAb"), e0(s, "VAB");
		for (uint32_t j = 0; j < s->nhand; j++) /* the tasks the next worker runs */
			e0(s, "VAr"), e2(s, "VTc", new_task(s), rt_type(s)), e0(s, "VAR");
	} else {
		e0(s, "6Hw"), e0(s, "6W[");
		for (uint32_t t = 1; t <= 4; t++) {
			char name[40];
			snprintf(name, sizeof name, "nanos6_r%u_w%u_type%u", proc, w - 1, t);
			type_ev(s, "6Yc", t + 4 * (w - 1), name);
		}
		for (uint32_t j = 0; j < s->nhand; j++) n6_create(s, new_task(s));
	}
	if (s->clock > burst_clock(start, s->nhand)) return false;
	for (unsigned k = 0; s->n < n; k++) {
		if (nosv) nosv_iter(s, k, cpu, &on, partner, pcpu);
		else nanos6_iter(s, k, cpu, &on, partner, pcpu);
	}
	if (proc == 0 && w == 1) /* --open-tasks: created, never run (each one live until the end) */
		for (unsigned j = 0; j < p->open_tasks; j++) e0(s, "VAr"), e2(s, "VTc", new_task(s), rt_type(s)), e0(s, "VAR");
	if (nosv) e0(s, "VHW");
	else e0(s, "6W]"), e0(s, "6HW");
	return true;
}

/* Every stream ends after the last hand-off of any other: `end`, the
 * loom's last clock. */
static void tail(const rt_shape *sh, unsigned i, uint64_t end, rt_stream *s)
{
	unsigned proc = proc_of(sh, i), w = i - sh->first[proc];
	s->clock = end + 1000 * ((uint64_t)i + 1);
	if (w == 0) {
		e0(s, "OHr");
		if (proc % 2 == 0) e0(s, "VAd"), e0(s, "VAD");
		else e0(s, "6HM");
	} else {
		e0(s, "OU["), e0(s, "OU]");
	}
	e0(s, "OHe");
}

static int loom_out(const gen_params *p, const rt_shape *sh, unsigned loom, gen_output *out)
{
	uint64_t end = 0;
	for (unsigned i = 0; i < sh->streams; i++) { /* the clocks alone */
		rt_stream s = {.dry = true};
		if (!body(p, sh, loom, i, &s)) return -1; /* the bound is wrong: a bug */
		if (s.clock > end) end = s.clock;
	}
	for (unsigned i = 0; i < sh->streams; i++) {
		rt_stream s = {0};
		gen_buf jb = {0};
		char name[160];
		unsigned proc = proc_of(sh, i), w = i - sh->first[proc];
		long long pid = pid_of(loom, proc), tid = tid_of(sh, loom, proc, w);
		body(p, sh, loom, i, &s);
		tail(sh, i, end, &s);
		meta(&jb, sh, loom, proc, w, p->minor);
		int rc = jb.oom || s.b.oom ? -1 : 0;
		if (rc == 0) {
			snprintf(name, sizeof name, "loom.node%u/proc.%lld/thread.%lld/stream.json", loom, pid, tid);
			if (gen_add_file(out, name, jb.data, jb.len)) jb = (gen_buf){0}; /* the output owns it */
			else rc = -1;
		}
		if (rc == 0) {
			snprintf(name, sizeof name, "loom.node%u/proc.%lld/thread.%lld/stream.obs", loom, pid, tid);
			if (gen_add_file(out, name, s.b.data, s.b.len)) s.b = (gen_buf){0};
			else rc = -1;
		}
		gen_buf_free(&jb);
		gen_buf_free(&s.b);
		if (rc) return rc;
	}
	return 0;
}

int govni_gen_runtime(const gen_params *p, gen_output *out)
{
	rt_shape sh;
	shape_of(p, &sh);
	for (unsigned l = 0; l < sh.looms; l++)
		if (loom_out(p, &sh, l, out)) return -1;
	return 0;
}
