/* The command-line drivers (regress.c, mutator_test.c) take files and
 * directories of inputs: a file is one input, a directory each regular file
 * directly in it (names starting with '.' skipped; no recursion). */
#ifndef FUZZ_INPUT_WALK_H
#define FUZZ_INPUT_WALK_H

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

static inline void fuzz_for_each_input(const char *arg, void (*fn)(const char *path, void *ctx), void *ctx)
{
	struct stat st;
	if (stat(arg, &st) != 0) return;
	if (!S_ISDIR(st.st_mode)) {
		fn(arg, ctx);
		return;
	}
	DIR *d = opendir(arg);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", arg, e->d_name);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) continue;
		fn(p, ctx);
	}
	if (d) closedir(d);
}

#endif
