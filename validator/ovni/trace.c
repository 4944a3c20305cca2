/* The ovni family: a directory input. Finds every stream (v3: stream.json
 * with its sibling stream.obs, anywhere; v1/v2: loom.L/proc.PID/metadata.json
 * with thread.TID[.obs|.json]), checks each one, then the whole trace.
 * ovniemu's own outputs (*.prv, *.pcf, *.row, cfg/) are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"
#include "trace.h"

static const char *relpath(const hv_report *r, const char *name) { return ovni_relpath(r, name); }

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* "thread.<digits>" followed by `ext` exactly. */
static bool thread_name(const char *base, const char *ext, int64_t *tid)
{
	if (strncmp(base, "thread.", 7) != 0) return false;
	const char *p = base + 7;
	int64_t v = 0;
	if (*p < '0' || *p > '9') return false;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (v > 0x7fffffff) return false;
	}
	if (strcmp(p, ext) != 0) return false;
	*tid = v;
	return true;
}

/* The n-th directory component above `rel` (0 = the file's parent), copied
 * to out; false when there is none. */
static bool dir_up(const char *rel, int n, char *out, size_t outlen)
{
	const char *end = strrchr(rel, '/');
	for (int i = 0; i < n && end; i++) {
		const char *p = end;
		while (p > rel && p[-1] != '/') p--;
		end = p > rel ? p - 1 : NULL;
	}
	if (!end) return false;
	const char *start = end;
	while (start > rel && start[-1] != '/') start--;
	size_t len = (size_t)(end - start);
	if (len + 1 > outlen) len = outlen - 1;
	memcpy(out, start, len);
	out[len] = '\0';
	return true;
}

static bool parse_id(const char *s, int64_t *v)
{
	if (*s < '0' || *s > '9') return false;
	int64_t x = 0;
	while (*s >= '0' && *s <= '9') {
		x = x * 10 + (*s++ - '0');
		if (x > 0x7fffffff) return false;
	}
	*v = x;
	return *s == '\0';
}

static bool skipped(const char *rel)
{
	if (ends_with(rel, ".prv") || ends_with(rel, ".pcf") || ends_with(rel, ".row")) return true;
	return strncmp(rel, "cfg/", 4) == 0 || strstr(rel, "/cfg/") != NULL;
}

static bool starts_with_brace(hv_blob *b)
{
	uint8_t buf[64];
	size_t n = b->size < sizeof buf ? (size_t)b->size : sizeof buf;
	if (n == 0 || !hv_blob_read(b, 0, buf, n)) return false;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '{') return true;
		if (!strchr(" \t\r\n", buf[i]) || !buf[i]) return false;
	}
	return false;
}

/* By content and structure, never by a bare file name that another family
 * could own: an ovni binary stream, an ovni metadata document, or a v1
 * thread file inside a proc.PID directory. */
static bool ovni_claims(hv_blob *b)
{
	if (ovni_obs_sniff(b)) return true;
	const char *name = b->name ? b->name : "";
	const char *base = hv_basename(name);
	int64_t tid;
	if ((strcmp(base, "stream.json") == 0 || strcmp(base, "metadata.json") == 0 ||
	     thread_name(base, ".json", &tid)) && starts_with_brace(b))
		return true;
	char parent[64];
	return (thread_name(base, "", &tid) || thread_name(base, ".obs", &tid)) && dir_up(name, 0, parent, sizeof parent) &&
	       strncmp(parent, "proc.", 5) == 0;
}

/* Files sorted by name, for sibling lookups. */
typedef struct name_index {
	hv_blob **by_name;
	size_t n;
} name_index;

static int cmp_blob(const void *a, const void *b)
{
	return strcmp((*(hv_blob *const *)a)->name, (*(hv_blob *const *)b)->name);
}

static hv_blob *lookup(const name_index *ix, const char *name)
{
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, ix->by_name[mid]->name);
		if (c == 0) return ix->by_name[mid];
		if (c < 0) hi = mid;
		else lo = mid + 1;
	}
	return NULL;
}

/* `name` with its last component replaced by `base`. */
static hv_blob *sibling(const name_index *ix, const char *name, const char *base)
{
	char buf[4096];
	const char *slash = strrchr(name, '/');
	size_t dl = slash ? (size_t)(slash - name) + 1 : 0;
	if (dl + strlen(base) + 1 > sizeof buf) return NULL;
	memcpy(buf, name, dl);
	strcpy(buf + dl, base);
	return lookup(ix, buf);
}

static void dirname_checks(ovni_trace *t, ovni_stream *s)
{
	char d[600];
	int64_t v;
	const char *f = s->json->name;
	if (s->tid_ok && dir_up(s->json->name, 0, d, sizeof d) && strncmp(d, "thread.", 7) == 0) {
		bool ok = parse_id(d + 7, &v) && v == s->tid;
		if (!hv_eval(t->r, HV_R_OVNI_TREE_DIRNAME, ok))
			hv_emit(t->r, HV_R_OVNI_TREE_DIRNAME, f, s->meta.off_tid, 1, "stream.json/ovni.tid",
				"ovni.tid is %lld but the stream directory is %s", (long long)s->tid, d);
	}
	if (s->pid_ok && dir_up(s->json->name, 1, d, sizeof d) && strncmp(d, "proc.", 5) == 0) {
		bool ok = parse_id(d + 5, &v) && v == s->pid;
		if (!hv_eval(t->r, HV_R_OVNI_TREE_DIRNAME, ok))
			hv_emit(t->r, HV_R_OVNI_TREE_DIRNAME, f, s->meta.off_pid, 1, "stream.json/ovni.pid",
				"ovni.pid is %lld but the process directory is %s", (long long)s->pid, d);
	}
	if (s->loom_ok && dir_up(s->json->name, 2, d, sizeof d) && strncmp(d, "loom.", 5) == 0) {
		if (!hv_eval(t->r, HV_R_OVNI_TREE_DIRNAME, strcmp(d + 5, s->loom) == 0))
			hv_emit(t->r, HV_R_OVNI_TREE_DIRNAME, f, s->meta.off_loom, 1, "stream.json/ovni.loom",
				"ovni.loom is \"%.80s\" but the loom directory is %.100s", s->loom, d);
	}
}

static ovni_stream *add_stream(ovni_trace *t, size_t cap)
{
	if (t->ns >= cap) return NULL;
	ovni_stream *s = &t->s[t->ns++];
	memset(s, 0, sizeof *s);
	s->proc = -1;
	return s;
}

/* Streams are independent, so with a runner (-j) the binary streams of a
 * batch of files are checked ahead, in parallel, each into its own report;
 * the ordered walk below then merges each stream's report at the point
 * where it would have checked the stream, so the output is the same for any
 * number of jobs. A stream not found among the precomputed ones is checked
 * in place (same result, just not in parallel). */
typedef struct ahead_job {
	hv_blob *obs;
	bool headerless;
	bool used;
	hv_report rep;
	ovni_obs_summary sum;
} ahead_job;

typedef struct ovni_ahead {
	ahead_job *v;
	size_t n;
} ovni_ahead;

static void ahead_task(void *ctx, size_t i)
{
	ahead_job *j = &((ahead_job *)ctx)[i];
	ovni_check_obs(j->obs, &j->rep, j->headerless, &j->sum);
}

/* A stream is a unit (core/units.h); its summary is its ovni_obs_summary. */
static hv_report *ahead_report(void *ctx, size_t i) { return &((ahead_job *)ctx)[i].rep; }
static hv_blob *ahead_blob(void *ctx, size_t i) { return ((ahead_job *)ctx)[i].obs; }
static uint64_t ahead_size(void *ctx, size_t i) { return ((ahead_job *)ctx)[i].obs->size; }

/* The summary holds no pointers, and every process runs the same binary:
 * it travels as its bytes, so fields added to it later travel too. */
static void ahead_save(void *ctx, size_t i, hv_wbuf *w)
{
	hv_put_bytes(w, &((ahead_job *)ctx)[i].sum, sizeof(ovni_obs_summary));
}

static bool ahead_load(void *ctx, size_t i, hv_rbuf *r)
{
	return hv_get_bytes(r, &((ahead_job *)ctx)[i].sum, sizeof(ovni_obs_summary));
}

static void check_stream(ovni_trace *t, hv_blob *obs, bool headerless, ovni_obs_summary *sum)
{
	if (!headerless && ovni_fused_take(t, obs, sum)) return;
	for (size_t i = 0; t->ahead && i < t->ahead->n; i++) {
		ahead_job *j = &t->ahead->v[i];
		if (j->obs != obs || j->headerless != headerless || j->used) continue;
		j->used = true;
		hv_report_merge(t->r, &j->rep);
		*sum = j->sum;
		return;
	}
	ovni_check_obs(obs, t->r, headerless, sum);
}

static int proc_of(const ovni_trace *t, const char *name);
static bool thread_name(const char *base, const char *ext, int64_t *tid);

static void ahead_add(const ovni_trace *t, ovni_ahead *a, hv_report *r, hv_blob *obs, bool headerless)
{
	if (!headerless && ovni_fused_has(t, obs)) return; /* checked by the fused pass */
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].obs == obs) return; /* a second check of one file runs in place */
	ahead_job *j = &a->v[a->n++];
	memset(j, 0, sizeof *j);
	j->obs = obs;
	j->headerless = headerless;
	hv_report_init(&j->rep, r->input_path, r->max_diags);
}

/* Check ahead the streams the walk over ix[from, to) will check. */
static void ahead_run(const hv_options *opt, ovni_trace *t, const name_index *ix, ovni_ahead *a, size_t from,
		      size_t to)
{
	a->n = 0;
	for (size_t i = from; i < to; i++) {
		hv_blob *b = ix->by_name[i];
		const char *base = hv_basename(b->name);
		int64_t tid;
		if (strcmp(base, "stream.json") == 0) {
			hv_blob *obs = sibling(ix, b->name, "stream.obs");
			if (obs) ahead_add(t, a, t->r, obs, false);
		} else if (thread_name(base, ".obs", &tid) || thread_name(base, "", &tid)) {
			int pi = proc_of(t, b->name);
			if (pi >= 0) ahead_add(t, a, t->r, b, t->p[pi].meta.version == 1);
		}
	}
	hv_units u = {.n = a->n, .ctx = a->v, .check = ahead_task, .report = ahead_report, .save = ahead_save,
		      .load = ahead_load, .blob = ahead_blob, .size = ahead_size};
	hv_run_units(opt, &u);
}

static void ahead_clear(ovni_ahead *a)
{
	for (size_t i = 0; i < a->n; i++) hv_report_free(&a->v[i].rep);
	a->n = 0;
}

static void check_v3(ovni_trace *t, const name_index *ix, hv_blob *json, size_t cap)
{
	ovni_stream *s = add_stream(t, cap);
	if (!s) return;
	s->rel = relpath(t->r, json->name);
	s->json = json;
	s->version = 3;
	if (!ovni_fused_json(t, json, &s->meta)) ovni_check_json(json, t->r, OVNI_DOC_STREAM3, &s->meta);
	s->obs = sibling(ix, json->name, "stream.obs");
	if (!hv_eval(t->r, HV_R_OVNI_TREE_OBS_MISSING, s->obs != NULL))
		hv_emit(t->r, HV_R_OVNI_TREE_OBS_MISSING, json->name, 0, 0, "stream.json",
			"the stream has no stream.obs beside its stream.json (%s)", s->rel);
	if (s->obs) check_stream(t, s->obs, false, &s->sum);
	/* ovniemu ignores streams of other parts, but fails on their events. */
	if (s->meta.part_unknown && !hv_eval(t->r, HV_R_OVNI_JSON_PART_UNKNOWN, s->sum.nevents == 0))
		hv_emit_sev(t->r, HV_R_OVNI_JSON_PART_UNKNOWN, HV_SEV_ERROR, s->obs->name, 8, 12, s->rel,
			    "the stream of part \"%s\" holds %llu event(s); ovniemu fails (\"event from unknown stream\")",
			    s->meta.part, (unsigned long long)s->sum.nevents);
	ovni_stream_ids_from_meta(s);
	dirname_checks(t, s);
}

/* v1/v2: a process directory's metadata.json. */
static void check_proc(ovni_trace *t, hv_blob *json, size_t cap)
{
	if (t->np >= cap) return;
	ovni_proc *p = &t->p[t->np++];
	memset(p, 0, sizeof *p);
	p->json = json;
	ovni_check_json(json, t->r, OVNI_DOC_PROC, &p->meta);
	char d[600];
	if (dir_up(json->name, 0, d, sizeof d) && strncmp(d, "proc.", 5) == 0) p->pid_ok = parse_id(d + 5, &p->pid);
	if (dir_up(json->name, 1, d, sizeof d) && strncmp(d, "loom.", 5) == 0 && d[5]) {
		p->loom_ok = true;
		snprintf(p->loom, sizeof p->loom, "%.500s", d + 5);
	}
}

static int proc_of(const ovni_trace *t, const char *name)
{
	for (size_t i = 0; i < t->np; i++) {
		const char *m = t->p[i].json->name;
		const char *ms = strrchr(m, '/'), *ns = strrchr(name, '/');
		size_t ml = ms ? (size_t)(ms - m) : 0, nl = ns ? (size_t)(ns - name) : 0;
		if (ml == nl && strncmp(m, name, ml) == 0) return (int)i;
	}
	return -1;
}

/* v1/v2: a thread.TID[.obs] binary file. */
static void check_old_thread(ovni_trace *t, const name_index *ix, hv_blob *obs, int64_t tid, size_t cap)
{
	const char *rel = relpath(t->r, obs->name);
	int pi = proc_of(t, obs->name);
	if (!hv_eval(t->r, HV_R_OVNI_TREE_METADATA_MISSING, pi >= 0)) {
		hv_emit(t->r, HV_R_OVNI_TREE_METADATA_MISSING, obs->name, 0, 0, rel,
			"thread file %s has no metadata.json in its process directory", rel);
		return;
	}
	ovni_proc *p = &t->p[pi];
	ovni_stream *s = add_stream(t, cap);
	if (!s) return;
	s->rel = rel;
	s->obs = obs;
	s->proc = pi;
	s->version = p->meta.version == 1 ? 1 : 2;
	bool path_ok = p->pid_ok && p->loom_ok;
	if (!hv_eval(t->r, HV_R_OVNI_TREE_V2_PATH, path_ok))
		hv_emit(t->r, HV_R_OVNI_TREE_V2_PATH, obs->name, 0, 0, rel,
			"v%d thread file %s is not at loom.<loom>/proc.<pid>/thread.<tid>.obs", s->version, rel);
	if (s->version == 2) {
		char jb[80];
		snprintf(jb, sizeof jb, "thread.%lld.json", (long long)tid);
		s->json = sibling(ix, obs->name, jb);
		if (!hv_eval(t->r, HV_R_OVNI_TREE_JSON_MISSING, s->json != NULL))
			hv_emit(t->r, HV_R_OVNI_TREE_JSON_MISSING, obs->name, 0, 0, rel,
				"v2 thread file %s has no %s beside it", rel, jb);
		if (s->json) ovni_check_json(s->json, t->r, OVNI_DOC_THREAD2, &s->meta);
	}
	check_stream(t, obs, s->version == 1, &s->sum);
	s->tid = tid;
	s->tid_ok = true;
	s->pid = p->pid;
	s->pid_ok = p->pid_ok;
	s->loom_ok = p->loom_ok;
	memcpy(s->loom, p->loom, sizeof s->loom);
	s->thread = path_ok;
}

/* The k-th size of an array of blob pointers (hv_batch_len). */
static uint64_t blob_size_at(const void *ctx, size_t k) { return ((hv_blob *const *)ctx)[k]->size; }

static void ovni_check_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r)
{
	snprintf(r->format, sizeof r->format, "ovni trace");
	ovni_trace t = {.r = r, .all_models = opt->ovni_all_models};
	name_index ix = {hv_calloc(n ? n : 1, sizeof(hv_blob *)), 0};
	t.s = hv_calloc(n ? n : 1, sizeof *t.s);
	t.p = hv_calloc(n ? n : 1, sizeof *t.p);
	if (!ix.by_name || !t.s || !t.p) {
		hv_report_internal(r, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (files[i].name && !skipped(relpath(r, files[i].name))) ix.by_name[ix.n++] = &files[i];
	qsort(ix.by_name, ix.n, sizeof *ix.by_name, cmp_blob);
	/* Process metadata first: thread files look their process up. */
	for (size_t i = 0; i < ix.n; i++)
		if (strcmp(hv_basename(ix.by_name[i]->name), "metadata.json") == 0) check_proc(&t, ix.by_name[i], n);
	if (!t.np) { /* v3 streams only: the event model may run, so check its streams as it replays them */
		hv_blob **json = hv_malloc(ix.n * sizeof *json), **obs = hv_malloc(ix.n * sizeof *obs), *clk = NULL;
		size_t nj = 0;
		for (size_t i = 0; json && obs && i < ix.n; i++) {
			hv_blob *b = ix.by_name[i];
			if (strcmp(hv_basename(b->name), "stream.json") == 0) {
				json[nj] = b;
				obs[nj++] = sibling(&ix, b->name, "stream.obs");
			} else if (strcmp(relpath(r, b->name), "clock-offsets.txt") == 0) {
				clk = b;
			}
		}
		if (json && obs) ovni_fused_run(opt, &t, json, obs, nj, clk);
		free(json);
		free(obs);
	}
	/* Batches bound the memory of reports waiting to be merged (at most
	 * 1024 files); with threads, hv_batch_len closes one at 8 MiB of
	 * files per job, so 13,000 tiny threads of one process start the
	 * threads once per batch (they started 3,300 threads). */
	size_t batch = opt->units || opt->runner ? 1024u : 0;
	ovni_ahead ahead = {batch ? hv_calloc(batch, sizeof *ahead.v) : NULL, 0};
	if (ahead.v) t.ahead = &ahead;
	size_t next = 0;
	for (size_t i = 0; i < ix.n; i++) {
		if (ahead.v && i == next) {
			next = i + hv_batch_len(opt, ix.n - i, batch, blob_size_at, ix.by_name + i);
			ahead_clear(&ahead);
			ahead_run(opt, &t, &ix, &ahead, i, next);
		}
		hv_blob *b = ix.by_name[i];
		const char *base = hv_basename(b->name);
		int64_t tid;
		if (strcmp(base, "stream.json") == 0) {
			check_v3(&t, &ix, b, n);
		} else if (strcmp(base, "stream.obs") == 0) {
			if (!hv_eval(r, HV_R_OVNI_TREE_JSON_MISSING, sibling(&ix, b->name, "stream.json") != NULL))
				hv_emit(r, HV_R_OVNI_TREE_JSON_MISSING, b->name, 0, 0, relpath(r, b->name),
					"stream.obs without stream.json beside it: ovniemu ignores %s", relpath(r, b->name));
		} else if (thread_name(base, ".obs", &tid) || thread_name(base, "", &tid)) {
			check_old_thread(&t, &ix, b, tid, n);
		} else if (thread_name(base, ".json", &tid)) {
			char ob[80];
			snprintf(ob, sizeof ob, "thread.%lld.obs", (long long)tid);
			if (!hv_eval(r, HV_R_OVNI_TREE_OBS_MISSING, sibling(&ix, b->name, ob) != NULL))
				hv_emit(r, HV_R_OVNI_TREE_OBS_MISSING, b->name, 0, 0, relpath(r, b->name),
					"v2 thread metadata %s has no %s beside it", relpath(r, b->name), ob);
		} else if (strcmp(relpath(r, b->name), "clock-offsets.txt") == 0) {
			t.clkoff = b;
		}
	}
	ahead_clear(&ahead);
	free(ahead.v);
	t.ahead = NULL;
	snprintf(r->version, sizeof r->version, "%d", t.ns ? t.s[0].version : t.np ? t.p[0].meta.version : 3);
	ovni_tree_checks(&t);
out:
	for (size_t i = 0; t.s && i < t.ns; i++) ovni_meta_free(&t.s[i].meta);
	for (size_t i = 0; t.p && i < t.np; i++) ovni_meta_free(&t.p[i].meta);
	ovni_fused_free(&t);
	free(t.s);
	free(t.p);
	free(ix.by_name);
}

const hv_family hv_family_ovni = {
	.name = "ovni",
	.claims = ovni_claims,
	.check_set = ovni_check_set,
};
