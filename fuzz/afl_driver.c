/* AFL++ persistent-mode driver for any fuzz target: shared-memory test
 * cases, __AFL_LOOP, no process start or file read per input. Built only
 * with afl-clang-fast (make afl). With file arguments it replays them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__AFL_FUZZ_INIT();

static void replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) return;
	static uint8_t buf[1 << 22];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++) replay(argv[i]);
		return 0;
	}
	__AFL_INIT();
	const uint8_t *buf = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(100000)) LLVMFuzzerTestOneInput(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
	return 0;
}
