/* mutator_test [-n N] FILE|DIR...: runs the structure-aware mutator N times
 * (default 64) on every input, chaining mutants, and validates each mutant
 * (single file or container set). Fails when a mutant exceeds its capacity,
 * when the mutator rarely changes anything, or when fewer than half of the
 * mutants of a recognised format keep its magic (the point of mutating
 * structure). Under ASan (build-san) this also checks the mutator's own
 * memory safety.
 *
 * mutator_test -s PCT [-n N] FILE|DIR...: the semantic mutators alone, N
 * mutants of every input, each from the input itself (give valid inputs:
 * the golden y_ seeds). A mutant keeps the structure when it has no error
 * outside the semantic rule families (dumpi.mpi.*, ovni.model.*,
 * hpctkdb.*: the MPI layer, the ovni event model, the value and cross-file
 * checks); it changes the meaning seen when it keeps the structure and a
 * semantic rule fails a different number of times than on its input. Prints both shares per
 * family and fails when fewer than PCT% of a family's mutants keep the
 * structure, when fewer than 90% differ from their input, or when fewer
 * than 20% change what a semantic rule says. With -b, the same figures
 * for byte-level mutation (the mutator's own fallback), for comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "input_walk.h"
#include "core/validate.h"
#include "mutator.h"
#include "mutator_core.h"

static unsigned long mutants, changed, magic_kept, magic_total, failures;

/* The rule families that judge meaning rather than structure. */
static bool semantic_rule(int rule)
{
	const char *id = hv_rules[rule].id;
	return strncmp(id, "dumpi.mpi.", 10) == 0 || strncmp(id, "ovni.model.", 11) == 0 || strncmp(id, "hpctkdb.", 8) == 0;
}

/* What a semantic mutant's report says: errors outside the semantic
 * families, and each semantic rule's failures. */
typedef struct verdict {
	uint64_t struct_errors;
	uint64_t sem_failed[HV_RULE_COUNT];
} verdict;

static void validate_into(const uint8_t *d, size_t n, verdict *v);

static void validate(const uint8_t *d, size_t n) { validate_into(d, n, NULL); }

static void validate_into(const uint8_t *d, size_t n, verdict *v)
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
	if (v) {
		memset(v, 0, sizeof *v);
		for (int i = 0; i < HV_RULE_COUNT; i++) {
			if (semantic_rule(i))
				v->sem_failed[i] = r.failed[i];
			else if (hv_rules[i].severity == HV_SEV_ERROR) {
				v->struct_errors += r.failed[i];
				if (r.failed[i] && getenv("MUTATOR_TEST_VERBOSE")) fprintf(stderr, "  %s\n", hv_rules[i].id);
			}
		}
		/* a rule reported at another severity than its table's (hv_emit_sev) */
		if (!v->struct_errors && r.count[HV_SEV_ERROR]) {
			uint64_t sem = 0;
			for (int i = 0; i < HV_RULE_COUNT; i++)
				if (semantic_rule(i) && hv_rules[i].severity == HV_SEV_ERROR) sem += r.failed[i];
			if (r.count[HV_SEV_ERROR] > sem) v->struct_errors = r.count[HV_SEV_ERROR] - sem;
		}
	}
	hv_report_free(&r);
}

/* Semantic mutants per family: [0] DUMPI, [1] ovni, [2] HPCToolkit. */
static const char *const fam_name[3] = {"dumpi", "ovni", "hpctoolkit"};
static unsigned long s_mut[3], s_changed[3], s_kept[3], s_meaning[3], s_none[3];

static int family_of(const uint8_t *d, size_t n)
{
	static const uint8_t dm[8] = {0xff, 0xaa, 0xdd, 'D', 'U', 'M', 'P', 'I'};
	for (size_t i = 0; i + 10 <= n; i++) { /* the first magic in the input */
		if (memcmp(d + i, dm, 8) == 0) return 0;
		if (memcmp(d + i, "ovni", 4) == 0 && i + 8 <= n && d[i + 4] >= 1 && d[i + 4] <= 3) return 1;
		if (memcmp(d + i, "HPCTOOLKIT", 10) == 0) return 2;
	}
	return -1;
}

/* -b: the same statistics for byte-level mutation (the mutator's own
 * fallback), for comparison; not a test. */
static bool byte_level;

static size_t mutate_one(uint8_t *buf, size_t n, size_t cap, uint64_t seed)
{
	if (!byte_level) return hv_fuzz_mutate_semantic(buf, n, cap, seed);
	mrng g = {seed};
	return mutate_bytes(buf, n, cap, &g);
}

static void run_semantic(const char *path, unsigned iters)
{
	FILE *f = fopen(path, "rb");
	if (!f) return;
	static uint8_t orig[1 << 20];
	size_t n = fread(orig, 1, sizeof orig, f);
	fclose(f);
	int fam = family_of(orig, n);
	if (fam < 0) return;
	size_t cap = 2 * n + 4096;
	uint8_t *buf = malloc(cap);
	static verdict base, v;
	if (!buf) abort();
	validate_into(orig, n, &base);
	if (base.struct_errors) {
		fprintf(stderr, "%s: not a valid input (%llu structural errors)\n", path, (unsigned long long)base.struct_errors);
		failures++;
	}
	for (unsigned i = 0; i < iters; i++) {
		memcpy(buf, orig, n);
		size_t size = mutate_one(buf, n, cap, 0x9e3779b1ull * (i + 1) + n);
		s_mut[fam]++;
		if (size == 0) {
			s_none[fam]++;
			continue;
		}
		if (size > cap) {
			fprintf(stderr, "%s: semantic mutant of %zu bytes exceeds capacity %zu\n", path, size, cap);
			failures++;
			continue;
		}
		s_changed[fam] += size != n || memcmp(orig, buf, n) != 0;
		validate_into(buf, size, &v);
		s_kept[fam] += v.struct_errors == 0;
		/* a changed verdict counts only on a mutant that kept the structure:
		 * a broken stream changes what the MPI layer says too (partial traces) */
		s_meaning[fam] += v.struct_errors == 0 && memcmp(v.sem_failed, base.sem_failed, sizeof v.sem_failed) != 0;
	}
	free(buf);
}

static void run_semantic_input(const char *path, void *ctx)
{
	run_semantic(path, *(const unsigned *)ctx);
}

static int semantic_main(int argc, char **argv, unsigned pct)
{
	unsigned iters = 64;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			iters = (unsigned)atoi(argv[++i]);
			continue;
		}
		if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
			i++;
			continue;
		}
		if (strcmp(argv[i], "-b") == 0) {
			byte_level = true;
			continue;
		}
		fuzz_for_each_input(argv[i], run_semantic_input, &iters);
	}
	for (int k = 0; k < 3; k++) {
		if (!s_mut[k]) continue;
		printf("%s: %lu %s mutants, %lu changed, %lu (%.0f%%) keep the structure, %lu (%.0f%%) keep it and change "
		       "what the semantic rules say, %lu found nothing to change\n",
		       fam_name[k], s_mut[k], byte_level ? "byte-level" : "semantic", s_changed[k], s_kept[k], 100.0 * s_kept[k] / s_mut[k], s_meaning[k],
		       100.0 * s_meaning[k] / s_mut[k], s_none[k]);
		if (s_kept[k] * 100 < s_mut[k] * pct) {
			fprintf(stderr, "%s: only %lu of %lu mutants keep the structure (floor %u%%)\n", fam_name[k],
				s_kept[k], s_mut[k], pct);
			failures++;
		}
		if (s_changed[k] * 10 < s_mut[k] * 9) {
			fprintf(stderr, "%s: only %lu of %lu mutants differ from their input\n", fam_name[k],
				s_changed[k], s_mut[k]);
			failures++;
		}
		if (s_meaning[k] * 5 < s_mut[k]) {
			fprintf(stderr, "%s: only %lu of %lu mutants kept the structure and changed what a semantic rule says (floor 20%%)\n",
				fam_name[k], s_meaning[k], s_mut[k]);
			failures++;
		}
	}
	return failures ? 1 : 0;
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
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-s") == 0) return semantic_main(argc, argv, (unsigned)atoi(argv[i + 1]));
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
