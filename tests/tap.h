/* Minimal test bookkeeping: every CHECK counts as one test; a failed one
 * prints what was expected. main() ends with TAP_DONE(), which prints the
 * closing "N passed, N failed[, N skipped]" line that tests/run.sh adds up. */
#ifndef HV_TAP_H
#define HV_TAP_H

#include <stdio.h>

static unsigned tap_passed, tap_failed, tap_skipped;

/* A part of the test that cannot run here (its input is absent): counted,
 * and its reason printed for tests/run.sh to list. */
#define SKIP(...)                                                        \
	do {                                                             \
		tap_skipped++;                                           \
		printf("skipping: ");                                    \
		printf(__VA_ARGS__);                                     \
		printf("\n");                                            \
	} while (0)

#define CHECK(cond, ...)                                                 \
	do {                                                             \
		if (cond) {                                              \
			tap_passed++;                                    \
		} else {                                                 \
			tap_failed++;                                    \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);       \
			printf(__VA_ARGS__);                             \
			printf("\n");                                    \
		}                                                        \
	} while (0)

#define TAP_DONE()                                                        \
	do {                                                              \
		if (tap_skipped)                                          \
			printf("%u passed, %u failed, %u skipped\n", tap_passed, tap_failed, tap_skipped); \
		else                                                      \
			printf("%u passed, %u failed\n", tap_passed, tap_failed); \
		return tap_failed ? 1 : 0;                                \
	} while (0)

#endif
