#include "rules.h"

#include <string.h>

const hv_rule_info hv_rules[HV_RULE_COUNT] = {
#define HV_RULE(sym, id, sev, fmt, clause, summary, detail) [HV_R_##sym] = {id, HV_SEV_##sev, fmt, clause, summary, detail},
#include "rules_all.def"
#undef HV_RULE
};

const char *hv_sev_name(enum hv_sev s)
{
	switch (s) {
	case HV_SEV_ERROR: return "error";
	case HV_SEV_WARNING: return "warning";
	case HV_SEV_NOTE: return "note";
	}
	return "?";
}

int hv_rule_find(const char *id)
{
	for (int i = 0; i < HV_RULE_COUNT; i++)
		if (strcmp(hv_rules[i].id, id) == 0) return i;
	return -1;
}
