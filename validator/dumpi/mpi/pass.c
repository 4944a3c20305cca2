/* What the parts of the per-rank pass share (rank.c drives them; pass.h
 * declares these): the argument roles, a rank's diagnostics, the name it
 * goes by, its communicator indices, counted arrays read from the record,
 * and the hash that keys the layer's maps. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/hv_int.h"
#include "pass.h"

/* ---- argument roles, by field name, computed once ---- */

int8_t mpi_roles[DUMPI_NFUNCS][RO_COUNT_ROLES];
uint8_t mpi_role_ix[DUMPI_NFUNCS][RO_COUNT_ROLES];
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
	/* Every process pays this once, over ~1,500 fields: each field is held
	 * only against the roles whose name has its length and first byte (a
	 * chain of one to three, a role name being at most 10 bytes), and
	 * compared whole only when its last byte agrees too. */
	enum { MAXLEN = 16, NONE = 0xff };
	uint8_t head[MAXLEN][32], next[RO_COUNT_ROLES];
	memset(head, NONE, sizeof head);
	for (int ro = RO_COUNT_ROLES - 1; ro >= 0; ro--) {
		/* chained from the last role down, so a chain lists roles in
		 * role order, the order the first match used to be taken in */
		size_t len = strlen(role_names[ro]);
		if (len == 0 || len >= MAXLEN) continue;
		uint8_t *h = &head[len][(unsigned char)role_names[ro][0] & 31u];
		next[ro] = *h;
		*h = (uint8_t)ro;
	}
	/* a role no field has is at DUMPI_MAX_FIELDS, where no decoder writes */
	memset(mpi_roles, -1, sizeof mpi_roles);
	memset(mpi_role_ix, DUMPI_MAX_FIELDS, sizeof mpi_role_ix);
	const dumpi_layout *table = dumpi_layout_table();
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) {
		const dumpi_layout *L = &table[fn];
		if (!L->name) continue;
		for (unsigned i = 0; i < L->nfields; i++) {
			const dumpi_field *f = &L->fields[i];
			unsigned n = f->name_len;
			if (n == 0 || n >= MAXLEN) continue;
			for (unsigned ro = head[n][(unsigned char)f->name[0] & 31u]; ro != NONE; ro = next[ro]) {
				const char *rn = role_names[ro];
				if (rn[0] != f->name[0] || rn[n - 1] != f->name[n - 1] || memcmp(rn, f->name, n) != 0 ||
				    mpi_roles[fn][ro] >= 0)
					continue;
				mpi_roles[fn][ro] = (int8_t)i;
				mpi_role_ix[fn][ro] = (uint8_t)i;
			}
		}
	}
}

void mpi_roles_init(void) { pthread_once(&roles_once, compute_roles); }

const char *mpi_role_label(int ro) { return role_names[ro]; }

/* ---- diagnostics ---- */

mpi_rank_name mpi_rank_label(const mpi_rank *m)
{
	mpi_rank_name n;
	if (m->rank >= 0) snprintf(n.s, sizeof n.s, "rank %ld", m->rank);
	else snprintf(n.s, sizeof n.s, "rank of file %.80s", hv_basename(m->file ? m->file : ""));
	return n;
}

static void vemit(mpi_rank *m, int rule, enum hv_sev sev, const dumpi_record *rec, uint64_t off, uint64_t len,
		  const char *fmt, va_list ap)
{
	char msg[640], path[48];
	vsnprintf(msg, sizeof msg, fmt, ap);
	hv_emit_sev(m->r, rule, sev, m->file, off ? off : rec->offset, len, dumpi_record_path(path, sizeof path, rec->index),
		    "%s record %llu (%s): %s", mpi_rank_label(m).s, (unsigned long long)rec->index,
		    dumpi_function_name(rec->fn), msg);
}

void mpi_emit(mpi_rank *m, int rule, const dumpi_record *rec, uint64_t off, uint64_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit(m, rule, hv_rules[rule].severity, rec, off, len, fmt, ap);
	va_end(ap);
}

void mpi_emit_rank_sev(mpi_rank *m, int rule, enum hv_sev sev, const dumpi_record *rec, uint64_t off, uint64_t len,
		       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit(m, rule, sev, rec, off, len, fmt, ap);
	va_end(ap);
}

/* ---- lookups ---- */

/* Element i of a counted u32 array whose count is at `at`. */
bool mpi_arr_u32(mpi_rank *m, uint64_t at, uint64_t i, uint32_t *v)
{
	const uint8_t *p = mpi_bytes(m, at + 4 + 4 * i, 4);
	if (!p) return false;
	*v = hv_be32(p);
	return true;
}

mpi_comm *mpi_comm_find(mpi_rank *m, uint64_t id)
{
	/* Most records name the communicator the previous one named, or one of
	 * a few of small index (mpi_comm_of keeps them). Only this function
	 * inserts into comms, so the last answer stays valid until the next
	 * call that inserts, which replaces it, and those by index until an
	 * insertion grows the map. */
	mpi_pass *p = m->pass;
	bool fresh;
	mpi_comm *c = mpi_map_put(&p->comms, id, &fresh);
	if (c && fresh) {
		c->size = id == MPI_D_COMM_SELF ? 1 : -1;
		c->inst = id == MPI_D_COMM_WORLD ? INST_WORLD : id == MPI_D_COMM_SELF ? INST_SELF : INST_NONE;
	}
	p->comm_last = c, p->comm_last_id = id;
	/* an insertion of any index may have grown the map, moving every
	 * entry: the ones kept by index are forgotten then, whichever index
	 * this call found */
	if (p->comm_near_cap != p->comms.cap) {
		memset(p->comm_near, 0, sizeof p->comm_near);
		p->comm_near_cap = p->comms.cap;
	}
	if (c && id < COMM_NEAR) p->comm_near[id] = c;
	return c;
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
