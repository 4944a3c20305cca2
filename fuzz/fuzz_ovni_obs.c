/* Fuzz target: ovni stream, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "ovni stream"
#define FUZZ_FILE_NAME "stream.obs"
#include "target_format.h"
