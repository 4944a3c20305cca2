/* Fuzz target: ovni stream.json, checked directly (fuzz/target_format.h). */
#define FUZZ_FORMAT "ovni stream.json"
#define FUZZ_FILE_NAME "stream.json"
#include "target_format.h"
