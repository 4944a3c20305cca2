/* Plain driver for any fuzz target: runs every file given on the command
 * line (directories are walked one level) through LLVMFuzzerTestOneInput.
 * This is how the corpus runs in `make test` under ASan+UBSan. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int main(int argc, char **argv)
{
	unsigned ran = 0, failed = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) continue;
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]) == 0) ran++;
			else failed++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.') continue;
			char p[4096];
			snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
			if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) continue;
			if (run_file(p) == 0) ran++;
			else failed++;
		}
		if (d) closedir(d);
	}
	/* Reaching here means no input crashed the target (sanitizers abort). */
	printf("%u passed, %u failed\n", ran, failed);
	return failed ? 1 : 0;
}
