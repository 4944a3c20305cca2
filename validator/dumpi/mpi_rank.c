/* The per-rank pass of the MPI consistency layer: argument validity (counts,
 * ranks, tags), communicator and datatype life cycles, and requests from the
 * call that creates them to the wait, test or free that ends them. Fed one
 * decoded record at a time by the stream walk (dumpi_stream.c). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"
#include "mpi_internal.h"

/* ---- argument roles, by field name, computed once ---- */

static int8_t roles[DUMPI_NFUNCS][RO_COUNT_ROLES];
static pthread_once_t roles_once = PTHREAD_ONCE_INIT;

static const char *const role_names[RO_COUNT_ROLES] = {
	[RO_COUNT] = "count", [RO_SENDCOUNT] = "sendcount", [RO_RECVCOUNT] = "recvcount",
	[RO_DATATYPE] = "datatype", [RO_SENDTYPE] = "sendtype", [RO_RECVTYPE] = "recvtype",
	[RO_OLDTYPE] = "oldtype", [RO_NEWTYPE] = "newtype", [RO_DEST] = "dest", [RO_SOURCE] = "source",
	[RO_ROOT] = "root", [RO_TAG] = "tag", [RO_SENDTAG] = "sendtag", [RO_RECVTAG] = "recvtag",
	[RO_COMM] = "comm", [RO_OLDCOMM] = "oldcomm", [RO_NEWCOMM] = "newcomm", [RO_REQUEST] = "request",
	[RO_REQUESTS] = "requests", [RO_INDEX] = "index", [RO_FLAG] = "flag", [RO_OUTCOUNT] = "outcount",
	[RO_INDICES] = "indices", [RO_STATUS] = "status", [RO_STATUSES] = "statuses", [RO_COLOR] = "color",
	[RO_REORDER] = "reorder", [RO_KEY] = "key", [RO_SIZE] = "size", [RO_RANK] = "rank",
	[RO_SENDCOUNTS] = "sendcounts", [RO_RECVCOUNTS] = "recvcounts", [RO_SENDTYPES] = "sendtypes",
	[RO_RECVTYPES] = "recvtypes", [RO_COMMRANK] = "commrank",
};

static void compute_roles(void)
{
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) {
		memset(roles[fn], -1, sizeof roles[fn]);
		const dumpi_layout *L = dumpi_layout_of(fn);
		if (!L) continue;
		for (unsigned i = 0; i < L->nfields; i++)
			for (int ro = 0; ro < RO_COUNT_ROLES; ro++)
				if (strlen(role_names[ro]) == L->fields[i].name_len &&
				    memcmp(role_names[ro], L->fields[i].name, L->fields[i].name_len) == 0 && roles[fn][ro] < 0)
					roles[fn][ro] = (int8_t)i;
	}
}

/* The value of role `ro` in record `fn`: false when the function has no
 * such argument or it is absent (root-only). */
static bool arg(unsigned fn, const dumpi_args *a, int ro, uint64_t *v)
{
	int i = roles[fn][ro];
	if (i < 0 || i >= a->n || !a->f[i].present) return false;
	*v = a->f[i].v;
	return true;
}

static uint64_t arg_at(unsigned fn, const dumpi_args *a, int ro)
{
	int i = roles[fn][ro];
	return i >= 0 && i < a->n ? a->f[i].at : 0;
}

/* Function classes (dumpi/common/funclabels.h ids). */
static bool is_send(unsigned fn) { return fn == 0 || (fn >= 3 && fn <= 5) || (fn >= 8 && fn <= 11) || (fn >= 26 && fn <= 29); }
static bool is_recv(unsigned fn) { return fn == 1 || fn == 12 || fn == 30 || fn == 22 || fn == 23; }
static bool is_sendrecv(unsigned fn) { return fn == 33 || fn == 34; }
static bool creates_request(unsigned fn) { return (fn >= 8 && fn <= 12) || (fn >= 26 && fn <= 30) || fn == 170; }
static bool is_persistent_init(unsigned fn) { return fn >= 26 && fn <= 30; }
static bool is_io_request(unsigned fn)
{
	return fn == 246 || fn == 247 || fn == 252 || fn == 253 || fn == 259 || fn == 260;
}
/* Outputs named like a count (MPI_UNDEFINED is legal there). */
static bool count_is_output(unsigned fn) { return fn == 2 || fn == 48 || fn == 175; }

/* ---- diagnostics ---- */

static const char *role_label(int ro) { return role_names[ro]; }

static void emit(mpi_rank *m, int rule, const dumpi_record *rec, uint64_t off, uint64_t len, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void emit(mpi_rank *m, int rule, const dumpi_record *rec, uint64_t off, uint64_t len, const char *fmt, ...)
{
	char msg[512], path[48];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hv_emit(m->r, rule, m->file, off ? off : rec->offset, len, dumpi_record_path(path, sizeof path, rec->index),
		"%s record %llu (%s): %s", mpi_rank_label(m).s, (unsigned long long)rec->index, dumpi_function_name(rec->fn),
		msg);
}

/* ---- lifetime ---- */

static long rank_from_name(const char *name)
{
	const char *base = hv_basename(name);
	const char *dot = strrchr(base, '.');
	if (!dot || strcmp(dot, ".bin") != 0) return -1;
	const char *d = dot;
	while (d > base && d[-1] >= '0' && d[-1] <= '9') d--;
	if (d == dot || d == base || d[-1] != '-' || dot - d > 9) return -1;
	long v = 0;
	for (const char *p = d; p < dot; p++) v = v * 10 + (*p - '0');
	return v;
}

static uint32_t inst_new(mpi_rank *m);

mpi_rank *mpi_rank_new(hv_blob *b, hv_report *r, const uint8_t version[3])
{
	pthread_once(&roles_once, compute_roles);
	mpi_rank *m = calloc(1, sizeof *m);
	if (!m) {
		hv_report_internal(r, "out of memory");
		return NULL;
	}
	m->r = r;
	m->b = b;
	m->file = b->name;
	memcpy(m->version, version, 3);
	m->rank = rank_from_name(b->name);
	m->world_size = -1;
	m->win_ok = hv_window_init(&m->win, b, 64u * 1024u);
	mpi_map_init(&m->comms, sizeof(mpi_comm));
	mpi_map_init(&m->types, sizeof(uint64_t));
	mpi_map_init(&m->reqs, sizeof(mpi_req));
	mpi_map_init(&m->chans, sizeof(mpi_chan));
	inst_new(m); /* INST_WORLD */
	inst_new(m); /* INST_SELF */
	if (m->ninst != 2) {
		hv_report_internal(r, "out of memory");
		mpi_rank_free(m);
		return NULL;
	}
	return m;
}

long mpi_rank_world_rank(const mpi_rank *m) { return m->rank; }

mpi_rank_name mpi_rank_label(const mpi_rank *m)
{
	mpi_rank_name n;
	if (m->rank >= 0) snprintf(n.s, sizeof n.s, "rank %ld", m->rank);
	else snprintf(n.s, sizeof n.s, "rank of file %.80s", hv_basename(m->file ? m->file : ""));
	return n;
}
void mpi_rank_set_world_rank(mpi_rank *m, long rank) { m->rank = rank; }

void mpi_rank_free(mpi_rank *m)
{
	if (!m) return;
	if (m->win_ok) hv_window_free(&m->win);
	mpi_map_free(&m->comms);
	mpi_map_free(&m->types);
	mpi_map_free(&m->reqs);
	mpi_map_free(&m->chans);
	free(m->req_seen);
	for (uint32_t i = 0; i < m->ninst; i++) free(m->inst[i].ops);
	free(m->inst);
	free(m);
}

/* Element i of a counted u32 array whose count is at `at`. */
static bool arr_u32(mpi_rank *m, uint64_t at, uint64_t i, uint32_t *v)
{
	if (!m->win_ok) return false;
	const uint8_t *p = hv_window_get(&m->win, at + 4 + 4 * i, 4);
	if (!p) return false;
	*v = hv_be32(p);
	return true;
}

static mpi_comm *comm_of(mpi_rank *m, uint64_t id)
{
	bool fresh;
	mpi_comm *c = mpi_map_put(&m->comms, id, &fresh);
	if (c && fresh) {
		c->size = id == MPI_D_COMM_SELF ? 1 : -1;
		c->inst = id == MPI_D_COMM_WORLD ? INST_WORLD : id == MPI_D_COMM_SELF ? INST_SELF : INST_NONE;
	}
	return c;
}

static mpi_inst *inst_of(mpi_rank *m, uint32_t i) { return i < m->ninst ? &m->inst[i] : NULL; }

/* A new communicator instance (INST_NONE past MPI_MAX_INST or out of memory). */
static uint32_t inst_new(mpi_rank *m)
{
	if (m->ninst >= MPI_MAX_INST) {
		m->inst_overflow = true;
		return INST_NONE;
	}
	if (m->ninst == m->inst_cap) {
		uint32_t nc = m->inst_cap ? 2 * m->inst_cap : 8;
		mpi_inst *ni = realloc(m->inst, nc * sizeof *ni);
		if (!ni) return INST_NONE;
		m->inst = ni;
		m->inst_cap = nc;
	}
	mpi_inst *x = &m->inst[m->ninst];
	memset(x, 0, sizeof *x);
	x->parent = INST_NONE;
	x->myrank = -1;
	x->ref.max = -1;
	x->color = -1;
	return m->ninst++;
}

uint64_t mpi_hash(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t h = 0x243f6a8885a308d3ull;
	uint64_t v[4] = {a, b, c, d};
	for (int i = 0; i < 4; i++) {
		h ^= v[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return h;
}

/* ---- per-record checks ---- */

static void check_counts(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	static const int cr[] = {RO_COUNT, RO_SENDCOUNT, RO_RECVCOUNT};
	if (count_is_output(rec->fn)) return;
	for (size_t k = 0; k < 3; k++) {
		uint64_t v;
		if (!arg(rec->fn, a, cr[k], &v)) continue;
		int32_t c = (int32_t)(uint32_t)v;
		if (!hv_eval(m->r, HV_R_DUMPI_MPI_COUNT_NEGATIVE, c >= 0))
			emit(m, HV_R_DUMPI_MPI_COUNT_NEGATIVE, rec, arg_at(rec->fn, a, cr[k]), 4,
			     "%s is %d; counts are >= 0", role_label(cr[k]), c);
	}
}

static void check_rank_arg(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, uint64_t comm, int ro)
{
	uint64_t v;
	if (!arg(rec->fn, a, ro, &v)) return;
	int32_t x = (int32_t)(uint32_t)v;
	if (x == -1 || x == -2) return; /* ANY_SOURCE / ROOT / PROC_NULL, as DUMPI writes them */
	mpi_comm *c = comm_of(m, comm);
	if (!c) return;
	int64_t size = c->size;
	if (x < 0 || size >= 0) {
		bool ok = x >= 0 && x < size;
		if (hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, ok)) return;
		char tail[96] = "";
		if (size >= 0 && comm == MPI_D_COMM_SELF) snprintf(tail, sizeof tail, "; MPI_COMM_SELF has 1 rank");
		else if (size >= 0)
			snprintf(tail, sizeof tail, "; it has %lld rank(s) (MPI_Comm_size record %llu)", (long long)size,
				 (unsigned long long)c->size_rec);
		emit(m, HV_R_DUMPI_MPI_RANK_RANGE, rec, arg_at(rec->fn, a, ro), 4,
		     "%s %d is outside communicator %llu%s and no constant DUMPI writes (-1, -2)%s", role_label(ro),
		     x, (unsigned long long)comm, comm == MPI_D_COMM_WORLD ? " (world)" : "", tail);
		return;
	}
	/* size not known yet: keep the largest reference for the cross-rank stage */
	mpi_inst *in = inst_of(m, c->inst);
	if (in && x > in->ref.max) {
		in->ref.max = x;
		in->ref.rec = rec->index;
		in->ref.off = arg_at(rec->fn, a, ro);
		in->ref.fn = (uint16_t)rec->fn;
		in->ref.role = (uint8_t)ro;
	}
}

static void check_tag(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro, bool receive)
{
	uint64_t v;
	if (!arg(rec->fn, a, ro, &v)) return;
	int32_t t = (int32_t)(uint32_t)v;
	bool ok = t >= 0 || (receive && t == MPI_D_ANY_TAG);
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_TAG_RANGE, ok))
		emit(m, HV_R_DUMPI_MPI_TAG_RANGE, rec, arg_at(rec->fn, a, ro), 4, "%s %d is negative%s", role_label(ro), t,
		     receive ? " and not MPI_ANY_TAG (-1)" : "; send tags are >= 0");
}

static void use_comm(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro)
{
	uint64_t id;
	if (!arg(rec->fn, a, ro, &id) || id < MPI_D_FIRST_USER_COMM) return;
	mpi_comm *c = mpi_map_get(&m->comms, id);
	bool ok = !c || c->state != 2;
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_HANDLE_FREED, ok))
		emit(m, HV_R_DUMPI_MPI_HANDLE_FREED, rec, arg_at(rec->fn, a, ro), 2,
		     "%s %llu was freed by record %llu and not created again", role_label(ro), (unsigned long long)id,
		     (unsigned long long)c->freed_rec);
}

static void use_type(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro)
{
	uint64_t id;
	if (!arg(rec->fn, a, ro, &id) || id < MPI_D_FIRST_USER_DATATYPE) return;
	uint64_t *freed = mpi_map_get(&m->types, id);
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_HANDLE_FREED, !freed))
		emit(m, HV_R_DUMPI_MPI_HANDLE_FREED, rec, arg_at(rec->fn, a, ro), 2,
		     "%s %llu was freed by record %llu (MPI_Type_free) and not created again", role_label(ro),
		     (unsigned long long)id, (unsigned long long)*freed);
}

static void handles(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	uint64_t v, id;
	/* outputs that happen to be named like inputs */
	bool comm_out = fn == 134, type_out = fn == 186;
	if (!comm_out) {
		use_comm(m, rec, a, RO_COMM);
		use_comm(m, rec, a, RO_OLDCOMM);
	}
	if (!type_out) {
		use_type(m, rec, a, RO_DATATYPE);
		use_type(m, rec, a, RO_SENDTYPE);
		use_type(m, rec, a, RO_RECVTYPE);
		use_type(m, rec, a, RO_OLDTYPE);
	}
	/* constructors: the index is live (again), as a new instance */
	if (arg(fn, a, RO_NEWCOMM, &id) || (comm_out && arg(fn, a, RO_COMM, &id)) ||
	    (fn == 133 && a->n > 0 && a->f[0].present && (id = a->f[0].v, true))) {
		uint64_t old = 0;
		bool has_old = arg(fn, a, RO_OLDCOMM, &old);
		mpi_comm *p = has_old ? comm_of(m, old) : NULL;
		uint32_t pi = p ? p->inst : INST_NONE;
		int64_t psize = p ? p->size : -1; /* copied: p moves when the map grows */
		uint64_t psize_rec = p ? p->size_rec : 0;
		/* collective constructors over the parent: their order on it names the result */
		bool derived = fn == 84 || fn == 85 || fn == 86 || fn == 99 || fn == 101 || fn == 111;
		uint32_t ni = inst_new(m);
		mpi_inst *x = inst_of(m, ni);
		mpi_inst *px = inst_of(m, pi);
		if (x) {
			x->fn = (uint16_t)fn;
			x->rec = rec->index;
			x->off = rec->offset;
			x->local_id = id;
			x->null = id < MPI_D_FIRST_USER_COMM;
			if (derived && px) {
				x->parent = pi;
				x->seq = px->ncreated++;
			}
			uint64_t v2;
			if (fn == 86 && arg(fn, a, RO_COLOR, &v2)) x->color = (int32_t)(uint32_t)v2;
			if (fn == 86 && arg(fn, a, RO_KEY, &v2)) x->key = (int32_t)(uint32_t)v2;
			if ((fn == 99 || fn == 101) && arg(fn, a, RO_REORDER, &v2)) x->key = v2 != 0;
		}
		if (id >= MPI_D_FIRST_USER_COMM) {
			mpi_comm *c = comm_of(m, id);
			if (c) {
				c->state = 1;
				c->size = -1;
				c->inst = ni;
				if (fn == 84) c->size = psize, c->size_rec = psize_rec; /* a duplicate has its parent's size */
			}
		}
	}
	if ((arg(fn, a, RO_NEWTYPE, &id) || (type_out && arg(fn, a, RO_DATATYPE, &id))) && id >= MPI_D_FIRST_USER_DATATYPE)
		mpi_map_del(&m->types, id);
	/* destructors; libdumpi records the handle before the call frees it */
	if ((fn == 87 || fn == 132) && arg(fn, a, RO_COMM, &id)) {
		bool ok = id != MPI_D_COMM_WORLD && id != MPI_D_COMM_SELF;
		if (!hv_eval(m->r, HV_R_DUMPI_MPI_COMM_PREDEFINED_FREED, ok))
			emit(m, HV_R_DUMPI_MPI_COMM_PREDEFINED_FREED, rec, arg_at(fn, a, RO_COMM), 2,
			     "comm %llu is %s, a predefined communicator: MPI libraries refuse to free it "
			     "(expected a communicator index >= %d that a constructor returned)",
			     (unsigned long long)id, id == MPI_D_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF",
			     MPI_D_FIRST_USER_COMM);
	}
	if (fn == 47 && arg(fn, a, RO_DATATYPE, &id)) {
		bool ok = id < 2 || id >= MPI_D_FIRST_USER_DATATYPE;
		if (!hv_eval(m->r, HV_R_DUMPI_MPI_TYPE_PREDEFINED_FREED, ok))
			emit(m, HV_R_DUMPI_MPI_TYPE_PREDEFINED_FREED, rec, arg_at(fn, a, RO_DATATYPE), 2,
			     "datatype %llu is a predefined datatype (DUMPI indices 2..%d): MPI libraries refuse to free it "
			     "(expected a datatype index >= %d that a type constructor returned)",
			     (unsigned long long)id, MPI_D_FIRST_USER_DATATYPE - 1, MPI_D_FIRST_USER_DATATYPE);
	}
	if ((fn == 87 || fn == 132) && arg(fn, a, RO_COMM, &id) && id >= MPI_D_FIRST_USER_COMM) {
		mpi_comm *c = comm_of(m, id);
		if (c) c->state = 2, c->freed_rec = rec->index;
	}
	if (fn == 47 && arg(fn, a, RO_DATATYPE, &id) && id >= MPI_D_FIRST_USER_DATATYPE) {
		uint64_t *f = mpi_map_put(&m->types, id, NULL);
		if (f) *f = rec->index;
	}
	/* what the rank learnt about sizes and itself */
	if (fn == 81 && arg(fn, a, RO_COMM, &id) && arg(fn, a, RO_SIZE, &v) && (int32_t)(uint32_t)v > 0) {
		mpi_comm *c = comm_of(m, id);
		if (c && c->size < 0) {
			c->size = (int32_t)(uint32_t)v;
			c->size_rec = rec->index;
			/* a reference made before the size was known */
			mpi_inst *in = inst_of(m, c->inst);
			if (in && in->ref.max >= 0 && !hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, in->ref.max < c->size)) {
				dumpi_record at = {.index = in->ref.rec, .offset = in->ref.off, .fn = in->ref.fn};
				emit(m, HV_R_DUMPI_MPI_RANK_RANGE, &at, in->ref.off, 4,
				     "%s %lld is outside communicator %llu (%lld ranks, from MPI_Comm_size record %llu)",
				     role_label(in->ref.role), (long long)in->ref.max, (unsigned long long)id,
				     (long long)c->size, (unsigned long long)rec->index);
			}
			if (in) in->ref.max = -1;
		}
	}
	if (fn == 82 && arg(fn, a, RO_COMM, &id) && arg(fn, a, RO_RANK, &v)) {
		if (m->rank < 0 && id == MPI_D_COMM_WORLD) m->rank = (int32_t)(uint32_t)v;
		mpi_comm *c = comm_of(m, id);
		mpi_inst *in = c ? inst_of(m, c->inst) : NULL;
		if (in) in->myrank = (int32_t)(uint32_t)v;
	}
}

static void ranks_and_tags(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	uint64_t comm;
	if (!arg(fn, a, RO_COMM, &comm) && !arg(fn, a, RO_OLDCOMM, &comm)) return;
	if (is_send(fn)) {
		check_rank_arg(m, rec, a, comm, RO_DEST);
		check_tag(m, rec, a, RO_TAG, false);
	} else if (is_recv(fn)) {
		check_rank_arg(m, rec, a, comm, RO_SOURCE);
		check_tag(m, rec, a, RO_TAG, true);
	} else if (is_sendrecv(fn)) {
		check_rank_arg(m, rec, a, comm, RO_DEST);
		check_rank_arg(m, rec, a, comm, RO_SOURCE);
		check_tag(m, rec, a, RO_SENDTAG, false);
		check_tag(m, rec, a, RO_RECVTAG, true);
	}
	if (fn != 91) check_rank_arg(m, rec, a, comm, RO_ROOT);
}

/* ---- messages and collectives (summarised for mpi_match.c) ---- */

/* A recorded status: bytes (i32), source (i32), cancelled (u8), error (u8),
 * and from 0.6.3 the tag (i32). */
typedef struct mpi_status { bool ok, tag_ok, cancelled; int32_t src, tag; } mpi_status;

/* Status i of the statuses field `ro` (count, then 14-byte entries from 0.6.3
 * on: bytes, source, cancelled, error, tag; 10 bytes, without the tag, before). */
static mpi_status status_of(mpi_rank *m, unsigned fn, const dumpi_args *a, int ro, uint64_t i)
{
	mpi_status st = {0};
	uint64_t n;
	if (!arg(fn, a, ro, &n) || i >= n || !m->win_ok) return st;
	bool tagged = dumpi_version_at_least(m->version, 0, 6, 3);
	uint64_t at = arg_at(fn, a, ro) + 4 + i * (tagged ? 14u : 10u);
	const uint8_t *p = hv_window_get(&m->win, at, tagged ? 14 : 10);
	if (!p) return st;
	st.ok = true;
	st.src = (int32_t)hv_be32(p + 4);
	st.cancelled = p[8] != 0;
	if (tagged) st.tag_ok = true, st.tag = (int32_t)hv_be32(p + 10);
	return st;
}

static uint32_t inst_of_comm(mpi_rank *m, uint64_t comm)
{
	mpi_comm *c = comm_of(m, comm);
	return c ? c->inst : INST_NONE;
}

/* Past MPI_MAX_CHANS: every channel of the rank folded into one per
 * (instance, peer, direction), tag CHAN_ANY_TAG, sizes dropped. */
static void merge_chans(mpi_rank *m)
{
	mpi_map old = m->chans;
	mpi_map_init(&m->chans, sizeof(mpi_chan));
	m->chans_merged = true;
	size_t it = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&old, &it, &key, &val)) {
		const mpi_chan *o = val;
		bool fresh;
		mpi_chan *c = mpi_map_put(&m->chans, mpi_hash(o->inst, (uint32_t)o->peer, (uint32_t)CHAN_ANY_TAG, o->dir), &fresh);
		if (!c) break;
		if (fresh) *c = *o, c->tag = CHAN_ANY_TAG, c->n = 0;
		c->n += o->n;
		c->nruns = 0;
		c->runs_full = true;
		if (o->last_rec >= c->last_rec)
			c->last_rec = o->last_rec, c->last_off = o->last_off, c->last_fn = o->last_fn;
	}
	mpi_map_free(&old);
}

static void tally(mpi_rank *m, const dumpi_record *rec, uint32_t inst, int32_t peer, int32_t tag, bool recv,
		  int32_t count, uint16_t dtype)
{
	if (inst == INST_NONE) return;
	if (!m->chans_merged && m->chans.len >= MPI_MAX_CHANS &&
	    !mpi_map_get(&m->chans, mpi_hash(inst, (uint32_t)peer, (uint32_t)tag, recv)))
		merge_chans(m);
	if (m->chans_merged) tag = CHAN_ANY_TAG;
	bool fresh;
	mpi_chan *c = mpi_map_put(&m->chans, mpi_hash(inst, (uint32_t)peer, (uint32_t)tag, recv), &fresh);
	if (!c) return;
	if (fresh) c->inst = inst, c->peer = peer, c->tag = tag, c->dir = recv, c->runs_full = m->chans_merged;
	c->n++;
	c->last_rec = rec->index;
	c->last_off = rec->offset;
	c->last_fn = (uint16_t)rec->fn;
	if (c->runs_full) return;
	if (c->nruns && c->runs[c->nruns - 1].count == count && c->runs[c->nruns - 1].dtype == dtype &&
	    c->runs[c->nruns - 1].reps < UINT32_MAX) {
		c->runs[c->nruns - 1].reps++;
	} else if (c->nruns < CHAN_RUNS) {
		c->runs[c->nruns].count = count;
		c->runs[c->nruns].dtype = dtype;
		c->runs[c->nruns].reps = 1;
		c->runs[c->nruns].rec = rec->index;
		c->nruns++;
	} else {
		c->runs_full = true;
	}
}

static bool msg_wild(const mpi_msg *g) { return g->peer == MPI_D_ANY_SOURCE || g->tag == MPI_D_ANY_TAG; }

/* A message counted when its request started, which its status says was
 * cancelled: taken off its channel, whose sizes are no longer in order. */
static void untally(mpi_rank *m, const mpi_msg *g)
{
	if (!g->p2p || g->inst == INST_NONE || g->peer < 0 || msg_wild(g)) return;
	int32_t tag = m->chans_merged ? CHAN_ANY_TAG : g->tag;
	mpi_chan *c = mpi_map_get(&m->chans, mpi_hash(g->inst, (uint32_t)g->peer, (uint32_t)tag, g->recv));
	if (!c || !c->n) return;
	c->n--;
	c->runs_full = true;
}

/* A receive, its wildcards resolved by the status where one was recorded. */
static void recv_msg(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g, mpi_status st)
{
	int32_t peer = g->peer, tag = g->tag;
	if (peer == -2 || g->inst == INST_NONE) return; /* MPI_PROC_NULL (Open MPI) */
	if (peer == MPI_D_ANY_SOURCE) peer = st.ok && st.src >= 0 ? st.src : -1;
	if (tag == MPI_D_ANY_TAG) tag = st.tag_ok && st.tag >= 0 ? st.tag : -1;
	if (peer < 0 || tag < 0) {
		mpi_inst *in = inst_of(m, g->inst);
		if (in && in->wild++ == 0) in->wild_rec = rec->index, in->wild_off = rec->offset, in->wild_fn = (uint16_t)rec->fn;
		return;
	}
	tally(m, rec, g->inst, peer, tag, true, g->count, g->dtype);
}

static void send_msg(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g)
{
	if (g->peer < 0) return; /* MPI_PROC_NULL */
	tally(m, rec, g->inst, g->peer, g->tag, false, g->count, g->dtype);
}

static mpi_msg msg_from(mpi_rank *m, unsigned fn, const dumpi_args *a, bool recv, int cro, int pro, int gro, int dro)
{
	mpi_msg g = {.p2p = true, .recv = recv};
	uint64_t v;
	g.inst = arg(fn, a, RO_COMM, &v) ? inst_of_comm(m, v) : INST_NONE;
	g.count = arg(fn, a, cro, &v) ? (int32_t)(uint32_t)v : 0;
	g.dtype = arg(fn, a, dro, &v) ? (uint16_t)v : 0;
	g.peer = arg(fn, a, pro, &v) ? (int32_t)(uint32_t)v : -2;
	g.tag = arg(fn, a, gro, &v) ? (int32_t)(uint32_t)v : 0;
	return g;
}

static void messages(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	if (fn == 0 || (fn >= 3 && fn <= 5)) {
		mpi_msg g = msg_from(m, fn, a, false, RO_COUNT, RO_DEST, RO_TAG, RO_DATATYPE);
		send_msg(m, rec, &g);
	} else if (fn == 1) {
		mpi_msg g = msg_from(m, fn, a, true, RO_COUNT, RO_SOURCE, RO_TAG, RO_DATATYPE);
		recv_msg(m, rec, &g, status_of(m, fn, a, RO_STATUS, 0));
	} else if (fn == 33 || fn == 34) {
		bool rep = fn == 34;
		mpi_msg s = msg_from(m, fn, a, false, rep ? RO_COUNT : RO_SENDCOUNT, RO_DEST, RO_SENDTAG,
				     rep ? RO_DATATYPE : RO_SENDTYPE);
		mpi_msg r = msg_from(m, fn, a, true, rep ? RO_COUNT : RO_RECVCOUNT, RO_SOURCE, RO_RECVTAG,
				     rep ? RO_DATATYPE : RO_RECVTYPE);
		send_msg(m, rec, &s);
		recv_msg(m, rec, &r, status_of(m, fn, a, RO_STATUS, 0));
	}
}

static bool is_coll(unsigned fn)
{
	return (fn >= 52 && fn <= 62) || (fn >= 65 && fn <= 67) || fn == 155 || fn == 156 || fn == 84 || fn == 85 ||
	       fn == 86 || fn == 99 || fn == 101 || fn == 111;
}

/* A named built-in datatype (DUMPI 2..27; 0 is DUMPI's error index, 1 MPI_DATATYPE_NULL). */
static bool builtin_type(uint64_t t) { return t >= 2 && t < MPI_D_FIRST_USER_DATATYPE; }

/* Scalar counts: the (count, datatype) pairs this member states for one
 * block, in order of trust. A send side (Allgather, Alltoall; the root's own
 * block of Gather and Scatter) with count 0 or a null datatype may be
 * MPI_IN_PLACE, whose count MPI ignores: it is not compared. */
typedef struct { int c, t; bool in_place; } cand_t;
static void scalar_counts(unsigned fn, const dumpi_args *a, mpi_coll *op)
{
	cand_t cand[2];
	int nc = 0;
	uint64_t v;
	switch (fn) {
	case 58: case 60:
		cand[nc++] = (cand_t){RO_RECVCOUNT, RO_RECVTYPE, false};
		cand[nc++] = (cand_t){RO_SENDCOUNT, RO_SENDTYPE, true};
		break;
	case 54: { /* Gather: recvcount exists only at the root */
		bool root = arg(fn, a, RO_RECVCOUNT, &v);
		if (root) cand[nc++] = (cand_t){RO_RECVCOUNT, RO_RECVTYPE, false};
		cand[nc++] = (cand_t){RO_SENDCOUNT, RO_SENDTYPE, root};
		break;
	}
	case 56: { /* Scatter: sendcount exists only at the root */
		bool root = arg(fn, a, RO_SENDCOUNT, &v);
		if (root) cand[nc++] = (cand_t){RO_SENDCOUNT, RO_SENDTYPE, false};
		cand[nc++] = (cand_t){RO_RECVCOUNT, RO_RECVTYPE, root};
		break;
	}
	default: cand[nc++] = (cand_t){RO_COUNT, RO_DATATYPE, false}; break;
	}
	for (int i = 0; i < nc; i++) {
		uint64_t c, t;
		if (!arg(fn, a, cand[i].c, &c) || !arg(fn, a, cand[i].t, &t)) continue;
		int32_t cc = (int32_t)(uint32_t)c;
		if (cand[i].in_place && (cc == 0 || t < 2)) continue;
		if (!builtin_type(t) || cc < 0) continue;
		if (op->count < 0) {
			op->count = cc, op->dtype = (uint16_t)t, op->role0 = (uint8_t)cand[i].c;
		} else if (op->count2 < 0 && op->dtype == t) {
			op->count2 = cc, op->role1 = (uint8_t)cand[i].c;
		}
	}
}

/* Sums over a counted u32 array at `at` (n entries): s[0] = sum c[j], s[1] =
 * sum j*c[j], s[2] = sum mpi_weight(j)*c[j] (modulo 2^64), a digest of the
 * entries; entry `skip` is left out of the sums. False when an entry cannot
 * be read. */
static bool arr_sums(mpi_rank *m, uint64_t at, uint64_t n, int64_t skip, uint64_t *s0, uint64_t *s1, uint64_t *s2,
		     uint64_t *dig, bool *zero)
{
	*s0 = *s1 = *s2 = 0;
	*dig = 0x5ca1ab1eull;
	*zero = true;
	for (uint64_t j = 0; j < n; j++) {
		uint32_t c;
		if (!arr_u32(m, at, j, &c)) return false;
		*dig = mpi_hash(*dig, j, c, 0xc0);
		if (c) *zero = false;
		if ((int64_t)j == skip) continue;
		uint64_t cv = (uint64_t)(int64_t)(int32_t)c;
		*s0 += cv;
		*s1 += j * cv;
		*s2 += mpi_weight(j) * cv;
	}
	return true;
}

/* The one built-in datatype every entry of a counted u16 array names, or 0. */
static uint16_t arr_type(mpi_rank *m, uint64_t at, uint64_t n)
{
	uint16_t t = 0;
	for (uint64_t j = 0; j < n; j++) {
		if (!m->win_ok) return 0;
		const uint8_t *p = hv_window_get(&m->win, at + 4 + 2 * j, 2);
		if (!p) return 0;
		uint16_t x = hv_be16(p);
		if (!builtin_type(x) || (j && x != t)) return 0;
		t = x;
	}
	return t;
}

/* V-variants: each side as a scalar or as sums over its array (see mpi_coll). */
static void vector_counts(mpi_rank *m, unsigned fn, const dumpi_args *a, mpi_coll *op)
{
	uint64_t v, n, t, dig;
	bool zero;
	int64_t self = -1;
	if ((fn == 55 || fn == 57) && arg(fn, a, RO_COMMRANK, &v)) self = (int32_t)(uint32_t)v;
	op->vself = (int32_t)self;
	/* send side */
	if (fn == 55 || fn == 59) { /* sendcount (the Gatherv root's own block is not compared) */
		uint64_t c;
		bool root = fn == 55 && arg(fn, a, RO_RECVCOUNTS, &v);
		if (!root && arg(fn, a, RO_SENDCOUNT, &c) && arg(fn, a, RO_SENDTYPE, &t) && builtin_type(t) &&
		    (fn == 55 || (int32_t)(uint32_t)c != 0)) {
			op->count = (int32_t)(uint32_t)c;
			op->vtype = (uint16_t)t;
			op->vflags |= VS_SCALAR;
		}
	} else if ((fn == 57 || fn == 61 || fn == 155) && arg(fn, a, RO_SENDCOUNTS, &n)) {
		uint16_t ty = fn == 155 ? (arg(fn, a, RO_SENDTYPES, &v) && v == n ? arr_type(m, arg_at(fn, a, RO_SENDTYPES), v) : 0)
					: (arg(fn, a, RO_SENDTYPE, &t) && builtin_type(t) ? (uint16_t)t : 0);
		if (ty && arr_sums(m, arg_at(fn, a, RO_SENDCOUNTS), n, fn == 57 ? self : -1, &op->s0, &op->s1, &op->s2, &dig, &zero) &&
		    !(fn != 57 && zero)) {
			op->vtype = ty;
			op->vflags |= VS_SUMS;
			op->vlen = (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX);
		}
	}
	/* receive side */
	if (fn == 57) { /* recvcount (the Scatterv root's own block is not compared) */
		uint64_t c;
		if (!arg(fn, a, RO_SENDCOUNTS, &v) && arg(fn, a, RO_RECVCOUNT, &c) && arg(fn, a, RO_RECVTYPE, &t) &&
		    builtin_type(t)) {
			op->count2 = (int32_t)(uint32_t)c;
			op->vtype2 = (uint16_t)t;
			op->vflags |= VR_SCALAR;
		}
	} else if (arg(fn, a, RO_RECVCOUNTS, &n)) {
		int ro = fn == 66 ? RO_DATATYPE : RO_RECVTYPE;
		uint16_t ty = fn == 155 ? (arg(fn, a, RO_RECVTYPES, &v) && v == n ? arr_type(m, arg_at(fn, a, RO_RECVTYPES), v) : 0)
					: (arg(fn, a, ro, &t) && builtin_type(t) ? (uint16_t)t : 0);
		if (ty && arr_sums(m, arg_at(fn, a, RO_RECVCOUNTS), n, fn == 55 ? self : -1, &op->r0, &op->r1, &op->r2, &op->vdig, &zero)) {
			op->vtype2 = ty;
			op->vflags |= VR_SUMS;
			if (op->vlen && op->vlen != n) op->vflags = 0; /* arrays of different lengths: not compared */
			op->vlen = (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX);
		}
	}
}

static void collectives(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	if (!is_coll(fn)) return;
	uint64_t comm, v;
	/* communicator constructors are collectives of their parent (MPI_Alltoallw 155 and MPI_Exscan 156 are not constructors) */
	bool creator = fn == 84 || fn == 85 || fn == 86 || fn == 99 || fn == 101 || fn == 111;
	if (!arg(fn, a, creator ? RO_OLDCOMM : RO_COMM, &comm)) return;
	mpi_inst *in = inst_of(m, inst_of_comm(m, comm));
	if (!in || comm == MPI_D_COMM_SELF) return;
	mpi_coll op = {.fn = (uint16_t)fn, .root = -3, .count = -1, .count2 = -1, .vself = -1, .rec = rec->index,
		       .off = rec->offset};
	bool rooted = fn == 53 || (fn >= 54 && fn <= 57) || fn == 62;
	if (rooted && arg(fn, a, RO_ROOT, &v)) op.root = (int32_t)(uint32_t)v;
	/* the sequence digest: functions and roots; counts have their own */
	in->digest = mpi_hash(in->digest, op.fn, (uint32_t)op.root, 0x5e9);
	if (mpi_coll_scalar(fn)) {
		scalar_counts(fn, a, &op);
		if (op.count >= 0) in->cdigest = mpi_hash(in->cdigest, op.fn, op.dtype, (uint32_t)op.count);
		else in->cmixed = true;
	} else if (mpi_coll_vector(fn) && in->ncoll < COLL_KEEP) { /* only kept calls are compared */
		vector_counts(m, fn, a, &op);
	}
	in->coll_rec = rec->index;
	in->coll_off = rec->offset;
	if (in->ncoll < COLL_KEEP) {
		/* most communicators see a few collectives: grow by doubling up to COLL_KEEP */
		if (!in->ops_lost && in->ncoll == in->ops_cap) {
			uint8_t nc = in->ops_cap ? (uint8_t)(2 * in->ops_cap < COLL_KEEP ? 2 * in->ops_cap : COLL_KEEP) : 2;
			mpi_coll *no = realloc(in->ops, nc * sizeof *no);
			if (no) in->ops = no, in->ops_cap = nc;
			else free(in->ops), in->ops = NULL, in->ops_lost = true; /* all or none of the calls are kept */
		}
		if (in->ops) in->ops[in->ncoll] = op;
	}
	in->ncoll++;
}

/* ---- calls the footer counts as ignored ---- */

static bool is_p2p(unsigned fn)
{
	return fn <= 1 || (fn >= 3 && fn <= 5) || (fn >= 8 && fn <= 24) || (fn >= 26 && fn <= 34);
}

unsigned mpi_ignored_hides(unsigned f)
{
	unsigned hides = f == 125 ? IGN_FINALIZE : 0;
	if (creates_request(f) || (f >= 13 && f <= 21) || f == 24 || f == 31 || f == 32) hides |= IGN_REQUESTS;
	if (is_p2p(f)) hides |= IGN_P2P;
	if (is_coll(f)) hides |= IGN_COLL;
	return hides;
}

void mpi_rank_set_ignored(mpi_rank *m, uint64_t footer_off, const uint32_t *called, const uint32_t *ignored, unsigned n)
{
	if (!m) return;
	m->ignored_off = footer_off;
	size_t len = 0, more = 0;
	for (unsigned f = 0; f < n && f < DUMPI_NFUNCS; f++) {
		if (!ignored[f]) continue;
		uint8_t hides = (uint8_t)mpi_ignored_hides(f);
		if (!hides) continue;
		m->ignored |= hides;
		int k = len < sizeof m->ignored_names - 1
				? snprintf(m->ignored_names + len, sizeof m->ignored_names - len, "%s%s %u of %u", len ? ", " : "",
					   dumpi_function_name(f), ignored[f], called[f])
				: -1;
		if (k < 0 || len + (size_t)k >= sizeof m->ignored_names) {
			m->ignored_names[len] = 0;
			more++;
		} else {
			len += (size_t)k;
		}
	}
	if (more && len + 24 < sizeof m->ignored_names)
		snprintf(m->ignored_names + len, sizeof m->ignored_names - len, " and %zu more", more);
}

/* ---- requests ---- */

static void req_mark_seen(mpi_rank *m, uint64_t id)
{
	if (!m->req_seen) m->req_seen = calloc(REQ_SEEN_BITS / 64, sizeof *m->req_seen);
	if (m->req_seen) m->req_seen[(id % REQ_SEEN_BITS) / 64] |= 1ull << (id % 64);
}

static bool req_was_seen(const mpi_rank *m, uint64_t id)
{
	return m->req_seen && (m->req_seen[(id % REQ_SEEN_BITS) / 64] >> (id % 64) & 1);
}

static void req_unknown(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id, const char *why)
{
	emit(m, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, rec, off, 4, "request %u %s", id, why);
}

/* A request named by a wait/test/free/cancel/start; NULL when unknown. */
static mpi_req *req_named(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id)
{
	if (id < 2) return NULL; /* MPI_REQUEST_NULL (and 0, DUMPI's error index) */
	mpi_req *q = mpi_map_get(&m->reqs, id);
	if (m->io_requests || (m->ignored & IGN_REQUESTS)) return q;
	if (!q && !req_was_seen(m, id)) {
		/* no recorded call ever created it: a call libdumpi does not record */
		hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, true);
		if (m->unrecorded++ == 0)
			m->unrecorded_rec = rec->index, m->unrecorded_off = off, m->unrecorded_id = id,
			m->unrecorded_fn = (uint16_t)rec->fn;
		return NULL;
	}
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, q != NULL))
		req_unknown(m, rec, off, id,
			    "is no longer live on this rank: a wait, test or MPI_Request_free already ended every "
			    "instance the rank's nonblocking or persistent calls created");
	return q;
}

/* One instance of request `id` ends (completed or freed). */
static void req_drop(mpi_rank *m, uint64_t id, mpi_req *q)
{
	if (q->kind == REQ_ACTIVE && q->live > 1) q->live--;
	else mpi_map_del(&m->reqs, id);
}

static void leaked(mpi_rank *m, uint64_t id, const mpi_req *q, const char *when);

/* A call creates request `id` of another kind while an instance is still
 * active (a persistent request over a nonblocking one, or the other way):
 * the MPI library cannot hand out a live handle again, so the old
 * instances were never completed. */
static void req_replaced(mpi_rank *m, const dumpi_record *rec, uint64_t id, const mpi_req *q)
{
	bool active = !q->cancelled && q->kind != REQ_PERSIST_IDLE;
	if (hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_LEAKED, !active)) return;
	char when[96];
	snprintf(when, sizeof when, "record %llu (%s) creates it again", (unsigned long long)rec->index,
		 dumpi_function_name(rec->fn));
	leaked(m, id, q, when);
}

/* A request completed by a wait or test: a wildcard receive is counted now,
 * with the source and tag its status recorded. */
static void req_finish(mpi_rank *m, const dumpi_record *rec, uint32_t id, mpi_req *q, mpi_status st)
{
	/* A receive its status says was cancelled received nothing (a cancelled
	 * MPI_ANY_SOURCE receive completes with {cancelled=1, source=-1}). */
	if (q->kind != REQ_PERSIST_IDLE && q->msg.p2p && q->msg.recv && msg_wild(&q->msg) && !st.cancelled)
		recv_msg(m, rec, &q->msg, st);
	if (q->kind != REQ_PERSIST_IDLE && st.cancelled) untally(m, &q->msg);
	if (q->kind == REQ_ACTIVE) req_drop(m, id, q);
	else q->kind = REQ_PERSIST_IDLE;
}

static void req_complete(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id, mpi_status st)
{
	mpi_req *q = req_named(m, rec, off, id);
	if (q) req_finish(m, rec, id, q, st);
}

static void req_start(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id)
{
	mpi_req *q = req_named(m, rec, off, id);
	if (!q) return;
	bool ok = q->kind == REQ_PERSIST_IDLE || m->io_requests || (m->ignored & IGN_REQUESTS);
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNKNOWN, ok))
		req_unknown(m, rec, off, id,
			    q->kind == REQ_ACTIVE ? "is a nonblocking request, not a persistent one: "
						    "MPI_Start needs an inactive persistent request"
						  : "is already active: MPI_Start needs an inactive persistent request");
	bool was_idle = q->kind == REQ_PERSIST_IDLE;
	q->kind = REQ_PERSIST_ACTIVE;
	if (was_idle && q->msg.p2p && !q->msg.recv) send_msg(m, rec, &q->msg);
	if (was_idle && q->msg.p2p && q->msg.recv && !msg_wild(&q->msg)) recv_msg(m, rec, &q->msg, (mpi_status){0});
}

static void requests(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	uint64_t v, cnt, flag = 1;
	if (is_io_request(fn)) m->io_requests = true;
	if (creates_request(fn) && arg(fn, a, RO_REQUEST, &v) && v >= 2) {
		req_mark_seen(m, v);
		bool recv = fn == 12 || fn == 30;
		mpi_msg g = {0};
		if (fn != 170) g = msg_from(m, fn, a, recv, RO_COUNT, recv ? RO_SOURCE : RO_DEST, RO_TAG, RO_DATATYPE);
		if (!is_persistent_init(fn) && fn != 170 && !recv) send_msg(m, rec, &g);
		if (!is_persistent_init(fn) && fn != 170 && recv && !msg_wild(&g)) recv_msg(m, rec, &g, (mpi_status){0});
		mpi_req *q = mpi_map_get(&m->reqs, v);
		if (q && q->kind == REQ_ACTIVE && !is_persistent_init(fn)) {
			/* One more live instance of a shared id (see mpi_req); the
			 * oldest instance keeps the record and the message. */
			if (q->live < UINT32_MAX) q->live++;
			return;
		}
		if (q) req_replaced(m, rec, v, q);
		q = mpi_map_put(&m->reqs, v, NULL);
		if (!q) return;
		q->kind = is_persistent_init(fn) ? REQ_PERSIST_IDLE : REQ_ACTIVE;
		q->live = 1;
		q->cancelled = false;
		q->fn = (uint16_t)fn;
		q->rec = rec->index;
		q->off = rec->offset;
		q->msg = g;
		return;
	}
	uint64_t at = arg_at(fn, a, RO_REQUEST);
	switch (fn) {
	case 13: /* MPI_Wait */
		if (arg(fn, a, RO_REQUEST, &v)) req_complete(m, rec, at, (uint32_t)v, status_of(m, fn, a, RO_STATUS, 0));
		break;
	case 14: /* MPI_Test */
		if (!arg(fn, a, RO_REQUEST, &v)) break;
		arg(fn, a, RO_FLAG, &flag);
		if (flag) req_complete(m, rec, at, (uint32_t)v, status_of(m, fn, a, RO_STATUS, 0));
		else req_named(m, rec, at, (uint32_t)v);
		break;
	case 15: { /* MPI_Request_free */
		mpi_req *q = arg(fn, a, RO_REQUEST, &v) ? req_named(m, rec, at, (uint32_t)v) : NULL;
		if (q) req_drop(m, v, q);
		break;
	}
	case 24: { /* MPI_Cancel */
		mpi_req *q = arg(fn, a, RO_REQUEST, &v) ? req_named(m, rec, at, (uint32_t)v) : NULL;
		if (q) q->cancelled = true;
		break;
	}
	case 31: /* MPI_Start */
		if (arg(fn, a, RO_REQUEST, &v)) req_start(m, rec, at, (uint32_t)v);
		break;
	case 16: case 17: case 18: case 19: case 20: case 21: case 32: {
		if (!arg(fn, a, RO_REQUESTS, &cnt)) break;
		uint64_t arr = arg_at(fn, a, RO_REQUESTS);
		arg(fn, a, RO_FLAG, &flag);
		uint32_t id;
		if (fn == 32) {
			for (uint64_t i = 0; i < cnt; i++)
				if (arr_u32(m, arr, i, &id)) req_start(m, rec, arr + 4 + 4 * i, id);
		} else if (fn == 18 || fn == 19) { /* Waitall, Testall */
			for (uint64_t i = 0; i < cnt; i++) {
				if (!arr_u32(m, arr, i, &id)) break;
				if (flag) req_complete(m, rec, arr + 4 + 4 * i, id, status_of(m, fn, a, RO_STATUSES, i));
				else req_named(m, rec, arr + 4 + 4 * i, id);
			}
		} else {
			/* Waitany/Testany complete requests[index]; Waitsome/Testsome requests[indices[k]] */
			for (uint64_t i = 0; i < cnt; i++)
				if (arr_u32(m, arr, i, &id)) req_named(m, rec, arr + 4 + 4 * i, id);
			uint64_t idx, n;
			if ((fn == 16 || fn == 17) && flag && arg(fn, a, RO_INDEX, &idx) && idx < cnt &&
			    arr_u32(m, arr, idx, &id)) {
				mpi_req *q = id >= 2 ? mpi_map_get(&m->reqs, id) : NULL;
				if (q) req_finish(m, rec, id, q, status_of(m, fn, a, RO_STATUS, 0));
			}
			if ((fn == 20 || fn == 21) && arg(fn, a, RO_INDICES, &n)) {
				uint64_t ind = arg_at(fn, a, RO_INDICES);
				for (uint64_t k = 0; k < n; k++) {
					uint32_t j;
					if (!arr_u32(m, ind, k, &j) || j >= cnt || !arr_u32(m, arr, j, &id)) continue;
					mpi_req *q = id >= 2 ? mpi_map_get(&m->reqs, id) : NULL;
					if (q) req_finish(m, rec, id, q, status_of(m, fn, a, RO_STATUSES, k));
				}
			}
		}
		break;
	}
	default: break;
	}
}

void mpi_rank_record(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	if (!m || m->finalized) return;
	m->records++;
	m->last_rec = rec->index;
	m->last_off = rec->offset;
	m->last_fn = (uint16_t)rec->fn;
	if (rec->fn >= DUMPI_NFUNCS) return;
	check_counts(m, rec, a);
	collectives(m, rec, a); /* before handles(): a constructor is a collective on its parent */
	handles(m, rec, a);
	messages(m, rec, a);
	ranks_and_tags(m, rec, a);
	requests(m, rec, a);
	if (rec->fn == 125) m->finalized = true;
}

/* ---- end of the rank ---- */

#define LEAKS_SHOWN 20

static void leaked(mpi_rank *m, uint64_t id, const mpi_req *q, const char *when)
{
	dumpi_record at = {.index = q->rec, .offset = q->off, .fn = q->fn};
	if (q->kind == REQ_ACTIVE && q->live > 1)
		emit(m, HV_R_DUMPI_MPI_REQUEST_LEAKED, &at, q->off, 0,
		     "request %llu is still active at %s: %u instances of it (this one the oldest) were never completed "
		     "by a wait or test, freed or cancelled",
		     (unsigned long long)id, when, q->live);
	else
		emit(m, HV_R_DUMPI_MPI_REQUEST_LEAKED, &at, q->off, 0,
		     "request %llu is still active at %s: never completed by a wait or test, freed or cancelled",
		     (unsigned long long)id, when);
}

static void check_leaks(mpi_rank *m)
{
	if (m->io_requests || (m->ignored & IGN_REQUESTS)) return;
	size_t it = 0, shown = 0, more = 0;
	uint64_t key;
	void *val;
	while (mpi_map_next(&m->reqs, &it, &key, &val)) {
		mpi_req *q = val;
		bool ok = q->cancelled || q->kind == REQ_PERSIST_IDLE;
		if (hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_LEAKED, ok)) continue;
		if (shown++ >= LEAKS_SHOWN) {
			more++;
			continue;
		}
		char when[64];
		snprintf(when, sizeof when, "%s (record %llu)", m->finalized ? "MPI_Finalize" : "the end of the stream",
			 (unsigned long long)m->last_rec);
		leaked(m, key, q, when);
	}
	if (more) {
		dumpi_record at = {.index = m->last_rec, .offset = m->last_off, .fn = m->finalized ? 125 : 0};
		emit(m, HV_R_DUMPI_MPI_REQUEST_LEAKED, &at, m->last_off, 0,
		     "%zu more requests are still active at the end of %s (only the first %d are listed)", more,
		     mpi_rank_label(m).s, LEAKS_SHOWN);
	}
}

void mpi_rank_end(mpi_rank *m, bool complete)
{
	if (!m || m->ended) return;
	m->ended = true;
	m->complete = complete;
	if (complete) {
		dumpi_record at = {.index = m->last_rec, .offset = m->last_off, .fn = 0};
		/* libdumpi also ignores calls made inside another MPI call (call depth
		 * above 1); those hide nothing of the program, so only functions
		 * whose records feed a check are named */
		if (m->ignored && !hv_eval(m->r, HV_R_DUMPI_MPI_CALLS_IGNORED, false)) {
			static const char *const what[] = {"a missing MPI_Finalize", "request life cycles",
							   "point-to-point matching", "collective sequences"};
			char hidden[128] = "";
			size_t len = 0;
			for (unsigned k = 0; k < 4; k++)
				if (m->ignored & (1u << k) && len < sizeof hidden)
					len += (size_t)snprintf(hidden + len, sizeof hidden - len, "%s%s", len ? ", " : "", what[k]);
			hv_emit(m->r, HV_R_DUMPI_MPI_CALLS_IGNORED, m->file, m->ignored_off, 8u + 2u * 4u * DUMPI_FOOTER_SLOTS,
				"footer", "%s: the footer counts calls made while tracing was off (ignored of called: %s); "
				"what they did is not in the stream, so %s cannot be checked on this rank",
				mpi_rank_label(m).s, m->ignored_names, hidden);
		} else
			hv_eval(m->r, HV_R_DUMPI_MPI_CALLS_IGNORED, true);
		if (m->unrecorded && !hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNRECORDED, false)) {
			dumpi_record u = {.index = m->unrecorded_rec, .offset = m->unrecorded_off, .fn = m->unrecorded_fn};
			emit(m, HV_R_DUMPI_MPI_REQUEST_UNRECORDED, &u, m->unrecorded_off, 4,
			     "request %u, and %llu request reference(s) in all, name requests no recorded call created: "
			     "libdumpi records no MPI-3 call (MPI_Ibarrier, MPI_Ibcast, MPI_Iallreduce, MPI_Mprobe/Mrecv, "
			     "MPI_Reduce_scatter_block, ...), so a program using them leaves these holes; a replay cannot "
			     "wait for them",
			     m->unrecorded_id, (unsigned long long)m->unrecorded);
		} else {
			hv_eval(m->r, HV_R_DUMPI_MPI_REQUEST_UNRECORDED, true);
		}
		if (!hv_eval(m->r, HV_R_DUMPI_MPI_FINALIZE_MISSING,
			     m->finalized || m->records == 0 || (m->ignored & IGN_FINALIZE)))
			hv_emit(m->r, HV_R_DUMPI_MPI_FINALIZE_MISSING, m->file, m->last_off, 0, "stream",
				"%s: the stream ends cleanly after %llu records without an MPI_Finalize record (last "
				"record %llu is %s)",
				mpi_rank_label(m).s, (unsigned long long)m->records, (unsigned long long)at.index,
				dumpi_function_name(m->last_fn));
		check_leaks(m);
	}
	mpi_comm *w = mpi_map_get(&m->comms, MPI_D_COMM_WORLD);
	m->world_size = w ? w->size : -1;
	mpi_map_free(&m->reqs);
	mpi_map_free(&m->types);
	mpi_map_free(&m->comms);
	if (m->win_ok) hv_window_free(&m->win);
	m->win_ok = false;
}
