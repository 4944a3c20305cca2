/* The per-format dumpers: what the driver (dump.c) calls for each file it
 * dumps. Each is implemented in the file named after its format and works
 * through item.h only. */
#ifndef HV_DUMP_DUMPERS_H
#define HV_DUMP_DUMPERS_H

#include "item.h"

void hv_dump_dumpi_bin(hv_dump_ctx *d);
void hv_dump_dumpi_meta(hv_dump_ctx *d);
void hv_dump_ovni_stream(hv_dump_ctx *d);
/* stream.json, metadata.json, thread.TID.json: members and elements. */
void hv_dump_ovni_json(hv_dump_ctx *d);
void hv_dump_hpctk(hv_dump_ctx *d, const char *file_kind);
/* metrics/NAME.yaml: the metric taxonomy's inputs, metrics and variants. */
void hv_dump_taxonomy(hv_dump_ctx *d);
/* meta.db past its header: sizes and pointers of its 8 sections. */
void hv_dump_metadb(hv_dump_ctx *d, const uint64_t sz[8], const uint64_t p[8]);
/* --select=subtree:ID: the ctxIds of ID's subtree in the meta.db d reads
 * (nothing is written), sorted, in *ids (malloc'd; the caller frees); how
 * many. 0 when ID is not in the tree or on any failure. */
size_t hv_dump_metadb_subtree_ids(hv_dump_ctx *d, uint64_t **ids);

#endif
