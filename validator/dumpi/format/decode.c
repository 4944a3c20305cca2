/* The decoders of the hot path (format/fast.h): one a function id, made at
 * compile time from funcs.def (X-macros), that reads the function's fields
 * at constant offsets -- a 1-, 2-, 4- or 8-byte big-endian load each --
 * under one bounds check a record and one a counted field; a function with
 * strings, rows or version forks fails and takes the checked walk
 * (layout.c). Each is a small function of its own, called through
 * dumpi_decoders by id, compiled once here: inlined into a switch in each
 * of its two callers they took gcc -O2 ~25 s a file and clang with
 * ASan+UBSan ~18 s (150 s when forced inline). Only the ids marked below
 * get one (DUMPI_IS_HOT). */
#include <stddef.h>
#include <stdint.h>

#include "core/hv_int.h"
#include "dumpi/dumpi.h"
#include "dumpi/format/fast.h"

/* Each field's width in the record's shortest form (a counted field: its
 * count; a root-only field or a status: as if present). DUMPI_W_x for the
 * kinds the walk alone decodes (strings, rows, version forks) is 0: their
 * decoders fail before any use of it. */
enum {
	DUMPI_W_b = 1, DUMPI_W_h = 2, DUMPI_W_i = 4, DUMPI_W_q = 8, DUMPI_W_r = 4, DUMPI_W_t = 4,
	DUMPI_W_I = 4, DUMPI_W_H = 4, DUMPI_W_B = 4, DUMPI_W_C = 4, DUMPI_W_S = 4,
	DUMPI_W_D = 0, DUMPI_W_E = 0, DUMPI_W_J = 0, DUMPI_W_x = 0, DUMPI_W_y = 0, DUMPI_W_A = 0, DUMPI_W_a = 0,
};

/* Per function id: dumpi_min_ID, the bytes of its shortest arguments, and
 * dumpi_rooted_ID, its root-only fields. */
enum {
#define DUMPI_F(k, n) + DUMPI_W_##k
#define DUMPI_R(k, n) + DUMPI_W_##k
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) dumpi_min_##id = 0 fields,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#define DUMPI_F(k, n)
#define DUMPI_R(k, n) + 1
#undef DUMPI_FN
#define DUMPI_FN(id, name, fields) dumpi_rooted_##id = 0 fields,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
};

/* The fields a function's decoder reads, in order. k_: the offset of the
 * field from the first argument; kmin_: the same in the shortest form (the
 * record holds at least dumpi_min_ID - kmin_ + 8 more bytes from k_ on: the
 * check at the start and at each counted field make it so, which is what
 * lets a fixed-width field be read with no check of its own, by a load of
 * 8 bytes); fi_: the field's index; var_: whether the field has no fixed
 * width (counted, status, root-only) or comes after one, so that its offset
 * is stored, where dumpi_arg_offsets says DUMPI_AT_STORED: its array's or
 * status's readers find it with one load (dumpi_arg_at_var), and any other
 * is known from the layout alone (a store an argument of every record
 * would cost). All four are constants where no counted field came before,
 * and the compiler folds them. */
#define DUMPI_PUT_(val)                                                                                               \
	do {                                                                                                          \
		out->f[fi_].v = (val);                                                                                \
		if (var_) out->f[fi_].at = at + k_;                                                                   \
		if (ROOTED_) out->f[fi_].present = true;                                                              \
		fi_++;                                                                                                \
	} while (0)
#define DUMPI_DEC_b { DUMPI_PUT_(q[k_]); k_ += 1; kmin_ += 1; }
#define DUMPI_DEC_h { DUMPI_PUT_(hv_be16(q + k_)); k_ += 2; kmin_ += 2; }
#define DUMPI_DEC_i { DUMPI_PUT_(hv_be32(q + k_)); k_ += 4; kmin_ += 4; }
#define DUMPI_DEC_q { DUMPI_PUT_(hv_be64(q + k_)); k_ += 8; kmin_ += 8; }
#define DUMPI_DEC_r { rank_ = hv_be32(q + k_), hr_ = true; DUMPI_PUT_(rank_); k_ += 4; kmin_ += 4; }
#define DUMPI_DEC_t { root_ = hv_be32(q + k_), ht_ = true; DUMPI_PUT_(root_); k_ += 4; kmin_ += 4; }
/* u32 count, then count items of w bytes: count < 2^32 and w <= 14, so
 * nothing here overflows; avail - k_ >= 12 by the invariant above. */
#define DUMPI_COUNTED_(w)                                                                                             \
	{                                                                                                             \
		uint64_t c_ = hv_be32(q + k_);                                                                     \
		kmin_ += 4;                                                                                           \
		var_ = true;                                                                                          \
		if (avail - k_ - 4u < c_ * (w) + ((size_t)MIN_ - kmin_) + 8u) return DUMPI_DEC_FAIL;                           \
		DUMPI_PUT_(c_);                                                                                       \
		k_ += 4u + (size_t)(c_ * (w));                                                                        \
	}
#define DUMPI_DEC_I DUMPI_COUNTED_(4u)
#define DUMPI_DEC_H DUMPI_COUNTED_(2u)
#define DUMPI_DEC_B DUMPI_COUNTED_(1u)
#define DUMPI_DEC_C DUMPI_COUNTED_(1u)
/* statuses: absent without the status bits (present, count 0, as the walk leaves them) */
#define DUMPI_DEC_S                                                                                                   \
	if (mask & DUMPI_MASK_STATUS) DUMPI_COUNTED_(out->status_len) else {                                             \
		var_ = true;                                                                                          \
		DUMPI_PUT_(0);                                                                                        \
		kmin_ += 4;                                                                                           \
	}
/* what only the walk decodes */
#define DUMPI_DEC_D return DUMPI_DEC_FAIL;
#define DUMPI_DEC_E return DUMPI_DEC_FAIL;
#define DUMPI_DEC_J return DUMPI_DEC_FAIL;
#define DUMPI_DEC_x return DUMPI_DEC_FAIL;
#define DUMPI_DEC_y return DUMPI_DEC_FAIL;
#define DUMPI_DEC_A return DUMPI_DEC_FAIL;
#define DUMPI_DEC_a return DUMPI_DEC_FAIL;

/* Every field present again, no bad row (see dumpi_args.absent): out of
 * line, as it runs only after a record of the walk or of a function with
 * root-only fields (the decoders' call; the hot loop's after the record). */
__attribute__((noinline)) void dumpi_args_present(dumpi_args *out)
{
	for (unsigned i = 0; i < DUMPI_MAX_FIELDS; i++) out->f[i].present = true;
	out->bad_row = false;
	out->absent = false;
}

/* Which ids get code here, each marked by a DUMPI_HOT_<id> macro whose
 * expansion (~, 1 or ~, 2) makes DUMPI_IS_HOT(id) 1 or 2, any other id 0:
 *   1  a decoder and a step of its own (dumpi_steps): the functions common
 *      in real traces -- point to point, requests (persistent ones too),
 *      the common collectives, datatypes made and freed around exchanges,
 *      the communicator queries, MPI_Wtime, the MPI_Pcontrol annotations;
 *   2  a decoder alone (the common record through dumpi_next_common): the
 *      rest of MPI-1, and the MPI-2 calls a program may make every step
 *      (one-sided, MPI-IO reads and writes, derived datatypes);
 *   0  neither: the record takes the checked walk (records.c), ~10x the
 *      decoder's instructions, for functions rare in traces (the rest of
 *      MPI-2 and later: spawn, names, attributes, info, ...).
 * A step for all ~290 ids cost this file 59 CPU-s under clang ASan+UBSan
 * (6.8 s clang -O2, 14 s gcc -O2); a decoder for all of them 16 s, the
 * costliest file of the sanitizer builds. These three tiers keep it near
 * that with every common record on its step, two steps an id (with and
 * without a thread id: clang ASan+UBSan 13.1 CPU-s, gcc -O2 3.2, against
 * 12.3 and 2.5 with one). */
#define DUMPI_HOT_0 ~, 1     /* MPI_Send */
#define DUMPI_HOT_1 ~, 1     /* MPI_Recv */
#define DUMPI_HOT_3 ~, 1     /* MPI_Bsend */
#define DUMPI_HOT_4 ~, 1     /* MPI_Ssend */
#define DUMPI_HOT_5 ~, 1     /* MPI_Rsend */
#define DUMPI_HOT_8 ~, 1     /* MPI_Isend */
#define DUMPI_HOT_9 ~, 1     /* MPI_Ibsend */
#define DUMPI_HOT_10 ~, 1    /* MPI_Issend */
#define DUMPI_HOT_11 ~, 1    /* MPI_Irsend */
#define DUMPI_HOT_12 ~, 1    /* MPI_Irecv */
#define DUMPI_HOT_13 ~, 1    /* MPI_Wait */
#define DUMPI_HOT_14 ~, 1    /* MPI_Test */
#define DUMPI_HOT_15 ~, 1    /* MPI_Request_free */
#define DUMPI_HOT_16 ~, 1    /* MPI_Waitany */
#define DUMPI_HOT_18 ~, 1    /* MPI_Waitall */
#define DUMPI_HOT_19 ~, 1    /* MPI_Testall */
#define DUMPI_HOT_20 ~, 1    /* MPI_Waitsome */
#define DUMPI_HOT_22 ~, 1    /* MPI_Iprobe */
#define DUMPI_HOT_23 ~, 1    /* MPI_Probe */
#define DUMPI_HOT_26 ~, 1    /* MPI_Send_init */
#define DUMPI_HOT_27 ~, 1    /* MPI_Bsend_init */
#define DUMPI_HOT_28 ~, 1    /* MPI_Ssend_init */
#define DUMPI_HOT_29 ~, 1    /* MPI_Rsend_init */
#define DUMPI_HOT_30 ~, 1    /* MPI_Recv_init */
#define DUMPI_HOT_31 ~, 1    /* MPI_Start */
#define DUMPI_HOT_32 ~, 1    /* MPI_Startall */
#define DUMPI_HOT_33 ~, 1    /* MPI_Sendrecv */
#define DUMPI_HOT_34 ~, 1    /* MPI_Sendrecv_replace */
#define DUMPI_HOT_35 ~, 1    /* MPI_Type_contiguous */
#define DUMPI_HOT_43 ~, 1    /* MPI_Type_size */
#define DUMPI_HOT_46 ~, 1    /* MPI_Type_commit */
#define DUMPI_HOT_47 ~, 1    /* MPI_Type_free */
#define DUMPI_HOT_52 ~, 1    /* MPI_Barrier */
#define DUMPI_HOT_53 ~, 1    /* MPI_Bcast */
#define DUMPI_HOT_58 ~, 1    /* MPI_Allgather */
#define DUMPI_HOT_59 ~, 1    /* MPI_Allgatherv */
#define DUMPI_HOT_60 ~, 1    /* MPI_Alltoall */
#define DUMPI_HOT_61 ~, 1    /* MPI_Alltoallv */
#define DUMPI_HOT_62 ~, 1    /* MPI_Reduce */
#define DUMPI_HOT_54 ~, 1    /* MPI_Gather */
#define DUMPI_HOT_55 ~, 1    /* MPI_Gatherv */
#define DUMPI_HOT_56 ~, 1    /* MPI_Scatter */
#define DUMPI_HOT_57 ~, 1    /* MPI_Scatterv */
#define DUMPI_HOT_65 ~, 1    /* MPI_Allreduce */
#define DUMPI_HOT_81 ~, 1    /* MPI_Comm_size */
#define DUMPI_HOT_82 ~, 1    /* MPI_Comm_rank */
#define DUMPI_HOT_122 ~, 1   /* MPI_Wtime */
#define DUMPI_HOT_291 ~, 1   /* Function_enter */
#define DUMPI_HOT_292 ~, 1   /* Function_exit */
/* Decoders with no step of their own: the rest of MPI-1 (ids below 128:
 * the datatypes, groups, communicators, topologies, the other
 * collectives, MPI_Init and MPI_Finalize), met in real traces at start-up
 * and in the generated mix; their common records take dumpi_next_common
 * (the loop's dumpi_iter_next), which is ~10x cheaper than the walk. */
#define DUMPI_HOT_2 ~, 2     /* MPI_Get_count */
#define DUMPI_HOT_6 ~, 2     /* MPI_Buffer_attach */
#define DUMPI_HOT_7 ~, 2     /* MPI_Buffer_detach */
#define DUMPI_HOT_17 ~, 2    /* MPI_Testany */
#define DUMPI_HOT_21 ~, 2    /* MPI_Testsome */
#define DUMPI_HOT_24 ~, 2    /* MPI_Cancel */
#define DUMPI_HOT_25 ~, 2    /* MPI_Test_cancelled */
#define DUMPI_HOT_36 ~, 2    /* MPI_Type_vector */
#define DUMPI_HOT_37 ~, 2    /* MPI_Type_hvector */
#define DUMPI_HOT_38 ~, 2    /* MPI_Type_indexed */
#define DUMPI_HOT_39 ~, 2    /* MPI_Type_hindexed */
#define DUMPI_HOT_40 ~, 2    /* MPI_Type_struct */
#define DUMPI_HOT_41 ~, 2    /* MPI_Address */
#define DUMPI_HOT_42 ~, 2    /* MPI_Type_extent */
#define DUMPI_HOT_44 ~, 2    /* MPI_Type_lb */
#define DUMPI_HOT_45 ~, 2    /* MPI_Type_ub */
#define DUMPI_HOT_48 ~, 2    /* MPI_Get_elements */
#define DUMPI_HOT_49 ~, 2    /* MPI_Pack */
#define DUMPI_HOT_50 ~, 2    /* MPI_Unpack */
#define DUMPI_HOT_51 ~, 2    /* MPI_Pack_size */
#define DUMPI_HOT_63 ~, 2    /* MPI_Op_create */
#define DUMPI_HOT_64 ~, 2    /* MPI_Op_free */
#define DUMPI_HOT_66 ~, 2    /* MPI_Reduce_scatter */
#define DUMPI_HOT_67 ~, 2    /* MPI_Scan */
#define DUMPI_HOT_68 ~, 2    /* MPI_Group_size */
#define DUMPI_HOT_69 ~, 2    /* MPI_Group_rank */
#define DUMPI_HOT_70 ~, 2    /* MPI_Group_translate_ranks */
#define DUMPI_HOT_71 ~, 2    /* MPI_Group_compare */
#define DUMPI_HOT_72 ~, 2    /* MPI_Comm_group */
#define DUMPI_HOT_73 ~, 2    /* MPI_Group_union */
#define DUMPI_HOT_74 ~, 2    /* MPI_Group_intersection */
#define DUMPI_HOT_75 ~, 2    /* MPI_Group_difference */
#define DUMPI_HOT_76 ~, 2    /* MPI_Group_incl */
#define DUMPI_HOT_77 ~, 2    /* MPI_Group_excl */
#define DUMPI_HOT_78 ~, 2    /* MPI_Group_range_incl */
#define DUMPI_HOT_79 ~, 2    /* MPI_Group_range_excl */
#define DUMPI_HOT_80 ~, 2    /* MPI_Group_free */
#define DUMPI_HOT_83 ~, 2    /* MPI_Comm_compare */
#define DUMPI_HOT_84 ~, 2    /* MPI_Comm_dup */
#define DUMPI_HOT_85 ~, 2    /* MPI_Comm_create */
#define DUMPI_HOT_86 ~, 2    /* MPI_Comm_split */
#define DUMPI_HOT_87 ~, 2    /* MPI_Comm_free */
#define DUMPI_HOT_88 ~, 2    /* MPI_Comm_test_inter */
#define DUMPI_HOT_89 ~, 2    /* MPI_Comm_remote_size */
#define DUMPI_HOT_90 ~, 2    /* MPI_Comm_remote_group */
#define DUMPI_HOT_91 ~, 2    /* MPI_Intercomm_create */
#define DUMPI_HOT_92 ~, 2    /* MPI_Intercomm_merge */
#define DUMPI_HOT_93 ~, 2    /* MPI_Keyval_create */
#define DUMPI_HOT_94 ~, 2    /* MPI_Keyval_free */
#define DUMPI_HOT_95 ~, 2    /* MPI_Attr_put */
#define DUMPI_HOT_96 ~, 2    /* MPI_Attr_get */
#define DUMPI_HOT_97 ~, 2    /* MPI_Attr_delete */
#define DUMPI_HOT_98 ~, 2    /* MPI_Topo_test */
#define DUMPI_HOT_99 ~, 2    /* MPI_Cart_create */
#define DUMPI_HOT_100 ~, 2   /* MPI_Dims_create */
#define DUMPI_HOT_101 ~, 2   /* MPI_Graph_create */
#define DUMPI_HOT_102 ~, 2   /* MPI_Graphdims_get */
#define DUMPI_HOT_103 ~, 2   /* MPI_Graph_get */
#define DUMPI_HOT_104 ~, 2   /* MPI_Cartdim_get */
#define DUMPI_HOT_105 ~, 2   /* MPI_Cart_get */
#define DUMPI_HOT_106 ~, 2   /* MPI_Cart_rank */
#define DUMPI_HOT_107 ~, 2   /* MPI_Cart_coords */
#define DUMPI_HOT_108 ~, 2   /* MPI_Graph_neighbors_count */
#define DUMPI_HOT_109 ~, 2   /* MPI_Graph_neighbors */
#define DUMPI_HOT_110 ~, 2   /* MPI_Cart_shift */
#define DUMPI_HOT_111 ~, 2   /* MPI_Cart_sub */
#define DUMPI_HOT_112 ~, 2   /* MPI_Cart_map */
#define DUMPI_HOT_113 ~, 2   /* MPI_Graph_map */
#define DUMPI_HOT_114 ~, 2   /* MPI_Get_processor_name */
#define DUMPI_HOT_115 ~, 2   /* MPI_Get_version */
#define DUMPI_HOT_116 ~, 2   /* MPI_Errhandler_create */
#define DUMPI_HOT_117 ~, 2   /* MPI_Errhandler_set */
#define DUMPI_HOT_118 ~, 2   /* MPI_Errhandler_get */
#define DUMPI_HOT_119 ~, 2   /* MPI_Errhandler_free */
#define DUMPI_HOT_120 ~, 2   /* MPI_Error_string */
#define DUMPI_HOT_121 ~, 2   /* MPI_Error_class */
#define DUMPI_HOT_123 ~, 2   /* MPI_Wtick */
#define DUMPI_HOT_124 ~, 2   /* MPI_Init */
#define DUMPI_HOT_125 ~, 2   /* MPI_Finalize */
#define DUMPI_HOT_126 ~, 2   /* MPI_Initialized */
#define DUMPI_HOT_127 ~, 2   /* MPI_Abort */
/* Decoders too for the MPI-2 calls a program may make once a step or
 * more: one-sided communication (MPI_Put, MPI_Get, MPI_Accumulate and the
 * window synchronisation), MPI_Alltoallw and MPI_Exscan, derived datatypes
 * made for a halo, and MPI-IO's reads, writes and seeks. The rest of MPI-2
 * and later (spawn, names, attributes, info, errhandlers, file open and
 * close with their strings) is met a few times a run. */
#define DUMPI_HOT_141 ~, 2  /* MPI_Accumulate */
#define DUMPI_HOT_142 ~, 2  /* MPI_Get */
#define DUMPI_HOT_143 ~, 2  /* MPI_Put */
#define DUMPI_HOT_144 ~, 2  /* MPI_Win_complete */
#define DUMPI_HOT_146 ~, 2  /* MPI_Win_fence */
#define DUMPI_HOT_149 ~, 2  /* MPI_Win_lock */
#define DUMPI_HOT_150 ~, 2  /* MPI_Win_post */
#define DUMPI_HOT_151 ~, 2  /* MPI_Win_start */
#define DUMPI_HOT_152 ~, 2  /* MPI_Win_test */
#define DUMPI_HOT_153 ~, 2  /* MPI_Win_unlock */
#define DUMPI_HOT_154 ~, 2  /* MPI_Win_wait */
#define DUMPI_HOT_155 ~, 2  /* MPI_Alltoallw */
#define DUMPI_HOT_156 ~, 2  /* MPI_Exscan */
#define DUMPI_HOT_218 ~, 2  /* MPI_Type_create_hindexed */
#define DUMPI_HOT_219 ~, 2  /* MPI_Type_create_hvector */
#define DUMPI_HOT_220 ~, 2  /* MPI_Type_create_indexed_block */
#define DUMPI_HOT_221 ~, 2  /* MPI_Type_create_resized */
#define DUMPI_HOT_222 ~, 2  /* MPI_Type_create_struct */
#define DUMPI_HOT_224 ~, 2  /* MPI_Type_get_extent */
#define DUMPI_HOT_225 ~, 2  /* MPI_Type_get_true_extent */
#define DUMPI_HOT_242 ~, 2  /* MPI_File_read_at */
#define DUMPI_HOT_243 ~, 2  /* MPI_File_read_at_all */
#define DUMPI_HOT_244 ~, 2  /* MPI_File_write_at */
#define DUMPI_HOT_245 ~, 2  /* MPI_File_write_at_all */
#define DUMPI_HOT_246 ~, 2  /* MPI_File_iread_at */
#define DUMPI_HOT_247 ~, 2  /* MPI_File_iwrite_at */
#define DUMPI_HOT_248 ~, 2  /* MPI_File_read */
#define DUMPI_HOT_249 ~, 2  /* MPI_File_read_all */
#define DUMPI_HOT_250 ~, 2  /* MPI_File_write */
#define DUMPI_HOT_251 ~, 2  /* MPI_File_write_all */
#define DUMPI_HOT_252 ~, 2  /* MPI_File_iread */
#define DUMPI_HOT_253 ~, 2  /* MPI_File_iwrite */
#define DUMPI_HOT_254 ~, 2  /* MPI_File_seek */
#define DUMPI_HOT_255 ~, 2  /* MPI_File_get_position */
#define DUMPI_HOT_257 ~, 2  /* MPI_File_read_shared */
#define DUMPI_HOT_258 ~, 2  /* MPI_File_write_shared */
#define DUMPI_HOT_259 ~, 2  /* MPI_File_iread_shared */
#define DUMPI_HOT_260 ~, 2  /* MPI_File_iwrite_shared */
#define DUMPI_HOT_261 ~, 2  /* MPI_File_read_ordered */
#define DUMPI_HOT_262 ~, 2  /* MPI_File_write_ordered */
#define DUMPI_HOT_263 ~, 2  /* MPI_File_seek_shared */
#define DUMPI_HOT_264 ~, 2  /* MPI_File_get_position_shared */
#define DUMPI_HOT_265 ~, 2  /* MPI_File_read_at_all_begin */
#define DUMPI_HOT_266 ~, 2  /* MPI_File_read_at_all_end */
#define DUMPI_HOT_267 ~, 2  /* MPI_File_write_at_all_begin */
#define DUMPI_HOT_268 ~, 2  /* MPI_File_write_at_all_end */
#define DUMPI_HOT_269 ~, 2  /* MPI_File_read_all_begin */
#define DUMPI_HOT_270 ~, 2  /* MPI_File_read_all_end */
#define DUMPI_HOT_271 ~, 2  /* MPI_File_write_all_begin */
#define DUMPI_HOT_272 ~, 2  /* MPI_File_write_all_end */
#define DUMPI_HOT_273 ~, 2  /* MPI_File_read_ordered_begin */
#define DUMPI_HOT_274 ~, 2  /* MPI_File_read_ordered_end */
#define DUMPI_HOT_275 ~, 2  /* MPI_File_write_ordered_begin */
#define DUMPI_HOT_276 ~, 2  /* MPI_File_write_ordered_end */
#define DUMPI_HOT_281 ~, 2  /* MPI_File_sync */
#define DUMPI_SECOND_(a, b, ...) b
#define DUMPI_SECOND(...) DUMPI_SECOND_(__VA_ARGS__)
#define DUMPI_IS_HOT(id) DUMPI_SECOND(DUMPI_HOT_##id, 0, ~)
#define DUMPI_CAT_(a, b) a##b
#define DUMPI_CAT(a, b) DUMPI_CAT_(a, b)
/* A hot id's steps: its decoder's body inline, then the tail; one for
 * records with no thread id, one for records with one, so that the bytes
 * before the arguments are a constant of each (the mask is read only by a
 * decoder of statuses). */
#define DUMPI_STEP_DEF_(id)                                                                                           \
	static inline __attribute__((always_inline)) void dumpi_step_body_##id(dumpi_hot *h, const uint8_t *p,     \
									       const uint8_t *end, const bool T_)   \
	{                                                                                                             \
		const uint8_t *q = p + (T_ ? 29u : 27u);                                                              \
		const uint8_t *e = dumpi_body_##id(q, (size_t)(end - q), dumpi_hot_pos(h, q), p[2], &h->args, 1);    \
		if (e == DUMPI_DEC_FAIL) return;                                                                      \
		dumpi_step_tail(h, p, e, id, T_, dumpi_rooted_##id != 0);                                            \
	}                                                                                                             \
	static void dumpi_step_##id(dumpi_hot *h, const uint8_t *p, const uint8_t *end)                            \
	{                                                                                                             \
		dumpi_step_body_##id(h, p, end, false);                                                               \
	}                                                                                                             \
	static void dumpi_stept_##id(dumpi_hot *h, const uint8_t *p, const uint8_t *end)                           \
	{                                                                                                             \
		dumpi_step_body_##id(h, p, end, true);                                                                \
	}
#define DUMPI_STEP_OF_0(id) dumpi_step_none
#define DUMPI_STEP_OF_1(id) dumpi_step_##id
#define DUMPI_STEP_OF_2(id) dumpi_step_none
#define DUMPI_STEPT_OF_0(id) dumpi_step_none
#define DUMPI_STEPT_OF_1(id) dumpi_stept_##id
#define DUMPI_STEPT_OF_2(id) dumpi_step_none
#define DUMPI_DEC_OF_0(id) dumpi_dec_none
#define DUMPI_DEC_OF_1(id) dumpi_dec_##id
#define DUMPI_DEC_OF_2(id) dumpi_dec_##id

/* One decoder a function id (dumpi_decoder, format/fast.h), its body inline
 * in two functions: the decoder alone, and the hot loop's whole step of a
 * common record (dumpi_step: the decoder, then dumpi_step_tail), which keeps
 * the loop's registers out of the decoder's call and the record's stores
 * in one leaf function with its id a constant. */
#define DUMPI_F(k, n) DUMPI_DEC_##k
#define DUMPI_R(k, n)                                                                                                 \
	var_ = true;                                                                                                  \
	if (hr_ && ht_ && rank_ == root_) DUMPI_DEC_##k else {                                                      \
		out->f[fi_].present = false;                                                                          \
		fi_++;                                                                                                \
		kmin_ += DUMPI_W_##k;                                                                                 \
	}
#define DUMPI_NO_LAYOUT return DUMPI_DEC_FAIL;
#define DUMPI_DEF_0(id, ...)
#define DUMPI_DEF_2(id, ...)                                                                                         \
	static inline __attribute__((always_inline)) const uint8_t *dumpi_body_##id(                                 \
		const uint8_t *q, size_t avail, uint64_t at, uint8_t mask, dumpi_args *out, const int STEP_)          \
	{                                                                                                             \
		enum { MIN_ = dumpi_min_##id, ROOTED_ = dumpi_rooted_##id };                                          \
		(void)q, (void)at, (void)mask;                                                                        \
		if (avail < (size_t)MIN_ + 8u) return DUMPI_DEC_FAIL;                                                 \
		size_t k_ = 0, kmin_ = 0;                                                                             \
		unsigned fi_ = 0;                                                                                     \
		uint32_t rank_ = 0, root_ = 0;                                                                        \
		bool hr_ = false, ht_ = false, var_ = false;                                                          \
		if (ROOTED_) out->absent = true;                                                                      \
		else if (STEP_ == 0 && out->absent) dumpi_args_present(out);                                          \
		__VA_ARGS__;                                                                                           \
		(void)rank_, (void)root_, (void)hr_, (void)ht_, (void)kmin_, (void)var_;                              \
		out->n = (uint8_t)fi_;                                                                                \
		return q + k_;                                                                                        \
	}                                                                                                             \
	static const uint8_t *dumpi_dec_##id(const uint8_t *q, size_t avail, uint64_t at, uint8_t mask,          \
					     dumpi_args *out)                                                 \
	{                                                                                                             \
		return dumpi_body_##id(q, avail, at, mask, out, 0);                                                   \
	}
#define DUMPI_DEF_1(id, ...) DUMPI_DEF_2(id, __VA_ARGS__) DUMPI_STEP_DEF_(id)
#define DUMPI_FN(id, name, fields) DUMPI_CAT(DUMPI_DEF_, DUMPI_IS_HOT(id))(id, fields)
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN

__attribute__((noinline)) void dumpi_hot_clocks_pass(dumpi_hot *h)
{
	/* the record's own bytes, from its offset (args.bytes starts at its
	 * arguments) */
	const uint8_t *p = (const uint8_t *)(uintptr_t)(h->rec.offset - h->delta);
	uint8_t mask = p[2];
	bool threaded = mask & DUMPI_MASK_THREAD;
	dumpi_hot_clocks(h, p + 3 + (threaded ? 2 : 0), mask, threaded ? hv_be16(p + 3) : 0);
	const dumpi_layer *L = h->layer;
	L->paths[h->rec.fn](L->m, &h->rec, &h->args);
}

/* No record has id 290 (DUMPI_ALL_FUNCTIONS, the footer's totals slot). */
static const uint8_t *dumpi_dec_none(const uint8_t *q, size_t avail, uint64_t at, uint8_t mask, dumpi_args *out)
{
	(void)q, (void)avail, (void)at, (void)mask, (void)out;
	return DUMPI_DEC_FAIL;
}
static void dumpi_step_none(dumpi_hot *h, const uint8_t *p, const uint8_t *end)
{
	(void)h, (void)p, (void)end;
}

dumpi_decoder *const dumpi_decoders[DUMPI_NFUNCS] = {
#define DUMPI_F(k, n)
#define DUMPI_R(k, n)
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) [id] = DUMPI_CAT(DUMPI_DEC_OF_, DUMPI_IS_HOT(id))(id),
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
	[DUMPI_ALL_FUNCTIONS] = dumpi_dec_none,
};

/* By dumpi_step_of: 4 an id, with no thread id, with one, and two with
 * perf counters, which no step takes. */
dumpi_step *const dumpi_steps[DUMPI_NSTEPS] = {
#define DUMPI_F(k, n)
#define DUMPI_R(k, n)
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields)                                                                                    \
	[4 * (id)] = DUMPI_CAT(DUMPI_STEP_OF_, DUMPI_IS_HOT(id))(id),                                                 \
	[4 * (id) + 1] = DUMPI_CAT(DUMPI_STEPT_OF_, DUMPI_IS_HOT(id))(id), [4 * (id) + 2] = dumpi_step_none,          \
	[4 * (id) + 3] = dumpi_step_none,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
	[4 * DUMPI_ALL_FUNCTIONS] = dumpi_step_none,
	[4 * DUMPI_ALL_FUNCTIONS + 1] = dumpi_step_none,
	[4 * DUMPI_ALL_FUNCTIONS + 2] = dumpi_step_none,
	[4 * DUMPI_ALL_FUNCTIONS + 3] = dumpi_step_none,
};

/* The walk with no MPI layer hands its records here. */
static void dumpi_layer_nop(struct mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	(void)m, (void)rec, (void)a;
}

static dumpi_layer_path *const dumpi_layer_nops[DUMPI_NFUNCS] = {
#define DUMPI_F(k, n)
#define DUMPI_R(k, n)
#define DUMPI_NO_LAYOUT
#define DUMPI_FN(id, name, fields) [id] = dumpi_layer_nop,
#include "dumpi/format/funcs.def"
#undef DUMPI_F
#undef DUMPI_R
#undef DUMPI_NO_LAYOUT
#undef DUMPI_FN
	[DUMPI_ALL_FUNCTIONS] = dumpi_layer_nop,
};

const dumpi_layer dumpi_layer_none = {.paths = dumpi_layer_nops, .m = NULL};
