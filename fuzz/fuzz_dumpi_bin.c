/* Fuzz target: dumpi .bin, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "dumpi .bin"
#define FUZZ_FILE_NAME "trace-0000.bin"
#include "target_format.h"
