/* Plain driver for any fuzz target: runs every file given on the command
 * line (directories are walked one level) through LLVMFuzzerTestOneInput.
 * This is how the corpus runs in `make test` under ASan+UBSan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "input_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) return -1;
	if (fseek(f, 0, SEEK_END) != 0) {
		fclose(f);
		return -1;
	}
	long n = ftell(f);
	rewind(f);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	size_t got = buf && n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
	fclose(f);
	if (!buf || (n > 0 && got != (size_t)n)) {
		free(buf);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, got);
	free(buf);
	return 0;
}

struct tally {
	unsigned ran, failed;
};

static void run_one(const char *path, void *ctx)
{
	struct tally *t = ctx;
	if (run_file(path) == 0)
		t->ran++;
	else
		t->failed++;
}

int main(int argc, char **argv)
{
	struct tally t = {0, 0};
	for (int i = 1; i < argc; i++) fuzz_for_each_input(argv[i], run_one, &t);
	/* Reaching here means no input crashed the target (sanitizers abort). */
	printf("%u passed, %u failed\n", t.ran, t.failed);
	return t.failed ? 1 : 0;
}
