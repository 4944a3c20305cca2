/* Fuzz target: dumpi .meta, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "dumpi .meta"
#define FUZZ_FILE_NAME "trace.meta"
#include "target_format.h"
