/* The taxonomy's formulas: expressions of numbers, + - * / ^, parenthesised
 * sequences, function maps (name: [arguments]) and aliases of inputs,
 * walked with an explicit stack, each node once per walk (an epoch), within
 * the step budget; a formula's input marks it used, and a standard formula
 * must use no input of a custom scope. A bad node is reported once however
 * often it is aliased. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "taxonomy.h"

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
	tx_emitv(t, HV_R_HPCTKDB_TAXONOMY_FORMULA, n, path, fmt, ap);
	va_end(ap);
}

/* Walk one formula from node f: check every node it reaches once, mark the
 * inputs it uses; a standard formula must use no input of a custom scope. */
void tx_walk_formula(tx *t, uint32_t f, const char *path, bool standard)
{
	yd_doc *d = &t->d;
	t->epoch++;
	t->nstack = 0;
	if (!tx_push(t, f)) return;
	bool std_reported = false;
	char buf[64];
	while (t->nstack > 0 && !t->over) {
		uint32_t n = t->stack[--t->nstack];
		yd_node *x = &d->node[n];
		if (x->mark == t->epoch) continue;
		x->mark = t->epoch;
		if (!tx_step(t)) break;
		if (x->input == YD_UNRESOLVED) continue; /* hpctkdb.taxonomy.alias */
		if (x->input) {
			x->seen |= SEEN_USED;
			uint32_t k = t->input_of[n];
			if (k != YD_NONE && t->in[k].used_by == YD_NONE) t->in[k].used_by = t->cur_metric;
			if (standard && k != YD_NONE && t->in[k].custom && !std_reported) {
				std_reported = true;
				tx_check(t, HV_R_HPCTKDB_TAXONOMY_INPUT_METADB, false, f, path,
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
				bad_formula(t, n, path, "formula %s is not a complete expression: %s", tx_text(t, n, buf, sizeof buf),
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
				if (!tx_push(t, e)) return;
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
				    "floor, strict floor, ceil, strict ceil, + - * / ^)", tx_text(t, key, buf, sizeof buf));
			continue;
		}
		const yd_node *vx = &d->node[val];
		if (vx->kind != YD_SEQ || vx->n < (uint32_t)min || vx->n > (uint32_t)max) {
			bad_formula(t, n, path, "function %s takes a sequence of %d%s argument%s; found %s",
				    tx_text(t, key, buf, sizeof buf), min, max > min ? " or more" : "", min == 1 && max == 1 ? "" : "s",
				    vx->kind == YD_SEQ ? "a different number" : tx_type_name(yd_type(d, val)));
			continue;
		}
		hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_FORMULA, true);
		for (uint32_t i = 0; i < vx->n; i++)
			if (!tx_push(t, d->edge[vx->first + i])) return;
	}
}
