/* cct.db: open (header, Context Info section header), then walk every {CI}
 * and its Context-Major Sparse Value Block with the shared walker. */
#ifndef HV_HPCTK_CCTDB_H
#define HV_HPCTK_CCTDB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/blob.h"
#include "core/report.h"
#include "core/validate.h"
#include "hpctoolkit/format/array.h"
#include "hpctoolkit/format/fileheader.h"
#include "hpctoolkit/format/svb.h"

#define HPCTK_CI_END 0x20u

typedef struct hpctk_cct_visitor {
	void *arg;
	void (*index)(void *arg, uint32_t ctx, uint16_t metric, uint64_t off);
	void (*value)(void *arg, uint32_t ctx, uint16_t metric, uint32_t prof, uint64_t bits, uint64_t off);
	const hpctk_svb_fast *fast; /* NULL: `value` is called for every value (see hpctk_svb_fast) */
} hpctk_cct_visitor;

typedef struct hpctk_cctdb {
	hv_blob *b;
	hpctk_header h;
	enum hv_edition edition; /* checked as; AUTO: unknown (cct.db shows no edition) */
	hpctk_array ci;          /* the {CI} array: pCtxs, nCtxs, szCtx */
	bool complete;           /* after walk: every value was visited */
} hpctk_cctdb;

bool hpctk_cctdb_open(const hv_options *opt, hv_blob *b, hv_report *r, enum hv_edition ed, hpctk_cctdb *c);
void hpctk_cctdb_walk(hpctk_cctdb *c, hv_report *r, const hpctk_cct_visitor *v);
/* Walk the block of context `ctx` only (reports into `r`; pass a scratch
 * report to read quietly). */
void hpctk_cctdb_walk_one(hpctk_cctdb *c, hv_report *r, uint32_t ctx, const hpctk_cct_visitor *v);

/* A walk in parts, for units of work (as hpctk_prof_walk): prepare (every
 * {CI} block's layout, the overlap sweep), then ranges of contexts. */
typedef struct hpctk_cct_walk {
	hpctk_svb_env e;
	bool env_init, env_ok, complete;
} hpctk_cct_walk;

bool hpctk_cctdb_prepare(hpctk_cctdb *c, hv_report *r, hpctk_cct_walk *cw);
bool hpctk_cctdb_range(hpctk_cctdb *c, const hpctk_cct_walk *cw, hv_report *r, const hpctk_cct_visitor *v,
		       uint32_t first, uint32_t last);
void hpctk_cctdb_prepared_free(hpctk_cct_walk *cw);
uint64_t hpctk_cctdb_block_bytes(hpctk_cctdb *c, hv_window *w, uint32_t i);

extern const hv_format hv_format_hpctk_cctdb;

#endif
