/* ovni writers for one binary stream (stream.obs / thread.TID[.obs]) and one
 * metadata document, written from ../shared/specs/ovni-trace-spec-v3.md. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "writer.h"
#include "ovni/events/events.h"

bool govni_is(const char *a, const char *b) { return a && strcmp(a, b) == 0; }
bool govni_prefix(const char *rule, const char *prefix) { return rule && strncmp(rule, prefix, strlen(prefix)) == 0; }

/* Append one event; `payload` bytes of payload (normal, 0 or 2..16) or
 * `jumbo` data. Returns the event's offset. */
size_t govni_put_event(gen_buf *b, const char *mcv, uint64_t clock, const uint8_t *payload, size_t plen, bool jumbo)
{
	uint8_t h[16];
	size_t hl = 12;
	if (jumbo) {
		h[0] = 0x13;
		hv_put_le32(h + 12, (uint32_t)plen);
		hl = 16;
	} else {
		h[0] = (uint8_t)(plen ? plen - 1 : 0);
	}
	memcpy(h + 1, mcv, 3);
	hv_put_le64(h + 4, clock);
	size_t off = gen_buf_append(b, h, hl);
	if (plen) gen_buf_append(b, payload, plen);
	return off;
}

/* An event with the payload its signature in the 1.14 table declares. */
static size_t put_known(gen_buf *b, const char *mcv, uint64_t clock, gen_rng *rng)
{
	const ovni_evspec *s = ovni_event_find((const uint8_t *)mcv);
	uint8_t pl[16];
	for (size_t i = 0; i < sizeof pl; i++) pl[i] = (uint8_t)gen_rand(rng);
	if (s && s->payload == OVNI_EV_JUMBO_SIG) {
		uint8_t j[24];
		hv_put_le32(j, 7);
		memcpy(j + 4, "tasktype", 9);
		return govni_put_event(b, mcv, clock, j, 13, true);
	}
	return govni_put_event(b, mcv, clock, pl, s ? (size_t)s->payload : 0, false);
}

static void put_mark(gen_buf *b, const char *mcv, uint64_t clock, int64_t value, int32_t type)
{
	uint8_t pl[12];
	hv_put_le64(pl, (uint64_t)value);
	hv_put_le32(pl + 8, (uint32_t)type);
	govni_put_event(b, mcv, clock, pl, 12, false);
}

static size_t put_u32s(gen_buf *b, const char *mcv, uint64_t clock, uint32_t a, uint32_t c)
{
	uint8_t pl[8];
	hv_put_le32(pl, a);
	hv_put_le32(pl + 4, c);
	return govni_put_event(b, mcv, clock, pl, 8, false);
}

/* One nOS-V task of this thread, start to end: created (or, past the
 * thread's 1000 task ids, one that ended runs again, which a non-parallel
 * nOS-V body may), executed (body 0, as a non-parallel task has), maybe
 * submitting and pausing inside, ended. The "task body" subsystem state it
 * pushes is popped by VTe. */
static uint64_t put_nosv_task(gen_buf *b, uint64_t clock, uint32_t base, unsigned nth, uint32_t type, gen_rng *rng)
{
	uint32_t task = base + nth % 1000u;
	if (nth < 1000) put_u32s(b, "VTc", clock, task, type);
	put_u32s(b, "VTx", ++clock, task, 0);
	unsigned k = (unsigned)gen_below(rng, 4);
	if (k == 1) {
		govni_put_event(b, "VU[", ++clock, NULL, 0, false);
		govni_put_event(b, "VU]", ++clock, NULL, 0, false);
	} else if (k == 2) { /* nosv_pause(): the body pauses and resumes */
		govni_put_event(b, "VAp", ++clock, NULL, 0, false);
		put_u32s(b, "VTp", ++clock, task, 0);
		put_u32s(b, "VTr", ++clock, task, 0);
		govni_put_event(b, "VAP", ++clock, NULL, 0, false);
	}
	put_u32s(b, "VTe", ++clock, task, 0);
	return clock;
}

/* Other nOS-V states, each entered and left. */
static const char *const nosv_pairs[][2] = {{"VS[", "VS]"}, {"VSh", "VSf"}, {"VAs", "VAS"}, {"VMa", "VMA"}, {"VSN", "VSn"}};

static void put_type(gen_buf *b, const char *mcv, uint64_t clock, uint32_t type)
{
	uint8_t j[24];
	hv_put_le32(j, type);
	memcpy(j + 4, "broken", 7);
	govni_put_event(b, mcv, clock, j, 11, true);
}

static void put_u32(gen_buf *b, const char *mcv, uint64_t clock, uint32_t a)
{
	uint8_t pl[4];
	hv_put_le32(pl, a);
	govni_put_event(b, mcv, clock, pl, 4, false);
}

/* The events that break one ovni.model.* rule, right after OHx while the
 * thread runs. The replay stops at an error, so nothing after them counts.
 * (cpu-shared is made by the tree: two threads given one CPU.) */
static uint64_t put_model_break(gen_buf *b, const govni_stream *s, uint64_t clock)
{
	const char *r = s->model_brk + strlen("ovni.model.");
	uint32_t a = 4000000000u + (uint32_t)s->tid * 2u, t2 = (uint32_t)s->tid + 100000u;
	uint8_t c[8] = {0};
	if (!strcmp(r, "thread-state")) govni_put_event(b, "OHr", ++clock, NULL, 0, false); /* already running */
	if (!strcmp(r, "cpu-unknown")) put_u32(b, "OAs", ++clock, 999);
	if (!strcmp(r, "thread-inactive")) {
		govni_put_event(b, "OHp", ++clock, NULL, 0, false);
		govni_put_event(b, "VSr", ++clock, NULL, 0, false); /* from a paused thread */
		govni_put_event(b, "OHr", ++clock, NULL, 0, false);
	}
	if (!strcmp(r, "out-of-cpu")) {
		govni_put_event(b, "KCO", ++clock, NULL, 0, false);
		govni_put_event(b, "VSr", ++clock, NULL, 0, false);
		govni_put_event(b, "KCI", ++clock, NULL, 0, false);
	}
	if (!strcmp(r, "remote-thread")) {
		hv_put_le32(c, (uint32_t)s->cpu);
		hv_put_le32(c + 4, 999999); /* no such thread */
		govni_put_event(b, "OAr", ++clock, c, 8, false);
	}
	if (!strcmp(r, "remote-same-cpu")) { /* the thread moves itself to the CPU it runs on */
		hv_put_le32(c, (uint32_t)s->cpu);
		hv_put_le32(c + 4, (uint32_t)s->tid);
		govni_put_event(b, "OAr", ++clock, c, 8, false);
	}
	if (!strcmp(r, "payload")) govni_put_event(b, "VYc", ++clock, c, 2, true); /* no room for the type id */
	if (!strcmp(r, "state-pop")) govni_put_event(b, "VU]", ++clock, NULL, 0, false);
	if (!strcmp(r, "state-repeated")) {
		govni_put_event(b, "KCO", ++clock, NULL, 0, false);
		govni_put_event(b, "KCO", ++clock, NULL, 0, false);
	}
	if (!strcmp(r, "state-depth"))
		for (int i = 0; i < 513; i++) govni_put_event(b, "VU[", ++clock, NULL, 0, false);
	if (!strcmp(r, "state-open")) govni_put_event(b, "VU[", ++clock, NULL, 0, false);
	if (!strcmp(r, "task-unknown")) put_u32s(b, "VTx", ++clock, a, 0);
	if (!strcmp(r, "mark-stack")) {
		put_mark(b, "OM[", ++clock, 1, 3);
		put_mark(b, "OM]", ++clock, 2, 3); /* not the value on top */
	}
	if (strstr(r, "task-duplicate") || (strstr(r, "body-") && !strstr(r, "deprecated"))) put_type(b, "VYc", ++clock, t2);
	if (!strcmp(r, "task-duplicate")) {
		put_u32s(b, "VTc", ++clock, a, t2);
		put_u32s(b, "VTc", ++clock, a, t2);
	}
	if (!strcmp(r, "body-rerun")) { /* a parallel task's body */
		put_u32s(b, "VTC", ++clock, a, t2);
		put_u32s(b, "VTx", ++clock, a, 1);
		put_u32s(b, "VTe", ++clock, a, 1);
		put_u32s(b, "VTx", ++clock, a, 1);
	}
	if (!strcmp(r, "body-nest")) {
		put_u32s(b, "VTc", ++clock, a, t2);
		put_u32s(b, "VTx", ++clock, a, 0);
		put_u32s(b, "VTc", ++clock, a + 1, t2);
		put_u32s(b, "VTx", ++clock, a + 1, 0);
	}
	if (!strcmp(r, "body-nest-deprecated")) { /* Nanos6 1.1.0 allows it, with a warning: 6Tp first */
		put_type(b, "6Yc", ++clock, t2);
		put_u32s(b, "6Tc", ++clock, a, t2);
		put_u32(b, "6Tx", ++clock, a);
		govni_put_event(b, "6U[", ++clock, NULL, 0, false); /* a subsystem between the two bodies */
		put_u32s(b, "6Tc", ++clock, a + 1, t2);
		put_u32(b, "6Tx", ++clock, a + 1);
		put_u32(b, "6Te", ++clock, a + 1);
		govni_put_event(b, "6U]", ++clock, NULL, 0, false);
		put_u32(b, "6Te", ++clock, a);
	}
	if (!strcmp(r, "body-nest~openmp")) { /* OpenMP has no pause: a task nests over its parent */
		put_type(b, "POc", ++clock, t2);
		put_u32s(b, "PPc", ++clock, a, t2);
		put_u32(b, "PPx", ++clock, a);
		put_u32s(b, "PPc", ++clock, a + 1, t2);
		put_u32(b, "PPx", ++clock, a + 1);
		put_u32(b, "PPe", ++clock, a + 1);
		put_u32(b, "PPe", ++clock, a);
	}
	if (!strcmp(r, "body-state")) { /* a paused body executes again */
		put_u32s(b, "VTc", ++clock, a, t2);
		put_u32s(b, "VTx", ++clock, a, 0);
		put_u32s(b, "VTp", ++clock, a, 0);
		put_u32s(b, "VTx", ++clock, a, 0);
	}
	if (!strcmp(r, "body-pause")) {
		put_u32s(b, "VTC", ++clock, a, t2);
		put_u32s(b, "VTx", ++clock, a, 1);
		put_u32s(b, "VTp", ++clock, a, 1);
	}
	if (!strcmp(r, "body-parallel")) {
		put_u32s(b, "VTc", ++clock, a, t2);
		put_u32s(b, "VTx", ++clock, a, 5);
	}
	return clock;
}

void govni_write_obs(const govni_stream *s, gen_buf *b)
{
	const char *brk = s->brk;
	if (govni_is(brk, "ovni.obs.empty")) return;
	if (s->header || brk) {
		uint8_t h[8];
		memcpy(h, govni_is(brk, "ovni.obs.magic") ? "ovnj" : "ovni", 4);
		hv_put_le32(h + 4, govni_is(brk, "ovni.obs.version") ? 2 : 1);
		gen_buf_append(b, h, govni_is(brk, "ovni.obs.header-truncated") ? 5 : 8);
	}
	if (govni_prefix(brk, "ovni.obs.") && (govni_is(brk, "ovni.obs.header-truncated") ||
					       govni_is(brk, "ovni.obs.no-events") || govni_is(brk, "ovni.obs.magic") ||
					       govni_is(brk, "ovni.obs.version")))
		return;
	/* Model-valid events (what ovniemu 1.14 replays without complaint): the
	 * thread executes on its own CPU, pauses and resumes, cools and warms,
	 * runs nOS-V tasks and states that all end, and ends. */
	gen_rng rng = {s->seed * 7919 + 11};
	uint64_t clock = s->clock0;
	size_t last_off = 0;
	uint8_t ohx[16];
	hv_put_le32(ohx, (uint32_t)s->cpu);
	hv_put_le32(ohx + 4, 0); /* creator tid: none */
	hv_put_le64(ohx + 8, 0);
	govni_put_event(b, "OHx", clock, ohx, 16, false);
	uint32_t task = (uint32_t)s->tid * 1000u, type = (uint32_t)s->tid;
	unsigned ntasks = 0;
	bool typed = false;
	if (s->model_brk) clock = put_model_break(b, s, clock);
	unsigned n = s->nevents < 4 ? 4 : s->nevents;
	for (unsigned i = 1; i + 1 < n; i++) {
		clock += gen_below(&rng, 1000); /* equal clocks are legal */
		unsigned pick = (unsigned)gen_below(&rng, 10);
		if (pick == 0) { /* a flush: OF[ OF] around a write */
			put_known(b, "OF[", clock, &rng);
			clock += 5;
			put_known(b, "OF]", clock, &rng);
		} else if (pick == 1) { /* a sort region with its own sorted events */
			put_known(b, "OU[", clock, &rng);
			put_known(b, "OB.", clock, &rng);
			clock += 3;
			put_known(b, "OU]", clock, &rng);
		} else if (pick == 2 && s->mark_type >= 0) { /* a mark region */
			/* type 3 is a "stack" type: values are entered and left,
			 * never set (OM= is for "single" types) */
			put_mark(b, "OM[", clock, 1, s->mark_type);
			put_mark(b, "OM[", clock, 2, s->mark_type);
			clock += 1;
			put_mark(b, "OM]", clock, 2, s->mark_type);
			put_mark(b, "OM]", clock, 1, s->mark_type);
		} else if (pick == 3 && !s->steady) { /* paused and resumed */
			govni_put_event(b, "OHp", clock, NULL, 0, false);
			govni_put_event(b, "OHr", ++clock, NULL, 0, false);
		} else if (pick == 4 && !s->steady) { /* cooling, paused, warming, running */
			govni_put_event(b, "OHc", clock, NULL, 0, false);
			govni_put_event(b, "OHp", ++clock, NULL, 0, false);
			govni_put_event(b, "OHw", ++clock, NULL, 0, false);
			govni_put_event(b, "OHr", ++clock, NULL, 0, false);
		} else if (pick < 6 || !s->nosv_events) {
			uint8_t c[4];
			hv_put_le32(c, (uint32_t)s->cpu); /* its own CPU: no migration */
			if (gen_below(&rng, 2)) govni_put_event(b, "OAs", clock, c, 4, false);
			else put_known(b, "OB.", clock, &rng);
		} else if (pick < 8) {
			if (!typed) {
				uint8_t j[24];
				hv_put_le32(j, type);
				memcpy(j + 4, "tasktype", 9);
				govni_put_event(b, "VYc", clock, j, 13, true);
				typed = true;
			}
			clock = put_nosv_task(b, clock, task, ntasks++, type, &rng);
		} else {
			unsigned k = (unsigned)gen_below(&rng, 5);
			govni_put_event(b, nosv_pairs[k][0], clock, NULL, 0, false);
			if (k == 0) govni_put_event(b, "VSr", clock, NULL, 0, false);
			govni_put_event(b, nosv_pairs[k][1], ++clock, NULL, 0, false);
		}
	}
	if (s->newer_event) govni_put_event(b, "OX!", clock, NULL, 0, false);
	if (s->undeclared_mark >= 0) put_mark(b, "OM=", clock, 5, s->undeclared_mark);
	if (govni_is(brk, "ovni.obs.mark-value")) put_mark(b, "OM=", clock, 0, 3);
	/* The single-rule breaks, placed after the valid events. */
	if (govni_is(brk, "ovni.obs.reserved-flags")) govni_put_event(b, "OB.", clock, NULL, 0, false), b->data[b->len - 12] |= 0x80;
	if (govni_is(brk, "ovni.obs.reserved-flags~consecutive")) /* each reserved bit, on three events in a row */
		for (unsigned k = 0; k < 3; k++) govni_put_event(b, "OB.", clock, NULL, 0, false), b->data[b->len - 12] |= (uint8_t)(0x20u << k);
	if (govni_is(brk, "ovni.obs.jumbo-nibble")) {
		uint8_t d[4] = {1, 2, 3, 4};
		size_t o = govni_put_event(b, "OB.", clock, d, 4, true);
		b->data[o] = 0x10; /* jumbo flag, nibble 0: readers accept it, the spec says 3 */
		/* keep the signature check quiet: OB. ignores payloads anyway, so use a jumbo MCV */
		memcpy(b->data + o + 1, "VYc", 3);
	}
	if (govni_is(brk, "ovni.obs.jumbo-too-large")) {
		size_t big = 2097136;
		uint8_t *d = calloc(1, big);
		if (d) {
			govni_put_event(b, "VYc", clock, d, big, true);
			free(d);
		}
	}
	if (govni_is(brk, "ovni.obs.mcv-printable")) govni_put_event(b, "O\x01.", clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.damaged-region")) {
		/* a zero-filled region of 64 bytes (a file extended after a crash),
		 * then the closing event, where the walk resumes */
		static const uint8_t zeros[64];
		gen_buf_append(b, zeros, sizeof zeros);
	}
	if (govni_is(brk, "ovni.obs.model-unknown")) govni_put_event(b, "Zab", clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.mcv-minor-newer")) govni_put_event(b, "OX!", clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.payload-signature")) /* a jumbo OAs: its CPU index is the jumbo size, 0 */
		govni_put_event(b, "OAs", clock, NULL, 0, true);
	if (govni_is(brk, "ovni.obs.payload-size")) {
		uint8_t d[8] = {0};
		govni_put_event(b, "OAs", clock, d, 8, false); /* OAs takes exactly 4 bytes */
	}
	if (govni_is(brk, "ovni.obs.clock-monotonic")) govni_put_event(b, "OB.", clock > 100 ? clock - 100 : 0, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.sort-region")) govni_put_event(b, "OU]", clock, NULL, 0, false);
	uint64_t end_clock = govni_is(brk, "ovni.obs.clock-signed") ? (1ull << 63) + clock : clock + 10;
	if (govni_is(brk, "ovni.obs.clock-monotonic")) end_clock = clock + 10;
	if (!govni_is(s->model_brk, "ovni.model.thread-not-dead")) last_off = govni_put_event(b, "OHe", end_clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.event-truncated")) b->len -= 3;
	if (govni_is(brk, "ovni.obs.reserved-flags~every")) /* 0xe0 on every event, sized as ovni sizes them */
		for (size_t o = 8; o + 12 <= b->len;) {
			uint8_t f = b->data[o], nib = f & 0x0fu;
			size_t len = f & 0x10u ? 16u + (o + 16 <= b->len ? hv_le32(b->data + o + 12) : 0u) : 12u + (nib ? nib + 1u : 0u);
			b->data[o] = f | 0xe0u;
			o += len;
		}
	(void)last_off;
}

/* ---- JSON ---- */


static void put_cpus(gen_buf *b, const char *indent, unsigned n, int shift, bool clash, bool empty)
{
	gen_buf_printf(b, "[");
	for (unsigned i = 0; !empty && i < n; i++) {
		long long idx = (long long)i + shift;
		if (clash && i == 0) idx = 1;
		gen_buf_printf(b, "%s\n%s    {\n%s        \"index\": %lld,\n%s        \"phyid\": %u\n%s    }", i ? "," : "", indent,
			indent, idx, indent, i, indent);
	}
	gen_buf_printf(b, "\n%s]", indent);
}

void govni_write_meta(const govni_meta *m, gen_buf *b)
{
	const char *r = m->brk;
	bool v3 = m->version == 3;
	if (govni_is(r, "ovni.json.root-object")) {
		gen_buf_printf(b, "[\n    3\n]\n");
		return;
	}
	if (govni_is(r, "ovni.json.comment")) gen_buf_printf(b, "// written by hpcvet-gen\n");
	gen_buf_printf(b, "{\n    \"version\": %d,\n    \"ovni\": {\n", govni_is(r, "ovni.json.version") ? 2 : m->version);
	gen_buf_printf(b, "        \"lib\": {\n            \"version\": \"1.14.0\"%s\n        },\n",
		govni_is(r, "ovni.json.lib") ? "" : ",\n            \"commit\": \"cf025e2\"");
	if (v3 && !govni_is(r, "ovni.json.part"))
		gen_buf_printf(b, "        \"part\": \"%s\",\n", govni_is(r, "ovni.json.part-unknown") ? "process" : "thread");
	if (v3) {
		gen_buf_printf(b, "        \"tid\": %lld,\n", govni_is(r, "ovni.json.tid") ? -5 : m->tid);
		if (govni_is(r, "ovni.json.duplicate-key")) gen_buf_printf(b, "        \"tid\": %lld,\n", m->tid);
		gen_buf_printf(b, "        \"pid\": %lld,\n", govni_is(r, "ovni.json.pid") ? 0 : m->pid);
		gen_buf_printf(b, "        \"loom\": \"%s\",\n", govni_is(r, "ovni.json.loom") ? "vm/0" : m->loom);
		if (m->with_app_id) {
			if (govni_is(r, "ovni.json.non-integer")) gen_buf_printf(b, "        \"app_id\": %lld.5,\n", m->app_id);
			else gen_buf_printf(b, "        \"app_id\": %lld,\n", govni_is(r, "ovni.json.app-id") ? 0 : m->app_id);
		}
		if (m->with_rank)
			gen_buf_printf(b, "        \"rank\": %lld,\n        \"nranks\": %lld,\n",
				govni_is(r, "ovni.json.rank") ? m->nranks + 3 : m->rank, m->nranks);
		if (m->with_cpus) {
			gen_buf_printf(b, "        \"loom_cpus\": ");
			put_cpus(b, "        ", m->ncpus, m->cpu_index_shift, m->cpu_phyid_clash, govni_is(r, "ovni.json.loom-cpus"));
			gen_buf_printf(b, ",\n");
		}
	}
	if (m->mark_decl) {
		const char *title = m->mark_other_title ? "Other phase" : "Phase";
		const char *ct = govni_is(r, "ovni.json.mark") ? "queue" : "stack";
		gen_buf_printf(b, "        \"mark\": {\n            \"3\": {\n                \"title\": \"%s\",\n"
			   "                \"chan_type\": \"%s\",\n                \"labels\": {\n", title, ct);
		if (m->mark_decl == 1) gen_buf_printf(b, "                    \"1\": \"init\",\n");
		gen_buf_printf(b, "                    \"2\": \"compute\"\n                }\n            }\n        },\n");
	}
	if (!govni_is(r, "ovni.json.require-missing")) {
		const char *ov = govni_is(r, "ovni.json.require-syntax") ? "1.1" : govni_is(r, "ovni.json.require-major") ? "2.0.0" : "1.1.0";
		gen_buf_printf(b, "        \"require\": {\n            \"ovni\": \"%s\"", ov);
		unsigned nm = govni_is(r, "ovni.json.require-minor-newer") ? 8 : m->nosv_minor;
		if (m->require_nosv) gen_buf_printf(b, ",\n            \"nosv\": \"2.%u.0\"", nm);
		if (m->require_kernel) gen_buf_printf(b, ",\n            \"kernel\": \"1.0.0\"");
		if (m->require_openmp) gen_buf_printf(b, ",\n            \"openmp\": \"1.2.1\"");
		if (m->require_nanos6) gen_buf_printf(b, ",\n            \"nanos6\": \"1.1.0\"");
		if (m->require_more) gen_buf_printf(b, ",\n            %s", m->require_more);
		if (govni_is(r, "ovni.json.require-unknown-model")) gen_buf_printf(b, ",\n            \"fpga\": \"1.0.0\"");
		gen_buf_printf(b, "\n        },\n");
	}
	gen_buf_printf(b, "        \"finished\": %d\n    }\n}\n", govni_is(r, "ovni.json.finished") ? 0 : 1);
	if (govni_is(r, "ovni.json.syntax")) b->len -= 2; /* drop the closing brace */
	if (govni_is(r, "ovni.json.trailing-garbage")) gen_buf_printf(b, "}\n");
}

void govni_write_proc(int version, long long app_id, long long rank, long long nranks, unsigned ncpus, const char *brk,
		      gen_buf *b)
{
	gen_buf_printf(b, "{\n    \"version\": %d,\n", version);
	/* The break writes the value of the documentation's example, which v1 readers refused. */
	if (version == 1)
		gen_buf_printf(b, "    \"model_version\": \"O1 V1 T1 M1 D1 K1%s\",\n",
			govni_is(brk, "ovni.json.model-version") ? "" : " 61");
	if (app_id > 0) gen_buf_printf(b, "    \"app_id\": %lld,\n", app_id);
	if (rank >= 0) gen_buf_printf(b, "    \"rank\": %lld,\n    \"nranks\": %lld,\n", rank, nranks);
	if (ncpus) {
		gen_buf_printf(b, "    \"cpus\": ");
		put_cpus(b, "    ", ncpus, 0, false, false);
		gen_buf_printf(b, ",\n");
	}
	/* no trailing comma before the closing brace */
	if (b->len >= 2 && b->data[b->len - 2] == ',') {
		b->data[b->len - 2] = '\n';
		b->len--;
	}
	gen_buf_printf(b, "}\n");
}
