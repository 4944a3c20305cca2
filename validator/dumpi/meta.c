/* The .meta file and the trace as a whole: a folder (or a .meta path, which
 * the CLI expands to its folder) holding <fileprefix>.meta and the rank
 * files <fileprefix>-NNNN.bin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "core/units.h"
#include "dumpi.h"
#include "dumpi/mpi/layer.h"

#define META_MAX (1u << 20) /* libdumpi writes ~150 bytes; more is not a .meta */

enum { K_HOSTNAME, K_NUMPROCS, K_USERNAME, K_STARTIME, K_FILEPREFIX, K_VERSION, K_SUBVERSION, K_SUBSUB, K_COUNT };
static const char *const key_names[K_COUNT] = {"hostname", "numprocs", "username", "startime",
					       "fileprefix", "version", "subversion", "subsubversion"};

typedef struct meta_info {
	bool have[K_COUNT];
	char value[K_COUNT][256];
	uint64_t num[K_COUNT];
	bool num_ok[K_COUNT];
} meta_info;

static bool read_text(hv_blob *b, char **out, size_t *len)
{
	size_t n = b->size < META_MAX ? (size_t)b->size : META_MAX;
	char *t = hv_malloc(n + 1);
	if (!t) return false;
	if (!hv_blob_read(b, 0, t, n)) {
		free(t);
		return false;
	}
	t[n] = '\0';
	*out = t;
	*len = n;
	return true;
}

bool dumpi_sniff_meta(hv_blob *b)
{
	if (b->size == 0 || b->size > META_MAX) return false;
	/* A NUL among the first bytes is no text, whatever follows (the test
	 * below, strlen(t) == n, says the same): a rank file (its magic holds
	 * one) is refused from the bytes every file's sniffs read, without
	 * reading all of it. */
	uint8_t head[16];
	size_t hn = b->size < sizeof head ? (size_t)b->size : sizeof head;
	if (!hv_blob_read(b, 0, head, hn)) return false;
	if (memchr(head, 0, hn)) return false;
	char *t;
	size_t n;
	if (!read_text(b, &t, &n)) return false;
	bool ok = strlen(t) == n && (strncmp(t, "numprocs=", 9) == 0 || strstr(t, "\nnumprocs=")) &&
		  (strncmp(t, "fileprefix=", 11) == 0 || strstr(t, "\nfileprefix="));
	free(t);
	return ok;
}

static bool parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	if (!*s) return false;
	uint64_t x = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9') return false;
		if (x > (max - (uint64_t)(*s - '0')) / 10) return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

static void check_value(hv_blob *b, hv_report *r, meta_info *m, int k, uint64_t at, size_t len)
{
	uint64_t max = k == K_NUMPROCS ? 0x7fffffffu : k == K_STARTIME ? UINT64_MAX : 255;
	bool ok = parse_u64(m->value[k], max, &m->num[k]) && !(k == K_NUMPROCS && m->num[k] == 0);
	m->num_ok[k] = ok;
	if (!hv_eval(r, HV_R_DUMPI_META_VALUE, ok))
		hv_emit(r, HV_R_DUMPI_META_VALUE, b->name, at, len, key_names[k],
			"%s='%s' is not a decimal number in [%d, %llu]", key_names[k], m->value[k], k == K_NUMPROCS,
			(unsigned long long)max);
}

static void parse_meta(hv_blob *b, hv_report *r, meta_info *m)
{
	memset(m, 0, sizeof *m);
	char *t;
	size_t n;
	if (!read_text(b, &t, &n)) return;
	size_t pos = 0;
	unsigned lineno = 0;
	while (pos < n) {
		size_t end = pos;
		while (end < n && t[end] != '\n') end++;
		size_t len = end - pos;
		char *line = t + pos;
		char path[40];
		snprintf(path, sizeof path, "line[%u]", ++lineno);
		char *eq = memchr(line, '=', len);
		if (!hv_eval(r, HV_R_DUMPI_META_LINE_SYNTAX, eq && eq != line && !memchr(line, '\0', len))) {
			hv_emit(r, HV_R_DUMPI_META_LINE_SYNTAX, b->name, pos, len, path,
				"line %u (%zu bytes) is not key=value", lineno, len);
		} else {
			size_t klen = (size_t)(eq - line), vlen = len - klen - 1;
			int k = -1;
			bool misspelt = klen == 9 && memcmp(line, "starttime", 9) == 0;
			for (int i = 0; i < K_COUNT; i++)
				if (strlen(key_names[i]) == klen && memcmp(line, key_names[i], klen) == 0) k = i;
			if (misspelt) k = K_STARTIME;
			if (!hv_eval(r, HV_R_DUMPI_META_STARTTIME_SPELLING, !misspelt))
				hv_emit(r, HV_R_DUMPI_META_STARTTIME_SPELLING, b->name, pos, klen, path,
					"key 'starttime'; libdumpi writes 'startime' (one t), which other tools look for");
			if (!hv_eval(r, HV_R_DUMPI_META_KEY_UNKNOWN, k >= 0)) {
				hv_emit(r, HV_R_DUMPI_META_KEY_UNKNOWN, b->name, pos, klen, path,
					"unknown key '%.*s'", (int)(klen > 60 ? 60 : klen), line);
			} else if (!hv_eval(r, HV_R_DUMPI_META_KEY_DUPLICATE, !m->have[k])) {
				hv_emit(r, HV_R_DUMPI_META_KEY_DUPLICATE, b->name, pos, len, path,
					"key '%s' appears again", key_names[k]);
			} else {
				m->have[k] = true;
				size_t c = vlen < sizeof m->value[k] - 1 ? vlen : sizeof m->value[k] - 1;
				memcpy(m->value[k], eq + 1, c);
				m->value[k][c] = '\0';
				if (k != K_HOSTNAME && k != K_USERNAME && k != K_FILEPREFIX)
					check_value(b, r, m, k, pos + klen + 1, vlen);
			}
		}
		pos = end + 1;
	}
	for (int k = 0; k < K_COUNT; k++)
		if (!hv_eval(r, HV_R_DUMPI_META_KEY_MISSING, m->have[k]))
			hv_emit(r, HV_R_DUMPI_META_KEY_MISSING, b->name, 0, 0, key_names[k], "key '%s' is missing",
				key_names[k]);
	free(t);
}

static void meta_check_file(const hv_options *opt, hv_blob *b, hv_report *r)
{
	(void)opt;
	meta_info m;
	parse_meta(b, r, &m);
}

const hv_format hv_format_dumpi_meta = {
	.name = "dumpi .meta",
	.file_name = NULL,
	.sniff = dumpi_sniff_meta,
	.check = meta_check_file,
};

/* ---- the trace as a whole ---- */

static bool same_dir(const char *a, const char *b)
{
	size_t la = (size_t)(hv_basename(a) - a), lb = (size_t)(hv_basename(b) - b);
	return la == lb && memcmp(a, b, la) == 0;
}

/* The rank of "<prefix>-NNNN.bin" (at least 4 digits), or -1. */
static long rank_of(const char *name, const char *prefix)
{
	const char *base = hv_basename(name);
	size_t pl = strlen(prefix);
	if (strncmp(base, prefix, pl) != 0 || base[pl] != '-') return -1;
	const char *d = base + pl + 1;
	size_t nd = 0;
	long v = 0;
	while (d[nd] >= '0' && d[nd] <= '9' && nd < 9) v = v * 10 + (d[nd] - '0'), nd++;
	if (nd < 4 || strcmp(d + nd, ".bin") != 0) return -1;
	return v;
}

/* One rank file checked into its own report (see check_trace). */
typedef struct bin_job {
	const hv_options *opt;
	hv_blob *b;
	hv_report rep;
	dumpi_bin_info info;
	mpi_rank *mpi;
} bin_job;

static void bin_task(void *ctx, size_t i)
{
	bin_job *j = &((bin_job *)ctx)[i];
	dumpi_check_bin_mpi(j->opt, j->b, &j->rep, &j->info, &j->mpi);
}

/* A rank file is a unit (core/units.h); its summary is its bin_info. */
static hv_report *bin_report(void *ctx, size_t i) { return &((bin_job *)ctx)[i].rep; }
static hv_blob *bin_blob(void *ctx, size_t i) { return ((bin_job *)ctx)[i].b; }
static uint64_t bin_size(void *ctx, size_t i) { return ((bin_job *)ctx)[i].b->size; }

/* The summary: the bin_info (no pointers, and every process runs the same
 * binary: it travels as its bytes, so fields added to it later travel too),
 * then the rank's MPI summary (mpi/wire.c). */
static void bin_save(void *ctx, size_t i, hv_wbuf *w)
{
	bin_job *j = &((bin_job *)ctx)[i];
	hv_put_bytes(w, &j->info, sizeof(dumpi_bin_info));
	mpi_rank_save(j->mpi, w);
}

/* The runner the cross-rank stage is partitioned over (NULL: every process
 * holds every rank whole): one that offers the stage's collectives. */
static hv_units_runner *stage_part(const hv_options *opt)
{
	return opt->units && opt->units->gather && opt->units->route ? opt->units : NULL;
}

/* A rank another process checked: a skeleton when the stage is partitioned. */
static bool bin_load(void *ctx, size_t i, hv_rbuf *r)
{
	bin_job *j = &((bin_job *)ctx)[i];
	bool ok;
	if (!hv_get_bytes(r, &j->info, sizeof(dumpi_bin_info))) return false;
	j->mpi = mpi_rank_load_as(r, j->b, &j->rep, stage_part(j->opt) != NULL, &ok);
	mpi_rank_set_options(j->mpi, j->opt);
	return ok;
}

/* The k-th rank file's size (hv_batch_len): files[ranks[k]]. */
typedef struct rank_sizes {
	const hv_blob *files;
	const size_t *ranks;
} rank_sizes;
static uint64_t rank_size_at(const void *ctx, size_t k)
{
	const rank_sizes *rs = ctx;
	return rs->files[rs->ranks[k]].size;
}

static void check_trace(const hv_options *opt, hv_blob *meta, hv_blob *files, size_t n, bool *used, hv_report *r)
{
	meta_info m;
	parse_meta(meta, r, &m);
	if (!m.have[K_FILEPREFIX] || !m.value[K_FILEPREFIX][0]) return;
	const char *base = hv_basename(meta->name);
	size_t pl = strlen(m.value[K_FILEPREFIX]);
	bool named = strncmp(base, m.value[K_FILEPREFIX], pl) == 0 && strcmp(base + pl, ".meta") == 0;
	if (!hv_eval(r, HV_R_DUMPI_META_FILEPREFIX, named))
		hv_emit(r, HV_R_DUMPI_META_FILEPREFIX, meta->name, 0, 0, "fileprefix",
			"fileprefix=%s but the file is named %s (libdumpi writes %s.meta)", m.value[K_FILEPREFIX], base,
			m.value[K_FILEPREFIX]);
	uint64_t nprocs = m.num_ok[K_NUMPROCS] ? m.num[K_NUMPROCS] : 0;
	uint64_t found = 0, beyond = 0;
	bool start_seen = false, any_header = false;
	long first_beyond = -1;
	/* The rank files, in order. With a runner (-j) a batch of them is checked
	 * ahead in parallel, each into its own report, and the reports are merged
	 * in rank-file order: the output does not depend on the number of jobs. */
	size_t *ranks = hv_malloc((n ? n : 1) * sizeof *ranks), nranks = 0;
	if (!ranks) {
		hv_report_internal(r, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!used[i] && same_dir(files[i].name, meta->name) && rank_of(files[i].name, m.value[K_FILEPREFIX]) >= 0)
			ranks[nranks++] = i;
	/* Over processes (hpcvet-mpi) batches are large: each is one exchange.
	 * With a runner (-j) hv_batch_len closes a batch at 8 MiB of rank
	 * files per job, at most 256 files: a wide trace of small rank files
	 * starts the threads once per batch, not once per handful of ranks
	 * (65,536 ranks at -j2 were 8,192 starts, now 256), and the reports
	 * waiting to be merged (19 KB each) stay within 5 MB. Without one,
	 * ranks are checked one at a time. */
	size_t batch = opt->units ? 1024u : opt->runner ? 256u : 1;
	rank_sizes rs = {files, ranks};
	bin_job *jobs = hv_calloc(batch, sizeof *jobs);
	/* each rank's MPI summary, for the cross-rank stage (mpi/match.c) */
	mpi_rank **mpis = hv_calloc(nranks ? nranks : 1, sizeof *mpis);
	if (!jobs || !mpis) {
		free(jobs);
		free(mpis);
		free(ranks);
		hv_report_internal(r, "out of memory");
		return;
	}
	for (size_t at = 0, nb; at < nranks; at += nb) {
		rs.ranks = ranks + at;
		nb = hv_batch_len(opt, nranks - at, batch, rank_size_at, &rs);
		for (size_t k = 0; k < nb; k++) {
			jobs[k].opt = opt;
			jobs[k].b = &files[ranks[at + k]];
			memset(&jobs[k].info, 0, sizeof jobs[k].info);
			hv_report_init(&jobs[k].rep, r->input_path, r->max_diags);
			jobs[k].mpi = NULL;
		}
		hv_units u = {.n = nb, .ctx = jobs, .check = bin_task, .report = bin_report, .save = bin_save,
			      .load = bin_load, .blob = bin_blob, .size = bin_size};
		hv_run_units(opt, &u);
		for (size_t k = 0; k < nb; k++) {
			size_t i = ranks[at + k];
			long rank = rank_of(files[i].name, m.value[K_FILEPREFIX]);
			used[i] = true;
			mpis[at + k] = jobs[k].mpi;
			if (jobs[k].mpi) mpi_rank_set_world_rank(jobs[k].mpi, rank);
			dumpi_bin_info info = jobs[k].info;
			hv_report_merge(r, &jobs[k].rep);
			hv_report_free(&jobs[k].rep);
			if ((uint64_t)rank < nprocs) found++;
			else if (beyond++ == 0) first_beyond = rank;
			if (!info.header_ok) continue;
			any_header = true;
			start_seen |= m.num_ok[K_STARTIME] && info.starttime == m.num[K_STARTIME];
			bool vok = m.num_ok[K_VERSION] && m.num_ok[K_SUBVERSION] && m.num_ok[K_SUBSUB];
			bool same = info.version[0] == m.num[K_VERSION] && info.version[1] == m.num[K_SUBVERSION] &&
				    info.version[2] == m.num[K_SUBSUB];
			if (vok && !hv_eval(r, HV_R_DUMPI_META_VERSION, same))
				hv_emit(r, HV_R_DUMPI_META_VERSION, files[i].name, info.off[DS_HEADER], 3, "header/version",
					"rank %ld header version %u.%u.%u differs from %s (%llu.%llu.%llu)", rank,
					info.version[0], info.version[1], info.version[2], hv_basename(meta->name),
					(unsigned long long)m.num[K_VERSION], (unsigned long long)m.num[K_SUBVERSION],
					(unsigned long long)m.num[K_SUBSUB]);
		}
	}
	free(jobs);
	mpi_trace_check_over(opt, r, mpis, nranks, nprocs, stage_part(opt));
	for (size_t k = 0; k < nranks; k++) mpi_rank_free(mpis[k]);
	free(mpis);
	free(ranks);
	char beyond_text[64] = ""; /* the first rank file past numprocs, if any */
	if (beyond) snprintf(beyond_text, sizeof beyond_text, ", and a file for rank %ld", first_beyond);
	if (m.num_ok[K_NUMPROCS] && !hv_eval(r, HV_R_DUMPI_META_NUMPROCS, found == nprocs && beyond == 0))
		hv_emit(r, HV_R_DUMPI_META_NUMPROCS, meta->name, 0, 0, "numprocs",
			"numprocs=%llu but %llu of the rank files %s-0000.bin.. were found%s", (unsigned long long)nprocs,
			(unsigned long long)found, m.value[K_FILEPREFIX], beyond_text);
	if (m.num_ok[K_STARTIME] && any_header && !hv_eval(r, HV_R_DUMPI_META_STARTIME, start_seen))
		hv_emit(r, HV_R_DUMPI_META_STARTIME, meta->name, 0, 0, "startime",
			"startime=%llu is the header starttime of no rank", (unsigned long long)m.num[K_STARTIME]);
}

static bool dumpi_claims(hv_blob *b) { return dumpi_sniff_bin(b) || dumpi_sniff_meta(b); }

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void dumpi_check_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r)
{
	/* the summary says when findings unrecorded calls may explain are warnings */
	snprintf(r->format, sizeof r->format, "%s", opt && opt->dumpi_replay ? "dumpi trace (--mpi-replay)" : "dumpi trace");
	bool *used = hv_calloc(n ? n : 1, sizeof *used);
	if (!used) {
		hv_report_internal(r, "out of memory");
		return;
	}
	/* A .meta named as the input restricts the check to that trace. */
	const char *only = r->input_path && ends_with(r->input_path, ".meta") ? hv_basename(r->input_path) : NULL;
	size_t metas = 0;
	for (size_t i = 0; i < n; i++) {
		/* The .meta named by the user is checked even when damaged beyond recognition. */
		if (only ? strcmp(hv_basename(files[i].name), only) != 0 : !dumpi_sniff_meta(&files[i])) continue;
		used[i] = true;
		metas++;
		uint64_t before[3];
		memcpy(before, r->count, sizeof before);
		check_trace(opt, &files[i], files, n, used, r);
		hv_report_add_part(r, hv_basename(files[i].name), before);
	}
	if (!only) {
		/* Rank files no .meta describes: each checked, then their MPI
		 * summaries together, as the ranks their names say, so that a
		 * whole trace without its .meta is still matched across ranks and
		 * a subset gets one note, not one per file. */
		size_t alone = 0;
		uint64_t before[3];
		memcpy(before, r->count, sizeof before);
		mpi_rank **mpis = hv_calloc(n ? n : 1, sizeof *mpis);
		if (!mpis) {
			hv_report_internal(r, "out of memory");
			free(used);
			return;
		}
		for (size_t i = 0; i < n; i++) {
			if (used[i] || !dumpi_sniff_bin(&files[i])) continue;
			dumpi_check_bin_mpi(opt, &files[i], r, NULL, &mpis[alone++]);
		}
		mpi_trace_check(opt, r, mpis, alone, 0);
		for (size_t k = 0; k < alone; k++) mpi_rank_free(mpis[k]);
		free(mpis);
		if (!hv_eval(r, HV_R_DUMPI_TRACE_META_MISSING, metas > 0 || alone == 0))
			hv_emit(r, HV_R_DUMPI_TRACE_META_MISSING, r->input_path, 0, 0, "",
				"%zu DUMPI .bin file(s) but no .meta file; they were validated as the ranks their names "
				"say, with the world size they recorded", alone);
		if (alone && metas) hv_report_add_part(r, "rank files without a .meta", before);
	}
	free(used);
}

const hv_family hv_family_dumpi = {
	.name = "dumpi",
	.claims = dumpi_claims,
	.check_set = dumpi_check_set,
};
