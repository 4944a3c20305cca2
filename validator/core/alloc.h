/* Allocation for checks: a check that cannot get the memory it needs has
 * not been made, so the input it belongs to gets no verdict.
 *
 * Every allocation in validator/ goes through these functions (tests/
 * torture.test.sh and `make torture` fail each in turn). A failure returns
 * NULL as malloc does -- the caller still cleans up and stops -- and also
 * records a fault in the fault scope the calling thread works for: the
 * input being checked (hv_validate_blob and hv_validate_set open one) or the
 * unit of it. The first fault (how many bytes were wanted) is kept; when
 * the check ends the input's report becomes an internal error (exit 4)
 * naming it, whatever the check made of the NULL, so a check that survives
 * an allocation failure by skipping work can never turn into a verdict.
 *
 * hv_for_each carries the caller's scope to the tasks it runs on other
 * threads, so a fault in a worker is charged to the input it works for.
 *
 * Only where the caller has a fallback that checks the same rules with the
 * same result (a faster table it can do without) does it allocate with
 * hv_malloc_optional / hv_calloc_optional, which record nothing; the
 * torture test is what shows the fallback is the same. */
#ifndef HV_ALLOC_H
#define HV_ALLOC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

void *hv_malloc(size_t n);
void *hv_calloc(size_t n, size_t size);
void *hv_realloc(void *p, size_t n);
char *hv_strdup(const char *s);
char *hv_strndup(const char *s, size_t n);
void *hv_aligned_alloc(size_t align, size_t n);
void *hv_malloc_optional(size_t n);
void *hv_calloc_optional(size_t n, size_t size);
void *hv_realloc_optional(void *p, size_t n);
/* Array `p` of `old_n` elements of `size` bytes grown to `new_n` (>= old_n),
 * the new elements zeroed: hv_realloc's, with the size's overflow checked.
 * NULL on failure (recorded as hv_realloc's), `p` then unchanged. */
void *hv_grow_zeroed(void *p, size_t old_n, size_t new_n, size_t size);

/* Growing arrays. An array of elements of `size` bytes at *pp (pp: the
 * address of the pointer, of any element type) has room for *cap of them;
 * hv_grow_array gives it room for at least `need`: *cap doubled, at least
 * `first` (the first capacity), at least `need`, and at most the largest
 * count whose byte size fits in a size_t (the doubling saturates there).
 * A `need` beyond that fails as an allocation of SIZE_MAX bytes; a failed
 * hv_realloc fails as hv_realloc does (both recorded in the fault scope).
 * On failure false, *pp and *cap unchanged. need <= *cap: true, nothing done
 * (HV_GROW tests that before the call, inline).
 * The _upto form grows to at most `most` elements: a cap the caller sets
 * (a table's limit), where `need` above `most` is false with nothing
 * recorded -- the caller says what the limit means. The _zeroed forms zero
 * the elements beyond the old *cap. */
bool hv_grow_array(void *pp, size_t *cap, size_t need, size_t size, size_t first);
bool hv_grow_array_upto(void *pp, size_t *cap, size_t need, size_t size, size_t first, size_t most);
bool hv_grow_array_zeroed(void *pp, size_t *cap, size_t need, size_t size, size_t first);
/* The capacity hv_grow_array_upto gives an array of `cap` elements asked
 * for `need` (> cap), or 0 when none fits (`need` above `most` or above
 * SIZE_MAX / size). */
size_t hv_grow_count(size_t cap, size_t need, size_t size, size_t first, size_t most);

/* The typed forms: `arr` a pointer lvalue, `cap` a size_t lvalue (a
 * narrower capacity does not compile: a uint32_t one wraps at 2^32). */
#define HV_GROW(arr, cap, need, first) \
	((size_t)(need) <= (cap) || hv_grow_array(&(arr), &(cap), (need), sizeof *(arr), (first)))
#define HV_GROW_UPTO(arr, cap, need, first, most) \
	((size_t)(need) <= (cap) || hv_grow_array_upto(&(arr), &(cap), (need), sizeof *(arr), (first), (most)))
#define HV_GROW_ZEROED(arr, cap, need, first) \
	((size_t)(need) <= (cap) || hv_grow_array_zeroed(&(arr), &(cap), (need), sizeof *(arr), (first)))

/* An allocation made some other way (mmap, a library's own allocator)
 * failed: recorded as hv_malloc's failures are. */
void hv_alloc_fault(size_t bytes);

/* Where faults are recorded: one per input being checked (and one per unit
 * checked on another process). Scopes nest; a fault is recorded in the
 * innermost scope of the calling thread (none: only the NULL tells; the
 * command line opens a scope around writing its reports too). */
typedef struct hv_fault_scope {
	atomic_bool failed;
	atomic_size_t bytes; /* of the first failure */
	struct hv_fault_scope *outer;
} hv_fault_scope;

void hv_fault_scope_enter(hv_fault_scope *s);
void hv_fault_scope_leave(hv_fault_scope *s);
hv_fault_scope *hv_fault_scope_current(void);
/* On the calling thread, make `s` the current scope (a task run for another
 * thread's scope); returns the scope it replaces, to restore. */
hv_fault_scope *hv_fault_scope_adopt(hv_fault_scope *s);

/* Test builds only (HV_ALLOC_TEST_HOOK, set in the sanitizer build, and
 * the fuzzing builds' FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION): make the
 * k-th hv_ allocation from now on fail (0: none), and the
 * count of hv_ allocations so far. The sanitizer's allocator cannot be
 * interposed with LD_PRELOAD; this hook can fail allocations there, where a
 * leak on the fault path is reported. Release builds ignore it. */
void hv_alloc_test_fail_at(unsigned long long k);
unsigned long long hv_alloc_test_count(void);

#endif
