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
	 * against the roles of its name's length alone (a role name is at most
	 * 10 bytes), listed once here, not against all 35. */
	enum { MAXLEN = 16 };
	uint8_t by_len[MAXLEN][RO_COUNT_ROLES], nlen[MAXLEN] = {0};
	for (int ro = 0; ro < RO_COUNT_ROLES; ro++) {
		size_t len = strlen(role_names[ro]);
		if (len < MAXLEN) by_len[len][nlen[len]++] = (uint8_t)ro;
	}
	memset(mpi_roles, -1, sizeof mpi_roles);
	const dumpi_layout *table = dumpi_layout_table();
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++) {
		const dumpi_layout *L = &table[fn];
		if (!L->name) continue;
		for (unsigned i = 0; i < L->nfields; i++) {
			const dumpi_field *f = &L->fields[i];
			if (f->name_len >= MAXLEN) continue;
			for (unsigned k = 0; k < nlen[f->name_len]; k++) {
				int ro = by_len[f->name_len][k];
				if (role_names[ro][0] == f->name[0] && memcmp(role_names[ro], f->name, f->name_len) == 0 &&
				    mpi_roles[fn][ro] < 0)
					mpi_roles[fn][ro] = (int8_t)i;
			}
		}
	}
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++)
		for (int ro = 0; ro < RO_COUNT_ROLES; ro++)
			mpi_role_ix[fn][ro] = mpi_roles[fn][ro] < 0 ? DUMPI_MAX_FIELDS : (uint8_t)mpi_roles[fn][ro];
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
