/* metrics/NAME.yaml, the metric taxonomy (specs/hpctoolkit-METRICS.yaml).
 *
 * The YAML is parsed by libyaml into a node graph (yamldoc.c); aliases are
 * references, so the walks here mark what they visit: each metric is
 * checked once however many times it is aliased, each formula walk visits a
 * node once (an epoch per walk), and all walks together are bounded by a
 * step budget. Nothing recurses: metrics and formulas are walked with
 * explicit stacks.
 *
 * This file reads the document and checks its top level; the inputs (and
 * what meta.db says of them) are in inputs.c, formulas in
 * formulas.c, metrics and their variants in metrics.c.
 * What these files share (tx, the step budget, check) is in taxonomy.h
 * and nodes.c.
 *
 * One break = one rule: what a structural rule rejected is not looked at
 * again by a later rule (a malformed input is not compared with meta.db, a
 * formula's unresolved alias is an operand). */
#include "taxonomy.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"

/* Where the expansion is, in `out`; returns the node to point at, and sets
 * *walked when hpcviewer walks it there (an input, a formula map,
 * children:), so that it does not finish. */
static uint32_t bomb_where(tx *t, char *out, size_t cap, bool *walked)
{
	yd_doc *d = &t->d;
	char path[HV_PATH_MAX] = "";
	size_t len = 0;
	bool hashed = false, top_key = true;
	uint32_t n = d->root, at = YD_NONE;
	for (int depth = 0; depth < 12 && len + 48 < sizeof path; depth++) {
		const yd_node *x = yd_at(d, n);
		if (!x || x->kind == YD_SCALAR || x->n == 0) break;
		uint32_t best = YD_NONE, key = YD_NONE, idx = 0;
		bool map = x->kind == YD_MAP;
		/* into the lists of entries (inputs, metrics), not the bomb's own */
		if (!map && depth > 0 && !(at != YD_NONE && (yd_is(d, at, "inputs") || yd_is(d, at, "roots") ||
							      yd_is(d, at, "children"))))
			break;
		for (uint32_t i = map ? 1 : 0; i < x->n; i += map ? 2 : 1) {
			uint32_t v = d->edge[x->first + i];
			if (best == YD_NONE || d->node[v].expanded > d->node[best].expanded)
				best = v, key = map ? d->edge[x->first + i - 1] : YD_NONE, idx = map ? i / 2 : i;
		}
		if (d->node[best].expanded <= YD_MAX_EXPANDED / 64 && depth > 0) break;
		if (map) {
			const yd_node *kx = &d->node[key];
			int kl = kx->kind == YD_SCALAR ? (int)(kx->len > 32 ? 32 : kx->len) : 1;
			len += (size_t)snprintf(path + len, sizeof path - len, "%s%.*s", len ? "/" : "", kl,
						kx->kind == YD_SCALAR ? yd_str(d, kx) : "?");
			if (top_key) hashed |= yd_is(d, key, "inputs");
			hashed |= yd_is(d, key, "formula") || yd_is(d, key, "children");
			top_key = false;
			at = key;
		} else
			len += (size_t)snprintf(path + len, sizeof path - len, "[%u]", idx);
		n = best;
	}
	*walked = len && hashed;
	if (!len) snprintf(out, cap, "which hpcvet does not check further");
	else if (hashed)
		snprintf(out, cap, "under %s: hpcviewer 2025.01 hashes or walks it and does not finish (hatchet 1.4.0 loads it)", path);
	else
		snprintf(out, cap, "under %s, which neither hpcviewer 2025.01 nor hatchet 1.4.0 walks (both load it at once); "
			 "tools that expand aliases do not finish", path);
	return at;
}

static bool build(tx *t)
{
	yd_doc *d = &t->d;
	hv_report *r = t->r;
	const char *bn = tx_base_name(t->file);
	/* hpcvet's own bounds are hpctkdb.taxonomy.limit (a warning: the readers
	 * pass them); bounds and depth are what hpcviewer refuses or hangs on.
	 * The limit rule is evaluated only where it fails, so that a report on
	 * any other taxonomy counts the rules it always did. */
	hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, true);
	if (t->b->size > YD_MAX_BYTES) {
		hv_eval(r, HV_R_HPCTKDB_TAXONOMY_LIMIT, false);
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_LIMIT, t->file, 0, t->b->size, bn,
			"the taxonomy has %llu bytes, more than any taxonomy of a meta.db can need (hpcvet's limit %llu; "
			"hpcprof's largest real one has 67 KB): not parsed",
			(unsigned long long)t->b->size, (unsigned long long)YD_MAX_BYTES);
		return false;
	}
	yd_build(d, t->b);
	if (d->oom) {
		hv_report_internal(r, "%s: out of memory while reading the taxonomy", t->file);
		return false;
	}
	hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, true);
	if (d->too_big) {
		hv_eval(r, HV_R_HPCTKDB_TAXONOMY_LIMIT, false);
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_LIMIT, t->file, 0, t->b->size, bn,
			"the taxonomy has more than %u nodes (or 64 MiB of scalars), hpcvet's limit; hpcprof's largest has "
			"about 10^4: not checked further",
			YD_MAX_NODES);
		return false;
	}
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_DEPTH, !d->too_deep)) {
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_DEPTH, t->file, yd_byte_offset(d, d->deep_off), yd_byte_len(d, d->deep_off, NULL, 1), bn,
			"line %u column %u: a node at level %u; hpcviewer 2025.01 refuses more than %u levels (SnakeYAML: "
			"Nesting Depth exceeded max 50), and hpcprof nests collections at most 16 deep: not parsed further",
			d->deep_line, d->deep_col, d->deep_level, YD_MAX_DEPTH);
		return false;
	}
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_YAML, !d->syntax)) {
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_YAML, t->file, yd_byte_offset(d, d->syntax_off), yd_byte_len(d, d->syntax_off, NULL, 1), bn,
			"line %u column %u: not well-formed YAML: %s", d->syntax_line, d->syntax_col, d->syntax_msg);
		return false;
	}
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_YAML, !d->extra_doc))
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_YAML, t->file, yd_byte_offset(d, d->extra_off), yd_byte_len(d, d->extra_off, NULL, 3), bn,
			"line %u: a second YAML document; the taxonomy is one document (readers load one)", d->extra_line);
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_ALIAS, d->bad_alias == 0))
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_ALIAS, t->file, yd_byte_offset(d, d->bad_alias_off),
			yd_byte_len(d, d->bad_alias_off + 1, d->bad_alias_name, strlen(d->bad_alias_name)) + yd_byte_len(d, d->bad_alias_off, NULL, 1), bn,
			"line %u column %u: alias *%s %s%s", d->bad_alias_line, d->bad_alias_col, d->bad_alias_name,
			d->bad_alias_recursive ? "is inside the node it names (a recursive node)"
					       : "names no anchor defined before it",
			d->bad_alias > 1 ? " (and more aliases like it)" : "");
	uint64_t exp = d->root != YD_NONE ? d->node[d->root].expanded : 0;
	if (exp > YD_MAX_EXPANDED) {
		char where[160];
		bool walked = false;
		uint32_t at = bomb_where(t, where, sizeof where, &walked);
		const yd_node *ax = yd_at(d, at);
		int rule = walked ? HV_R_HPCTKDB_TAXONOMY_BOUNDS : HV_R_HPCTKDB_TAXONOMY_LIMIT;
		hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, !walked);
		if (!walked) hv_eval(r, rule, false);
		hv_emit(r, rule, t->file, ax ? yd_byte_offset(d, ax->off) : 0, ax ? yd_byte_len(d, ax->off, NULL, 1) : t->b->size, bn,
			"the %u nodes of the taxonomy expand to %s%llu nodes with aliases resolved (limit %llu): an alias "
			"bomb, %s",
			d->n, exp == UINT64_MAX ? "more than " : "", (unsigned long long)exp,
			(unsigned long long)YD_MAX_EXPANDED, where);
		return false;
	}
	hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, true);
	return true;
}

/* SnakeYAML's default codePointLimit, which hpcviewer's data layer keeps */
#define VIEWER_MAX_CHARS (3ull << 20)

/* hpcviewer refuses a taxonomy of more than VIEWER_MAX_CHARS characters up
 * to where its last token's scan stops (yd_extent_of). A file of no more
 * bytes has no more characters, so the rule is evaluated (and the stream
 * scanned again) only for a larger one, as it is at stake only there. */
static bool check_viewer_size(tx *t)
{
	if (t->b->size <= VIEWER_MAX_CHARS) return true;
	yd_extent e;
	if (!yd_extent_of(t->b, VIEWER_MAX_CHARS, &e)) {
		if (!t->b->io_failed) hv_report_internal(t->r, "%s: out of memory while counting the taxonomy's characters", t->file);
		return false;
	}
	if (!hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_VIEWER_SIZE, e.chars <= VIEWER_MAX_CHARS))
		hv_emit(t->r, HV_R_HPCTKDB_TAXONOMY_VIEWER_SIZE, t->file, e.over_off, e.end_off - e.over_off,
			tx_base_name(t->file),
			"%llu characters (code points) up to the end of its last token's scan, as SnakeYAML counts them "
			"(comments after it aside); hpcviewer's data layer refuses more than %llu (SnakeYAML 1.32 on: The "
			"incoming YAML document exceeds the limit: %llu code points.)",
			(unsigned long long)e.chars, (unsigned long long)VIEWER_MAX_CHARS, (unsigned long long)VIEWER_MAX_CHARS);
	return true;
}

void hpctk_check_taxonomy(const hv_options *opt, hv_blob *b, hv_report *r, const hpctk_metadb_summary *meta,
			  uint8_t **hatchet_role)
{
	(void)opt;
	tx t = {.r = r, .b = b, .file = b->name ? b->name : "metrics/default.yaml", .cur_metric = YD_NONE,
		.hatchet_role = hatchet_role};
	uint64_t errors_before = r->count[HV_SEV_ERROR];
	t.vm = meta && meta->valid && meta->metrics_ok ? meta->values : NULL;
	if (!build(&t) || !check_viewer_size(&t)) goto done;
	yd_doc *d = &t.d;
	const char *bn = tx_base_name(t.file);
	char path[HV_PATH_MAX], buf[64];
	uint32_t root = d->root;
	if (!tx_check(&t, HV_R_HPCTKDB_TAXONOMY_TOP, root != YD_NONE && d->node[root].kind == YD_MAP, root, bn,
		      "the taxonomy is a map of version:, inputs:, roots:; found %s",
		      root == YD_NONE ? "an empty document" : tx_type_name(yd_type(d, root))))
		goto done;
	t.input_of = hv_malloc((size_t)d->n * sizeof *t.input_of);
	if (!t.input_of) {
		hv_report_internal(r, "%s: out of memory while checking the taxonomy", t.file);
		goto done;
	}
	memset(t.input_of, 0xff, (size_t)d->n * sizeof *t.input_of);
	uint32_t ver = yd_get(d, root, "version"), inputs = yd_get(d, root, "inputs"), roots = yd_get(d, root, "roots");
	tx_pathf(path, sizeof path, "%s/version", bn);
	/* The spec lets version: be omitted, but hpcviewer's parser unboxes it
	 * as an int (a NullPointerException without it) and hpcprof always
	 * writes it: required, as the reference reader requires it. */
	tx_check(&t, HV_R_HPCTKDB_TAXONOMY_VERSION, yd_type(d, ver) == YD_T_INT && yd_is(d, ver, "0"), ver != YD_NONE ? ver : root,
		 path, "version: is 0, the only taxonomy version defined (hpcviewer reads it as an int and fails without "
		 "it); found %s", ver == YD_NONE ? "no version: key" : tx_text(&t, ver, buf, sizeof buf));
	bool ok_in = tx_check(&t, HV_R_HPCTKDB_TAXONOMY_TOP, inputs != YD_NONE && d->node[inputs].kind == YD_SEQ,
			      inputs != YD_NONE ? inputs : root, bn,
			      "inputs: (a sequence of the summary statistics used, each with an anchor) is required: "
			      "hpcviewer's loader needs it; found %s",
			      inputs == YD_NONE ? "none" : tx_type_name(yd_type(d, inputs)));
	bool ok_roots = tx_check(&t, HV_R_HPCTKDB_TAXONOMY_TOP, roots != YD_NONE && d->node[roots].kind == YD_SEQ,
				 roots != YD_NONE ? roots : root, bn,
				 "roots: (a sequence of root metrics) is required; found %s",
				 roots == YD_NONE ? "none" : tx_type_name(yd_type(d, roots)));
	if (ok_in) tx_check_inputs(&t, inputs);
	if (ok_in && !t.in) {
		hv_report_internal(r, "%s: out of memory while checking the taxonomy", t.file);
		goto done;
	}
	if (t.vm) tx_cross_inputs(&t);
	if (ok_roots) tx_check_metrics(&t, roots);
	hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, true);
	if (t.over || d->merge_overflow) {
		hv_eval(r, HV_R_HPCTKDB_TAXONOMY_LIMIT, false);
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_LIMIT, t.file, 0, b->size, bn,
			"%s, hpcvet's limit: the rest of the taxonomy was not checked",
			t.over ? "the walk of metrics and formulas took more than 64 Mi steps (aliases used many times over)"
			       : "a merge key (<<) chain takes more than 4096 steps to resolve");
		goto done;
	}
	if (ok_in && ok_roots) tx_notes(&t);
	/* hpcviewer's SnakeYAML loader: maxAliasesForCollections 10000 (since
	 * 2023.01) unless HPCVIEWER_MAX_ALIASES says otherwise */
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_VIEWER_ALIAS_CAP, d->collection_aliases <= 10000))
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_VIEWER_ALIAS_CAP, t.file, 0, 0, bn,
			"%llu aliases of maps or sequences; hpcviewer 2025.01 loads at most 10000 (YAMLException: Number of "
			"aliases for non-scalar nodes exceeds the specified max=10000) unless HPCVIEWER_MAX_ALIASES is set "
			"higher",
			(unsigned long long)d->collection_aliases);
	/* hatchet's reading, on a taxonomy without errors (a broken one is
	 * reported for what it breaks, once) */
	if (ok_in && ok_roots && r->count[HV_SEV_ERROR] == errors_before) tx_hatchet(&t, roots);
done:
	free(t.in);
	free(t.input_of);
	free(t.stack);
	yd_free(&t.d);
}

