/* mutator_test [-n N] FILE|DIR...: runs the structure-aware mutator N times
 * (default 64) on every input, chaining mutants, and validates each mutant
 * (single file or container set). Fails when a mutant exceeds its capacity,
 * when the mutator rarely changes anything, or when fewer than half of the
 * mutants of a recognised format keep its magic (the point of mutating
 * structure). Under ASan (build-san) this also checks the mutator's own
 * memory safety. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "input_walk.h"
#include "core/validate.h"
#include "mutator.h"

static unsigned long mutants, changed, magic_kept, magic_total, failures;

static void validate(const uint8_t *d, size_t n)
{
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 20};
	hv_report r;
	hv_report_init(&r, "m", opt.max_diags);
	static fuzz_files ff;
	fuzz_unpack(d, n, &ff);
	if (ff.n > 1) {
		hv_validate_set(&opt, ff.blobs, ff.n, &r);
		for (size_t i = 0; i < ff.n; i++) hv_blob_release(&ff.blobs[i]);
	} else {
		hv_blob b = hv_blob_from_memory("m", d, n);
		hv_validate_blob(&opt, &b, &r);
		hv_blob_release(&b);
	}
	if (r.internal_error) {
		fprintf(stderr, "internal error on a mutant: %s\n", r.problem);
		failures++;
	}
	hv_report_free(&r);
}

static void run(const char *path, unsigned iters)
{
	FILE *f = fopen(path, "rb");
	if (!f) return;
	static uint8_t orig[1 << 20];
	size_t n = fread(orig, 1, sizeof orig, f);
	fclose(f);
	size_t cap = 2 * n + 4096;
	uint8_t *buf = malloc(cap), *prev = malloc(cap);
	if (!buf || !prev) abort();
	memcpy(buf, orig, n);
	size_t size = n;
	int magic = n >= 10 && (memcmp(orig, "HPCTOOLKIT", 10) == 0 || memcmp(orig, "ovni", 4) == 0 ||
				 memcmp(orig, "\xff\xaa\xdd" "DUMPI", 8) == 0);
	for (unsigned i = 0; i < iters; i++) {
		if (i % 8 == 0) { /* restart from the seed now and then, as engines do */
			memcpy(buf, orig, n);
			size = n;
		}
		memcpy(prev, buf, size);
		size_t before = size;
		size = hv_fuzz_mutate(buf, size, cap, 0x1234567ull * (i + 1) + n, NULL);
		mutants++;
		if (size > cap) {
			fprintf(stderr, "%s: mutant of %zu bytes exceeds capacity %zu\n", path, size, cap);
			failures++;
			size = cap;
		}
		changed += size != before || memcmp(prev, buf, size) != 0;
		if (magic) {
			magic_total++;
			magic_kept += size >= 4 && memcmp(buf, orig, 4) == 0;
		}
		validate(buf, size);
	}
	free(buf);
	free(prev);
}

static void run_input(const char *path, void *ctx)
{
	run(path, *(const unsigned *)ctx);
}

int main(int argc, char **argv)
{
	unsigned iters = 64;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			iters = (unsigned)atoi(argv[++i]);
			continue;
		}
		fuzz_for_each_input(argv[i], run_input, &iters);
	}
	printf("%lu mutants, %lu changed, magic kept in %lu of %lu\n", mutants, changed, magic_kept, magic_total);
	if (mutants && changed * 10 < mutants * 8) {
		fprintf(stderr, "the mutator left %lu of %lu inputs unchanged\n", mutants - changed, mutants);
		failures++;
	}
	if (magic_total && magic_kept * 2 < magic_total) {
		fprintf(stderr, "only %lu of %lu mutants kept their format's magic\n", magic_kept, magic_total);
		failures++;
	}
	return failures ? 1 : 0;
}
