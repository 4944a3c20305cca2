/* Semantic DUMPI mutations: one scalar MPI argument of one record -- a peer,
 * a tag, a count, a communicator or a request id -- changed in place, most
 * often to a value another rank's file of the same trace uses, so sends and
 * receives become mismatched or newly matched, collectives disagree, and
 * requests alias. Records are walked with the validator's own iterator and
 * their arguments found through the MPI layer's role table (mpi_roles, by
 * layout field name), so the mutator decodes exactly what the checks do.
 * Only fixed-width fields are touched (scalars, and elements of the request
 * arrays of the wait/test calls): no record changes length, so the stream,
 * its sections and the index stay valid. */
#include <string.h>

#include "container.h"
#include "core/blob.h"
#include "dumpi/dumpi.h"
#include "dumpi/mpi/pass.h"
#include "mutator_core.h"

#define INDEX 64u
#define MAX_SLOTS 4096
#define MAX_ARRAY_ELEMS 8 /* request-array elements taken per record */

enum cls { C_PEER, C_TAG, C_COUNT, C_COMM, C_REQ, C_NCLS };

/* One mutable argument: where it lies in the input, the record holding it
 * (numbered across files), its width, its class, the role it plays, its
 * value, and which rank file holds it. */
typedef struct slot {
	size_t at, rec;
	uint8_t w, cls, role, file;
	int64_t v;
} slot;

typedef struct sem_ctx {
	slot s[MAX_SLOTS];
	size_t n, nrec;
	long rank[FUZZ_MAX_FILES];
	size_t nfiles;
} sem_ctx;

static int role_class(int ro)
{
	switch (ro) {
	case RO_DEST: case RO_SOURCE: case RO_ROOT: return C_PEER;
	case RO_TAG: case RO_SENDTAG: case RO_RECVTAG: return C_TAG;
	case RO_COUNT: case RO_SENDCOUNT: case RO_RECVCOUNT: return C_COUNT;
	case RO_COMM: return C_COMM;
	case RO_REQUEST: case RO_REQUESTS: return C_REQ;
	default: return -1;
	}
}

static int64_t sext(uint64_t v, unsigned w) { return w == 4 ? (int64_t)(int32_t)v : (int64_t)v; }

static void add(sem_ctx *c, size_t at, unsigned w, int cls, int ro, uint64_t v, size_t file)
{
	if (c->n == MAX_SLOTS) return;
	c->s[c->n++] = (slot){at, c->nrec, (uint8_t)w, (uint8_t)cls, (uint8_t)ro, (uint8_t)file, sext(v, w)};
}

/* The rank of a NAME-NNNN.bin file (as the MPI layer reads it), else -1. */
static long rank_of(const uint8_t *name, size_t len)
{
	if (len < 9 || memcmp(name + len - 4, ".bin", 4) != 0) return -1;
	size_t e = len - 4, b = e;
	while (b > 0 && name[b - 1] >= '0' && name[b - 1] <= '9') b--;
	if (b == e || b == 0 || name[b - 1] != '-' || e - b > 9) return -1;
	long r = 0;
	for (size_t i = b; i < e; i++) r = r * 10 + (name[i] - '0');
	return r;
}

/* The records of one .bin (file k), their semantic arguments into c. */
static void collect(sem_ctx *c, const uint8_t *d, const mmember *f, size_t k, size_t cap)
{
	const uint8_t *p = d + f->data_at;
	size_t size = f->len;
	if (size < 72 + INDEX || memcmp(p, dumpi_head_magic, 8) != 0) return;
	uint64_t body = field_get(p + size - INDEX + 8 + 8 * DS_BODY, 8, true);
	uint64_t hdr = field_get(p + size - INDEX + 8 + 8 * DS_HEADER, 8, true);
	if (hdr >= size || size - hdr < 3 || body >= hdr) return;
	hv_blob b = hv_blob_from_memory("m.bin", p, size);
	dumpi_iter it;
	if (!dumpi_iter_init(&it, &b, body, hdr, p + hdr)) return;
	uint64_t bias;
	size_t stop = c->n + cap;
	if (dumpi_get(&it.cur, 4, &bias) && dumpi_get(&it.cur, 4, &bias)) {
		dumpi_record rec;
		while (c->n < stop && c->n < MAX_SLOTS && dumpi_iter_next(&it, &rec)) {
			c->nrec++;
			const dumpi_layout *L = dumpi_layout_of(rec.fn);
			if (!L || rec.fn >= DUMPI_NFUNCS) continue;
			for (int ro = 0; ro < RO_COUNT_ROLES; ro++) {
				int i = mpi_roles[rec.fn][ro], cls = role_class(ro);
				if (cls < 0 || i < 0 || i >= it.args.n || !it.args.f[i].present) continue;
				char kind = L->fields[i].kind;
				uint64_t at = dumpi_arg_at(&it.args, rec.fn, (unsigned)i);
				if (kind == 'i' || kind == 'h') {
					unsigned w = kind == 'i' ? 4 : 2;
					if (at + w <= size) add(c, f->data_at + at, w, cls, ro, field_get(p + at, w, true), k);
				} else if (kind == 'I' && cls == C_REQ) { /* u32 count, then the elements */
					uint64_t cnt = it.args.f[i].v;
					for (uint64_t j = 0; j < cnt && j < MAX_ARRAY_ELEMS; j++) {
						uint64_t e = at + 4 + 4 * j;
						if (e + 4 > size) break;
						add(c, f->data_at + e, 4, cls, ro, field_get(p + e, 4, true), k);
					}
				}
			}
		}
	}
	dumpi_iter_free(&it);
}

/* A slot of class `cls` held by file `file` (want_same) or by another one
 * (preferring `pref` when it holds one), or NULL. */
static const slot *pick_slot(const sem_ctx *c, mrng *g, int cls, size_t file, bool want_same, long pref)
{
	size_t start = mrng_below(g, c->n), fallback = SIZE_MAX;
	for (size_t i = 0; i < c->n; i++) {
		const slot *s = &c->s[(start + i) % c->n];
		if (s->cls != cls || (s->file == file) != want_same) continue;
		if (want_same || pref < 0 || c->rank[s->file] == pref) return s;
		if (fallback == SIZE_MAX) fallback = (start + i) % c->n;
	}
	return fallback == SIZE_MAX ? NULL : &c->s[fallback];
}

/* The new value for slot t: across ranks where the trace offers one. */
static int64_t new_value(const sem_ctx *c, const slot *t, mrng *g)
{
	long self = c->rank[t->file];
	/* the partner: the file of the rank this record names, if it names one */
	long pref = -1;
	for (size_t i = 0; i < c->n; i++)
		if (c->s[i].rec == t->rec && c->s[i].cls == C_PEER)
			pref = (long)c->s[i].v;
	const slot *other = pick_slot(c, g, t->cls, t->file, false, pref);
	const slot *same = pick_slot(c, g, t->cls, t->file, true, -1);
	if (other && mrng_below(g, 2)) return other->v;
	int64_t nranks = (int64_t)c->nfiles;
	switch (t->cls) {
	case C_PEER:
		switch (mrng_below(g, 5)) {
		case 0: return (int64_t)mrng_below(g, (uint64_t)nranks);          /* another valid rank */
		case 1: return self >= 0 ? self : 0;                               /* itself */
		case 2: return t->role == RO_SOURCE ? MPI_D_ANY_SOURCE : nranks;  /* wildcard */
		case 3: return nranks + (int64_t)mrng_below(g, 3);                 /* out of range */
		default: return (int64_t[]){-3, -2, 0x7fffffff}[mrng_below(g, 3)];
		}
	case C_TAG:
		switch (mrng_below(g, 4)) {
		case 0: return t->v + 1;
		case 1: return t->v - 1;
		case 2: return MPI_D_ANY_TAG;
		default: return same ? same->v : 0;
		}
	case C_COUNT:
		switch (mrng_below(g, 4)) {
		case 0: return t->v + 1;
		case 1: return t->v - 1;
		case 2: return 0;
		default: return t->v * 2;
		}
	case C_COMM: /* another communicator of this rank, or a predefined one */
		if (same && mrng_below(g, 2)) return same->v;
		return (int64_t[]){MPI_D_COMM_WORLD, MPI_D_COMM_SELF, MPI_D_COMM_NULL, MPI_D_FIRST_USER_COMM}[mrng_below(g, 4)];
	default: /* a request: another id of this rank (live or freed), null, never created */
		if (same && mrng_below(g, 4)) return same->v;
		return mrng_below(g, 2) ? MPI_D_REQUEST_NULL : t->v + 1;
	}
}

size_t sem_dumpi(uint8_t *d, size_t size, size_t max, mmember *m, size_t n, mrng *g)
{
	(void)max;
	static sem_ctx c; /* 100 KB: not on a fuzzer's stack */
	mpi_roles_init();
	c.n = c.nrec = c.nfiles = 0;
	size_t files[FUZZ_MAX_FILES];
	for (size_t k = 0; k < n && c.nfiles < FUZZ_MAX_FILES; k++)
		if (m[k].len >= 8 && memcmp(d + m[k].data_at, dumpi_head_magic, 8) == 0) files[c.nfiles++] = k;
	if (c.nfiles == 0) return 0;
	for (size_t i = 0; i < c.nfiles; i++) {
		long r = rank_of(d + m[files[i]].name_at, m[files[i]].name_len);
		c.rank[i] = r >= 0 ? r : (long)i;
		collect(&c, d, &m[files[i]], i, MAX_SLOTS / c.nfiles);
	}
	if (c.n == 0) return 0;
	const slot *t = &c.s[mrng_below(g, c.n)];
	int64_t v = new_value(&c, t, g);
	if (v == t->v) v = t->cls == C_PEER ? t->v + 1 : t->v ^ 1;
	field_put(d + t->at, t->w, true, (uint64_t)v);
	return size;
}
