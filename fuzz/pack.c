/* hpcvet-pack DIR OUT: pack the regular files of DIR (recursively, relative
 * names) into one multi-file fuzz input (see container.h). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "container.h"

static int add_tree(FILE *out, const char *root, const char *rel, int depth)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s%s%s", root, rel[0] ? "/" : "", rel);
	DIR *d = opendir(dir);
	if (!d || depth > 8) return d ? closedir(d), 0 : -1;
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') continue;
		char r2[4096], full[8192];
		snprintf(r2, sizeof r2, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", root, r2);
		struct stat st;
		if (lstat(full, &st) != 0) continue;
		if (S_ISDIR(st.st_mode)) {
			rc = add_tree(out, root, r2, depth + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode) || strlen(r2) > FUZZ_NAME_MAX || st.st_size > 0x7fffffff) continue;
		FILE *f = fopen(full, "rb");
		if (!f) continue;
		uint8_t *buf = malloc((size_t)st.st_size + 1);
		size_t n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
		fclose(f);
		uint8_t hdr[6];
		hv_put_le16(hdr, (uint16_t)strlen(r2));
		fwrite(hdr, 1, 2, out);
		fwrite(r2, 1, strlen(r2), out);
		hv_put_le32(hdr, (uint32_t)n);
		fwrite(hdr, 1, 4, out);
		if (n) fwrite(buf, 1, n, out);
		free(buf);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: hpcvet-pack DIR OUT\n");
		return 2;
	}
	FILE *out = fopen(argv[2], "wb");
	if (!out) return 1;
	int rc = add_tree(out, argv[1], "", 0);
	return (fclose(out) == 0 && rc == 0) ? 0 : 1;
}
