#include "alloc.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local hv_fault_scope *t_scope;

#if defined(HV_ALLOC_TEST_HOOK) || defined(FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
/* The k-th hv_ allocation fails (tests and fuzzing only: see alloc.h).
 * HPCVET_TEST_FAIL_ALLOC=k in the environment sets it at the first
 * allocation, for the sanitizer build's torture, and
 * HPCVET_TEST_ALLOC_COUNT=FILE receives the number of hv_ allocations at
 * exit. */
static atomic_ullong test_count, test_fail_at;
static atomic_bool test_env_read;
static const char *count_file;

static void write_count(void)
{
	FILE *f = fopen(count_file, "w");
	if (!f) return;
	fprintf(f, "%llu\n", (unsigned long long)atomic_load(&test_count));
	fclose(f);
}

void hv_alloc_test_fail_at(unsigned long long k)
{
	atomic_store(&test_env_read, true);
	atomic_store(&test_count, 0);
	atomic_store(&test_fail_at, k);
}
unsigned long long hv_alloc_test_count(void) { return atomic_load(&test_count); }

static bool test_fails(void)
{
	if (!atomic_load(&test_env_read) && !atomic_exchange(&test_env_read, true)) {
		const char *e = getenv("HPCVET_TEST_FAIL_ALLOC");
		if (e) atomic_store(&test_fail_at, strtoull(e, NULL, 10));
		count_file = getenv("HPCVET_TEST_ALLOC_COUNT");
		if (count_file) atexit(write_count);
	}
	unsigned long long n = atomic_fetch_add(&test_count, 1) + 1;
	unsigned long long at = atomic_load(&test_fail_at);
	return at && n == at;
}
#else
void hv_alloc_test_fail_at(unsigned long long k) { (void)k; }
unsigned long long hv_alloc_test_count(void) { return 0; }
static bool test_fails(void) { return false; }
#endif

void hv_alloc_fault(size_t bytes)
{
	hv_fault_scope *s = t_scope;
	if (!s) return; /* no check to charge: the caller's NULL says it */
	if (!atomic_exchange(&s->failed, true)) atomic_store(&s->bytes, bytes);
}

/* cJSON allocates through hooks: through hv_malloc, a document cJSON could
 * not parse for want of memory is a fault, not a syntax error. (libyaml has
 * no hooks: its YAML_MEMORY_ERROR is turned into hv_alloc_fault where it
 * parses; libcrypto's allocators are set where it is opened, cli/digest.c.)
 * cJSON_InitHooks sets globals: once, before any scope. */
static void *cjson_malloc(size_t n) { return hv_malloc(n); }
static void hook_libraries(void)
{
	cJSON_Hooks h = {cjson_malloc, free};
	cJSON_InitHooks(&h);
}

void hv_fault_scope_enter(hv_fault_scope *s)
{
	static pthread_once_t hooked = PTHREAD_ONCE_INIT;
	pthread_once(&hooked, hook_libraries);
	atomic_init(&s->failed, false);
	atomic_init(&s->bytes, 0);
	s->outer = t_scope;
	t_scope = s;
}

void hv_fault_scope_leave(hv_fault_scope *s)
{
	t_scope = s->outer;
	/* a fault in a unit's scope is also one of the input's */
	if (atomic_load(&s->failed) && s->outer && !atomic_exchange(&s->outer->failed, true))
		atomic_store(&s->outer->bytes, atomic_load(&s->bytes));
}

hv_fault_scope *hv_fault_scope_current(void) { return t_scope; }

hv_fault_scope *hv_fault_scope_adopt(hv_fault_scope *s)
{
	hv_fault_scope *old = t_scope;
	t_scope = s;
	return old;
}

static void *checked(void *p, size_t bytes)
{
	if (!p) hv_alloc_fault(bytes);
	return p;
}

void *hv_malloc(size_t n) { return checked(test_fails() ? NULL : malloc(n), n); }

void *hv_calloc(size_t n, size_t size)
{
	size_t bytes = size && n > SIZE_MAX / size ? SIZE_MAX : n * size;
	return checked(test_fails() ? NULL : calloc(n, size), bytes);
}

void *hv_realloc(void *p, size_t n) { return checked(test_fails() ? NULL : realloc(p, n), n); }

void *hv_grow_zeroed(void *p, size_t old_n, size_t new_n, size_t size)
{
	size_t bytes;
	if (new_n < old_n || __builtin_mul_overflow(new_n, size, &bytes)) {
		hv_alloc_fault(SIZE_MAX);
		return NULL;
	}
	unsigned char *q = hv_realloc(p, bytes);
	if (q) memset(q + old_n * size, 0, (new_n - old_n) * size);
	return q;
}

size_t hv_grow_count(size_t cap, size_t need, size_t size, size_t first, size_t most)
{
	size_t fits = size ? SIZE_MAX / size : SIZE_MAX;
	if (most > fits) most = fits;
	if (need > most) return 0;
	size_t n = cap > most / 2 ? most : cap * 2; /* doubled, saturating */
	if (n < first) n = first;
	if (n < need) n = need;
	return n < most ? n : most;
}

/* The pointer at pp is read and written as bytes: pp may be the address
 * of any object pointer (all have void *'s representation here). */
static bool grow(void *pp, size_t *cap, size_t need, size_t size, size_t first, size_t most, bool zero)
{
	if (need <= *cap) return true;
	size_t n = hv_grow_count(*cap, need, size, first, most);
	if (!n) {
		size_t fits = size ? SIZE_MAX / size : SIZE_MAX;
		if (need > fits) hv_alloc_fault(SIZE_MAX); /* no size_t holds its bytes */
		return false;
	}
	void *p, *q;
	memcpy(&p, pp, sizeof p);
	q = zero ? hv_grow_zeroed(p, *cap, n, size) : hv_realloc(p, n * size);
	if (!q) return false;
	memcpy(pp, &q, sizeof q);
	*cap = n;
	return true;
}

bool hv_grow_array(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
	return grow(pp, cap, need, size, first, SIZE_MAX, false);
}

bool hv_grow_array_upto(void *pp, size_t *cap, size_t need, size_t size, size_t first, size_t most)
{
	return grow(pp, cap, need, size, first, most, false);
}

bool hv_grow_array_zeroed(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
	return grow(pp, cap, need, size, first, SIZE_MAX, true);
}

char *hv_strdup(const char *s) { return checked(test_fails() ? NULL : strdup(s), strlen(s) + 1); }

char *hv_strndup(const char *s, size_t n) { return checked(test_fails() ? NULL : strndup(s, n), n + 1); }

void *hv_aligned_alloc(size_t align, size_t n)
{
	void *p = NULL;
	if (!test_fails() && posix_memalign(&p, align, n) != 0) p = NULL;
	return checked(p, n);
}

void *hv_malloc_optional(size_t n) { return malloc(n); }
void *hv_calloc_optional(size_t n, size_t size) { return calloc(n, size); }
void *hv_realloc_optional(void *p, size_t n) { return realloc(p, n); }
