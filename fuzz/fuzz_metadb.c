/* Fuzz target: hpctoolkit meta.db, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "hpctoolkit meta.db"
#define FUZZ_FILE_NAME "meta.db"
#include "target_format.h"
