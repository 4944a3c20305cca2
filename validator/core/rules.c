#include "rules.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fnv.h"

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

const char *hv_rule_table_version(char *buf, size_t len)
{
	uint64_t h = HV_FNV1A_SEED;
	for (int i = 0; i < HV_RULE_COUNT; i++) {
		h = hv_fnv1a_byte(hv_fnv1a_str(h, hv_rules[i].id), '\t');
		h = hv_fnv1a_byte(hv_fnv1a_str(h, hv_sev_name(hv_rules[i].severity)), '\n');
	}
	snprintf(buf, len, "%d-%016" PRIx64, (int)HV_RULE_COUNT, h);
	return buf;
}
