/* The shared HPCToolkit database model (see model.h). Everything is
 * built iteratively (no recursion) so a 1,000,000-deep chain is as cheap as
 * a wide tree. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"SUMMARY", "NODE", "RANK", "THREAD", "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"};

static const hpctk_scope std_scopes[] = {
	{"point", HPCTK_SCOPE_POINT, 255},
	{"function", HPCTK_SCOPE_TRANSITIVE, 0},
	{"lex_aware", HPCTK_SCOPE_CUSTOM, 255},
	{"execution", HPCTK_SCOPE_EXECUTION, 255},
};

static const char *const metric_names[] = {"cpu-time", "cycles", "instructions", "gpu-kernel-time", "l1-misses",
					   "bytes-sent", "gpu-ops", "branch-misses"};

static const struct {
	const char *formula;
	uint8_t combine;
} summary_kinds[] = {{"$$", HPCTK_COMBINE_SUM}, {"$$", HPCTK_COMBINE_MIN}, {"$$", HPCTK_COMBINE_MAX}, {"$$^2", HPCTK_COMBINE_SUM}};

static const char *const entry_names[] = {"unknown entry", "main thread", "application thread"};

uint64_t hpctk_mix(uint64_t a, uint64_t b)
{
	uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2));
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Names of generated objects (heap copies the model owns). */
static char *module_path(unsigned i)
{
	char tmp[64];
	if (i == 0) return strdup("/opt/app/bin/app");
	snprintf(tmp, sizeof tmp, "/usr/lib64/libsim%u.so.%u", i, 1 + i % 3);
	return strdup(tmp);
}
static char *file_path(unsigned i)
{
	char tmp[64];
	if (i % 4 == 3) snprintf(tmp, sizeof tmp, "src/kernels/k%u.cu", i); /* relative to the database */
	else snprintf(tmp, sizeof tmp, "/home/user/app/src/part%u.c", i);
	return strdup(tmp);
}
static char *function_name(unsigned i, bool gpu)
{
	char tmp[64];
	if (gpu) snprintf(tmp, sizeof tmp, "<gpu kernel %u>", i);
	else snprintf(tmp, sizeof tmp, "solver_step_%u", i);
	return strdup(tmp);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return x < y ? -1 : x > y;
}

#define FAIL(...)                                         \
	do {                                              \
		snprintf(err, errlen, __VA_ARGS__);       \
		return -1;                                \
	} while (0)

static int build_metrics(hpctk_model *m, unsigned nmetrics, bool plain, gen_rng *rng, char *err, size_t errlen)
{
	m->n_scopes = 4;
	m->scopes = malloc(sizeof std_scopes);
	m->metrics = calloc(nmetrics, sizeof *m->metrics);
	m->prop_metric_ids = calloc((size_t)nmetrics * 4, sizeof(uint16_t));
	m->stat_metric_ids = calloc((size_t)nmetrics * 16, sizeof(uint16_t));
	if (!m->scopes || !m->metrics || !m->prop_metric_ids || !m->stat_metric_ids) FAIL("out of memory");
	memcpy(m->scopes, std_scopes, sizeof std_scopes);
	m->n_metrics = nmetrics;
	uint32_t base = 0;
	for (unsigned k = 0; k < nmetrics; k++) {
		hpctk_metric *md = &m->metrics[k];
		const size_t nnames = sizeof metric_names / sizeof *metric_names;
		char tmp[64];
		if (k < nnames) snprintf(tmp, sizeof tmp, "%s", metric_names[k]);
		else snprintf(tmp, sizeof tmp, "%s.%u", metric_names[k % nnames], k);
		md->name = strdup(tmp);
		/* A random non-empty subset of the scopes, in scope order; most
		 * metrics have all four like hpcprof's. Every one keeps the
		 * execution scope and a function or point scope, and every scope
		 * the statistic hpcprof always gives it, the sum of $$, first:
		 * so its Sum variant has an inclusive and an exclusive formula,
		 * the one hatchet's v4 reader needs of every metric. */
		unsigned mask = gen_below(rng, 3) ? 0xf : (unsigned)(1 + gen_below(rng, 15));
		mask |= 8u;
		if (!(mask & 3u)) mask |= 2u;
		if (plain) { /* bits: point, function, lex_aware (custom), execution */
			mask &= ~4u;
			if (mask & 0xau || mask == 0) mask |= 1u;
		}
		md->insts = calloc(4, sizeof *md->insts);
		md->summaries = calloc(16, sizeof *md->summaries);
		if (!md->name || !md->insts || !md->summaries) FAIL("out of memory");
		for (unsigned s = 0; s < 4; s++) {
			if (!(mask & (1u << s))) continue;
			unsigned i = md->n_insts++;
			md->insts[i].scope = (uint16_t)s;
			md->insts[i].prop_metric_id = (uint16_t)(base + i);
			unsigned nsum = 1 + (unsigned)gen_below(rng, 4);
			(void)gen_below(rng, 4); /* the draw that chose the first statistic: kept, so the stream is */
			unsigned first = 0;
			for (unsigned j = 0; j < nsum; j++) {
				hpctk_summary *su = &md->summaries[md->n_summaries];
				su->scope = (uint16_t)s;
				su->formula = summary_kinds[(first + j) % 4].formula;
				su->combine = summary_kinds[(first + j) % 4].combine;
				su->stat_metric_id = (uint16_t)(base + md->n_summaries);
				su->inst = (uint16_t)i;
				md->n_summaries++;
			}
		}
		for (unsigned i = 0; i < md->n_insts; i++) m->prop_metric_ids[m->n_prop_metric_ids++] = md->insts[i].prop_metric_id;
		for (unsigned i = 0; i < md->n_summaries; i++)
			m->stat_metric_ids[m->n_stat_metric_ids++] = md->summaries[i].stat_metric_id;
		/* hpcprof hands out ids per metric from one counter: prop and stat
		 * ids of a metric start at the same base and overlap. */
		base += md->n_insts > md->n_summaries ? md->n_insts : md->n_summaries;
		base += (uint32_t)gen_below(rng, 2); /* an occasional unused id */
		if (base > 0xffff) FAIL("too many metrics: metric ids are u16");
	}
	qsort(m->prop_metric_ids, m->n_prop_metric_ids, sizeof(uint16_t), cmp_u16);
	qsort(m->stat_metric_ids, m->n_stat_metric_ids, sizeof(uint16_t), cmp_u16);
	m->prop_lookup_len = m->stat_lookup_len = (size_t)base + 1;
	m->prop_owner = malloc(m->prop_lookup_len * sizeof(uint32_t));
	m->prop_inst = malloc(m->prop_lookup_len * sizeof(uint32_t));
	m->stat_owner = malloc(m->stat_lookup_len * sizeof(uint32_t));
	m->stat_summary = malloc(m->stat_lookup_len * sizeof(uint32_t));
	if (!m->prop_owner || !m->prop_inst || !m->stat_owner || !m->stat_summary) FAIL("out of memory");
	for (size_t i = 0; i <= base; i++) m->prop_owner[i] = m->prop_inst[i] = m->stat_owner[i] = m->stat_summary[i] = HPCTK_NONE;
	for (unsigned k = 0; k < nmetrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		for (unsigned i = 0; i < md->n_insts; i++) {
			m->prop_owner[md->insts[i].prop_metric_id] = k;
			m->prop_inst[md->insts[i].prop_metric_id] = i;
		}
		for (unsigned i = 0; i < md->n_summaries; i++) {
			m->stat_owner[md->summaries[i].stat_metric_id] = k;
			m->stat_summary[md->summaries[i].stat_metric_id] = i;
		}
	}
	return 0;
}

static int build_objects(hpctk_model *m, unsigned nmod, unsigned nfile, unsigned nfunc, gen_rng *rng, char *err,
			 size_t errlen)
{
	m->modules = calloc(nmod, sizeof *m->modules);
	m->files = calloc(nfile, sizeof *m->files);
	m->functions = calloc(nfunc, sizeof *m->functions);
	if (!m->modules || !m->files || !m->functions) FAIL("out of memory");
	m->n_modules = nmod;
	m->n_files = nfile;
	m->n_functions = nfunc;
	for (unsigned i = 0; i < nmod; i++) {
		m->modules[i].path = module_path(i);
		if (!m->modules[i].path) FAIL("out of memory");
	}
	for (unsigned i = 0; i < nfile; i++) {
		m->files[i].path = file_path(i);
		m->files[i].flags = gen_below(rng, 2) ? 1u : 0u;
		if (!m->files[i].path) FAIL("out of memory");
	}
	for (unsigned i = 0; i < nfunc; i++) {
		hpctk_function *f = &m->functions[i];
		unsigned r = (unsigned)gen_below(rng, 10);
		/* named, as every real hpcprof database's functions are (readers trip
		 * on pName 0: metadb.functions.reader-hazard-unnamed breaks one) */
		f->name = function_name(i, r == 1);
		if (!f->name) FAIL("out of memory");
		f->module = gen_below(rng, 5) ? (uint32_t)gen_below(rng, nmod) : HPCTK_NONE;
		f->offset = f->module != HPCTK_NONE ? 0x1000 + 0x40 * gen_below(rng, 1u << 20) : 0;
		f->file = (gen_below(rng, 10) < 7 || (!f->name && f->module == HPCTK_NONE)) ? (uint32_t)gen_below(rng, nfile)
											    : HPCTK_NONE;
		f->line = f->file != HPCTK_NONE ? 1 + (uint32_t)gen_below(rng, 5000) : 0;
	}
	return 0;
}

/* The attributes of one context, from the observed hpcprof combinations. */
static void shape_ctx(const hpctk_model *m, hpctk_ctx *c, bool top, gen_rng *rng)
{
	unsigned kind = top ? 0 : (unsigned)gen_below(rng, 100);
	if (kind < 35) {
		c->lexical_type = HPCTK_LEX_FUNCTION;
		c->relation = top || gen_below(rng, 10) < 7 ? HPCTK_REL_CALL : HPCTK_REL_INLINED_CALL;
		c->flags = gen_below(rng, 10) ? HPCTK_CTX_HAS_FUNCTION : 0; /* 0: unknown function */
	} else if (kind < 55) {
		c->lexical_type = HPCTK_LEX_LOOP;
		c->relation = HPCTK_REL_LEXICAL;
		c->flags = gen_below(rng, 4) ? HPCTK_CTX_HAS_SRCLOC : HPCTK_CTX_HAS_SRCLOC | HPCTK_CTX_HAS_POINT;
	} else if (kind < 80) {
		c->lexical_type = HPCTK_LEX_LINE;
		c->relation = HPCTK_REL_LEXICAL;
		c->flags = HPCTK_CTX_HAS_SRCLOC;
	} else {
		c->lexical_type = HPCTK_LEX_INSTRUCTION;
		c->relation = HPCTK_REL_CALL;
		c->flags = HPCTK_CTX_HAS_POINT;
	}
	c->n_flex_words = 0;
	if (c->flags & HPCTK_CTX_HAS_FUNCTION) {
		c->function = (uint32_t)gen_below(rng, m->n_functions);
		c->n_flex_words += 1;
	}
	if (c->flags & HPCTK_CTX_HAS_SRCLOC) {
		c->file = (uint32_t)gen_below(rng, m->n_files);
		c->line = 1 + (uint32_t)gen_below(rng, 5000);
		c->n_flex_words += 2;
	}
	if (c->flags & HPCTK_CTX_HAS_POINT) {
		c->module = (uint32_t)gen_below(rng, m->n_modules);
		c->offset = 0x400000 + gen_below(rng, 1u << 24);
		c->n_flex_words += 2;
	}
	c->propagation = c->relation == HPCTK_REL_LEXICAL ? 1 : 0;
}

/* Each item's place in a depth-first post-order walk (items: the entries,
 * then the contexts in level order; entries in order, children in order),
 * without recursion: the stack holds one frame per level. */
static uint32_t *post_order(const hpctk_model *m, uint32_t depth)
{
	const uint32_t ne = m->n_entries;
	uint32_t *post = malloc(((size_t)ne + m->n_ctx) * sizeof *post);
	struct frame {
		uint32_t item, next;
	} *st = malloc(((size_t)depth + 2) * sizeof *st);
	if (!post || !st) {
		free(post);
		free(st);
		return NULL;
	}
	uint32_t k = 0;
	for (uint32_t e = 0; e < ne; e++) {
		size_t sp = 0;
		st[sp++] = (struct frame){e, 0};
		while (sp) {
			struct frame *f = &st[sp - 1];
			uint32_t first = f->item < ne ? m->entries[f->item].first_child : m->ctx[f->item - ne].first_child;
			uint32_t nch = f->item < ne ? m->entries[f->item].n_children : m->ctx[f->item - ne].n_children;
			if (f->next < nch) {
				uint32_t child = ne + first + f->next++;
				st[sp++] = (struct frame){child, 0};
			} else {
				post[f->item] = k++;
				sp--;
			}
		}
	}
	free(st);
	return post;
}

static int build_tree(hpctk_model *m, uint32_t n, uint32_t depth, unsigned ids, gen_rng *rng, char *err, size_t errlen)
{
	/* Level sizes: every level non-empty (so the depth is exact), the
	 * rest spread at random. Contexts are laid out level by level. */
	uint32_t *level = calloc(depth, sizeof *level);
	m->ctx = calloc(n, sizeof *m->ctx);
	if (!level || !m->ctx) {
		free(level);
		FAIL("out of memory: %u contexts", n);
	}
	m->n_ctx = n;
	m->depth = depth;
	for (uint32_t l = 0; l < depth; l++) level[l] = 1;
	for (uint32_t i = depth; i < n; i++) {
		/* Favour shallow levels a little, as real trees are bushy near the top. */
		uint64_t a = gen_below(rng, depth), b = gen_below(rng, depth);
		level[a < b ? a : b]++;
	}
	unsigned ne = 1 + (unsigned)gen_below(rng, 3);
	if (ne > level[0]) ne = level[0];
	m->n_entries = (uint16_t)ne;
	m->entries = calloc(ne, sizeof *m->entries);
	if (!m->entries) {
		free(level);
		FAIL("out of memory");
	}
	for (unsigned e = 0; e < ne; e++) {
		unsigned kind = e == 0 ? HPCTK_ENTRY_MAIN_THREAD : (e == 1 ? HPCTK_ENTRY_APP_THREAD : HPCTK_ENTRY_UNKNOWN);
		m->entries[e].kind = (uint16_t)kind;
		m->entries[e].pretty_name = entry_names[kind];
	}
	/* Parents: each context of level l picks a random parent on level
	 * l-1 (an entry point for level 0); counting the picks per parent and
	 * handing out index ranges keeps every sibling group contiguous. */
	uint32_t start = 0, prev_start = 0, prev_n = ne;
	for (uint32_t l = 0; l < depth; l++) {
		uint32_t cnt = level[l];
		/* First child index of each parent = start + running count. */
		uint32_t *picks = calloc(prev_n, sizeof *picks);
		if (!picks) {
			free(level);
			FAIL("out of memory");
		}
		for (uint32_t p = 0; p < prev_n && p < cnt; p++) picks[p] = l == 0 ? 1 : 0; /* entries: at least one child */
		uint32_t fixed = l == 0 ? prev_n : 0;
		for (uint32_t i = fixed; i < cnt; i++) picks[gen_below(rng, prev_n)]++;
		uint32_t at = start;
		for (uint32_t p = 0; p < prev_n; p++) {
			if (l == 0) {
				m->entries[p].first_child = at;
				m->entries[p].n_children = picks[p];
			} else {
				m->ctx[prev_start + p].first_child = picks[p] ? at : 0;
				m->ctx[prev_start + p].n_children = picks[p];
			}
			for (uint32_t k = 0; k < picks[p]; k++) {
				hpctk_ctx *c = &m->ctx[at + k];
				c->parent = l == 0 ? HPCTK_NONE : prev_start + p;
				c->entry = l == 0 ? p : m->ctx[prev_start + p].entry;
				shape_ctx(m, c, l == 0, rng);
			}
			at += picks[p];
		}
		free(picks);
		prev_start = start;
		prev_n = cnt;
		start += cnt;
	}
	free(level);
	/* ctxIds: a bijection i -> 1 + (a*i + b) mod span over a span half as
	 * large again as needed: unique, non-zero, gappy, in no tree order. */
	uint64_t total = (uint64_t)ne + n, span = total + total / 2 + 7;
	uint64_t a = 1 + gen_below(rng, span - 1), b = gen_below(rng, span);
	while (gcd64(a, span) != 1) a++;
	m->n_ctx_ids = (size_t)total;
	m->ctx_ids_sorted = malloc(m->n_ctx_ids * sizeof(uint32_t));
	if (!m->ctx_ids_sorted) FAIL("out of memory");
	uint32_t *post = ids == GEN_IDS_POSTORDER ? post_order(m, depth) : NULL;
	if (ids == GEN_IDS_POSTORDER && !post) FAIL("out of memory");
	for (uint64_t i = 0; i < total; i++) {
		uint32_t id = (uint32_t)(1 + (a % span * (i % span) + b) % span);
		/* the other orders: the same span, holes spread evenly (the step
		 * is at least 1: span > total); levels: ids falling in
		 * breadth-first order; post-order: rising along it */
		if (ids == GEN_IDS_LEVELS) id = (uint32_t)(1 + (total - 1 - i) * span / total);
		if (post) id = (uint32_t)(1 + (uint64_t)post[i] * span / total);
		if (i < ne) m->entries[i].ctx_id = id;
		else m->ctx[i - ne].ctx_id = id;
		m->ctx_ids_sorted[i] = id;
		if (id > m->max_ctx_id) m->max_ctx_id = id;
	}
	free(post);
	qsort(m->ctx_ids_sorted, m->n_ctx_ids, sizeof(uint32_t), cmp_u32);
	return 0;
}

static void build_profiles(hpctk_model *m, unsigned threads, unsigned trace_len, gen_rng *rng)
{
	unsigned per_rank = 1 + (unsigned)gen_below(rng, 3), ranks_per_node = 1 + (unsigned)gen_below(rng, 2);
	for (unsigned k = 0; k < threads; k++) {
		hpctk_profile *pr = &m->profiles[k + 1];
		unsigned thread = k % per_rank, rank = k / per_rank, node = rank / ranks_per_node;
		pr->ids[0] = (hpctk_id){HPCTK_KIND_NODE, 1, node, 0x7f000101u + 0x100u * node};
		pr->ids[1] = (hpctk_id){HPCTK_KIND_RANK, 0, rank, rank};
		bool gpu = threads > 2 && k == threads - 1;
		if (gpu) {
			pr->ids[2] = (hpctk_id){HPCTK_KIND_GPUCONTEXT, 0, 0, 0};
			pr->ids[3] = (hpctk_id){HPCTK_KIND_GPUSTREAM, 0, thread, thread};
			pr->n_ids = 4;
		} else {
			pr->ids[2] = (hpctk_id){HPCTK_KIND_THREAD, 0, thread, thread};
			pr->n_ids = 3;
		}
		/* Some variety in trace lengths; a GPU stream may have none. */
		pr->trace_len = gpu && gen_below(rng, 2) ? 0 : trace_len - (uint32_t)gen_below(rng, trace_len / 4 + 1);
	}
	m->profiles[0].is_summary = true;
}

int hpctk_model_build(hpctk_model *m, const gen_params *p, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	m->seed = p->seed;
	m->edition = p->edition == HV_EDITION_DRAFT ? HV_EDITION_DRAFT : HV_EDITION_RELEASE;
	unsigned n = p->contexts ? p->contexts : HPCTK_DEFAULT_CONTEXTS;
	unsigned depth = p->depth ? p->depth : (n < HPCTK_DEFAULT_DEPTH ? n : HPCTK_DEFAULT_DEPTH);
	if (depth > n) FAIL("depth %u is larger than the number of contexts %u", depth, n);
	if (n > 100000000u) FAIL("at most 100,000,000 contexts");
	unsigned nmetrics = p->metrics ? p->metrics : HPCTK_DEFAULT_METRICS;
	unsigned nmod = p->modules ? p->modules : HPCTK_DEFAULT_MODULES;
	unsigned nfile = p->files ? p->files : HPCTK_DEFAULT_FILES;
	unsigned nfunc = p->functions ? p->functions : HPCTK_DEFAULT_FUNCTIONS;
	unsigned threads = p->profiles ? p->profiles : HPCTK_DEFAULT_PROFILES;
	unsigned tlen = p->trace_len ? p->trace_len : HPCTK_DEFAULT_TRACE_LEN;
	if (threads > 10000000u) FAIL("at most 10,000,000 profiles");
	gen_rng rng = {hpctk_mix(p->seed, 0x6d6f64656cull)};

	m->title = "hpcvet golden database";
	m->description = "Synthetic HPCToolkit database written by hpcvet-gen from the v4.0 specification.";
	m->n_kinds = 8;
	m->kind_names = kind_names;
	int rc = build_metrics(m, nmetrics, p->plain_metrics, &rng, err, errlen);
	if (rc == 0) rc = build_objects(m, nmod, nfile, nfunc, &rng, err, errlen);
	if (rc == 0) rc = build_tree(m, n, depth, p->ctx_ids, &rng, err, errlen);
	if (rc == 0) {
		m->n_profiles = threads + 1;
		m->profiles = calloc(m->n_profiles, sizeof *m->profiles);
		if (!m->profiles) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		} else
			build_profiles(m, threads, tlen, &rng);
	}
	m->trace_t0 = 1700000000000000000ull + (p->seed % 1000) * 1000000000ull;
	m->trace_period = 1000000; /* 1 ms between samples */
	if (rc != 0) hpctk_model_free(m);
	return rc;
}

void hpctk_model_free(hpctk_model *m)
{
	for (uint32_t k = 0; m->metrics && k < m->n_metrics; k++) {
		free(m->metrics[k].name);
		free(m->metrics[k].insts);
		free(m->metrics[k].summaries);
	}
	for (uint32_t i = 0; m->modules && i < m->n_modules; i++) free(m->modules[i].path);
	for (uint32_t i = 0; m->files && i < m->n_files; i++) free(m->files[i].path);
	for (uint32_t i = 0; m->functions && i < m->n_functions; i++) free(m->functions[i].name);
	free(m->scopes);
	free(m->metrics);
	free(m->prop_metric_ids);
	free(m->stat_metric_ids);
	free(m->prop_owner);
	free(m->prop_inst);
	free(m->stat_owner);
	free(m->stat_summary);
	free(m->modules);
	free(m->files);
	free(m->functions);
	free(m->entries);
	free(m->ctx);
	free(m->ctx_ids_sorted);
	free(m->profiles);
	memset(m, 0, sizeof *m);
}
