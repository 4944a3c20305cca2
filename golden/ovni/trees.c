/* ovni writers: a single stream.obs, a single stream.json, and trace trees
 * (v3, v2, v1): looms x processes x threads x events, with jumbo events,
 * OU[ ... OU] sort regions, OF[ OF] flush events and clock offsets. Every
 * ovni rule has a break here that violates exactly that rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

static const char *const whats[] = {"ovni-stream", "ovni-json", "ovni-trace", "ovni-trace-v2", "ovni-trace-v1", "ovni-trace-mix", "ovni-trace-runtime", NULL};

/* Tree rules that need a v1/v2 tree to break. */
static const char *const old_tree_rules[] = {"ovni.tree.v2-path", "ovni.tree.metadata-missing", "ovni.tree.cpus-repeated",
					     "ovni.tree.reader-hazard-legacy",
					     "ovni.tree.mixed-versions", NULL};

static bool in_list(const char *const *l, const char *s)
{
	for (size_t i = 0; l[i]; i++)
		if (govni_is(l[i], s)) return true;
	return false;
}

#define NCPUS 4u
#define CLOCK0 1000000000000ull /* 1000 s of a monotonic clock */
#define TWO_HOURS 7200000000000ull

typedef struct shape {
	unsigned looms, procs, threads, events;
} shape;

static shape shape_of(const gen_params *p)
{
	shape s = {2, 2, 2, p->trace_len ? p->trace_len : 60};
	if (p->break_rule) return s;
	s.looms = 1 + (unsigned)(p->seed % 2);
	s.procs = 1 + (unsigned)((p->seed / 2) % 2);
	s.threads = p->depth ? 1 + p->depth % 3 : 2;
	s.events = p->contexts ? (p->contexts > 5000 ? 5000 : p->contexts) : 60;
	/* --trace-len: events per stream for benchmarks (a 1 GiB stream is ~60M). */
	if (p->trace_len) s.events = p->trace_len;
	return s;
}

/* Each thread of a loom runs on its own CPU, so the loom lists at least one
 * CPU per thread (the event model: one running thread per physical CPU). */
static unsigned loom_cpus(const shape *s)
{
	unsigned n = s->procs * s->threads;
	return n > NCPUS ? n : NCPUS;
}

static bool add(gen_output *out, const char *name, gen_buf *b)
{
	if (b->oom) {
		gen_buf_free(b);
		return false;
	}
	uint8_t *d = b->data ? b->data : malloc(1);
	size_t len = b->len;
	memset(b, 0, sizeof *b);
	return d && gen_add_file(out, name, d, len) != NULL;
}

static void loom_name(char *out, size_t n, unsigned l) { snprintf(out, n, "node%u.ovni", l); }

static bool write_clock_offsets(const gen_params *p, const shape *s, gen_output *out)
{
	const char *r = p->break_rule;
	bool want = govni_is(r, "ovni.tree.clock-offsets") || govni_is(r, "ovni.tree.clock-offsets-host") ||
		    (!r && p->seed % 2 == 0);
	if (!want) return true;
	gen_buf b = {0};
	char line[128];
	int n = snprintf(line, sizeof line, "rank       hostname       offset_median       offset_mean       offset_std\n");
	gen_buf_append(&b, line, (size_t)n);
	for (unsigned l = 0; l < s->looms; l++) {
		n = snprintf(line, sizeof line, "%u node%u %u.0 %u.5 0.25\n", l, l, l * 20, l * 20);
		gen_buf_append(&b, line, (size_t)n);
	}
	if (govni_is(r, "ovni.tree.clock-offsets")) gen_buf_append(&b, "7 node7 12.0\n", 13);
	if (govni_is(r, "ovni.tree.clock-offsets-host")) gen_buf_append(&b, "9 nohost 0 0 0\n", 15);
	return add(out, "clock-offsets.txt", &b);
}

static int gen_tree_v3(const gen_params *p, gen_output *out)
{
	const char *r = p->break_rule;
	shape s = shape_of(p);
	unsigned nprocs = s.looms * s.procs, nstreams = nprocs * s.threads, idx = 0;
	for (unsigned l = 0; l < s.looms; l++)
		for (unsigned pr = 0; pr < s.procs; pr++)
			for (unsigned t = 0; t < s.threads; t++, idx++) {
				char loom[32], dir[128], name[160];
				loom_name(loom, sizeof loom, l);
				long long pid = 1000 + l * 100 + pr * 10, tid = pid + t;
				bool first_proc = l == 0 && pr == 0, last = idx + 1 == nstreams;
				govni_meta m = {.version = 3, .tid = tid, .pid = pid, .app_id = 1 + pr, .loom = loom,
						.rank = l * s.procs + pr, .nranks = nprocs, .with_app_id = true,
						.with_rank = true, .with_cpus = true, .ncpus = loom_cpus(&s), .require_nosv = true,
						.nosv_minor = 7 + p->minor};
				if (govni_is(r, "ovni.tree.process-mismatch") && first_proc && t == 1) m.app_id = 2;
				if (govni_is(r, "ovni.tree.app-id-missing") && first_proc) m.with_app_id = false;
				if (govni_is(r, "ovni.tree.rank-partial") && first_proc) m.with_rank = false;
				if (govni_is(r, "ovni.tree.loom-cpus-missing") && l == 0) m.with_cpus = false;
				if (govni_is(r, "ovni.tree.loom-cpus-index") && l == 0) m.cpu_index_shift = 1;
				if (govni_is(r, "ovni.tree.loom-cpus-phyid") && first_proc && t == 1) m.cpu_phyid_clash = true;
				if (govni_is(r, "ovni.tree.model-not-required")) m.require_nosv = false;
				m.require_kernel = govni_is(r, "ovni.model.out-of-cpu") || govni_is(r, "ovni.model.state-repeated");
				m.require_openmp = govni_is(r, "ovni.model.body-nest~openmp");
				m.require_nanos6 = govni_is(r, "ovni.model.body-nest-deprecated");
				m.mark_decl = t == 0 ? 1 : 2; /* declarations merge over threads */
				m.mark_other_title = govni_is(r, "ovni.tree.mark-mismatch") && last;
				govni_stream st = {.seed = p->seed * 131 + idx, .nevents = s.events, .clock0 = CLOCK0 + idx * 1000,
						   .cpu = (int)(pr * s.threads + t), .tid = tid,
						   .header = true, .nosv_events = true, .mark_type = 3,
						   .undeclared_mark = govni_is(r, "ovni.tree.mark-undeclared") && last ? 7 : -1};
				if (govni_is(r, "ovni.tree.clock-gate") && last) st.clock0 += TWO_HOURS;
				if (govni_prefix(r, "ovni.model.") && last) st.model_brk = r;
				if (govni_is(r, "ovni.model.cpu-shared")) { /* the last thread runs on the loom's first CPU */
					st.steady = true;
					if (last) st.cpu = 0;
				}
				long long dtid = govni_is(r, "ovni.tree.dirname") && last ? tid + 5000 : tid;
				snprintf(dir, sizeof dir, "loom.%s/proc.%lld/thread.%lld", loom, pid, dtid);
				for (int copy = 0; copy < (govni_is(r, "ovni.tree.duplicate-tid") && idx == 0 ? 2 : 1); copy++) {
					if (copy) snprintf(dir, sizeof dir, "loom.%s/proc.%lld/dup", loom, pid);
					gen_buf jb = {0}, ob = {0};
					govni_write_meta(&m, &jb);
					govni_write_obs(&st, &ob);
					snprintf(name, sizeof name, "%s/stream.json", dir);
					if (govni_is(r, "ovni.tree.json-missing") && last) gen_buf_free(&jb);
					else if (!add(out, name, &jb)) return -1;
					snprintf(name, sizeof name, "%s/stream.obs", dir);
					if (govni_is(r, "ovni.tree.obs-missing") && last) gen_buf_free(&ob);
					else if (!add(out, name, &ob)) return -1;
				}
			}
	return write_clock_offsets(p, &s, out) ? 0 : -1;
}

/* v1 (version 1, thread.TID or thread.TID.obs, header optional) and v2
 * (version 2, thread.TID.json + thread.TID.obs). */
static int gen_tree_old(const gen_params *p, gen_output *out, int version)
{
	const char *r = p->break_rule;
	shape s = shape_of(p);
	if (r) s.looms = 1;
	unsigned nprocs = s.looms * s.procs, idx = 0;
	for (unsigned l = 0; l < s.looms; l++)
		for (unsigned pr = 0; pr < s.procs; pr++) {
			char loom[32], pdir[128], name[200];
			loom_name(loom, sizeof loom, l);
			long long pid = 1000 + l * 100 + pr * 10;
			bool last_proc = l + 1 == s.looms && pr + 1 == s.procs;
			snprintf(pdir, sizeof pdir, "loom.%s/%s.%lld", loom,
				 govni_is(r, "ovni.tree.v2-path") && last_proc ? "process" : "proc", pid);
			int pver = govni_is(r, "ovni.tree.mixed-versions") && last_proc ? 1 : version;
			unsigned ncpus = pr == 0 || (govni_is(r, "ovni.tree.cpus-repeated") && last_proc) ? NCPUS : 0;
			gen_buf mb = {0};
			govni_write_proc(pver, 1 + pr, l * s.procs + pr, nprocs, ncpus, last_proc ? r : NULL, &mb);
			snprintf(name, sizeof name, "%s/metadata.json", pdir);
			if (govni_is(r, "ovni.tree.metadata-missing") && last_proc) gen_buf_free(&mb);
			else if (!add(out, name, &mb)) return -1;
			for (unsigned t = 0; t < s.threads; t++, idx++) {
				long long tid = pid + t;
				govni_stream st = {.seed = p->seed * 131 + idx, .nevents = s.events, .clock0 = CLOCK0 + idx * 1000,
						   .cpu = (int)(t % NCPUS), .tid = tid, .header = version == 2 || p->seed % 2 == 1, .nosv_events = true,
						   .newer_event = version == 1 && p->minor > 0, .mark_type = -1,
						   .undeclared_mark = -1}; /* marks came with trace version 3 */
				gen_buf ob = {0};
				govni_write_obs(&st, &ob);
				const char *ext = version == 1 && p->seed % 2 == 1 ? "" : ".obs";
				snprintf(name, sizeof name, "%s/thread.%lld%s", pdir, tid, ext);
				if (!add(out, name, &ob)) return -1;
				if (version != 2) continue;
				govni_meta m = {.version = 2, .require_nosv = true, .nosv_minor = 7 + p->minor};
				gen_buf jb = {0};
				govni_write_meta(&m, &jb);
				snprintf(name, sizeof name, "%s/thread.%lld.json", pdir, tid);
				if (!add(out, name, &jb)) return -1;
			}
		}
	return 0;
}

static int generate(const gen_params *p, gen_output *out, char *err, size_t errlen)
{
	const char *what = p->what;
	if (govni_is(what, "ovni-stream")) {
		govni_stream st = {.seed = p->seed, .nevents = shape_of(p).events, .clock0 = CLOCK0, .tid = 4242, .header = true,
				   .nosv_events = true, .newer_event = p->minor > 0, .mark_type = 3,
				   .undeclared_mark = -1, .brk = p->break_rule};
		gen_buf b = {0};
		govni_write_obs(&st, &b);
		return add(out, "stream.obs", &b) ? 0 : -1;
	}
	if (govni_is(what, "ovni-json")) {
		govni_meta m = {.version = 3, .tid = 4242, .pid = 4242, .app_id = 1, .loom = "node0.ovni", .rank = 0,
				.nranks = 1, .with_app_id = true, .with_rank = true, .with_cpus = true, .ncpus = NCPUS,
				.require_nosv = true, .nosv_minor = 7 + p->minor, .mark_decl = 1, .brk = p->break_rule};
		gen_buf b = {0};
		govni_write_meta(&m, &b);
		return add(out, "stream.json", &b) ? 0 : -1;
	}
	out->is_set = true;
	if (govni_is(what, "ovni-trace-runtime") && !govni_runtime_shape(p, err, errlen)) return -1;
	int rc = govni_is(what, "ovni-trace") ? gen_tree_v3(p, out)
		 : govni_is(what, "ovni-trace-mix") ? govni_gen_mix(p, out)
		 : govni_is(what, "ovni-trace-runtime") ? govni_gen_runtime(p, out)
		 : govni_is(what, "ovni-trace-v2") ? gen_tree_old(p, out, 2)
						     : gen_tree_old(p, out, 1);
	if (rc) snprintf(err, errlen, "out of memory or more than %d files", GEN_MAX_FILES);
	return rc;
}

static bool can_break(const char *what, const char *rule_id, enum hv_edition edition)
{
	(void)edition;
	if (govni_is(what, "ovni-stream")) return govni_prefix(rule_id, "ovni.obs.");
	if (govni_is(what, "ovni-json"))
		return govni_prefix(rule_id, "ovni.json.") && !govni_is(rule_id, "ovni.json.model-version");
	if (govni_is(what, "ovni-trace"))
		return (govni_prefix(rule_id, "ovni.tree.") && !in_list(old_tree_rules, rule_id)) ||
		       govni_prefix(rule_id, "ovni.model.");
	if (govni_is(what, "ovni-trace-v2")) return in_list(old_tree_rules, rule_id);
	if (govni_is(what, "ovni-trace-v1")) return govni_is(rule_id, "ovni.json.model-version"); /* v1 only */
	return false;
}

const gen_family gen_family_ovni = {"ovni", whats, generate, can_break, false};
