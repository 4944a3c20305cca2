/* SST DUMPI writer: rank files (<prefix>-NNNN.bin) laid out as libdumpi does
 * (magic, biases, records, end label, header, footer, keyval, perf labels,
 * datatype sizes, function addresses, index) and the .meta file. Record
 * arguments are written from the validator's own layout table, so every
 * function id can be produced. `--break RULE` bends exactly one thing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "core/rules.h"
#include "dumpi/dumpi.h"
#include "dumpi/mpi/layer.h"
#include "../gen.h"
#include "program.h"

/* dumpi-bin-X.Y.Z: a rank file as a writer of that older version laid it
 * out (index without sizelbl before 0.6.6, without addrlbl before 0.4,
 * without perflbl before 0.3; version-dependent record fields). */
static const char *const whats[] = {"dumpi-bin", "dumpi-trace", "dumpi-bin-0.6.5", "dumpi-bin-0.3.0",
				    "dumpi-bin-0.2.0", NULL};

static bool is(const char *a, const char *b) { return a && strcmp(a, b) == 0; }

/* Everything a rank file's layout can vary in. */
typedef struct plan {
	const char *brk;
	uint8_t version[3];
	unsigned index_size;               /* 64, or 56/48/40 as pre-0.6.6 writers wrote it */
	uint64_t starttime;
	uint32_t cpu_bias, wall_bias;
	unsigned records, threads, perf;   /* perf = number of counters (0: none) */
	uint64_t span_s;                   /* spread the records over this many wall seconds (0: as they come) */
	bool all_functions;
	unsigned rank, nranks;
	uint64_t seed;
	unsigned in_flight, unmatched, request_calls, mpi_lib, pattern;
	bool unrecorded;
	gen_rng rng;
} plan;

typedef struct tclock { int64_t cpu_ns, wall_ns; } tclock;

static void be16(gen_buf *b, uint16_t v) { uint8_t t[2]; hv_put_be16(t, v); gen_buf_append(b, t, 2); }
static void be32(gen_buf *b, uint32_t v) { uint8_t t[4]; hv_put_be32(t, v); gen_buf_append(b, t, 4); }
static void be64(gen_buf *b, uint64_t v) { uint8_t t[8]; hv_put_be64(t, v); gen_buf_append(b, t, 8); }
static void str16(gen_buf *b, const char *s) { be16(b, (uint16_t)strlen(s)); gen_buf_append(b, s, strlen(s)); }
static void chararr(gen_buf *b, const char *s) { be32(b, (uint32_t)strlen(s)); gen_buf_append(b, s, strlen(s)); }

static void counted(gen_buf *b, gen_rng *g, unsigned width)
{
	unsigned n = (unsigned)gen_below(g, 4);
	be32(b, n);
	for (unsigned i = 0; i < n; i++) {
		uint8_t t[4] = {0, 0, 0, (uint8_t)gen_below(g, 50)};
		gen_buf_append(b, t + 4 - width, width);
	}
}

static void char_arrays(gen_buf *b, gen_rng *g)
{
	static const char *const words[] = {"./app", "-n", "input.dat", ""};
	unsigned n = (unsigned)gen_below(g, 3);
	be32(b, n);
	for (unsigned i = 0; i < n; i++) chararr(b, words[gen_below(g, 4)]);
}

static bool name_is(const dumpi_field *f, const char *n)
{
	return strlen(n) == f->name_len && memcmp(f->name, n, f->name_len) == 0;
}

/* Functions whose arrays libdumpi sizes by their `count` argument, and
 * whose reader (libundumpi, dumpi2ascii) relies on that: Group_range_incl/
 * excl (count rows of 3 ints) and Comm_spawn_multiple (commands, argvs,
 * maxprocs, info of count entries; errcodes of totprocs = sum of maxprocs).
 * Their count is drawn small and the arrays follow it, as libdumpi writes
 * them; validator/dumpi/format/shapes.c checks the same shapes. */
static bool count_bound(const dumpi_layout *L)
{
	for (unsigned i = 0; i < L->nfields; i++)
		if (L->fields[i].kind == 'J' || name_is(&L->fields[i], "argvs")) return true;
	return false;
}

/* The count-bound arrays of count_bound's functions; false for any other
 * field. `brk` is the shape rule this record bends, or NULL. */
static bool bound_array(gen_buf *b, gen_rng *g, const dumpi_field *f, uint32_t count, uint32_t totprocs,
			const char *brk)
{
	if (f->kind == 'J') { /* ranges: (first, last, stride) rows */
		be32(b, count);
		for (uint32_t j = 0; j < count; j++) {
			uint32_t n = is(brk, "dumpi.rec.range-triplet") && j == 1 ? 0 : 3; /* dumpi2ascii: NULL row */
			be32(b, n);
			for (uint32_t e = 0; e < n; e++) be32(b, e == 2 ? 1 : 2 * j);
		}
		return true;
	}
	if (name_is(f, "commands")) {
		be32(b, count);
		for (uint32_t j = 0; j < count; j++) chararr(b, "./worker");
		return true;
	}
	if (name_is(f, "argvs")) { /* MPI_ARGVS_NULL: libdumpi writes no rows */
		uint32_t n = is(brk, "dumpi.rec.reader-hazard-argvs-null") ? 0 : count;
		be32(b, n);
		for (uint32_t j = 0; j < n; j++) char_arrays(b, g);
		return true;
	}
	if (name_is(f, "maxprocs") || name_is(f, "errcodes")) { /* one process per command; MPI_SUCCESS */
		uint32_t n = name_is(f, "maxprocs") ? count : totprocs;
		be32(b, n);
		for (uint32_t j = 0; j < n; j++) be32(b, name_is(f, "maxprocs") ? 1 : 0);
		return true;
	}
	if (name_is(f, "info")) { /* MPI_INFO_NULL each */
		uint32_t n = count + (is(brk, "dumpi.rec.spawn-array-length") ? 1 : 0);
		be32(b, n);
		for (uint32_t j = 0; j < n; j++) be16(b, 0);
		return true;
	}
	return false;
}

/* The arguments of one record, field by field from the layout table.
 * `corrupt` makes the first counted field claim far more than exists. */
static void write_args(gen_buf *b, gen_rng *g, const dumpi_layout *L, uint8_t mask, const uint8_t ver[3],
		       bool corrupt, const gm_rec *ov)
{
	uint32_t rank = 0, root = 0;
	bool have_rank = false, have_root = false;
	bool bound = count_bound(L);
	uint32_t count = 0;
	size_t totprocs_at = 0;
	bool have_totprocs = false;
	for (unsigned i = 0; i < L->nfields; i++) {
		const dumpi_field *f = &L->fields[i];
		if (f->root_only && !(have_rank && have_root && rank == root)) continue;
		char k = f->kind;
		if (corrupt && strchr("IHBCDEJxy", k)) {
			be32(b, 0x7fffffffu);
			return;
		}
		/* values the MPI program chose, else neutral ones (program.c) */
		int64_t val = ov && ov->set[i] ? ov->v[i] : gen_mpi_neutral(f, g);
		if (bound && k == 'i' && name_is(f, "count")) {
			if (!(ov && ov->set[i])) val = 1 + (int64_t)gen_below(g, 2);
			count = (uint32_t)val;
		}
		if (bound && k == 'i' && name_is(f, "totprocs")) { /* known once count is: patched below */
			totprocs_at = b->len;
			have_totprocs = true;
		}
		/* the root's totprocs: one process per command (maxprocs of 1) */
		uint32_t totprocs = have_rank && have_root && rank == root ? count : 0;
		if (bound && strchr("JDEIH", k) && bound_array(b, g, f, count, totprocs, ov ? ov->shape_break : NULL))
			continue;
		if (ov && ov->aset[i] && (k == 'I' || k == 'H')) {
			be32(b, ov->alen[i]);
			for (unsigned j = 0; j < ov->alen[i]; j++)
				if (k == 'I') be32(b, (uint32_t)ov->arr[i][j]);
				else be16(b, (uint16_t)ov->arr[i][j]);
			continue;
		}
		if (ov && ov->aset[i] && k == 'S') {
			if (!(mask & DUMPI_MASK_STATUS)) continue;
			be32(b, ov->alen[i]);
			for (unsigned j = 0; j < ov->alen[i]; j++) {
				be32(b, (uint32_t)(j ? 0 : ov->bytes));
				be32(b, (uint32_t)ov->arr[i][2 * j]);
				gen_buf_append(b, (uint8_t[2]){ov->cancelled, 0}, 2);
				if (dumpi_version_at_least(ver, 0, 6, 3)) be32(b, (uint32_t)ov->arr[i][2 * j + 1]);
			}
			continue;
		}
		if (k == 'I' && name_is(f, "requests")) { /* MPI_REQUEST_NULL entries: nothing to complete */
			unsigned n = (unsigned)gen_below(g, 4);
			be32(b, n);
			for (unsigned j = 0; j < n; j++) be32(b, 1);
			continue;
		}
		switch (k) {
		case 'b': gen_buf_append(b, (uint8_t[1]){(uint8_t)val}, 1); break;
		case 'h': be16(b, (uint16_t)val); break;
		case 'i': be32(b, (uint32_t)val); break;
		case 'q': be64(b, (uint64_t)val); break;
		case 'r': rank = (uint32_t)val; have_rank = true; be32(b, rank); break;
		case 't': root = (uint32_t)val; have_root = true; be32(b, root); break;
		case 'I': counted(b, g, 4); break;
		case 'x': /* one u32 before 0.6.9 (Type_struct indices), before 0.6.8 (Cart_get coords) */
		case 'y':
			if (dumpi_version_at_least(ver, 0, 6, k == 'x' ? 9 : 8)) counted(b, g, 4);
			else be32(b, (uint32_t)gen_below(g, 50));
			break;
		case 'H': counted(b, g, 2); break;
		case 'B': counted(b, g, 1); break;
		case 'C': chararr(b, gen_below(g, 2) ? "comm-name" : ""); break;
		case 'D': char_arrays(b, g); break;
		case 'E': {
			unsigned n = (unsigned)gen_below(g, 3);
			be32(b, n);
			for (unsigned j = 0; j < n; j++) char_arrays(b, g);
			break;
		}
		case 'J': {
			unsigned n = (unsigned)gen_below(g, 3);
			be32(b, n);
			for (unsigned j = 0; j < n; j++) counted(b, g, 4);
			break;
		}
		case 'S':
			if (!(mask & DUMPI_MASK_STATUS)) break;
			{
				unsigned n = (unsigned)gen_below(g, 3);
				be32(b, n);
				for (unsigned j = 0; j < n; j++) {
					be32(b, 4 * j);
					be32(b, j);
					gen_buf_append(b, (uint8_t[2]){0, 0}, 2);
					if (dumpi_version_at_least(ver, 0, 6, 3)) be32(b, 7); /* the tag, from 0.6.3 */
				}
			}
			break;
		case 'A': case 'a': {
			unsigned n = 1 + (unsigned)gen_below(g, 2);
			be32(b, n);
			if (k == 'A' && !dumpi_version_at_least(ver, 0, 6, 2)) be32(b, n); /* argc twice before 0.6.2 */
			for (unsigned j = 0; j < n; j++) chararr(b, j ? "-v" : "./app");
			break;
		}
		default: break;
		}
	}
	if (have_totprocs && !b->oom && b->len >= totprocs_at + 4)
		hv_put_be32(b->data + totprocs_at, have_rank && have_root && rank == root ? count : 0);
}

/* Our clocks count from the bias already, so the stored u16 is the seconds
 * themselves, truncated as libdumpi's (uint16_t) cast does. */
static void put_clock(gen_buf *b, int64_t ns, uint32_t nsec_override)
{
	be16(b, (uint16_t)(ns / 1000000000ll));
	be32(b, nsec_override ? nsec_override : (uint32_t)(ns % 1000000000ll));
}

/* Write the records; counts[] gets the records per function. */
static void write_stream(gen_buf *b, plan *pl, uint32_t *counts)
{
	tclock clk[64];
	unsigned nt = pl->threads ? (pl->threads > 64 ? 64 : pl->threads) : 1;
	for (unsigned t = 0; t < nt; t++) {
		/* threads run side by side: their clocks overlap on purpose */
		clk[t].cpu_ns = 7000000 + 100000ll * t;
		clk[t].wall_ns = 500000000 + 300000ll * t;
	}
	const char *brk = pl->brk;
	unsigned target = pl->records / 2; /* the record a break bends */
	unsigned jumps = 0;
	gen_mpi prog;
	/* partial-trace: rank 0's file of a two-rank program, alone */
	unsigned world = is(brk, "dumpi.mpi.partial-trace") ? 2 : pl->nranks;
	gen_mpi_init(&prog, pl->rank, world, pl->seed, pl->brk, pl->all_functions, pl->records);
	prog.inflight = pl->in_flight;
	prog.unmatched = pl->unmatched;
	prog.request_calls = pl->request_calls;
	gen_mpi_set_habits(&prog, pl->brk, pl->mpi_lib, pl->unrecorded);
	if (pl->pattern == GEN_PATTERN_STENCIL3D) gen_mpi_stencil3d(&prog);
	if (pl->pattern == GEN_PATTERN_LAMMPS) gen_mpi_lammps(&prog);
	gm_rec rec;
	bool have = gen_mpi_next(&prog, &rec);
	for (unsigned i = 0; have; i++) {
		gm_rec cur = rec;
		have = gen_mpi_next(&prog, &rec);
		unsigned fn = cur.fn;
		bool last = !have;
		if (is(brk, "dumpi.rec.contained") && last) fn = 18; /* MPI_Waitall: a request array */
		if (is(brk, "dumpi.rec.function-known") && i == target) fn = DUMPI_ALL_FUNCTIONS;
		unsigned t = (unsigned)gen_below(&pl->rng, nt);
		uint8_t mask = 0x4f | (pl->perf ? DUMPI_MASK_PERF : 0);
		if (is(brk, "dumpi.rec.mask-reserved") && i == target) mask |= 0x10;
		int64_t cpu_d = 1000 + (int64_t)gen_below(&pl->rng, 50000);
		int64_t wall_d = cpu_d + (int64_t)gen_below(&pl->rng, 20000) - 5000; /* CPU may exceed wall */
		if (wall_d < 0) wall_d = 0;
		if (is(brk, "dumpi.time.wrap") && i > 0 && jumps < 3 && i % 2 == 0) {
			/* steps under half the u16 range, three of them: crosses 65536 s once */
			for (unsigned k = 0; k < nt; k++) clk[k].wall_ns += 30000ll * 1000000000ll;
			jumps++;
		}
		if (is(brk, "dumpi.time.span-ambiguous") && i == target) clk[t].wall_ns += 40000ll * 1000000000ll;
		int64_t cs = clk[t].cpu_ns, ce = cs + cpu_d, ws = clk[t].wall_ns, we = ws + wall_d;
		if (is(brk, "dumpi.time.start-stop") && i == target) we = ws - 1000;
		if (is(brk, "dumpi.time.thread-order") && i == target && i > 0) ws -= 2000000, we = ws + 100;
		uint32_t bad_nsec = is(brk, "dumpi.time.nsec-range") && i == target ? 1000000005u : 0;

		be16(b, (uint16_t)fn);
		gen_buf_append(b, &mask, 1);
		be16(b, (uint16_t)t);
		put_clock(b, cs, 0);
		put_clock(b, ce, 0);
		put_clock(b, ws, bad_nsec);
		put_clock(b, we, 0);
		if (mask & DUMPI_MASK_PERF) {
			unsigned n = pl->perf + (is(brk, "dumpi.rec.perf-labels") && i == target ? 1 : 0);
			gen_buf_append(b, (uint8_t[1]){(uint8_t)n}, 1);
			for (unsigned k = 0; k < n; k++) {
				be64(b, 1000u * i + k);
				be64(b, 1000u * i + k + 17);
			}
		}
		const dumpi_layout *L = dumpi_layout_of(fn);
		if (L) write_args(b, &pl->rng, L, mask, pl->version, is(brk, "dumpi.rec.contained") && last, fn == cur.fn ? &cur : NULL);
		if (fn < DUMPI_ALL_FUNCTIONS) counts[fn]++;
		/* the next record of this thread starts after this one stopped */
		int64_t wend = we > ws ? we : ws;
		clk[t].cpu_ns = ce + 500 + (int64_t)gen_below(&pl->rng, 3000);
		clk[t].wall_ns = wend + 800 + (int64_t)gen_below(&pl->rng, 4000);
		if (pl->span_s) /* a long run: every thread's wall clock moves on together */
			for (unsigned k = 0; k < nt; k++) clk[k].wall_ns += (int64_t)(pl->span_s * 1000000000ull / pl->records);
	}
}

static void write_header(gen_buf *b, plan *pl)
{
	const char *brk = pl->brk;
	gen_buf_append(b, pl->version, 3);
	be64(b, pl->starttime);
	str16(b, "node01");
	str16(b, "hpcvet");
	unsigned dim = is(brk, "dumpi.hdr.mesh-count") ? 3 : is(brk, "dumpi.hdr.meshdim-unusual") ? 4 : 0;
	unsigned sizes = is(brk, "dumpi.hdr.mesh-count") ? 2 : dim;
	be32(b, dim);
	for (unsigned i = 0; i < dim; i++) be32(b, i);
	if (!dumpi_version_at_least(pl->version, 0, 5, 0)) return; /* mesh sizes came with 0.5 */
	be32(b, sizes);
	for (unsigned i = 0; i < sizes; i++) be32(b, 2);
}

static void write_footer(gen_buf *b, plan *pl, uint32_t *called, uint32_t *ignored)
{
	const char *brk = pl->brk;
	/* some calls were not recorded: libdumpi ignores calls made inside
	 * another MPI call; of the functions the MPI checks read, only
	 * --break dumpi.mpi.calls-ignored ignores any (tracing switched off) */
	for (unsigned f = 0; f < DUMPI_ALL_FUNCTIONS; f++)
		if (called[f] && !mpi_ignored_hides(f) && gen_below(&pl->rng, 3) == 0) {
			unsigned k = (unsigned)gen_below(&pl->rng, 5);
			called[f] += k;
			ignored[f] += k;
		}
	unsigned victim = 1 + (unsigned)gen_below(&pl->rng, 7);
	if (is(brk, "dumpi.footer.ignored-le-called")) ignored[200 + victim] += 1 + called[200 + victim];
	if (is(brk, "dumpi.mpi.calls-ignored")) called[125]++, ignored[125]++; /* MPI_Finalize once more, untraced */
	if (is(brk, "dumpi.footer.records-match") || is(brk, "dumpi.footer.records-match-rewritten"))
		called[124] += 1; /* one MPI_Init more than recorded */
	uint64_t sc = 0, si = 0;
	for (unsigned f = 0; f < DUMPI_ALL_FUNCTIONS; f++) sc += called[f], si += ignored[f];
	called[DUMPI_ALL_FUNCTIONS] = (uint32_t)sc + (is(brk, "dumpi.footer.totals") ? 1 : 0);
	ignored[DUMPI_ALL_FUNCTIONS] = (uint32_t)si;
	be64(b, is(brk, "dumpi.footer.magic") ? 0xf007fee8u : DUMPI_FOOTER_MAGIC);
	for (unsigned f = 0; f < DUMPI_FOOTER_SLOTS; f++) be32(b, called[f]);
	for (unsigned f = 0; f < DUMPI_FOOTER_SLOTS; f++) be32(b, ignored[f]);
}

/* One rank file. */
static bool write_rank(plan *pl, gen_buf *b)
{
	const char *brk = pl->brk;
	uint64_t off[DS_COUNT] = {0};
	gen_buf_append(b, dumpi_head_magic, 8);
	if (is(brk, "dumpi.index.body-offset")) gen_buf_append(b, "\0\0\0\0\0\0\0\0", 8);
	off[DS_BODY] = b->len;
	be32(b, pl->cpu_bias);
	be32(b, pl->wall_bias);
	uint32_t *called = calloc(2 * DUMPI_FOOTER_SLOTS, sizeof *called);
	if (!called) return false;
	uint32_t *ignored = called + DUMPI_FOOTER_SLOTS;
	write_stream(b, pl, called);
	if (!is(brk, "dumpi.stream.end-label")) be16(b, DUMPI_END_OF_STREAM);
	off[DS_HEADER] = b->len;
	write_header(b, pl);
	off[DS_FOOTER] = b->len;
	write_footer(b, pl, called, ignored);
	free(called);
	be32(b, 0); /* keyval: empty, and unreferenced, as libdumpi leaves it */
	/* perflbl since 0.3, addrlbl since 0.4, sizelbl since 0.6.6 */
	bool has_perf = pl->index_size >= 48, has_addr = pl->index_size >= 56, has_sizes = pl->index_size >= 64;
	if (has_perf && !is(brk, "dumpi.footer.records-match-rewritten")) {
		off[DS_PERFLBL] = b->len;
		unsigned n = is(brk, "dumpi.perf.count") ? 129 : pl->perf;
		be32(b, n);
		for (unsigned i = 0; i < n; i++) {
			char name[96];
			snprintf(name, sizeof name, "PAPI_CTR_%u", i);
			if (is(brk, "dumpi.perf.label-length") && i == 0) memset(name, 'L', 80), name[80] = '\0';
			str16(b, name);
		}
	}
	if (has_sizes) {
		off[DS_SIZELBL] = b->len;
		unsigned nsizes = is(brk, "dumpi.sizes.count") ? 32768 : 28;
		be32(b, nsizes + (is(brk, "dumpi.sec.contained") ? 1 : 0));
		for (unsigned i = 0; i < nsizes; i++) be32(b, i < 3 ? 1 : 1u << (i % 4));
	}
	if (has_addr) {
		off[DS_ADDRLBL] = b->len;
		be32(b, 1);
		be64(b, 0x401000);
		str16(b, "main");
	}
	if (is(brk, "dumpi.index.offset-contained")) off[DS_ADDRLBL] = b->len + 1000;
	if (is(brk, "dumpi.sec.overlap")) off[DS_KEYVAL] = off[DS_FOOTER];
	size_t idx = b->len;
	gen_buf_append(b, dumpi_head_magic, 8);
	/* an older index simply lacks its leading entries */
	for (int i = DS_COUNT - (int)(pl->index_size - 8) / 8; i < DS_COUNT; i++) be64(b, off[i]);
	if (is(brk, "dumpi.index.magic")) gen_buf_at(b, idx)[3] = 'X';
	if (is(brk, "dumpi.bin.magic")) gen_buf_at(b, 0)[3] = 'X';
	if (is(brk, "dumpi.bin.truncated")) b->len = 200;
	return !b->oom;
}

static char *write_meta(const plan *pl, const char *prefix, uint64_t startime, size_t *len)
{
	const char *brk = pl->brk;
	gen_buf b = {0};
	char line[160];
#define LINE(...) (snprintf(line, sizeof line, __VA_ARGS__), gen_buf_append(&b, line, strlen(line)))
	if (!is(brk, "dumpi.meta.key-missing")) LINE("hostname=node01\n");
	LINE("numprocs=%u\n", pl->nranks + (is(brk, "dumpi.meta.numprocs") ? 1 : 0));
	LINE("username=hpcvet\n");
	LINE("%s=%llu\n", is(brk, "dumpi.meta.starttime-spelling") ? "starttime" : "startime",
	     (unsigned long long)startime + (is(brk, "dumpi.meta.startime") ? 1000 : 0));
	LINE("fileprefix=%s\n", prefix);
	if (is(brk, "dumpi.meta.line-syntax")) LINE("this line has no equals sign\n");
	if (is(brk, "dumpi.meta.key-duplicate")) LINE("hostname=node02\n");
	if (is(brk, "dumpi.meta.key-unknown")) LINE("compiler=gcc\n");
	LINE("version=%u\n", pl->version[0]);
	LINE("subversion=%u\n", pl->version[1]);
	if (is(brk, "dumpi.meta.value")) LINE("subsubversion=zero\n");
	else LINE("subsubversion=%u\n", pl->version[2] + (is(brk, "dumpi.meta.version") ? 1 : 0));
#undef LINE
	*len = b.len;
	return (char *)b.data;
}

static bool breaks_in_meta(const char *r) { return r && (strncmp(r, "dumpi.meta.", 11) == 0 || is(r, "dumpi.trace.meta-missing")); }

static int generate(const gen_params *p, gen_output *out, char *err, size_t errlen)
{
	bool set = is(p->what, "dumpi-trace");
	plan pl;
	memset(&pl, 0, sizeof pl);
	pl.brk = p->break_rule;
	pl.rng.s = p->seed * 0x9e3779b97f4a7c15ull + 5;
	pl.seed = p->seed;
	pl.in_flight = p->in_flight;
	pl.unmatched = p->unmatched;
	pl.request_calls = p->request_calls;
	pl.mpi_lib = p->mpi_lib;
	pl.unrecorded = p->unrecorded;
	pl.pattern = p->pattern;
	pl.version[0] = DUMPI_KNOWN_MAJOR;
	pl.version[1] = (uint8_t)(DUMPI_KNOWN_SUB + p->minor + (is(pl.brk, "dumpi.hdr.minor-newer") ? 1 : 0));
	if (p->minor == 0 && !is(pl.brk, "dumpi.hdr.minor-newer")) pl.version[0] = 8, pl.version[1] = 1; /* like real 8.1.0 traces */
	pl.index_size = DUMPI_INDEX_SIZE;
	unsigned vmaj, vsub, vsubsub;
	if (sscanf(p->what, "dumpi-bin-%u.%u.%u", &vmaj, &vsub, &vsubsub) == 3) {
		if (p->minor) {
			snprintf(err, errlen, "%s writes one old version; --minor does not apply", p->what);
			return -1;
		}
		pl.version[0] = (uint8_t)vmaj, pl.version[1] = (uint8_t)vsub, pl.version[2] = (uint8_t)vsubsub;
	}
	/* The legacy-layout break is a 0.6.5 file; the layout-version one a
	 * 0.6.5 header over the 64-byte index of 0.6.6 and later. */
	if (is(pl.brk, "dumpi.index.legacy-layout") || is(pl.brk, "dumpi.index.layout-version"))
		pl.version[0] = 0, pl.version[1] = 6, pl.version[2] = 5;
	if (!dumpi_version_at_least(pl.version, 0, 6, 6) && !is(pl.brk, "dumpi.index.layout-version"))
		pl.index_size = dumpi_version_at_least(pl.version, 0, 4, 0) ? 56 : dumpi_version_at_least(pl.version, 0, 3, 0) ? 48 : 40;
	pl.starttime = 1558551283ull + p->seed;
	pl.wall_bias = 703391u + (uint32_t)p->seed;  /* CLOCK_MONOTONIC: seconds since boot */
	pl.cpu_bias = is(pl.brk, "dumpi.time.cpu-bias-nonzero") ? 5 : 0;
	if (is(pl.brk, "dumpi.time.clock-epoch")) pl.wall_bias = (uint32_t)pl.starttime;
	pl.records = p->contexts ? p->contexts : 40;
	pl.span_s = p->trace_len; /* > 65535 s: the u16 seconds wrap (dumpi.time.wrap warnings) */
	if (pl.span_s / pl.records >= DUMPI_WRAP_HALF) {
		snprintf(err, errlen, "--trace-len=%llu over %u records: steps of 32768 s or more are ambiguous",
			 (unsigned long long)pl.span_s, pl.records);
		return -1;
	}
	pl.threads = p->depth ? p->depth : 1 + (unsigned)(p->seed % 3);
	pl.perf = p->seed % 2 == 0 && pl.index_size >= 48 ? 2 : 0; /* no perf labels before 0.3 */
	pl.all_functions = p->functions > 0;
	if (pl.all_functions && pl.records < DUMPI_NFUNCS + 2) pl.records = DUMPI_NFUNCS + 2;
	/* Every function once is no MPI program: a break of the MPI layer would
	 * go unwritten and the file would break nothing. */
	if (pl.all_functions && pl.brk && strncmp(pl.brk, "dumpi.mpi.", 10) == 0) {
		snprintf(err, errlen, "--functions writes every function once, not the MPI program that %s needs", pl.brk);
		return -1;
	}
	if (pl.brk) {
		if (pl.records < 20) pl.records = 20;
		if (strncmp(pl.brk, "dumpi.time.", 11) == 0) pl.threads = 1;
		if (is(pl.brk, "dumpi.rec.perf-labels") || is(pl.brk, "dumpi.perf.label-length")) pl.perf = 2;
		if (is(pl.brk, "dumpi.perf.count") || is(pl.brk, "dumpi.footer.records-match-rewritten")) pl.perf = 0;
	}
	if (pl.pattern != GEN_PATTERN_MIX && (!set || pl.brk || pl.all_functions || pl.unrecorded || pl.in_flight ||
					      pl.unmatched || pl.request_calls)) {
		snprintf(err, errlen, "--pattern=%s writes a valid dumpi-trace of that program alone",
			 pl.pattern == GEN_PATTERN_LAMMPS ? "lammps" : "stencil3d");
		return -1;
	}
	pl.nranks = set ? (p->profiles ? p->profiles : 4) : 1;
	/* in memory the output holds GEN_MAX_FILES files; to a sink, any number */
	unsigned max_ranks = out->sink ? GEN_MAX_RANKS : GEN_MAX_FILES - 1;
	if (pl.nranks > max_ranks) {
		snprintf(err, errlen, "at most %u ranks", max_ranks);
		return -1;
	}
	const char *prefix = "dumpi-2019.05.22.11.54.43";
	uint64_t last_start = 0;
	for (unsigned rank = 0; rank < pl.nranks; rank++) {
		plan rp = pl;
		rp.rank = rank;
		rp.rng.s = pl.rng.s + 977u * rank;
		rp.starttime = pl.starttime + rank % 2; /* ranks start within a second of each other */
		/* a meta break bends only the .meta; a .bin break bends rank 0 */
		if (breaks_in_meta(pl.brk) || (rank > 0 && !is(pl.brk, "dumpi.hdr.minor-newer") && !gen_mpi_trace_breaks(pl.brk)))
			rp.brk = NULL;
		if (is(pl.brk, "dumpi.meta.version")) rp.brk = NULL;
		gen_buf b = {0};
		if (!write_rank(&rp, &b)) {
			gen_buf_free(&b);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		char name[128];
		snprintf(name, sizeof name, set ? "%s-%04u.bin" : "%s-%04u.bin", prefix, rank);
		gen_add_file(out, name, b.data, b.len);
		last_start = rp.starttime;
	}
	if (set && !is(pl.brk, "dumpi.trace.meta-missing")) {
		size_t len;
		char *m = write_meta(&pl, prefix, last_start, &len);
		char name[128];
		snprintf(name, sizeof name, "%s.meta", is(pl.brk, "dumpi.meta.fileprefix") ? "renamed" : prefix);
		if (!m) return -1;
		gen_add_file(out, name, (uint8_t *)m, len);
	}
	out->is_set = set;
	return 0;
}

static bool can_break(const char *what, const char *rule_id, enum hv_edition edition)
{
	(void)edition;
	if (strncmp(rule_id, "dumpi.", 6) != 0) return false;
	if (strchr(rule_id, '~')) /* listed variants */
		return (gen_mpi_trace_breaks(rule_id) && is(what, "dumpi-trace")) || (gen_mpi_breaks(rule_id) && is(what, "dumpi-bin"));
	if (hv_rule_find(rule_id) < 0) return false;
	if (breaks_in_meta(rule_id)) return is(what, "dumpi-trace");
	if (gen_mpi_breaks(rule_id)) return is(what, "dumpi-bin");
	if (gen_mpi_trace_breaks(rule_id)) return is(what, "dumpi-trace");
	return is(what, "dumpi-bin");
}

const gen_family gen_family_dumpi = {"dumpi", whats, generate, can_break, false};
