/* metrics/NAME.yaml, the metric taxonomy (specs/hpctoolkit-METRICS.yaml).
 *
 * The YAML is parsed by libyaml into a node graph (yamldoc.c); aliases are
 * references, so the walks here mark what they visit: each metric is
 * checked once however many times it is aliased, each formula walk visits a
 * node once (an epoch per walk), and all walks together are bounded by a
 * step budget. Nothing recurses: metrics and formulas are walked with
 * explicit stacks.
 *
 * One break = one rule: what a structural rule rejected is not looked at
 * again by a later rule (a malformed input is not compared with meta.db, a
 * formula's unresolved alias is an operand). */
#include "taxonomy.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"
#include "values.h"
#include "yamldoc.h"

#define TX_MAX_STEPS (64ull << 20)

/* yd_node.seen bits */
enum { SEEN_METRIC = 1, SEEN_FORMULA_BAD = 2, SEEN_USED = 4, SEEN_STD_BAD = 8 };

typedef struct tx_input {
	uint32_t node;
	const char *metric, *scope;
	char formula[64];   /* canonical: whitespace removed */
	uint8_t combine;    /* 0 sum, 1 min, 2 max */
	bool ok;            /* well-formed (its own rule passed) */
	bool custom;        /* meta.db says its scope is custom */
	int32_t mi;         /* meta.db metric index, -1 unknown */
} tx_input;

typedef struct tx {
	hv_report *r;
	hv_blob *b;
	const char *file;
	yd_doc d;
	tx_input *in;
	uint32_t nin;
	uint32_t *input_of; /* node -> index into in, YD_NONE */
	uint32_t epoch;
	uint64_t steps;
	bool over;          /* step budget spent: the rest is not checked */
	uint32_t *stack;
	uint32_t nstack, stack_cap;
	const hpctk_vmodel *vm;
	/* hatchet hazards, reported once each at the end */
	uint32_t no_standard, no_standard_node;
	char no_standard_path[HV_PATH_MAX];
} tx;

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

bool hpctk_is_taxonomy_name(const char *path)
{
	if (!path) return false;
	size_t n = strlen(path);
	if (n < 5 || strcmp(path + n - 5, ".yaml") != 0) return false;
	const char *slash = strrchr(path, '/');
	if (!slash) return false;
	size_t dir_end = (size_t)(slash - path);
	const char *dir = path;
	for (size_t i = 0; i < dir_end; i++)
		if (path[i] == '/') dir = path + i + 1;
	return (size_t)(slash - dir) == 7 && strncmp(dir, "metrics", 7) == 0;
}

/* Paths are shortened silently (vsnprintf: no truncation warnings). */
static void pathf(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pathf(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, cap, fmt, ap);
	va_end(ap);
}

static uint64_t node_len(const tx *t, uint32_t n)
{
	const yd_node *x = yd_at(&t->d, n);
	if (!x) return 0;
	return x->kind == YD_SCALAR ? (x->len ? x->len : 1) : 1;
}

static void emitv(tx *t, int rule, uint32_t n, const char *path, const char *fmt, va_list ap)
{
	char msg[768];
	vsnprintf(msg, sizeof msg, fmt, ap);
	const yd_node *x = yd_at(&t->d, n);
	if (x)
		hv_emit(t->r, rule, t->file, yd_byte_offset(&t->d, x->off), node_len(t, n), path, "line %u column %u: %s",
			x->line, x->col, msg);
	else
		hv_emit(t->r, rule, t->file, 0, 0, path, "%s", msg);
}

/* One evaluation of `rule`; a failure is reported at node n. */
static bool check(tx *t, int rule, bool ok, uint32_t n, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static bool check(tx *t, int rule, bool ok, uint32_t n, const char *path, const char *fmt, ...)
{
	if (hv_eval(t->r, rule, ok)) return true;
	va_list ap;
	va_start(ap, fmt);
	emitv(t, rule, n, path, fmt, ap);
	va_end(ap);
	return false;
}

static const char *type_name(int ty)
{
	static const char *const names[] = {"null", "boolean", "integer", "float", "string", "sequence", "map"};
	return ty >= 0 && ty <= YD_T_MAP ? names[ty] : "?";
}

/* A scalar's text, shortened for messages. */
static const char *text(const tx *t, uint32_t n, char *buf, size_t cap)
{
	const yd_node *x = yd_at(&t->d, n);
	if (!x) return "(absent)";
	if (x->kind != YD_SCALAR) return x->kind == YD_SEQ ? "(a sequence)" : "(a map)";
	snprintf(buf, cap, "'%.*s%s'", x->len > 48 ? 48 : (int)x->len, yd_str(&t->d, x), x->len > 48 ? "..." : "");
	return buf;
}

static bool push(tx *t, uint32_t n)
{
	if (t->nstack == t->stack_cap) {
		uint32_t cap = t->stack_cap ? t->stack_cap * 2 : 256;
		uint32_t *s = realloc(t->stack, (size_t)cap * sizeof *s);
		if (!s) return false;
		t->stack = s;
		t->stack_cap = cap;
	}
	t->stack[t->nstack++] = n;
	return true;
}

static bool step(tx *t)
{
	if (++t->steps <= TX_MAX_STEPS) return true;
	t->over = true;
	return false;
}

/* ---- inputs ---- */

/* The canonical unary form: no whitespace, balanced parentheses, no empty
 * or outermost pair of parentheses. */
static bool canonical_unary(const char *s, size_t len, const char **why)
{
	int depth = 0;
	if (len == 0) return *why = "it is empty", false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (isspace((unsigned char)c)) return *why = "it holds whitespace (the canonical form has none)", false;
		if (c == '(') {
			if (i + 1 < len && s[i + 1] == ')') return *why = "it holds an empty pair of parentheses", false;
			depth++;
		} else if (c == ')' && --depth < 0)
			return *why = "its parentheses do not balance", false;
		else if (c == ')' && depth == 0 && i + 1 < len) {
			/* fine: the outer pair closed before the end */
		}
	}
	if (depth) return *why = "its parentheses do not balance", false;
	if (s[0] == '(') {
		/* a pair around the whole formula is extraneous */
		int dd = 0;
		size_t i = 0;
		for (; i < len; i++) {
			dd += s[i] == '(';
			dd -= s[i] == ')';
			if (dd == 0) break;
		}
		if (i == len - 1) return *why = "a pair of parentheses encloses the whole formula (extraneous)", false;
	}
	return true;
}

static void check_inputs(tx *t, uint32_t seq)
{
	const yd_doc *d = &t->d;
	const yd_node *s = &d->node[seq];
	t->in = calloc(s->n ? s->n : 1, sizeof *t->in);
	if (!t->in) return;
	char path[HV_PATH_MAX], buf[64];
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t e = d->edge[s->first + i];
		pathf(path, sizeof path, "%s/inputs[%u]", base_name(t->file), i);
		if (t->input_of[e] != YD_NONE) continue; /* an alias of an earlier entry */
		if (!check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, d->node[e].kind == YD_MAP, e, path,
			   "an input is a map of metric:, scope:, formula:, combine:; found %s", type_name(yd_type(d, e))))
			continue;
		tx_input *in = &t->in[t->nin];
		in->node = e;
		in->mi = -1;
		t->input_of[e] = t->nin++;
		t->d.node[e].input = 1;
		uint32_t m = yd_get(&t->d, e, "metric"), sc = yd_get(&t->d, e, "scope");
		uint32_t f = yd_get(&t->d, e, "formula"), c = yd_get(&t->d, e, "combine");
		bool ok = true;
		ok &= check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, m != YD_NONE && yd_type(d, m) == YD_T_STR && d->node[m].len > 0,
			    m != YD_NONE ? m : e, path,
			    "metric: must be the metric's canonical name (a non-empty string); found %s",
			    m == YD_NONE ? "no metric: key" : text(t, m, buf, sizeof buf));
		ok &= check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, sc != YD_NONE && yd_type(d, sc) == YD_T_STR && d->node[sc].len > 0,
			    sc != YD_NONE ? sc : e, path,
			    "scope: must name a propagation scope (a non-empty string); found %s",
			    sc == YD_NONE ? "no scope: key" : text(t, sc, buf, sizeof buf));
		const char *why = "it is not a scalar";
		int fty = f == YD_NONE ? YD_T_STR : yd_type(d, f);
		bool fok = f == YD_NONE || ((fty == YD_T_STR || fty == YD_T_INT || fty == YD_T_FLOAT) &&
					    canonical_unary(yd_str(d, &d->node[f]), d->node[f].len, &why));
		ok &= check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, fok, f != YD_NONE ? f : e, path,
			    "formula: must be a summary's unary formula in canonical form (e.g. $$); found %s: %s",
			    text(t, f, buf, sizeof buf), why);
		int comb = 0;
		if (c != YD_NONE) comb = yd_is(d, c, "sum") ? 0 : yd_is(d, c, "min") ? 1 : yd_is(d, c, "max") ? 2 : -1;
		ok &= check(t, HV_R_HPCTKDB_TAXONOMY_INPUT, comb >= 0, c, path,
			    "combine: must be sum, min or max (default sum); found %s", text(t, c, buf, sizeof buf));
		in->ok = ok;
		if (!ok) continue;
		in->metric = yd_str(d, &d->node[m]);
		in->scope = yd_str(d, &d->node[sc]);
		in->combine = (uint8_t)comb;
		snprintf(in->formula, sizeof in->formula, "%s", f == YD_NONE ? "$$" : yd_str(d, &d->node[f]));
	}
}

/* ---- meta.db cross-checks ---- */

static void strip_ws(const char *s, char *out, size_t cap)
{
	size_t k = 0;
	for (; *s && k + 1 < cap; s++)
		if (!isspace((unsigned char)*s)) out[k++] = *s;
	out[k] = '\0';
}

typedef struct name_ix {
	const char *name;
	uint32_t mi;
} name_ix;

static int cmp_name_ix(const void *a, const void *b)
{
	return strcmp(((const name_ix *)a)->name, ((const name_ix *)b)->name);
}

static void cross_inputs(tx *t)
{
	const hpctk_vmodel *vm = t->vm;
	name_ix *ix = malloc((vm->nmetrics ? vm->nmetrics : 1) * sizeof *ix);
	if (!ix) return;
	for (uint32_t i = 0; i < vm->nmetrics; i++) ix[i] = (name_ix){vm->pool + vm->metric_name[i], i};
	qsort(ix, vm->nmetrics, sizeof *ix, cmp_name_ix);
	char path[HV_PATH_MAX], mf[64];
	static const char *const comb[] = {"sum", "min", "max"};
	for (uint32_t k = 0; k < t->nin; k++) {
		tx_input *in = &t->in[k];
		if (!in->ok) continue;
		pathf(path, sizeof path, "%s/inputs/%s", base_name(t->file), in->metric);
		name_ix key = {in->metric, 0};
		name_ix *hit = bsearch(&key, ix, vm->nmetrics, sizeof *ix, cmp_name_ix);
		if (!check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, hit != NULL, in->node, path,
			   "metric '%s' is not a metric of meta.db (%u metrics): its values cannot be found", in->metric,
			   vm->nmetrics))
			continue;
		in->mi = (int32_t)hit->mi;
		/* the summaries of that metric: scope, formula, combine */
		bool scope_seen = false, found = false;
		char seen_f[64] = "";
		int seen_c = -1;
		for (size_t s = 0; s < vm->nstats && !found; s++) {
			const hpctk_vstat *st = &vm->stats[s];
			if (st->metric != hit->mi || st->pid >= vm->npid) continue;
			if (strcmp(vm->pool + vm->scope_name[st->pid], in->scope) != 0) continue;
			scope_seen = true;
			strip_ws(vm->pool + st->formula, mf, sizeof mf);
			if (strcmp(mf, in->formula) == 0 && st->combine == in->combine) {
				found = true;
				in->custom = vm->kind[st->pid] == HPCTK_VP_CUSTOM;
			} else if (seen_c < 0) {
				snprintf(seen_f, sizeof seen_f, "%s", mf);
				seen_c = st->combine;
			}
		}
		if (!scope_seen) {
			check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, false, in->node, path,
			      "metric '%s' has no summary statistic of propagation scope '%s' in meta.db", in->metric,
			      in->scope);
			continue;
		}
		check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, found, in->node, path,
		      "metric '%s' scope '%s': meta.db has no summary with formula '%s' and combine %s (it has e.g. "
		      "formula '%s' combine %s)",
		      in->metric, in->scope, in->formula, comb[in->combine], seen_f,
		      seen_c >= 0 && seen_c < 3 ? comb[seen_c] : "?");
	}
	free(ix);
}

/* ---- formulas ---- */

enum { EXPECT_OPERAND, EXPECT_OPERATOR };

/* Feed scalar text to the infix state machine; false (and *why) on a token
 * out of place. */
static bool scan_tokens(const char *s, int *state, const char **why)
{
	while (*s) {
		if (isspace((unsigned char)*s) || *s == ',') {
			s++;
			continue;
		}
		if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
			if (*state != EXPECT_OPERAND) return *why = "two operands without an operator between them", false;
			while (isdigit((unsigned char)*s) || *s == '.') s++;
			if ((*s == 'e' || *s == 'E') &&
			    (isdigit((unsigned char)s[1]) || ((s[1] == '-' || s[1] == '+') && isdigit((unsigned char)s[2])))) {
				s += 2;
				while (isdigit((unsigned char)*s)) s++;
			}
			*state = EXPECT_OPERATOR;
			continue;
		}
		if (strchr("+-*/^", *s)) {
			if (*state == EXPECT_OPERAND && *s != '+' && *s != '-')
				return *why = "an operator where an operand is expected", false;
			*state = EXPECT_OPERAND;
			s++;
			continue;
		}
		return *why = "a character that is neither a number nor an operator (+ - * / ^)", false;
	}
	return true;
}

static int fn_arity(const tx *t, uint32_t key, int *max)
{
	static const struct {
		const char *name;
		int min, max;
	} fns[] = {{"sum", 1, 1 << 30},  {"prod", 1, 1 << 30}, {"pow", 2, 2},        {"sqrt", 1, 1},
		   {"log", 1, 2},         {"min", 1, 1 << 30},  {"max", 1, 1 << 30},  {"floor", 1, 1},
		   {"strict floor", 1, 1}, {"ceil", 1, 1},       {"strict ceil", 1, 1}, {"+", 1, 1 << 30},
		   {"*", 1, 1 << 30},     {"-", 1, 2},          {"/", 2, 2},          {"^", 2, 2}};
	for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
		if (yd_is(&t->d, key, fns[i].name)) {
			*max = fns[i].max;
			return fns[i].min;
		}
	return -1;
}

static void bad_formula(tx *t, uint32_t n, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void bad_formula(tx *t, uint32_t n, const char *path, const char *fmt, ...)
{
	yd_node *x = &t->d.node[n];
	hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_FORMULA, false);
	if (x->seen & SEEN_FORMULA_BAD) return; /* reported once, however often it is used */
	x->seen |= SEEN_FORMULA_BAD;
	va_list ap;
	va_start(ap, fmt);
	emitv(t, HV_R_HPCTKDB_TAXONOMY_FORMULA, n, path, fmt, ap);
	va_end(ap);
}

/* Walk one formula from node f: check every node it reaches once, mark the
 * inputs it uses; a standard formula must use no input of a custom scope. */
static void walk_formula(tx *t, uint32_t f, const char *path, bool standard)
{
	yd_doc *d = &t->d;
	t->epoch++;
	t->nstack = 0;
	if (!push(t, f)) return;
	bool std_reported = false;
	char buf[64];
	while (t->nstack > 0 && !t->over) {
		uint32_t n = t->stack[--t->nstack];
		yd_node *x = &d->node[n];
		if (x->mark == t->epoch) continue;
		x->mark = t->epoch;
		if (!step(t)) break;
		if (x->input == YD_UNRESOLVED) continue; /* hpctkdb.taxonomy.alias */
		if (x->input) {
			x->seen |= SEEN_USED;
			uint32_t k = t->input_of[n];
			if (standard && k != YD_NONE && t->in[k].custom && !std_reported) {
				std_reported = true;
				check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, false, f, path,
				      "this standard: formula uses input '%s' of scope '%s', a custom propagation scope in "
				      "meta.db; standard formulas use only non-custom scopes (put it in custom:)",
				      t->in[k].metric, t->in[k].scope);
			}
			continue;
		}
		int ty = yd_type(d, n);
		if (x->kind == YD_SCALAR) {
			int state = EXPECT_OPERAND;
			const char *why = NULL;
			if (ty == YD_T_INT || ty == YD_T_FLOAT) {
				hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_FORMULA, true);
				continue;
			}
			if (ty != YD_T_STR || !scan_tokens(yd_str(d, x), &state, &why) || state != EXPECT_OPERATOR)
				bad_formula(t, n, path, "formula %s is not a complete expression: %s", text(t, n, buf, sizeof buf),
					    why ? why : ty != YD_T_STR ? "not a number or expression text" : "it ends with an operator");
			else
				hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_FORMULA, true);
			continue;
		}
		if (x->kind == YD_SEQ) {
			/* a parenthesised expression: its elements, breaks as whitespace */
			int state = EXPECT_OPERAND;
			const char *why = NULL;
			bool ok = x->n > 0;
			if (!ok) why = "an empty pair of parentheses";
			for (uint32_t i = 0; ok && i < x->n; i++) {
				uint32_t e = d->edge[x->first + i];
				yd_node *ex = &d->node[e];
				int ety = yd_type(d, e);
				if (ex->kind == YD_SCALAR && !ex->input && (ety == YD_T_STR || ety == YD_T_INT || ety == YD_T_FLOAT)) {
					ok = scan_tokens(yd_str(d, ex), &state, &why);
					continue;
				}
				if (ex->kind == YD_SCALAR && !ex->input) {
					ok = false;
					why = "a null or boolean element";
					break;
				}
				if (state != EXPECT_OPERAND) {
					ok = false;
					why = "two operands without an operator between them";
					break;
				}
				state = EXPECT_OPERATOR;
				if (!push(t, e)) return;
			}
			if (ok && state != EXPECT_OPERATOR) ok = false, why = "it ends with an operator";
			if (!ok)
				bad_formula(t, n, path, "parenthesised formula of %u elements is not an expression: %s", x->n, why);
			else
				hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_FORMULA, true);
			continue;
		}
		/* a map: a function call of one pair, name: [arguments] */
		if (x->n != 2) {
			bad_formula(t, n, path,
				    "a map of %u pairs in a formula: neither an input of inputs: (an alias of one) nor a "
				    "function call (one pair, name: [arguments])",
				    x->n / 2);
			continue;
		}
		uint32_t key = d->edge[x->first], val = d->edge[x->first + 1];
		int max = 0, min = fn_arity(t, key, &max);
		if (min < 0) {
			bad_formula(t, n, path, "function %s is not one the spec defines (sum, prod, pow, sqrt, log, min, max, "
				    "floor, strict floor, ceil, strict ceil, + - * / ^)", text(t, key, buf, sizeof buf));
			continue;
		}
		const yd_node *vx = &d->node[val];
		if (vx->kind != YD_SEQ || vx->n < (uint32_t)min || vx->n > (uint32_t)max) {
			bad_formula(t, n, path, "function %s takes a sequence of %d%s argument%s; found %s",
				    text(t, key, buf, sizeof buf), min, max > min ? " or more" : "", min == 1 && max == 1 ? "" : "s",
				    vx->kind == YD_SEQ ? "a different number" : type_name(yd_type(d, val)));
			continue;
		}
		hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_FORMULA, true);
		for (uint32_t i = 0; i < vx->n; i++)
			if (!push(t, d->edge[vx->first + i])) return;
	}
}

/* ---- metrics and variants ---- */

static bool is_split(tx *t, uint32_t n)
{
	const yd_node *x = yd_at(&t->d, n);
	return x && x->kind == YD_MAP && !x->input &&
	       (yd_get(&t->d, n, "standard") != YD_NONE || yd_get(&t->d, n, "custom") != YD_NONE);
}

static void check_side(tx *t, uint32_t side, const char *path, const char *which)
{
	char p[HV_PATH_MAX];
	int ty = yd_type(&t->d, side);
	if (side == YD_NONE || ty == YD_T_NULL) return;
	if (!is_split(t, side)) {
		/* a bare formula (the spec's own example; older hpcprof) */
		if (!t->no_standard++) {
			pathf(t->no_standard_path, sizeof t->no_standard_path, "%s/%s", path, which);
			t->no_standard_node = side;
		}
		pathf(p, sizeof p, "%s/%s", path, which);
		walk_formula(t, side, p, false);
		return;
	}
	uint32_t std = yd_get(&t->d, side, "standard"), cus = yd_get(&t->d, side, "custom");
	if (std == YD_NONE && !t->no_standard++) {
		pathf(t->no_standard_path, sizeof t->no_standard_path, "%s/%s", path, which);
		t->no_standard_node = side;
	}
	if (std != YD_NONE && yd_type(&t->d, std) != YD_T_NULL) {
		pathf(p, sizeof p, "%s/%s/standard", path, which);
		walk_formula(t, std, p, true);
	}
	if (cus != YD_NONE && yd_type(&t->d, cus) != YD_T_NULL) {
		pathf(p, sizeof p, "%s/%s/custom", path, which);
		walk_formula(t, cus, p, false);
	}
}

/* printf-like: [prefix]%(#0- +')*[width][.precision](eEfFgGaA)[suffix] */
static bool format_ok(const char *s, const char **why)
{
	int conv = 0;
	while (*s) {
		if (*s != '%') {
			s++;
			continue;
		}
		if (s[1] == '%') {
			s += 2;
			continue;
		}
		if (conv++) return *why = "more than one conversion (a literal % is written %%)", false;
		s++;
		while (*s && strchr("#0- +'", *s)) s++;
		while (isdigit((unsigned char)*s)) s++;
		if (*s == '.') {
			s++;
			while (isdigit((unsigned char)*s)) s++;
		}
		if (!*s || !strchr("eEfFgGaA", *s)) return *why = "the conversion is not one of e E f F g G a A (the value is a double)", false;
		s++;
	}
	if (!conv) return *why = "no conversion", false;
	return true;
}

static void check_format(tx *t, uint32_t f, const char *path)
{
	if (f == YD_NONE) return;
	const char *why = "not a string";
	char buf[64];
	bool ok = yd_type(&t->d, f) == YD_T_STR && format_ok(yd_str(&t->d, &t->d.node[f]), &why); /* before why is read */
	check(t, HV_R_HPCTKDB_TAXONOMY_FORMAT, ok, f, path, "format: %s is not [prefix]%%(#0- +')*[width][.precision](eEfFgGaA)[suffix]: %s",
	      text(t, f, buf, sizeof buf), why);
}

static bool render_has(tx *t, uint32_t rn, const char *w)
{
	const yd_node *x = yd_at(&t->d, rn);
	if (!x) return false;
	if (x->kind == YD_SCALAR) return yd_is(&t->d, rn, w);
	if (x->kind != YD_SEQ) return false;
	for (uint32_t i = 0; i < x->n; i++)
		if (yd_is(&t->d, t->d.edge[x->first + i], w)) return true;
	return false;
}

static void check_variant(tx *t, uint32_t metric, uint32_t vname, uint32_t v, const char *mpath)
{
	yd_doc *d = &t->d;
	char path[HV_PATH_MAX], buf[64];
	const yd_node *vn = &d->node[vname];
	pathf(path, sizeof path, "%s/variants/%.*s", mpath, vn->kind == YD_SCALAR ? (int)(vn->len > 40 ? 40 : vn->len) : 1,
		 vn->kind == YD_SCALAR ? yd_str(d, vn) : "?");
	if (!check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, d->node[v].kind == YD_MAP, v, path,
		   "a variant is a map of render:, format:, child variant:, formula:; found %s", type_name(yd_type(d, v))))
		return;
	uint32_t render = yd_get(d, v, "render"), fmt = yd_get(d, v, "format");
	uint32_t cv = yd_get(d, v, "child variant"), formula = yd_get(d, v, "formula");
	if (render != YD_NONE) {
		const yd_node *rx = &d->node[render];
		bool ok = yd_type(d, render) == YD_T_STR || rx->kind == YD_SEQ;
		uint32_t bad = render;
		for (uint32_t i = 0; ok && i < (rx->kind == YD_SEQ ? rx->n : 1); i++) {
			uint32_t e = rx->kind == YD_SEQ ? d->edge[rx->first + i] : render;
			ok = yd_is(d, e, "number") || yd_is(d, e, "percent") || yd_is(d, e, "percentage") ||
			     yd_is(d, e, "hidden") || yd_is(d, e, "colorbar");
			if (!ok) bad = e;
		}
		check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, ok, bad, path,
		      "render: elements are number, percent, hidden or colorbar; found %s", text(t, bad, buf, sizeof buf));
	}
	check_format(t, fmt, path);
	bool first = yd_is(d, formula, "first"), sum = yd_is(d, formula, "sum");
	uint32_t inc = YD_NONE, exc = YD_NONE;
	if (formula != YD_NONE && !first && !sum) {
		if (check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, d->node[formula].kind == YD_MAP && !d->node[formula].input,
			  formula, path, "formula: is 'first', 'sum' or a map of inclusive:/exclusive:; found %s",
			  d->node[formula].kind == YD_MAP ? "an alias of an input" : text(t, formula, buf, sizeof buf))) {
			inc = yd_get(d, formula, "inclusive");
			exc = yd_get(d, formula, "exclusive");
			check_side(t, inc, path, "formula/inclusive");
			check_side(t, exc, path, "formula/exclusive");
		}
	}
	if (render != YD_NONE && (render_has(t, render, "percent") || render_has(t, render, "percentage")))
		check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, first || sum || (inc != YD_NONE && yd_type(d, inc) != YD_T_NULL), render,
		      path, "render: percent shows a share of the global inclusive value, but this variant has no "
			    "formula: inclusive:");
	if (render != YD_NONE && render_has(t, render, "colorbar"))
		check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, !first, render, path,
		      "render: colorbar compares the children with this value; formula: first makes them equal");
	if (cv == YD_NONE) return;
	/* explicit child variant: one name for all children, or one per child */
	uint32_t ch = yd_get(d, metric, "children");
	const yd_node *cx = yd_at(d, ch);
	uint32_t nch = cx && cx->kind == YD_SEQ ? cx->n : 0;
	if (nch == 0) return; /* nothing to take values from: ignored (as the spec's own example shows) */
	const yd_node *cvx = &d->node[cv];
	bool seq = cvx->kind == YD_SEQ;
	if (!check(t, HV_R_HPCTKDB_TAXONOMY_CHILD_VARIANT, (seq && cvx->n == nch) || yd_type(d, cv) == YD_T_STR, cv, path,
		   "child variant: is one variant name or a sequence of one per child; found %s for %u children",
		   seq ? "a sequence of a different length" : type_name(yd_type(d, cv)), nch))
		return;
	for (uint32_t i = 0; i < nch && !t->over; i++) {
		if (!step(t)) break;
		uint32_t c = d->edge[cx->first + i];
		uint32_t want = seq ? d->edge[cvx->first + i] : cv;
		uint32_t cvars = yd_get(d, c, "variants");
		if (d->node[c].kind != YD_MAP || yd_type(d, want) != YD_T_STR) continue; /* their own rules */
		check(t, HV_R_HPCTKDB_TAXONOMY_CHILD_VARIANT, yd_get(d, cvars, yd_str(d, &d->node[want])) != YD_NONE, want,
		      path, "child variant: %s is not a variant of child %u", text(t, want, buf, sizeof buf), i);
	}
}

typedef struct mitem {
	uint32_t node, parent, index; /* parent: index into the item list, YD_NONE for a root */
} mitem;

static void item_path(const mitem *items, uint32_t k, const char *file, char *out, size_t cap)
{
	uint32_t chain[8];
	int n = 0;
	for (uint32_t i = k; i != YD_NONE && n < 8; i = items[i].parent) chain[n++] = i;
	int len = snprintf(out, cap, "%s/%s", file, n == 8 && items[chain[7]].parent != YD_NONE ? ".../" : "");
	for (int j = n - 1; j >= 0 && len >= 0 && (size_t)len < cap; j--)
		len += snprintf(out + len, cap - (size_t)len, "%s%s[%u]", j == n - 1 ? "" : "/",
				items[chain[j]].parent == YD_NONE ? "roots" : "children", items[chain[j]].index);
}

static void check_metrics(tx *t, uint32_t roots)
{
	yd_doc *d = &t->d;
	mitem *items = NULL;
	uint32_t nitems = 0, cap = 0;
	uint32_t *st = NULL, nst = 0, stcap = 0;
	char path[HV_PATH_MAX], buf[64];
	const yd_node *rx = &d->node[roots];
	/* every root, then depth-first its children */
	for (uint32_t i = rx->n; i-- > 0;) {
		if (nitems == cap) {
			cap = cap ? cap * 2 : 64;
			mitem *ni = realloc(items, cap * sizeof *ni);
			if (!ni) goto out;
			items = ni;
		}
		items[nitems] = (mitem){d->edge[rx->first + i], YD_NONE, i};
		if (nst == stcap) {
			stcap = stcap ? stcap * 2 : 64;
			uint32_t *ns = realloc(st, stcap * sizeof *ns);
			if (!ns) goto out;
			st = ns;
		}
		st[nst++] = nitems++;
	}
	while (nst > 0 && !t->over) {
		uint32_t k = st[--nst];
		uint32_t m = items[k].node;
		bool root = items[k].parent == YD_NONE;
		if (!step(t)) break;
		item_path(items, k, base_name(t->file), path, sizeof path);
		yd_node *x = &d->node[m];
		if (x->seen & SEEN_METRIC) continue; /* an alias of a metric already checked */
		x->seen |= SEEN_METRIC;
		if (!check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, x->kind == YD_MAP && !x->input, m, path,
			   "a metric is a map with name:, description:, variants:, children:; found %s",
			   x->input ? "an input" : type_name(yd_type(d, m))))
			continue;
		uint32_t name = yd_get(d, m, "name"), desc = yd_get(d, m, "description");
		uint32_t sdesc = yd_get(d, m, "short description"), vis = yd_get(d, m, "visible by default");
		uint32_t pres = yd_get(d, m, "presentation"), ch = yd_get(d, m, "children");
		uint32_t vars = yd_get(d, m, "variants"), fmt = yd_get(d, m, "format");
		check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, name != YD_NONE && yd_type(d, name) == YD_T_STR, name != YD_NONE ? name : m,
		      path, "name: (a string) is required; found %s", name == YD_NONE ? "none" : type_name(yd_type(d, name)));
		check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, desc == YD_NONE || yd_type(d, desc) == YD_T_STR, desc, path,
		      "description: is a string; found %s", type_name(yd_type(d, desc)));
		check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, sdesc == YD_NONE || yd_type(d, sdesc) == YD_T_STR, sdesc, path,
		      "short description: is a string; found %s", type_name(yd_type(d, sdesc)));
		check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, vis == YD_NONE || yd_type(d, vis) == YD_T_BOOL, vis, path,
		      "visible by default: is true or false; found %s", text(t, vis, buf, sizeof buf));
		if (pres != YD_NONE)
			check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, root && yd_is(d, pres, "column"), pres, path,
			      root ? "presentation: must be 'column'; found %s"
				   : "presentation: is allowed only on root metrics (found %s on a child)",
			      text(t, pres, buf, sizeof buf));
		check_format(t, fmt, path);
		if (vars != YD_NONE &&
		    check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, d->node[vars].kind == YD_MAP, vars, path,
			  "variants: is a map of variant names to variants; found %s", type_name(yd_type(d, vars)))) {
			uint32_t *keys, *vals, n;
			if (yd_pairs(d, vars, &keys, &vals, &n)) {
				for (uint32_t i = 0; i < n && !t->over; i++) check_variant(t, m, keys[i], vals[i], path);
				free(keys);
				free(vals);
			}
		}
		if (ch == YD_NONE ||
		    !check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, d->node[ch].kind == YD_SEQ, ch, path,
			   "children: is a sequence of metrics; found %s", type_name(yd_type(d, ch))))
			continue;
		const yd_node *cx = &d->node[ch];
		for (uint32_t i = cx->n; i-- > 0;) {
			if (nitems == cap) {
				cap *= 2;
				mitem *ni = realloc(items, cap * sizeof *ni);
				if (!ni) goto out;
				items = ni;
			}
			items[nitems] = (mitem){d->edge[cx->first + i], k, i};
			if (nst == stcap) {
				stcap *= 2;
				uint32_t *ns = realloc(st, stcap * sizeof *ns);
				if (!ns) goto out;
				st = ns;
			}
			st[nst++] = nitems++;
		}
	}
out:
	free(items);
	free(st);
}

/* ---- what is not presented ---- */

static void notes(tx *t)
{
	char list[512];
	size_t len = 0;
	uint32_t unused = 0, first_unused = YD_NONE;
	/* inputs no root uses (hatchet) */
	for (uint32_t k = 0; k < t->nin; k++) {
		if (t->d.node[t->in[k].node].seen & SEEN_USED || !t->in[k].ok) continue;
		if (first_unused == YD_NONE) first_unused = t->in[k].node;
		if (unused++ < 6 && len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s (%s)", unused > 1 ? ", " : "",
						 t->in[k].metric, t->in[k].scope);
	}
	if (!hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_HATCHET, unused == 0))
		hv_emit(t->r, HV_R_HPCTKDB_TAXONOMY_HATCHET, t->file, yd_byte_offset(&t->d, t->d.node[first_unused].off), 1,
			base_name(t->file), "%u input%s no root uses (the first here): %s%s; hatchet's v4 reader merges such inputs' point, function and "
			"execution values into one column (hpcviewer ignores them)",
			unused, unused == 1 ? "" : "s", list, unused > 6 ? ", ..." : "");
	if (!hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_HATCHET, t->no_standard == 0))
		hv_emit(t->r, HV_R_HPCTKDB_TAXONOMY_HATCHET, t->file, yd_byte_offset(&t->d, t->d.node[t->no_standard_node].off),
			node_len(t, t->no_standard_node), t->no_standard_path,
			"%u inclusive:/exclusive: formula%s without standard: (first here): hpcviewer reads %s, hatchet's v4 "
			"reader fails with KeyError: 'standard'",
			t->no_standard, t->no_standard == 1 ? "" : "s", t->no_standard == 1 ? "it" : "them");
	if (!t->vm) return;
	/* meta.db metrics whose inputs no root uses, or that no input names */
	const hpctk_vmodel *vm = t->vm;
	uint8_t *shown = calloc(vm->nmetrics ? vm->nmetrics : 1, 1);
	if (!shown) return;
	for (uint32_t k = 0; k < t->nin; k++)
		if (t->in[k].mi >= 0 && (t->d.node[t->in[k].node].seen & SEEN_USED)) shown[t->in[k].mi] = 1;
	len = 0;
	uint32_t hidden = 0;
	for (uint32_t i = 0; i < vm->nmetrics; i++) {
		if (shown[i]) continue;
		if (hidden++ < 6 && len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", hidden > 1 ? ", " : "",
						 vm->pool + vm->metric_name[i]);
	}
	free(shown);
	if (!hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_UNPRESENTED, hidden == 0))
		hv_emit(t->r, HV_R_HPCTKDB_TAXONOMY_UNPRESENTED, t->file, 0, 0, base_name(t->file),
			"%u of meta.db's %u metrics are not presented (no formula under roots: uses them): %s%s", hidden,
			vm->nmetrics, list, hidden > 6 ? ", ..." : "");
}

/* ---- the document ---- */

static bool build(tx *t)
{
	yd_doc *d = &t->d;
	hv_report *r = t->r;
	const char *bn = base_name(t->file);
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, t->b->size <= YD_MAX_BYTES)) {
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, t->file, 0, t->b->size, bn,
			"the taxonomy has %llu bytes, more than any taxonomy of a meta.db can need (limit %llu; hpcprof's "
			"largest real one has 67 KB): not parsed",
			(unsigned long long)t->b->size, (unsigned long long)YD_MAX_BYTES);
		return false;
	}
	yd_build(d, t->b);
	if (d->oom) {
		hv_report_internal(r, "%s: out of memory while reading the taxonomy", t->file);
		return false;
	}
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, !d->too_big)) {
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, t->file, 0, t->b->size, bn,
			"the taxonomy has more than %u nodes (or 64 MiB of scalars); hpcprof's largest has about 10^4: not "
			"checked further",
			YD_MAX_NODES);
		return false;
	}
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_YAML, !d->syntax)) {
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_YAML, t->file, yd_byte_offset(d, d->syntax_off), 1, bn,
			"line %u column %u: not well-formed YAML: %s", d->syntax_line, d->syntax_col, d->syntax_msg);
		return false;
	}
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_YAML, !d->extra_doc))
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_YAML, t->file, yd_byte_offset(d, d->extra_off), 3, bn,
			"line %u: a second YAML document; the taxonomy is one document (readers load one)", d->extra_line);
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_ALIAS, d->bad_alias == 0))
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_ALIAS, t->file, yd_byte_offset(d, d->bad_alias_off), strlen(d->bad_alias_name) + 1, bn,
			"line %u column %u: alias *%s %s%s", d->bad_alias_line, d->bad_alias_col, d->bad_alias_name,
			d->bad_alias_recursive ? "is inside the node it names (a recursive node)"
					       : "names no anchor defined before it",
			d->bad_alias > 1 ? " (and more aliases like it)" : "");
	uint64_t exp = d->root != YD_NONE ? d->node[d->root].expanded : 0;
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, exp <= YD_MAX_EXPANDED)) {
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, t->file, 0, t->b->size, bn,
			"the %u nodes of the taxonomy expand to %s%llu nodes with aliases resolved (limit %llu): an alias "
			"bomb; a reader that expands it does not finish",
			d->n, exp == UINT64_MAX ? "more than " : "", (unsigned long long)exp,
			(unsigned long long)YD_MAX_EXPANDED);
		return false;
	}
	return true;
}

void hpctk_check_taxonomy(const hv_options *opt, hv_blob *b, hv_report *r, const hpctk_metadb_summary *meta)
{
	(void)opt;
	tx t = {.r = r, .b = b, .file = b->name ? b->name : "metrics/default.yaml"};
	t.vm = meta && meta->valid && meta->metrics_ok ? meta->values : NULL;
	if (!build(&t)) goto done;
	yd_doc *d = &t.d;
	const char *bn = base_name(t.file);
	char path[HV_PATH_MAX], buf[64];
	uint32_t root = d->root;
	if (!check(&t, HV_R_HPCTKDB_TAXONOMY_TOP, root != YD_NONE && d->node[root].kind == YD_MAP, root, bn,
		   "the taxonomy is a map of version:, inputs:, roots:; found %s",
		   root == YD_NONE ? "an empty document" : type_name(yd_type(d, root))))
		goto done;
	t.input_of = malloc((size_t)d->n * sizeof *t.input_of);
	if (!t.input_of) {
		hv_report_internal(r, "%s: out of memory while checking the taxonomy", t.file);
		goto done;
	}
	memset(t.input_of, 0xff, (size_t)d->n * sizeof *t.input_of);
	uint32_t ver = yd_get(d, root, "version"), inputs = yd_get(d, root, "inputs"), roots = yd_get(d, root, "roots");
	pathf(path, sizeof path, "%s/version", bn);
	/* The spec lets version: be omitted, but hpcviewer's parser unboxes it
	 * as an int (a NullPointerException without it) and hpcprof always
	 * writes it: required, as the reference reader requires it. */
	check(&t, HV_R_HPCTKDB_TAXONOMY_VERSION, yd_type(d, ver) == YD_T_INT && yd_is(d, ver, "0"), ver != YD_NONE ? ver : root,
	      path, "version: is 0, the only taxonomy version defined (hpcviewer reads it as an int and fails without "
	      "it); found %s", ver == YD_NONE ? "no version: key" : text(&t, ver, buf, sizeof buf));
	bool ok_in = check(&t, HV_R_HPCTKDB_TAXONOMY_TOP, inputs != YD_NONE && d->node[inputs].kind == YD_SEQ,
			   inputs != YD_NONE ? inputs : root, bn,
			   "inputs: (a sequence of the summary statistics used, each with an anchor) is required: "
			   "hpcviewer's loader needs it; found %s",
			   inputs == YD_NONE ? "none" : type_name(yd_type(d, inputs)));
	bool ok_roots = check(&t, HV_R_HPCTKDB_TAXONOMY_TOP, roots != YD_NONE && d->node[roots].kind == YD_SEQ,
			      roots != YD_NONE ? roots : root, bn,
			      "roots: (a sequence of root metrics) is required; found %s",
			      roots == YD_NONE ? "none" : type_name(yd_type(d, roots)));
	if (ok_in) check_inputs(&t, inputs);
	if (ok_in && !t.in) {
		hv_report_internal(r, "%s: out of memory while checking the taxonomy", t.file);
		goto done;
	}
	if (t.vm) cross_inputs(&t);
	if (ok_roots) check_metrics(&t, roots);
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, !t.over && !d->merge_overflow)) {
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_BOUNDS, t.file, 0, b->size, bn,
			"%s: the rest of the taxonomy was not checked",
			t.over ? "the walk of metrics and formulas took more than 64 Mi steps (aliases used many times over)"
			       : "a merge key (<<) chain takes more than 4096 steps to resolve");
		goto done;
	}
	if (ok_in && ok_roots) notes(&t);
	/* hpcviewer's SnakeYAML loader: maxAliasesForCollections 1000 by default */
	if (!hv_eval(r, HV_R_HPCTKDB_TAXONOMY_VIEWER_ALIASES, d->collection_aliases <= 1000))
		hv_emit(r, HV_R_HPCTKDB_TAXONOMY_VIEWER_ALIASES, t.file, 0, 0, bn,
			"%llu aliases of maps or sequences; hpcviewer's SnakeYAML loader allows 1000 unless "
			"HPCVIEWER_MAX_ALIASES is set higher",
			(unsigned long long)d->collection_aliases);
done:
	free(t.in);
	free(t.input_of);
	free(t.stack);
	yd_free(&t.d);
}
