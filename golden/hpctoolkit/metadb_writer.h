/* Internals of the meta.db writer (gen_metadb*.c): one writer state shared
 * by the section writers of both editions and by the break module.
 *
 * How a file is laid out: every section is written into its own buffer
 * whose offset 0 is the section's (8-aligned) start, with absolute pointers
 * computed from the section bases. A first pass with dummy bases measures
 * the sections (their internal layout does not depend on where they are),
 * the bases are then chosen in the physical order of the layout, and a
 * second pass writes the real bytes. Positions of interesting structures
 * are recorded section-relative so the break module can find them. */
#ifndef HV_GEN_METADB_H
#define HV_GEN_METADB_H

#include "../gen.h"
#include "model.h"

/* Sections, in header order (header slot 0x10 + 16*i). */
enum { MDB_GENERAL, MDB_IDNAMES, MDB_METRICS, MDB_CONTEXT, MDB_STRINGS, MDB_MODULES, MDB_FILES, MDB_FUNCTIONS, MDB_NSEC };

/* Layout choices: all legal, all seen in real writers or allowed by the spec. */
typedef struct mdb_layout {
	int order[MDB_NSEC];      /* physical order of the sections */
	unsigned strings_misalign;/* bytes before the Strings section (it has alignment 1) */
	bool entries_first;       /* release: entry array before the children arrays (older hpcprof) */
	bool children_reverse;    /* children arrays deepest-first (newer hpcprof) */
	bool names_array_first;   /* IdNames: ppNames before the strings (older hpcprof) */
	bool metrics_old_order;   /* Metrics: arrays first, strings last (older hpcprof) */
	bool junk;                /* newer minor: non-zero bytes in gaps and reserved fields */
	unsigned gap;             /* newer minor: extra bytes after each section and section header */
	unsigned extra_flex_every;/* newer minor: every Nth context gets one unused flex word (0: none) */
	int misalign_section;     /* breaks only: section index + 1 placed 4 bytes off its alignment */
	bool unknown_section;     /* newer minor: a ninth header pair for a section 4.0 does not define */
	bool leaf_cursor;         /* leaves get szChildren 0 with a non-zero pChildren, as hpcprof writes */
	bool fs_flags_junk;       /* Function Specification flags left uninitialised, as hpcprof does */
} mdb_layout;

typedef struct mdb_writer {
	hpctk_model *m;           /* owned by the family; breaks may edit it before writing */
	const gen_params *p;
	bool draft;
	/* The edition's writers of the two sections the editions lay out
	 * differently (metadb_release.c, metadb_draft.c), chosen by metadb.c so
	 * that the common parts never call an edition. */
	void (*write_metrics)(struct mdb_writer *w);
	void (*write_context)(struct mdb_writer *w);
	uint8_t minor;
	mdb_layout lay;
	gen_rng junk_rng;

	/* Strides written in the file (>= the 4.0 END, larger at a newer minor). */
	unsigned sz_metric, sz_inst, sz_summary, sz_scope, sz_module, sz_file, sz_function, sz_entry;

	uint64_t base[MDB_NSEC], size[MDB_NSEC];
	gen_buf sec;              /* the section being written */

	/* Strings section (relative offsets). */
	uint64_t *str_module, *str_file, *str_function, *str_entry;
	uint64_t strings_len;

	/* Relative positions recorded while writing (for references and breaks). */
	uint64_t title, description;            /* General */
	uint64_t names_arr, *names;             /* IdNames: ppNames array, each name */
	uint64_t metrics_arr, scopes_arr;       /* Metrics: {MD} array; release {PS} array */
	uint64_t *inst_arr, *sum_arr;           /* per metric: release {PSI}/{SS} arrays; draft {PS} array and unused */
	uint64_t *draft_sum_arr;                /* draft: per (metric, inst) {SS} array, flattened */
	uint64_t *metric_name, *scope_name;     /* strings */
	uint64_t modules_arr, files_arr, functions_arr;
	uint64_t entries_arr;                   /* release {Entry} array; draft roots array */
	uint64_t *ctx_at;                       /* each model context */
	unsigned *ctx_size;                     /* each context's size in bytes */
	uint64_t roots_size;                    /* draft szRoots */
	bool break_failed;                      /* the shape has nothing a break needs */
	const char *break_why;                  /* why, when it is not the shape */
} mdb_writer;

/* Absolute file offset of a section-relative position. */
static inline uint64_t mdb_abs(const mdb_writer *w, int sec, uint64_t rel) { return w->base[sec] + rel; }

uint8_t mdb_junk(mdb_writer *w);             /* a non-zero junk byte (newer minor) or 0 */
/* Reserved {Ctx} flag bits (3-7) a newer minor may define: set on every
 * fourth context from minor 2 on; 0 at minor 0 and for breaks (which bend
 * one thing only), and at minor 1, so that a 4.1 file whose minor byte is
 * patched to 0 differs from 4.0 in strides and gaps only (the golden
 * i_metadb.*.stride-larger-minor0 cases). */
uint8_t mdb_newer_flag_bits(const mdb_writer *w, uint32_t ctx);
void mdb_fill_junk(mdb_writer *w, uint8_t *p, size_t n);
/* Reserve n bytes aligned to `align` in the current section (junk-filled
 * gap first at a newer minor); returns the relative offset. */
size_t mdb_alloc(mdb_writer *w, size_t n, size_t align);
size_t mdb_str(mdb_writer *w, const char *s); /* a string with its NUL in the current section */
void mdb_put64(mdb_writer *w, size_t rel, uint64_t v);
void mdb_put32(mdb_writer *w, size_t rel, uint32_t v);
void mdb_put16(mdb_writer *w, size_t rel, uint16_t v);
void mdb_put8(mdb_writer *w, size_t rel, uint8_t v);

/* Section writers (write into w->sec). */
void mdb_write_metrics_release(mdb_writer *w);
void mdb_write_context_release(mdb_writer *w);
void mdb_write_metrics_draft(mdb_writer *w);
void mdb_write_context_draft(mdb_writer *w);
/* Shared by both Context writers: place the children arrays (ctx_fixed =
 * the {Ctx} size without flex: 0x20 release, 0x18 draft), the byte size of
 * a placed sibling group, and a context's flex words. */
void mdb_place_children(mdb_writer *w, unsigned ctx_fixed);
uint64_t mdb_group_size(const mdb_writer *w, uint32_t first, uint32_t n);
uint64_t mdb_children_ptr(const mdb_writer *w, uint32_t first, uint32_t n, uint64_t self_end);
void mdb_write_flex(mdb_writer *w, size_t at, const hpctk_ctx *c, unsigned words_written);

/* The whole file. Returns 0 and the file in out and len, or -1. */
int mdb_write_file(mdb_writer *w, uint8_t **out, size_t *len, char *err, size_t errlen);
void mdb_writer_free(mdb_writer *w);

/* Breaks (metadb_break.c). */
bool mdb_can_break(const char *rule_id, enum hv_edition edition);
/* Adjust the model/layout before writing for breaks that need it. */
void mdb_break_prepare(mdb_writer *w, const char *rule_id);
/* Mutate the written file; may change *len. Returns 0 or -1. */
int mdb_break_apply(mdb_writer *w, const char *rule_id, uint8_t **data, size_t *len);

#endif
