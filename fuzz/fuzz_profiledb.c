/* Fuzz target: hpctoolkit profile.db, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "hpctoolkit profile.db"
#define FUZZ_FILE_NAME "profile.db"
#include "target_format.h"
