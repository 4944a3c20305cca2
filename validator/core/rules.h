/* The rule table: the single source of truth for every check.
 *
 * Each format family lists its rules in its own `*_rules.def` file as
 *   HV_RULE(SYMBOL, "stable.rule-id", SEVERITY, "format", "spec clause",
 *           "one-line summary", "full explanation")
 * and rules_all.def includes them all. The enum below, the catalogue
 * (`hpcvet rules`), docs/RULES.md and the coverage test are all derived from
 * these lines. Rule IDs are stable: never rename or reuse one; retire it
 * instead (see CONTRIBUTING.md). */
#ifndef HV_RULES_H
#define HV_RULES_H

#include <stddef.h>

enum hv_sev { HV_SEV_NOTE = 0, HV_SEV_WARNING = 1, HV_SEV_ERROR = 2 };

enum hv_rule {
#define HV_RULE(sym, id, sev, fmt, clause, summary, detail) HV_R_##sym,
#include "rules_all.def"
#undef HV_RULE
	HV_RULE_COUNT
};

typedef struct hv_rule_info {
	const char *id;
	enum hv_sev severity;
	const char *format;
	const char *clause;
	const char *summary;
	const char *detail;
} hv_rule_info;

extern const hv_rule_info hv_rules[HV_RULE_COUNT];

const char *hv_sev_name(enum hv_sev s);

/* The rule-table version: "<number of rules>-<16 hex digits>", the digits
 * being the FNV-1a 64 hash of every rule's ID and severity in table order.
 * It changes whenever a rule is added, retired or changes severity, without
 * anyone having to remember to bump it. `buf` holds at least 32 bytes. */
const char *hv_rule_table_version(char *buf, size_t len);
/* Look a rule up by its stable ID; -1 when unknown. */
int hv_rule_find(const char *id);

#endif
