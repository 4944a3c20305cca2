/* `--break` for profile.db, cct.db, trace.db and whole databases: each rule
 * maps to a change of the data before writing and/or a byte patch after,
 * chosen so that exactly that rule fires. */
#ifndef GEN_HPCTKDB_BREAK_H
#define GEN_HPCTKDB_BREAK_H

#include "core/hv_int.h"
#include "database_files.h"

/* Everything one generation run produced, for patches to work on. */
typedef struct hk_ctx {
	const gen_params *gp;
	hdb d;
	bool elide;                      /* data carries ctxIds absent from meta.db */
	bool want_meta, want_prof, want_cct, want_trace;
	gen_buf prof, cct, trace, tax;
	bool want_tax;                   /* metrics/default.yaml (whole databases) */
	pdb_layout pl;
	cdb_layout cl;
	tdb_layout tl;
	uint8_t *meta;                   /* meta.db bytes (whole-database kind) */
	size_t meta_len;
	gen_output *meta_out;            /* owner of meta */
	const char *fail;                /* set by a patch the shape cannot support */
} hk_ctx;

#define HK_DRAFT 1u
#define HK_RELEASE 2u
#define HK_BOTH 3u

typedef struct hk_break {
	const char *rule;
	const char *kind;                /* "profiledb", "cctdb", "tracedb", "hpctoolkit-db" */
	unsigned eds;                    /* editions where the rule applies (HK_*) */
	bool elide;                      /* data with ctxIds absent from meta.db */
	void (*pre)(hk_ctx *c);          /* before writing: data changes; may be NULL */
	void (*post)(hk_ctx *c);         /* after writing: byte patches; may be NULL */
} hk_break;

/* NULL-rule-terminated tables, one per file (gen_*_break.c). */
extern const hk_break hk_breaks_profiledb[];
extern const hk_break hk_breaks_cctdb[];
extern const hk_break hk_breaks_tracedb[];
extern const hk_break hk_breaks_crossdb[];

const hk_break *hk_find_break(const char *rule);

/* Little helpers for patches. */
static inline uint8_t *hk_p(hk_ctx *c, uint64_t off) { return c->prof.data + off; }
static inline uint8_t *hk_c(hk_ctx *c, uint64_t off) { return c->cct.data + off; }
static inline uint8_t *hk_t(hk_ctx *c, uint64_t off) { return c->trace.data + off; }

#endif
