/* Fuzz target: hpctoolkit cct.db, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "hpctoolkit cct.db"
#define FUZZ_FILE_NAME "cct.db"
#include "target_format.h"
