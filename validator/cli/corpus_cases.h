/* The conformance corpus cases of each rule (golden/cases/MANIFEST.json),
 * compiled in by the build: golden/tools/manifest2c writes the table into
 * $(BUILD)/gen/corpus_cases.c (empty when the manifest is absent). */
#ifndef HV_CORPUS_CASES_H
#define HV_CORPUS_CASES_H

#include "output/output.h"

/* (rule ID, case path relative to golden/cases) pairs, ending {NULL, NULL}. */
extern const hv_rule_case hv_corpus_cases[];

#endif
