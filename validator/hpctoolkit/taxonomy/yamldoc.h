/* A YAML document as a graph of nodes, built from libyaml's events over a
 * blob's bytes (no I/O of its own). Aliases are edges to the anchored node,
 * never copies, so an alias bomb costs its own size; each node's expanded
 * size (aliases resolved) is computed as it closes, saturating. Nothing
 * recurses: nodes under construction live on an explicit stack. The build
 * stops at a node budget; merge keys (<<) are resolved at look-up with a
 * bounded walk. */
#ifndef HV_YAMLDOC_H
#define HV_YAMLDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/blob.h"

enum { YD_SCALAR, YD_SEQ, YD_MAP };
enum { YD_PLAIN, YD_QUOTED };
#define YD_NONE UINT32_MAX
#define YD_UNRESOLVED 2 /* yd_node.input of the null put in place of a bad alias */

typedef struct yd_node {
	uint8_t kind;       /* YD_SCALAR, YD_SEQ, YD_MAP */
	uint8_t style;      /* scalars: YD_PLAIN or YD_QUOTED */
	uint8_t open;       /* still being built (an alias to it would make a cycle) */
	uint8_t input;      /* set by the taxonomy check: an entry of inputs: */
	uint32_t tag;       /* pool offset of the explicit tag, 0: none */
	uint32_t val, len;  /* scalars: pool offset and length of the value */
	uint32_t first, n;  /* sequences and maps: edges [first, first+n); maps alternate key, value */
	uint32_t line, col; /* 1-based, from libyaml's mark */
	uint64_t off;       /* byte offset of the node's start (libyaml's index) */
	uint64_t expanded;  /* nodes in the expanded tree, saturating */
	uint32_t mark;      /* free for walks (epoch) */
	uint32_t seen;      /* free for walks (flags) */
} yd_node;

typedef struct yd_doc {
	yd_node *node;
	uint32_t n, cap;
	uint32_t *edge;
	uint32_t nedge, edge_cap;
	char *pool;
	size_t pool_len, pool_cap;
	uint32_t root;          /* the first document's root node, YD_NONE if none */
	/* what went wrong while building (first of each) */
	bool syntax;            /* libyaml's error */
	char syntax_msg[160];
	uint32_t syntax_line, syntax_col;
	uint64_t syntax_off;
	bool extra_doc;         /* a second document */
	uint64_t extra_off;
	uint32_t extra_line;
	uint32_t bad_alias;     /* aliases to no anchor or to an open node */
	char bad_alias_name[64];
	bool bad_alias_recursive;
	uint64_t bad_alias_off;
	uint32_t bad_alias_line, bad_alias_col;
	uint64_t collection_aliases; /* aliases of sequences and maps (SnakeYAML counts these) */
	bool too_big;           /* node budget reached: the build stopped */
	bool too_deep;          /* a node past YD_MAX_DEPTH: the build stopped */
	uint32_t deep_level;    /* its level (the top collection is level 1) */
	uint32_t deep_line, deep_col;
	uint64_t deep_off;
	bool oom;
	uint64_t merge_steps;   /* steps spent resolving merge keys */
	/* libyaml's marks count characters; diagnostics want bytes. For a
	 * file with non-ASCII bytes: the byte offset of every YD_OFF_STEP-th
	 * character (NULL: ASCII, the two agree). */
	uint64_t *char_at;
	size_t nchar_at;
	uint8_t enc;            /* YD_ENC_*, as libyaml reads the bytes */
	uint8_t bom;            /* bytes of the leading byte order mark libyaml skips (0, 2, 3) */
	hv_blob *blob;
	bool merge_overflow;    /* a merge chain beyond its bound */
} yd_doc;

/* Bounds: hpcprof's largest real taxonomy is 67 KB and 10^4 nodes; meta.db's
 * u16 propMetricIds allow at most ~22 K metrics of three scopes, ~10^6 nodes
 * and ~20 MB in hpcprof's layout. Beyond these a file is no taxonomy. */
#define YD_MAX_BYTES (64ull << 20)
#define YD_MAX_NODES (2u << 20)
#define YD_MAX_EXPANDED (1ull << 24)
#define YD_MERGE_STEPS 4096u
/* A node nested deeper than this stops the build: the reference reader's
 * bound. hpcviewer 2025.01 loads the taxonomy with SnakeYAML's default
 * nesting limit, which counts every scalar, sequence and map from the top
 * collection at level 1 and refuses a node at level 52 ("Nesting Depth
 * exceeded max 50"), in flow style as in block style; a node past it is
 * hpctkdb.taxonomy.depth. hpcprof's taxonomies nest collections at most 16
 * deep, 8 of them in flow style (its GPU formulas), the spec's example 13
 * and 2. The bound also keeps libyaml linear: its scanner re-checks every
 * open flow level's possible simple key at each token, so a document
 * nested D deep in flow style costs D per token (libyaml 0.2.5 alone on a
 * million-item sequence: 3.7x the flat cost at depth 64, 13x at 256, 57x
 * at 1024; 100,000 levels of '[' take 16 s); here D is at most 51. Block
 * nesting costs nothing per token. Stopping at the first node past the
 * bound leaves libyaml's scanner at most one simple-key window (1024
 * characters) ahead. */
#define YD_MAX_DEPTH 51u

/* libyaml's input from a blob through hv_blob_read, from off on: both the
 * parse (yd_build) and the character count (yd_extent_of) read so. */
typedef struct yd_blob_input {
	hv_blob *b;
	uint64_t off;
} yd_blob_input;
int yd_read_blob(void *data, unsigned char *buf, size_t size, size_t *got);

/* Parse blob b (read through hv_blob_read when it is not in memory). */
void yd_build(yd_doc *d, hv_blob *b);
void yd_free(yd_doc *d);
/* The byte offset of libyaml's character index `idx`: UTF-8, or UTF-16
 * after a byte order mark; a leading mark is not counted in the index
 * (libyaml's reader skips it). */
#define YD_OFF_STEP 4096u
enum { YD_ENC_UTF8, YD_ENC_UTF16LE, YD_ENC_UTF16BE };
uint64_t yd_byte_offset(const yd_doc *d, uint64_t idx);
/* The byte length in the file of what libyaml read from character index
 * `idx`: the `n` bytes of UTF-8 text `utf8`, or `n` characters when utf8
 * is NULL. In a UTF-8 file, `n` itself (the lengths diagnostics give). */
uint64_t yd_byte_len(const yd_doc *d, uint64_t idx, const char *utf8, uint64_t n);

/* What SnakeYAML (1.32 on) has read of the stream when it last checks its
 * codePointLimit (extent.c): `chars` characters (code points, a leading
 * byte order mark aside) up to where the last token's scan stops, so the
 * comments and blank lines after it are not counted. `over_off` is the
 * byte offset of character number `cap` (counting from 0; end_off when
 * there are no more), `end_off` the byte offset where the count stops.
 * Parses the blob again (libyaml's tokens); call it on a document yd_build
 * read without error. False when memory or I/O fails. */
typedef struct yd_extent {
	uint64_t chars;
	uint64_t over_off, end_off;
} yd_extent;
bool yd_extent_of(hv_blob *b, uint64_t cap, yd_extent *e);

static inline yd_node *yd_at(const yd_doc *d, uint32_t i) { return i < d->n ? &d->node[i] : NULL; }
static inline const char *yd_str(const yd_doc *d, const yd_node *s) { return d->pool + s->val; }

/* A plain or quoted scalar equal to `s` (keys are compared this way). */
bool yd_is(const yd_doc *d, uint32_t n, const char *s);
/* Scalar type under the YAML 1.2 core schema (explicit tags win). */
enum { YD_T_NULL, YD_T_BOOL, YD_T_INT, YD_T_FLOAT, YD_T_STR, YD_T_SEQ, YD_T_MAP };
int yd_type(const yd_doc *d, uint32_t n);
/* The value of key `k` in map m, merge keys resolved (own keys first, then
 * the merged maps in order); YD_NONE when absent or m is not a map. */
uint32_t yd_get(yd_doc *d, uint32_t m, const char *k);
/* The pairs of map m, merge keys resolved: keys[i], vals[i] for i < *n
 * (arrays allocated; free them). False on out of memory. */
bool yd_pairs(yd_doc *d, uint32_t m, uint32_t **keys, uint32_t **vals, uint32_t *n);

#endif
