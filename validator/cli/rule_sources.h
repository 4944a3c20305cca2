/* The source files that check each rule (where HV_R_<SYMBOL> is used), for
 * `hpcvet explain`: validator/cli/rule-sources.sh writes the table into
 * $(BUILD)/gen/rule_sources.c at build time. */
#ifndef HV_RULE_SOURCES_H
#define HV_RULE_SOURCES_H

#include "core/rules.h"

/* Indexed by rule; "a.c, b.c" relative to the repository root; NULL when no
 * source names the rule. */
extern const char *const hv_rule_sources[HV_RULE_COUNT];

#endif
