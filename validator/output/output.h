/* Report writers. They format finished reports; they never look at input. */
#ifndef HV_OUTPUT_H
#define HV_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "../core/report.h"

#define HV_VERSION "0.1.0"

typedef struct hv_output_opts {
	bool quiet;   /* summary lines only */
	bool strict;  /* warnings count as failures */
} hv_output_opts;

/* "conforming", "nonconforming", "unreadable", "internal-error". */
const char *hv_verdict(const hv_report *r, bool strict);

void hv_write_text(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);
/* Returns false when the JSON document could not be built (out of memory). */
bool hv_write_json(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);

/* A rule's case in the conformance corpus (golden/cases): `hpcvet rules
 * --format=json` lists them per rule. Arrays of these end with {NULL, NULL}. */
typedef struct hv_rule_case {
	const char *rule;  /* rule ID */
	const char *path;  /* case path relative to golden/cases */
} hv_rule_case;

void hv_write_rules_text(FILE *out);
/* `cases` may be NULL (every rule then lists no case). */
bool hv_write_rules_json(FILE *out, const hv_rule_case *cases);
void hv_write_rules_markdown(FILE *out);
/* False when `id` names no rule. */
bool hv_write_rule_explain(FILE *out, const char *id);

#endif
