/* cct.db: open (header, Context Info section header), then walk every {CI}
 * and its Context-Major Sparse Value Block with the shared walker. */
#ifndef HV_HPCTK_CCTDB_H
#define HV_HPCTK_CCTDB_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/blob.h"
#include "../core/report.h"
#include "../core/validate.h"
#include "crossdb_array.h"
#include "fileheader.h"
#include "profiledb_svb.h"

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

extern const hv_format hv_format_hpctk_cctdb;

#endif
