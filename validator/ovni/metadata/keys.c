/* Per-key rules of the metadata documents: the "ovni" object of stream.json
 * (v3) and thread.TID.json (v2), and the process metadata.json (v1/v2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "doc.h"

#define LOOM_MAX 511

static const cJSON *get(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

/* "MAJOR.MINOR.PATCH", each a non-negative decimal; after the patch number
 * only the end, or '-' or '.' followed by anything (ovniemu's parser). */
static bool parse_semver(const char *s, unsigned v[3])
{
	if (strlen(s) >= 64) return false;
	for (int i = 0; i < 3; i++) {
		if (*s < '0' || *s > '9') return false;
		unsigned long x = 0;
		while (*s >= '0' && *s <= '9') {
			x = x * 10 + (unsigned long)(*s++ - '0');
			if (x > 1000000000ul) return false;
		}
		v[i] = (unsigned)x;
		if (i < 2) {
			if (*s != '.') return false;
			s++;
		}
	}
	return *s == '\0' || *s == '-' || *s == '.';
}

static void check_require(jctx *c, const cJSON *ovni)
{
	const cJSON *req = get(ovni, "require");
	bool present = req != NULL;
	/* v2 threads without require ran in compatibility mode (all models on). */
	if (c->kind == OVNI_DOC_THREAD2 && !present) {
		c->m->required = (1u << OVNI_NMODELS) - 1;
		return;
	}
	if (!hv_eval(c->r, HV_R_OVNI_JSON_REQUIRE_MISSING, present)) {
		jemit(c, HV_R_OVNI_JSON_REQUIRE_MISSING, HV_SEV_ERROR, "ovni",
		      "missing key \"ovni.require\" (the thread did not finish, or the writer predates trace version 3)");
		return;
	}
	c->m->has_require = true;
	if (!hv_eval(c->r, HV_R_OVNI_JSON_REQUIRE_SYNTAX, cJSON_IsObject(req))) {
		jemit(c, HV_R_OVNI_JSON_REQUIRE_SYNTAX, HV_SEV_ERROR, "ovni.require",
		      "\"ovni.require\" is not an object of model name -> version string");
		return;
	}
	for (const cJSON *k = req->child; k; k = k->next) {
		char jp[HV_PATH_MAX];
		const char *name = k->string ? k->string : "";
		snprintf(jp, sizeof jp, "ovni.require.%s", name);
		unsigned v[3];
		bool ok = cJSON_IsString(k) && parse_semver(k->valuestring, v);
		if (!hv_eval(c->r, HV_R_OVNI_JSON_REQUIRE_SYNTAX, ok)) {
			jemit(c, HV_R_OVNI_JSON_REQUIRE_SYNTAX, HV_SEV_ERROR, jp,
			      "required version of model \"%.40s\" is %s%.40s%s, want a \"MAJOR.MINOR.PATCH\" string", name,
			      cJSON_IsString(k) ? "\"" : "", cJSON_IsString(k) ? k->valuestring : "not a string",
			      cJSON_IsString(k) ? "\"" : "");
			continue;
		}
		int m = ovni_model_by_name(name);
		if (!hv_eval(c->r, HV_R_OVNI_JSON_REQUIRE_UNKNOWN_MODEL, m >= 0)) {
			jemit(c, HV_R_OVNI_JSON_REQUIRE_UNKNOWN_MODEL, HV_SEV_WARNING, jp,
			      "model \"%.40s\" is not one of ovni 1.14's models (nanos6 nodes kernel mpi ovni openmp tampi nosv)",
			      name);
			continue;
		}
		const ovni_model *mo = &ovni_models[m];
		if (!hv_eval(c->r, HV_R_OVNI_JSON_REQUIRE_MAJOR, v[0] == mo->major)) {
			jemit(c, HV_R_OVNI_JSON_REQUIRE_MAJOR, HV_SEV_ERROR, jp,
			      "requires %s %u.%u.%u; the known version is %u.%u.%u (major versions must be equal)", name, v[0],
			      v[1], v[2], mo->major, mo->minor, mo->patch);
			continue;
		}
		c->m->required |= 1u << m;
		if (!hv_eval(c->r, HV_R_OVNI_JSON_REQUIRE_MINOR_NEWER, v[1] <= mo->minor))
			jemit(c, HV_R_OVNI_JSON_REQUIRE_MINOR_NEWER, HV_SEV_WARNING, jp,
			      "requires %s %u.%u.%u, newer than the known %u.%u.%u: events it added are not checked", name,
			      v[0], v[1], v[2], mo->major, mo->minor, mo->patch);
	}
}

static void check_lib(jctx *c, const cJSON *ovni)
{
	const cJSON *lib = get(ovni, "lib");
	const cJSON *ver = cJSON_IsObject(lib) ? get(lib, "version") : NULL;
	const cJSON *com = cJSON_IsObject(lib) ? get(lib, "commit") : NULL;
	bool ok = cJSON_IsString(ver) && cJSON_IsString(com);
	if (!hv_eval(c->r, HV_R_OVNI_JSON_LIB, ok))
		jemit(c, HV_R_OVNI_JSON_LIB, HV_SEV_ERROR, !lib ? "ovni" : "ovni.lib",
		      "\"ovni.lib\" must be an object with the strings \"version\" and \"commit\"%s",
		      !lib ? " (missing)" : !cJSON_IsString(ver) ? " (version missing or not a string)"
							 : " (commit missing or not a string)");
}

/* A positive integer id (tid, pid). */
static bool check_id(jctx *c, const cJSON *o, const char *key, const char *jpath, int rule, int64_t *v)
{
	const cJSON *it = get(o, key);
	bool num = it && jint(c, it, jpath, v);
	if (!hv_eval(c->r, rule, num && *v > 0)) {
		if (!it) jemit(c, rule, HV_SEV_ERROR, "ovni", "missing key \"%s\"", jpath);
		else if (!num) jemit(c, rule, HV_SEV_ERROR, jpath, "\"%s\" is not a number", jpath);
		else jemit(c, rule, HV_SEV_ERROR, jpath, "\"%s\" is %lld, want a positive integer", jpath, (long long)*v);
		return false;
	}
	return true;
}

static void check_loom(jctx *c, const cJSON *ovni)
{
	const cJSON *it = get(ovni, "loom");
	const char *s = cJSON_IsString(it) ? it->valuestring : NULL;
	size_t n = s ? strlen(s) : 0;
	bool ok = s && n > 0 && n <= LOOM_MAX && !strchr(s, '/');
	if (!hv_eval(c->r, HV_R_OVNI_JSON_LOOM, ok)) {
		if (!it) jemit(c, HV_R_OVNI_JSON_LOOM, HV_SEV_ERROR, "ovni", "missing key \"ovni.loom\"");
		else if (!s) jemit(c, HV_R_OVNI_JSON_LOOM, HV_SEV_ERROR, "ovni.loom", "\"ovni.loom\" is not a string");
		else if (n == 0) jemit(c, HV_R_OVNI_JSON_LOOM, HV_SEV_ERROR, "ovni.loom", "\"ovni.loom\" is empty");
		else if (n > LOOM_MAX)
			jemit(c, HV_R_OVNI_JSON_LOOM, HV_SEV_ERROR, "ovni.loom", "\"ovni.loom\" has %zu bytes, at most %d",
			      n, LOOM_MAX);
		else jemit(c, HV_R_OVNI_JSON_LOOM, HV_SEV_ERROR, "ovni.loom", "loom name \"%.60s\" contains '/'", s);
		return;
	}
	c->m->has_loom = true;
	memcpy(c->m->loom, s, n + 1);
}

/* app_id, rank, nranks: optional keys of object `o`; `pre` is "ovni." or "". */
static void check_process_keys(jctx *c, const cJSON *o, const char *pre)
{
	char jp[64];
	const cJSON *app = get(o, "app_id");
	if (app) {
		snprintf(jp, sizeof jp, "%sapp_id", pre);
		int64_t v = 0;
		bool num = jint(c, app, jp, &v);
		if (!hv_eval(c->r, HV_R_OVNI_JSON_APP_ID, num && v > 0)) {
			if (num) jemit(c, HV_R_OVNI_JSON_APP_ID, HV_SEV_ERROR, jp, "\"%s\" is %lld, want > 0", jp, (long long)v);
			else jemit(c, HV_R_OVNI_JSON_APP_ID, HV_SEV_ERROR, jp, "\"%s\" is not a number", jp);
		} else {
			c->m->has_app_id = true;
			c->m->app_id = v;
		}
	}
	const cJSON *rank = get(o, "rank"), *nranks = get(o, "nranks");
	if (!rank) return; /* nranks alone is ignored by the readers */
	int64_t rv = 0, nv = 0;
	char jr[64], jn[64];
	snprintf(jr, sizeof jr, "%srank", pre);
	snprintf(jn, sizeof jn, "%snranks", pre);
	bool rnum = jint(c, rank, jr, &rv);
	bool nnum = nranks && jint(c, nranks, jn, &nv);
	const char *why = NULL;
	const char *where = jr;
	if (!rnum) why = "rank is not a number";
	else if (rv < 0) why = "rank is negative";
	else if (!nranks) why = "rank without nranks";
	else if (!nnum) why = "nranks is not a number", where = jn;
	else if (nv <= 0) why = "nranks must be > 0", where = jn;
	else if (rv >= nv) why = "rank must be lower than nranks";
	if (!hv_eval(c->r, HV_R_OVNI_JSON_RANK, why == NULL)) {
		jemit(c, HV_R_OVNI_JSON_RANK, HV_SEV_ERROR, where, "%s (rank %lld, nranks %lld)", why, (long long)rv,
		      (long long)nv);
		return;
	}
	c->m->has_rank = c->m->has_nranks = true;
	c->m->rank = rv;
	c->m->nranks = nv;
}

void ovni_json_check_cpus(jctx *c, const cJSON *arr, const char *jpath)
{
	size_t n = (size_t)cJSON_GetArraySize(arr);
	/* Present, even if broken: the loom is not reported as CPU-less too. */
	c->m->has_cpus = true;
	if (!hv_eval(c->r, HV_R_OVNI_JSON_LOOM_CPUS, cJSON_IsArray(arr) && n > 0)) {
		jemit(c, HV_R_OVNI_JSON_LOOM_CPUS, HV_SEV_ERROR, jpath, "\"%s\" is %s, want a non-empty array of {index, phyid}",
		      jpath, cJSON_IsArray(arr) ? "empty" : "not an array");
		return;
	}
	ovni_cpu *cpus = hv_calloc(n, sizeof *cpus);
	if (!cpus) return;
	size_t k = 0, i = 0, from = 0;
	bool all_ok = true, positions = true;
	for (const cJSON *e = arr->child; e; e = e->next, i++) {
		char jp[HV_PATH_MAX];
		snprintf(jp, sizeof jp, "%s[%zu]", jpath, i);
		int64_t idx = 0, phy = 0;
		const char *why = NULL;
		if (!cJSON_IsObject(e)) why = "is not an object";
		else {
			char ji[HV_PATH_MAX + 8], jy[HV_PATH_MAX + 8];
			snprintf(ji, sizeof ji, "%s.index", jp);
			snprintf(jy, sizeof jy, "%s.phyid", jp);
			const cJSON *ix = get(e, "index"), *py = get(e, "phyid");
			if (!ix || !jint(c, ix, ji, &idx)) why = "has no numeric \"index\"";
			else if (!py || !jint(c, py, jy, &phy)) why = "has no numeric \"phyid\"";
			else if (idx < 0) why = "has a negative index";
			else if (phy < 0) why = "has a negative phyid";
		}
		if (!hv_eval(c->r, HV_R_OVNI_JSON_LOOM_CPUS, why == NULL)) {
			jemit(c, HV_R_OVNI_JSON_LOOM_CPUS, HV_SEV_ERROR, jp, "CPU entry %zu %s (index %lld, phyid %lld)", i, why,
			      (long long)idx, (long long)phy);
			all_ok = false;
			continue;
		}
		uint64_t off = 0;
		/* Entries are recorded in document order: search forward, and give
		 * up on positions after a miss rather than rescan. */
		if (positions) positions = ovni_jdoc_find_next(&c->doc, jp, &from, &off);
		cpus[k++] = (ovni_cpu){idx, phy, off, c->b->name};
	}
	(void)all_ok;
	c->m->cpus = cpus;
	c->m->ncpus = k;
	ovni_jdoc_find(&c->doc, jpath, 0, &c->m->off_cpus, &(uint64_t){0});
}

static void note_off(jctx *c, const char *jpath, uint64_t *off)
{
	uint64_t len;
	if (!ovni_jdoc_find(&c->doc, jpath, 0, off, &len)) *off = 0;
}

void ovni_json_check_stream(jctx *c, const cJSON *root)
{
	const cJSON *ovni = get(root, "ovni");
	const cJSON *part = cJSON_IsObject(ovni) ? get(ovni, "part") : NULL;
	bool v2 = c->kind == OVNI_DOC_THREAD2;
	if (!v2) {
		if (!hv_eval(c->r, HV_R_OVNI_JSON_PART, cJSON_IsString(part))) {
			jemit(c, HV_R_OVNI_JSON_PART, HV_SEV_ERROR, part ? "ovni.part" : ovni ? "ovni" : "",
			      "\"ovni.part\" is %s; want a string such as \"thread\"", part ? "not a string" : "missing");
			return;
		}
		if (!hv_eval(c->r, HV_R_OVNI_JSON_PART_UNKNOWN, strcmp(part->valuestring, "thread") == 0)) {
			c->m->part_unknown = true;
			snprintf(c->m->part, sizeof c->m->part, "%s", part->valuestring);
			jemit(c, HV_R_OVNI_JSON_PART_UNKNOWN, HV_SEV_WARNING, "ovni.part",
			      "part \"%.60s\" is not \"thread\"; ovniemu ignores the stream", part->valuestring);
			return;
		}
	} else if (!cJSON_IsObject(ovni)) {
		hv_eval(c->r, HV_R_OVNI_JSON_LIB, false);
		jemit(c, HV_R_OVNI_JSON_LIB, HV_SEV_ERROR, "", "missing object \"ovni\" with lib, require and finished");
		return;
	}
	const cJSON *fin = get(ovni, "finished");
	int64_t fv = 0;
	bool fnum = fin && jint(c, fin, "ovni.finished", &fv);
	if (!hv_eval(c->r, HV_R_OVNI_JSON_FINISHED, fnum && fv == 1))
		jemit(c, HV_R_OVNI_JSON_FINISHED, v2 ? HV_SEV_WARNING : HV_SEV_ERROR, fin ? "ovni.finished" : "ovni",
		      "\"ovni.finished\" is %s, want 1: the thread did not end with ovni_thread_free()",
		      !fin ? "missing" : !fnum ? "not a number" : "not 1");
	check_require(c, ovni);
	check_lib(c, ovni);
	if (v2) return; /* v2 threads take tid, pid and loom from their path */
	c->m->has_tid = check_id(c, ovni, "tid", "ovni.tid", HV_R_OVNI_JSON_TID, &c->m->tid);
	c->m->has_pid = check_id(c, ovni, "pid", "ovni.pid", HV_R_OVNI_JSON_PID, &c->m->pid);
	check_loom(c, ovni);
	check_process_keys(c, ovni, "ovni.");
	const cJSON *cpus = get(ovni, "loom_cpus");
	if (cpus) ovni_json_check_cpus(c, cpus, "ovni.loom_cpus");
	const cJSON *mark = get(ovni, "mark");
	if (mark) ovni_json_check_mark(c, mark);
	note_off(c, "ovni.tid", &c->m->off_tid);
	note_off(c, "ovni.pid", &c->m->off_pid);
	note_off(c, "ovni.loom", &c->m->off_loom);
	note_off(c, "ovni.app_id", &c->m->off_app_id);
	note_off(c, "ovni.rank", &c->m->off_rank);
}

/* Every libovni 1.0-1.4 wrote this string, and their readers strcmp it. */
#define OVNI_V1_MODEL_VERSION "O1 V1 T1 M1 D1 K1 61"

static void check_model_version(jctx *c, const cJSON *root)
{
	const cJSON *mv = get(root, "model_version");
	bool str = cJSON_IsString(mv);
	if (hv_eval(c->r, HV_R_OVNI_JSON_MODEL_VERSION, str && strcmp(mv->valuestring, OVNI_V1_MODEL_VERSION) == 0))
		return;
	if (!mv)
		jemit(c, HV_R_OVNI_JSON_MODEL_VERSION, HV_SEV_ERROR, "",
		      "missing key \"model_version\" (want \"" OVNI_V1_MODEL_VERSION "\"): v1 readers refuse the process");
	else if (!str)
		jemit(c, HV_R_OVNI_JSON_MODEL_VERSION, HV_SEV_ERROR, "model_version",
		      "\"model_version\" is not a string (want \"" OVNI_V1_MODEL_VERSION "\"): v1 readers crash on it");
	else
		jemit(c, HV_R_OVNI_JSON_MODEL_VERSION, HV_SEV_ERROR, "model_version",
		      "\"model_version\" is \"%.60s\", want \"" OVNI_V1_MODEL_VERSION
		      "\" (libovni 1.0-1.4 wrote it and compared it exactly)",
		      mv->valuestring);
}

void ovni_json_check_proc(jctx *c, const cJSON *root)
{
	if (c->m->version == 1) check_model_version(c, root);
	check_process_keys(c, root, "");
	const cJSON *cpus = get(root, "cpus");
	if (cpus) ovni_json_check_cpus(c, cpus, "cpus");
	note_off(c, "app_id", &c->m->off_app_id);
	note_off(c, "rank", &c->m->off_rank);
}
