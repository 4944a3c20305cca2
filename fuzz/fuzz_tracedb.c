/* Fuzz target: hpctoolkit trace.db, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "hpctoolkit trace.db"
#define FUZZ_FILE_NAME "trace.db"
#include "target_format.h"
