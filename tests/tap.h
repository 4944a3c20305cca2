/* Minimal test bookkeeping: every CHECK counts as one test; a failed one
 * prints what was expected. main() ends with TAP_DONE(), which prints the
 * closing "N passed, N failed" line that tests/run.sh adds up. */
#ifndef HV_TAP_H
#define HV_TAP_H

#include <stdio.h>

static unsigned tap_passed, tap_failed;

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
		printf("%u passed, %u failed\n", tap_passed, tap_failed); \
		return tap_failed ? 1 : 0;                                \
	} while (0)

#endif
