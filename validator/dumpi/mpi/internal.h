/* State shared by the files of the MPI consistency layer: the per-rank pass
 * (rank.c, its driver, calling its parts messages.c, colls.c, requests.c
 * and reuse.c, which share chans.c's helpers declared here and pass.c's,
 * which pass.h declares) and the cross-rank stage (match.c, its driver,
 * calling comms.c, collmatch.c and part.c, which share stage.c's helpers
 * declared here). It names nothing of the files it declares, so no file
 * and this header include each other in a circle. Not part of any API:
 * layer.h is the layer's interface to the rest of the validator. */
#ifndef HV_DUMPI_MPI_INTERNAL_H
#define HV_DUMPI_MPI_INTERNAL_H

#include "core/validate.h"
#include "layer.h"
#include "map.h"

/* Argument roles, found by field name in the layout table once. */
enum mpi_role {
	RO_COUNT, RO_SENDCOUNT, RO_RECVCOUNT,
	RO_DATATYPE, RO_SENDTYPE, RO_RECVTYPE, RO_OLDTYPE, RO_NEWTYPE,
	RO_DEST, RO_SOURCE, RO_ROOT,
	RO_TAG, RO_SENDTAG, RO_RECVTAG,
	RO_COMM, RO_OLDCOMM, RO_NEWCOMM,
	RO_REQUEST, RO_REQUESTS, RO_INDEX, RO_FLAG, RO_OUTCOUNT, RO_INDICES,
	RO_STATUS, RO_STATUSES,
	RO_COLOR, RO_KEY, RO_SIZE, RO_RANK, RO_REORDER,
	RO_SENDCOUNTS, RO_RECVCOUNTS, RO_SENDTYPES, RO_RECVTYPES, RO_COMMRANK,
	RO_COUNT_ROLES
};

/* A rank reference whose communicator size was not known when it was
 * read: the largest one per communicator, checked when the size is known. */
typedef struct mpi_rankref {
	int64_t max;          /* largest rank named (-1: none) */
	uint64_t rec, off;    /* the record naming it */
	uint16_t fn;
	uint8_t role;
} mpi_rankref;

/* A handle (communicator or datatype index) used after the rank freed it,
 * with no recorded constructor between: MPICH and Open MPI hand a freed
 * handle to the next object, and libdumpi numbers handles by value, so an
 * unrecorded constructor (MPI_Comm_split_type, ...) may have made it. The
 * first such use waits here for what follows: a recorded constructor
 * returning the index while it is held proves the use was of the freed
 * handle (a warning); a free of it, or the end of the rank, is what an
 * unrecorded constructor's object would see (counted for the rank's note). */
typedef struct mpi_reuse {
	uint64_t freed_rec, use_rec, use_off;
	uint16_t use_fn;
	uint8_t role;
} mpi_reuse;

/* A communicator index of this rank. */
typedef struct mpi_comm {
	uint8_t state;        /* 0 never seen, 1 live, 2 freed, 3 used after its free (reuse) */
	mpi_reuse reuse;
	int64_t size;         /* -1: unknown */
	uint64_t size_rec;    /* the MPI_Comm_size record it came from */
	uint64_t freed_rec;
	uint32_t inst;        /* its instance (below); INST_NONE: unknown origin */
} mpi_comm;

/* One collective call, kept for diagnostics and the count comparison (the
 * first COLL_KEEP per communicator, in an array grown as they come; the rest
 * only enter the digests).
 * Scalar collectives (Bcast, Reduce, Allreduce, Scan, Exscan, Allgather,
 * Alltoall, Gather, Scatter): `count` and `count2` are the element counts
 * of built-in datatype `dtype` this member states for one block (count2:
 * its other side, e.g. Alltoall's sendcount beside its recvcount), -1
 * where not compared. V-variants (Gatherv, Scatterv, Allgatherv,
 * Alltoallv, Alltoallw, Reduce_scatter): the send side (built-in `vtype`;
 * scalar `count` or sums s0 = sum c[j], s1 = sum j*c[j], s2 = sum
 * mpi_weight(j)*c[j] over the sendcounts array) and the receive side
 * (`vtype2`; `count2` or r0, r1, r2), `vdig` a digest of the receive
 * array, `vlen` its length; sums wrap modulo 2^64 (only differences are
 * used: s1/r1 locate one wrong block, s2/r2 confirm it is only one). */
enum { VS_SCALAR = 1, VS_SUMS = 2, VR_SCALAR = 4, VR_SUMS = 8 };
typedef struct mpi_coll {
	uint16_t fn, dtype;
	int32_t root, count;   /* root -3 / count -1: not compared */
	int32_t count2;
	uint8_t role0, role1;  /* the arguments count and count2 came from (RO_*) */
	uint16_t vtype, vtype2;
	uint8_t vflags;        /* VS_* | VR_* */
	int32_t vself;         /* Gatherv/Scatterv: the member's comm rank as recorded (-1) */
	uint32_t vlen;
	uint64_t s0, s1, s2, r0, r1, r2, vdig;
	uint64_t rec, off;
} mpi_coll;
#define COLL_KEEP 32

/* Collectives whose counts are scalars every member states alike, and the
 * v-variants (dumpi/common/funclabels.h ids). */
static inline bool mpi_coll_scalar(unsigned fn)
{
	return fn == 53 || fn == 54 || fn == 56 || fn == 58 || fn == 60 || fn == 62 || fn == 65 || fn == 67 ||
	       fn == 156;
}
static inline bool mpi_coll_vector(unsigned fn)
{
	return fn == 55 || fn == 57 || fn == 59 || fn == 61 || fn == 66 || fn == 155;
}

/* A communicator instance: one per creating call in the rank's stream
 * (index ids are reused after MPI_Comm_free; instances are not). 0 is
 * MPI_COMM_WORLD, 1 MPI_COMM_SELF. Bounded by MPI_MAX_INST per rank. */
#define INST_NONE UINT32_MAX
#define INST_WORLD 0u
#define INST_SELF 1u
#define MPI_MAX_INST 4096u
typedef struct mpi_inst {
	uint32_t parent, seq;  /* the parent instance, and which of its creating calls this was */
	uint16_t fn;           /* the creating call */
	int32_t color, key;    /* MPI_Comm_split; color < 0 is MPI_UNDEFINED; MPI_Cart_create and
	                          MPI_Graph_create: key is their reorder argument */
	bool null;             /* the call returned MPI_COMM_NULL */
	int64_t myrank;        /* from MPI_Comm_rank on it, -1 */
	uint32_t ncreated;     /* creating calls made on it so far */
	uint64_t rec, off, local_id;
	mpi_rankref ref;       /* largest rank named while the size was unknown */
	uint64_t ncoll, digest;   /* collective calls; digest of their functions and roots */
	uint64_t cdigest;         /* digest of the scalar collectives' built-in counts */
	bool cmixed;              /* some scalar collective had no built-in count to compare */
	uint64_t coll_rec, coll_off; /* the last collective call on it */
	mpi_coll *ops;         /* the first min(ncoll, COLL_KEEP) calls; grown as they come */
	uint8_t ops_cap;       /* entries allocated */
	bool ops_lost;         /* out of memory once: no calls kept (ops NULL) */
	uint64_t wild, wild_rec, wild_off; /* receives with unresolved wildcards */
	uint16_t wild_fn;
} mpi_inst;

/* Messages of one channel as this rank saw them: sends to `peer` or
 * receives from it, on one instance with one tag. Sizes are kept as up to
 * CHAN_RUNS runs of equal (count, datatype); after that only the tally. */
#define CHAN_RUNS 4
typedef struct mpi_chan { /* 144 bytes (static_assert in chans.c) */
	uint32_t inst;
	int32_t peer, tag;
	uint8_t dir;           /* 0 send, 1 receive */
	uint8_t nruns;
	bool runs_full;
	uint16_t last_fn;
	uint64_t n, last_rec, last_off;
	struct { int32_t count; uint16_t dtype; uint32_t reps; uint64_t rec; } runs[CHAN_RUNS];
} mpi_chan;
/* A skeleton's channel (mpi_rank.skeleton) is its key alone (inst, peer,
 * tag, dir: the first bytes of mpi_chan), enough to find its pair; the
 * process owning the pair gets the channel whole from the rank's owner. */
#define MPI_CHAN_SKEL 16u
/* One channel as bytes (wire.c); load checks inst < ninst. */
void mpi_chan_save(hv_wbuf *w, const mpi_chan *c);
bool mpi_chan_load(hv_rbuf *r, mpi_chan *c, uint32_t ninst);

/* What a request will send or receive, for messages counted at start or completion. */
typedef struct mpi_msg {
	bool p2p, recv;
	uint32_t inst;
	int32_t peer, tag, count;
	uint16_t dtype;
} mpi_msg;

/* A request id of this rank. One id can stand for several live requests at
 * once: Open MPI returns one shared handle for every nonblocking send that
 * completed at once, and libdumpi numbers requests by handle value, so a
 * real trace says `Waitall [2,3,4,4]`. `live` counts the nonblocking
 * instances created and not yet completed; `rec`/`off` name the oldest. */
typedef struct mpi_req {
	uint8_t kind;         /* REQ_* */
	bool cancelled;
	bool wild_recv;       /* msg is a receive with a wildcard (counted when it completes) */
	uint32_t live;        /* REQ_ACTIVE: instances not yet completed (>= 1); a persistent request: 1
	                         (so more than 1 says REQ_ACTIVE: mpi_waitall_hot) */
	uint16_t fn;          /* the call that created it */
	uint16_t chan_gen;    /* a persistent request: chan is its message's channel while this equals
	                         mpi_pass.chan_gen (0: none kept); kept only for a message of a known
	                         peer, and tag for a receive (mpi_startall_hot tests no more then) */
	uint32_t id;          /* its id, in the request table (in the map, the key says it) */
	uint64_t rec, off;
	mpi_msg msg;
	mpi_chan *chan;
} mpi_req;
/* The active kinds are odd (a request to complete is found by one bit test). */
enum { REQ_ACTIVE = 1, REQ_PERSIST_IDLE, REQ_PERSIST_ACTIVE };
_Static_assert((REQ_ACTIVE & REQ_PERSIST_ACTIVE & 1) && !(REQ_PERSIST_IDLE & 1), "active kinds are odd");
/* Ids are told apart exactly below this (libdumpi numbers requests from 2
 * up as it meets new handle values); above it they alias, which can only
 * turn a note about an unrecorded request into the warning of a known one. */
#define REQ_SEEN_BITS 65536u
/* Requests live in a table (requests.c) at slot id mod its size, each
 * with its id, which doubles from REQ_DIRECT_MIN entries when a new id's
 * slot holds another live request, up to REQ_DIRECT entries: at most
 * REQ_DIRECT * sizeof(mpi_req) bytes (4 MiB) while the rank's pass lasts.
 * A request whose slot is taken once the table is full goes to the map,
 * at ~6x a table request's cost (a wait's and a create's). Slots by id
 * mod the size, not ids below the size: libdumpi numbers requests from 2
 * up as it meets new handle values, a recycled handle keeping its id, but
 * a writer that numbers every request anew (the generator) climbs past
 * any bound while a few are live, and a table sized by the largest id is
 * zeroed as it grows; live requests are what the table holds. */
#define REQ_DIRECT 65536u
#define REQ_DIRECT_MIN 64u
_Static_assert(sizeof(mpi_req) <= 64, "REQ_DIRECT's bound in bytes");
/* Evidence on one rank of calls libdumpi does not record (mpi_rank.unrec):
 * a request no recorded call created, or one named after it ended (a
 * recycled handle); a status read (MPI_Get_count, MPI_Get_elements) that no
 * recorded receive or probe produced (a matched probe or receive); a
 * communicator or datatype handle used after its free (a recycled handle)
 * or never created. What these calls did is not in the trace, so findings
 * they can explain are notes unless the replay option asks for warnings. */
enum { UNREC_REQ = 1, UNREC_STATUS = 2, UNREC_CTOR = 4 };
/* Which MPI library wrote the trace, as the records show it (mpi_rank.impl). */
enum { IMPL_MPICH = 1, IMPL_OPENMPI = 2 };
/* What ignored calls hide (mpi_rank.ignored). */
enum { IGN_FINALIZE = 1, IGN_REQUESTS = 2, IGN_P2P = 4, IGN_COLL = 8 };

/* What only the pass over a rank's records uses: allocated with the rank
 * (mpi_rank_new) and freed when it ends (mpi_rank_end), so a rank waiting
 * for the cross-rank stage, or loaded from another process, holds its
 * summary alone. */
typedef struct mpi_pass {
	/* a private window for array arguments (the stream walk owns its own) */
	hv_window win;
	bool win_ok;
	char ignored_names[160]; /* the functions ignored (mpi_rank.ignored), for the note */
	uint64_t ignored_off;  /* the footer */
	/* Requests named by a wait, test, free or cancel that no recorded call
	 * created: calls libdumpi does not record (MPI-3) leave such holes. */
	uint64_t unrecorded, unrecorded_rec, unrecorded_off;
	uint32_t unrecorded_id;
	uint16_t unrecorded_fn;
	uint64_t recycled;    /* of those, the ones named after the trace showed them end */
	uint64_t *req_seen;   /* bitmap of request ids (mod REQ_SEEN_BITS) ever created: seen_words words,
	                         grown to the largest word written */
	uint32_t seen_words;
	bool status_fresh;    /* a recorded receive or probe produced a status since the last read of one */
	bool status_tagged;   /* statuses carry the tag (14 bytes, version 0.6.3 on; else 10) */
	bool req_off;         /* the request checks are off: m->io_requests, or IGN_REQUESTS ignored */
	/* Handles used after their free that no recorded constructor proved
	 * wrong (mpi_reuse): counted for one note at the end of the rank. */
	uint64_t reused, reused_rec, reused_off, reused_id, reused_freed;
	uint16_t reused_fn;
	bool reused_type;
	/* The record being checked, as the walk holds it in memory (NULL: read
	 * from the file through win): statuses and request arrays come from it. */
	const uint8_t *bytes;
	uint64_t bytes_at, bytes_len;
	mpi_map comms;        /* comm index -> mpi_comm */
	/* Channels met lately (chans.c tally), by a guess from their key;
	 * valid while the channel map keeps chan_near_cap slots. */
#define CHAN_NEAR 256u
	mpi_chan *chan_near[CHAN_NEAR];
	size_t chan_near_cap;
	/* Channels stay where they are until the channel map grows or merges
	 * (no channel is deleted during the pass): each of those steps a new
	 * generation, and a persistent request keeps its channel (mpi_req.chan)
	 * for the generation it found it in, so MPI_Start finds it again without
	 * its key. 1 at the start, never 0 (a request's none), and a
	 * generation past is never current again (mpi_chan_gen_step). */
	uint16_t chan_gen;
	/* Messages of the fused paths' common case (fused.c) whose count,
	 * rank and tag checks all passed: their evaluations, counted here and
	 * added to the report when the pass ends (mpi_settle_msgs), less the
	 * count checks MPI_Sendrecv_replace's one count spares (msgs_one_count). */
	uint64_t msgs_passed, msgs_one_count;
	mpi_comm *comm_last;  /* mpi_comm_of's last answer (valid until its next insertion) */
	uint64_t comm_last_id;
	/* Communicators of the small indices libdumpi hands out (a program's
	 * few), by index: valid while the map keeps comm_near_cap slots (only
	 * an insertion that grows it moves them; none is ever deleted). */
#define COMM_NEAR 64u
	mpi_comm *comm_near[COMM_NEAR];
	size_t comm_near_cap;
	/* The datatype indices (16 bits) the rank freed, by index in chunks of
	 * 256 made when first written (reuse.c's type_slot): 1 + the record that
	 * freed it, with TYPE_REUSED while a use after that free waits (its
	 * mpi_reuse in type_reuse); 0 not freed, or made again since. */
	uint64_t **types;
#define TYPE_INDICES 65536u
#define TYPE_CHUNK 256u
#define TYPE_REUSED (1ull << 63)
	mpi_map type_reuse;   /* datatype index -> mpi_reuse, for those */
	mpi_map reqs;         /* request index -> mpi_req, for those whose table slot was taken */
	mpi_req *req_direct;  /* the request table: slot id & req_mask -> mpi_req (kind 0: none); before
	                         the first request, one empty slot that is never written (requests.c) */
	uint32_t req_cap;     /* entries of req_direct allocated: 0, or a power of two up to REQ_DIRECT */
	uint32_t req_mask;    /* req_cap - 1, or 0 */
	bool req_hot;         /* the table is allocated and the map holds no request: a new id whose slot is
	                         free is no live request's (mpi_request_created_hot) */
} mpi_pass;

struct mpi_rank {
	dumpi_layer entry;    /* the walk's hand-off (mpi_rank_layer): paths, and this rank */
	hv_report *r;
	hv_blob *b;
	const char *file;
	uint8_t version[3];
	long rank;
	mpi_pass *pass;       /* NULL once the rank ended */
	bool finalized, complete, ended, io_requests;
	/* Calls the footer counts as ignored (libdumpi's tracing switched off,
	 * e.g. MPI_Pcontrol(0)): what they did is not in the stream, so the
	 * checks they would feed are not made (IGN_*; travels to the cross-rank stage). */
	uint8_t ignored;
	int64_t world_size;   /* from the rank's MPI_Comm_size(MPI_COMM_WORLD), -1: not recorded */
	/* Options (hv_options): the MPI library named by the user (IMPL_*, 0:
	 * infer it), and whether the replay-breaking notes are warnings. */
	uint8_t impl_opt;
	bool replay;
	/* Evidence of unrecorded calls (UNREC_*), and of the MPI library
	 * (IMPL_*: the first record showing each). */
	uint8_t unrec, impl;
	uint64_t impl_rec[2];
	bool impl_by_status;  /* MPICH shown by a status (an empty one with another tag), not a send to -1 */
	uint64_t records;
	uint64_t last_rec, last_off;
	uint16_t last_fn;
	mpi_inst *inst;       /* communicator instances */
	uint32_t ninst, inst_cap;
	bool inst_overflow;
	mpi_map chans;        /* hash of (inst, peer, tag, dir) -> mpi_chan */
	bool chans_merged;    /* past MPI_MAX_CHANS: channels keyed without their tag (CHAN_ANY_TAG) */
	/* Checked by another process of a partitioned cross-rank stage
	 * (mpi_rank_load_as): channels hold MPI_CHAN_SKEL bytes each. */
	bool skeleton;
};

/* How messages name a rank: "rank N", or "rank of file NAME" (its base
 * name) when the rank never recorded its number (no MPI_Comm_rank on
 * MPI_COMM_WORLD, and a file name without -NNNN.bin). Returned by value
 * (pass.h), so its .s is usable as a printf argument, several per call. */
typedef struct mpi_rank_name {
	char s[96];
} mpi_rank_name;

/* Channels per rank. A program that uses a fresh tag per message would
 * otherwise keep one channel per message; past this many, the rank's
 * channels are merged over tags (tallies add up, sizes are dropped) and the
 * cross-rank stage compares that rank's traffic per (communicator, source,
 * destination) over all tags, which needs no agreement on where the bound
 * was crossed. */
/* Memory: a channel is 144 bytes, its map slot 153 (key, used byte,
 * value); the map is at most 3/4 full and doubles, so while it grows the
 * old and the new slot arrays hold at most 4 slots per live channel: about
 * 612 bytes per channel at the peak, at most MPI_MAX_CHANS channels per rank
 * (~40 MiB) however many messages the rank sends (tests/live_state_memory.test.sh). */
#define MPI_MAX_CHANS 65536u
#define CHAN_ANY_TAG (-3)
/* The peer of a channel of receives posted with source -1 that completed as
 * MPICH completes a receive from its MPI_PROC_NULL (-1, the value DUMPI
 * gives MPI_ANY_SOURCE too): no bytes, and a status naming no sender that
 * sent with the posted tag. Each may be a receive from MPI_PROC_NULL or an
 * empty message with the posted tag from anyone: it absorbs one unmatched
 * send with that tag, without a note (match.c). */
#define CHAN_NULLISH (-4)

/* One step of a sequence digest (a communicator's collectives): word w, the
 * call's key fields packed into 64 bits, folded into h. For a fixed w the
 * step is a bijection of h (xor, an odd multiplier, an xor-shift), so two
 * sequences that differ in one call alone never share a digest; a handful
 * of instructions, where the maps' four-round hash costs ~70 with the call. */
static inline uint64_t mpi_digest_step(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/* ---- the per-rank pass, across its files ---- */


/* Collective calls, communicator constructors included (they are
 * collectives of their parent): these feed the digests (colls.c) and
 * are what an ignored collective hides (requests.c). */
static inline bool mpi_is_coll(unsigned fn)
{
	return (fn >= 52 && fn <= 62) || (fn >= 65 && fn <= 67) || fn == 155 || fn == 156 || fn == 84 || fn == 85 ||
	       fn == 86 || fn == 99 || fn == 101 || fn == 111;
}


/* Messages on their channels (chans.c). A recorded status: bytes (i32), source (i32),
 * cancelled (u8), error (u8), and from 0.6.3 the tag (i32). */
typedef struct mpi_status { bool ok, tag_ok, cancelled; int32_t src, tag, bytes; } mpi_status;
mpi_status mpi_status_of(mpi_rank *m, unsigned fn, const dumpi_args *a, int ro, uint64_t i);
static inline bool mpi_msg_wild(const mpi_msg *g) { return g->peer == MPI_D_ANY_SOURCE || g->tag == MPI_D_ANY_TAG; }
void mpi_send_msg(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g);
void mpi_recv_msg(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g, mpi_status st);
void mpi_untally(mpi_rank *m, const mpi_msg *g);
/* A message of a known peer and tag (both >= 0) on its channel: what
 * mpi_send_msg and mpi_recv_msg do with it, for callers that know so. */
void mpi_tally(mpi_rank *m, const dumpi_record *rec, const mpi_msg *g);
/* The evaluations mpi_pass.msgs_passed holds, added to the report (the
 * pass's end: nothing reads them before). */
void mpi_settle_msgs(mpi_rank *m);

/* Whether mpi_messages / mpi_requests do anything with records of `fn`
 * (mpi_rank_record calls them only then). */
bool mpi_messages_of(unsigned fn);
bool mpi_requests_of(unsigned fn);
/* Each file's share of one record (mpi_rank_record calls them in order). */
void mpi_messages(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_collectives(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_requests(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);

/* A collective call on instance `in` (found from its communicator, not
 * MPI_COMM_SELF) with root `root` (-3: none): mpi_collectives' share of it
 * once it found them; the fused path for the common collectives
 * (fused.c) calls it alike. */
void mpi_coll_enter(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, mpi_inst *in, int32_t root);
/* A (count, datatype) pair a collective states, its count role, and
 * whether it may be MPI_IN_PLACE (colls.c's scalar_counts; the fused
 * paths enter theirs through collenter.h). */
typedef struct { int32_t count; uint64_t dtype; uint8_t role; bool in_place; } mpi_count_pair;

/* A pass's requests (requests.c): the table before its first request and
 * the map made empty, then all of it freed (the pass made empty again). */
void mpi_requests_init(mpi_pass *p);
void mpi_requests_free(mpi_pass *p);

/* A call creating request id `v` (>= 2) whose message is `g` (zeroed for
 * MPI_Grequest_start): mpi_requests' share of such a record once it has
 * read the message; the fused paths (fused.c) call it alike. */
void mpi_request_created(mpi_rank *m, const dumpi_record *rec, uint64_t v, const mpi_msg *g);

/* An MPI_Wait record: mpi_requests' share of it, for the driver's fused
 * path, which takes it only when its request and status are where
 * libdumpi lays them out (checks.h: WAIT_REQUEST, WAIT_STATUS). */
void mpi_request_wait(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
/* An MPI_Waitany, MPI_Testany, MPI_Waitsome or MPI_Testsome record:
 * mpi_requests' share of it, for the driver's fused path. */
void mpi_request_some(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
/* An MPI_Waitany record whole (its count too), for the driver's path of
 * its own, which takes it only when its function's layout is libdumpi's
 * (checks.h: WAITANY_*). */
void mpi_request_waitany(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
/* An MPI_Waitall or MPI_Testall record: mpi_requests' share of it from
 * request `first` of its array on, for the driver's fused path (which
 * finished the ones before). */
void mpi_request_waitall(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, uint64_t first);
/* MPI_Start of request `id`, named at `off`: every case (MPI_Startall's
 * loop, mpi_request_startall_hot, takes the common one inline). */
void mpi_request_start(mpi_rank *m, const dumpi_record *rec, uint64_t off, uint32_t id);
/* MPI_Test and MPI_Request_free records: mpi_requests' share of each,
 * which the driver's paths of their own call with the record's bytes taken
 * (a completing MPI_Test's status is read from them). */
void mpi_request_test(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_request_free(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);

/* The end of a complete rank (requests.c, and reuse.c's
 * mpi_report_reused; mpi_rank_end calls them in the order ignored, reused,
 * unrecorded, leaks: the reused settle what the unrecorded note counts). */
void mpi_report_ignored(mpi_rank *m);
void mpi_report_unrecorded(mpi_rank *m);
void mpi_report_leaks(mpi_rank *m);
void mpi_report_reused(mpi_rank *m);

/* Handles used after their free (reuse.c), as the driver's constructors and
 * destructors meet them: a datatype index made by a constructor or freed by
 * MPI_Type_free, a communicator's entry c made by a constructor (before the
 * caller makes it live) or freed by MPI_Comm_free / MPI_Comm_disconnect; a
 * pass's table of freed datatypes made empty, then freed. */
void mpi_type_made(mpi_rank *m, uint64_t id, const dumpi_record *rec);
void mpi_type_freed(mpi_rank *m, uint64_t id, const dumpi_record *rec);
void mpi_comm_made(mpi_rank *m, mpi_comm *c, uint64_t id, const dumpi_record *rec);
void mpi_comm_freed(mpi_rank *m, mpi_comm *c, uint64_t id, const dumpi_record *rec);
void mpi_reuse_init(mpi_pass *p);
void mpi_reuse_free(mpi_pass *p);
/* The severity of a finding that calls libdumpi does not record could
 * explain: a note, or a warning when the user asked for a replayable trace. */
static inline enum hv_sev mpi_unrec_sev(bool replay) { return replay ? HV_SEV_WARNING : HV_SEV_NOTE; }

/* ---- the cross-rank stage, across its files ---- */

/* Communicators rebuilt across ranks are numbered (gid): 0 is the world. */
#define GID_NONE UINT32_MAX
#define GID_SELF (UINT32_MAX - 1)
#define DIAG_CAP 50   /* per rule and trace; then one line says how many more */

/* A member of a rebuilt communicator: its world rank and instance there, the
 * split key, its position in the parent, its MPI_Comm_rank record (-1). */
typedef struct gmember {
	uint32_t world, inst;
	int32_t key;
	int64_t pidx, myrank;
} gmember;

/* A communicator rebuilt from every member's instance of it. */
typedef struct gcomm {
	uint32_t parent, seq;
	uint16_t fn;
	int32_t color;
	bool ok;              /* members are in MPI's order */
	uint32_t n, cap;
	gmember *mem;
	uint32_t first_world; /* the rank and instance that created it first, for notes */
	uint32_t first_inst;
} gcomm;

/* One channel across ranks. When an end merged its channels over tags
 * (MPI_MAX_CHANS), the channel is keyed with CHAN_ANY_TAG and gathers every
 * channel of the other end between the same ranks: ns/nr add up, s/r are
 * the latest for diagnostics, and `merged` drops the size comparison. */
typedef struct gchan {
	uint32_t gid, src, dst;
	int32_t tag;
	const mpi_chan *s, *r;
	uint64_t ns, nr;
	bool merged;
} gchan;

/* The cross-rank stage partitioned over the processes of a units runner
 * (part.c): each process holds whole the ranks it checked (their
 * owner), the others as skeletons; every process builds the map of matched
 * pairs from the keys alone, in the same order, and matches the pairs
 * whose destination it owns; their findings, kept with the pair's slot,
 * are replayed in slot order on every process. */
typedef struct mpi_part {
	struct hv_units_runner *run;
	int np, me;
	uint32_t *owner;      /* world rank -> the process holding it whole */
	bool failed;          /* out of memory here: every process reports it */
	gchan *pairs;         /* the pairs whose destination this process owns */
	uint32_t npairs, pcap;
	mpi_chan *routed;     /* other processes' send channels to those pairs, whole */
	size_t nwait;         /* how many: the skeletons' send channels into those pairs */
	/* the owned pairs' findings, in slot order, while `recording` */
	bool recording;
	uint64_t slot, nfound;
	hv_wbuf found;
	unsigned kept[HV_RULE_COUNT], unkept[HV_RULE_COUNT];
	uint8_t unkept_sev[HV_RULE_COUNT];  /* + 1, 0: none */
	uint64_t evaluated[HV_RULE_COUNT];  /* the report's counts before the pairs */
} mpi_part;

/* One trace's cross-rank stage: its ranks, communicators, diagnostic caps. */
typedef struct trace_ctx {
	hv_report *r;
	mpi_rank **by;        /* by world rank */
	uint32_t n;
	uint32_t **ig;        /* per rank: instance -> gid */
	gcomm *g;
	uint32_t ng, gcap;
	unsigned shown[HV_RULE_COUNT], hidden[HV_RULE_COUNT];
	uint8_t hidden_sev[HV_RULE_COUNT]; /* the highest severity among the hidden ones, + 1 (0: none set) */
	bool replay;          /* the replay option: findings unrecorded calls may explain stay warnings */
	mpi_part *part;       /* NULL: every rank is here whole */
} trace_ctx;

/* Members vote with a value (a, b); the reference is the value most of them
 * share, ties going to the one whose first member has the lowest position. */
typedef struct vote {
	uint64_t a, b;
	uint32_t pos;
} vote;

/* Whether rule `rule` may list one more diagnostic in this trace (DIAG_CAP). */
bool mpi_room(trace_ctx *t, int rule);
/* A cross-rank diagnostic at record `rec` of rank `m`, within DIAG_CAP. */
void mpi_emit_at(trace_ctx *t, int rule, const mpi_rank *m, uint64_t rec, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The same at severity `sev` (a finding unrecorded calls may explain). */
void mpi_emit_sev(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		  const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* "comm 2 = world", "comm 4" as the rank names it. */
const char *mpi_comm_name(char *buf, size_t len, const mpi_rank *m, uint32_t inst);
/* A listed cross-rank diagnostic whose text is made (after mpi_room). */
void mpi_emit_text(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		   const char *msg);
/* The matched pair channel `c` of world rank `w` belongs to: false when it
 * has none (an unknown communicator, a peer out of range). */
bool mpi_chan_pair(const trace_ctx *t, uint32_t w, const mpi_chan *c, uint64_t *key, uint32_t *gid, uint32_t *src,
		   uint32_t *dst, int32_t *tag);

/* Channel c, mapped to tag `tag`, as one end of pair x (ends merged over
 * tags gather several). */
void mpi_pair_end(gchan *x, const mpi_chan *c, int32_t tag);

/* The partition (part.c). Once the stage reaches the messages, every
 * process calls owners, route and replay in this order, whatever failed. */
#define PAIR_ELSEWHERE UINT32_MAX
/* Which process holds each rank whole (t->part->owner). */
void mpi_part_owners(trace_ctx *t);
/* The pair at map value *ix, entered (zeroed) when `fresh`: NULL when its
 * destination is another process's (*ix PAIR_ELSEWHERE) or memory ran out. */
gchan *mpi_part_pair(trace_ctx *t, uint32_t *ix, bool fresh, uint32_t dst);
/* Send channels of the ranks here to the owners of their destinations;
 * the pairs here get those that arrive (gm: key -> pair index). */
void mpi_part_route(trace_ctx *t, const mpi_map *gm);
/* Findings of the pairs here are recorded from now on; the pair at `slot`. */
void mpi_part_begin(trace_ctx *t);
gchan *mpi_part_at(trace_ctx *t, const uint32_t *ix, uint64_t slot);
void mpi_part_record(trace_ctx *t, int rule, enum hv_sev sev, const mpi_rank *m, uint64_t rec, uint64_t off,
		     const char *msg);
/* Every process's findings and evaluation counts into the report, in slot order. */
void mpi_part_replay(trace_ctx *t);
void mpi_part_free(mpi_part *p);

/* Step 1 (comms.c): every rank's instances paired into t->g, t->ig
 * filled; false when out of memory. */
bool mpi_pair_instances(trace_ctx *t);
/* Step 2 (collmatch.c): the collectives of communicator `gi`; v and
 * told have room for its members. */
void mpi_compare_collectives(trace_ctx *t, uint32_t gi, vote *v, bool *told);

#endif
