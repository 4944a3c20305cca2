/* `--what=ovni-trace-mix`: a v3 trace shaped like the real traces of
 * ../shared/real-samples/ovni (libovni 1.14's own test programs), measured
 * for the bench in bench/RESULTS.md ("What real ovni traces look like"): every process
 * is on a loom of its own with one thread, so a loom's clock-ordered merge
 * never switches streams, and each thread repeats its runtime's pattern in
 * a loop (nOS-V task create/execute/end, MPI send/recv/test, Nanos6
 * worker/create/execute, TAMPI polling), the four runtimes in about equal
 * shares with ~5% ovni events (thread lifecycle, flushes). Model-valid:
 * every state pushed is popped, every task created before it runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "writer.h"

#define MIX_STREAMS 8u
#define MIX_CLOCK0 1000000000000ull

static void ev0(gen_buf *b, const char *mcv, uint64_t clock) { govni_put_event(b, mcv, clock, NULL, 0, false); }

static void ev_u32(gen_buf *b, const char *mcv, uint64_t clock, uint32_t a)
{
	uint8_t pl[4];
	hv_put_le32(pl, a);
	govni_put_event(b, mcv, clock, pl, 4, false);
}

static void ev_u32s(gen_buf *b, const char *mcv, uint64_t clock, uint32_t a, uint32_t c)
{
	uint8_t pl[8];
	hv_put_le32(pl, a);
	hv_put_le32(pl + 4, c);
	govni_put_event(b, mcv, clock, pl, 8, false);
}

static void ev_type(gen_buf *b, const char *mcv, uint64_t clock, uint32_t type)
{
	uint8_t j[16];
	hv_put_le32(j, type);
	memcpy(j + 4, "mixtype", 8);
	govni_put_event(b, mcv, clock, j, 12, true);
}

/* The runtime of stream i: nOS-V, MPI, Nanos6, TAMPI. */
static const char *const runtime[] = {"V", "M", "6", "T"};
static const char *const require[] = {NULL, "\"mpi\": \"1.0.0\"", "\"nanos6\": \"1.1.0\"", "\"tampi\": \"1.0.0\""};

static const char *const mpi_loop[] = {"Mss", "MsS", "Mr[", "Mr]", "MTs", "MTS"};
static const char *const tampi_loop[] = {"TLp", "TQt", "TQT", "TGc", "TRs", "TRS", "TRc", "TRC",
					 "TRc", "TRC", "TRc", "TRC", "TGC", "TLP"};

/* One stream of about `n` events of runtime k. */
static void write_stream(gen_buf *b, unsigned k, unsigned n, uint64_t seed)
{
	gen_rng rng = {seed * 7919 + 13};
	uint64_t clock = MIX_CLOCK0;
	uint8_t ohx[16] = {0}; /* CPU 0, no creator */
	gen_buf_append(b, "ovni\x01\x00\x00\x00", 8);
	govni_put_event(b, "OHx", clock, ohx, 16, false);
	if (k == 0) ev_type(b, "VYc", ++clock, 1);
	if (k == 2) ev_type(b, "6Yc", ++clock, 1);
	unsigned done = 0, since_flush = 0, it = 0;
#define NEXT (clock += 1 + gen_below(&rng, 100))
	while (done < n) {
		unsigned before = done;
		if (k == 0) { /* 1000 tasks created, then run again (a non-parallel nOS-V body may) */
			uint32_t task = 1 + it % 1000u;
			if (it < 1000) ev_u32s(b, "VTc", NEXT, task, 1), done++;
			ev_u32s(b, "VTx", NEXT, task, 0);
			ev_u32s(b, "VTe", NEXT, task, 0);
			done += 2;
		} else if (k == 1) {
			for (size_t i = 0; i < sizeof mpi_loop / sizeof *mpi_loop; i++) ev0(b, mpi_loop[i], NEXT);
			done += sizeof mpi_loop / sizeof *mpi_loop;
		} else if (k == 2) { /* a new task every time: Nanos6 bodies do not run again */
			uint32_t task = 1 + it;
			ev0(b, "6Wt", NEXT);
			ev0(b, "6C[", NEXT);
			ev_u32s(b, "6Tc", NEXT, task, 1);
			ev0(b, "6C]", NEXT);
			ev_u32(b, "6Tx", NEXT, task);
			ev_u32(b, "6Te", NEXT, task);
			ev0(b, "6WT", NEXT);
			done += 7;
		} else {
			for (size_t i = 0; i < sizeof tampi_loop / sizeof *tampi_loop; i++) ev0(b, tampi_loop[i], NEXT);
			done += sizeof tampi_loop / sizeof *tampi_loop;
		}
		it++;
		since_flush += done - before;
		if (since_flush >= 38) { /* the buffer flush: ~5% ovni events */
			ev0(b, "OF[", NEXT);
			ev0(b, "OF]", NEXT);
			done += 2;
			since_flush = 0;
		}
	}
#undef NEXT
	ev0(b, "OHe", clock + 1);
}

int govni_gen_mix(const gen_params *p, gen_output *out)
{
	unsigned n = p->trace_len ? p->trace_len : 200;
	for (unsigned i = 0; i < MIX_STREAMS; i++) {
		char loom[32], name[160];
		snprintf(loom, sizeof loom, "node%u.mix", i);
		long long pid = 2000 + i;
		govni_meta m = {.version = 3, .tid = pid, .pid = pid, .app_id = 1, .loom = loom, .rank = i,
				.nranks = MIX_STREAMS, .with_app_id = true, .with_rank = true, .with_cpus = true, .ncpus = 1,
				.require_nosv = i % 4 == 0, .nosv_minor = 7 + p->minor, .require_more = require[i % 4]};
		(void)runtime;
		gen_buf jb = {0}, ob = {0};
		govni_write_meta(&m, &jb);
		write_stream(&ob, i % 4, n, p->seed * 131 + i);
		if (jb.oom || ob.oom) {
			gen_buf_free(&jb);
			gen_buf_free(&ob);
			return -1;
		}
		snprintf(name, sizeof name, "loom.%s/proc.%lld/thread.%lld/stream.json", loom, pid, pid);
		if (!gen_add_file(out, name, jb.data, jb.len)) return -1;
		snprintf(name, sizeof name, "loom.%s/proc.%lld/thread.%lld/stream.obs", loom, pid, pid);
		if (!gen_add_file(out, name, ob.data, ob.len)) return -1;
	}
	return 0;
}
