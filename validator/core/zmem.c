#include "zmem.h"

#include <stdint.h>
#include <stdlib.h>
/* WebAssembly has no mmap (wasi-libc only emulates it over malloc, where
 * unmapping part of a mapping would free what it must not): calloc there. */
#ifndef __wasi__
#include <sys/mman.h>
#endif

#include "alloc.h"

#define HUGE_2M ((size_t)2 << 20)
#define BIG (4u << 20)

#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS) && !defined(__wasi__)
static size_t huge_len(size_t len) { return (len + HUGE_2M - 1) / HUGE_2M * HUGE_2M; }
#endif

void *hv_zalloc_big(size_t len)
{
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS) && !defined(__wasi__)
	if (len >= BIG && len <= SIZE_MAX - 2 * HUGE_2M) {
		/* whole 2 MiB pages: an unaligned head or a partial tail would
		 * have 4 KiB pages */
		size_t maplen = huge_len(len);
		uint8_t *p = mmap(NULL, maplen + HUGE_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			hv_alloc_fault(maplen + HUGE_2M);
			return NULL;
		}
		size_t head = (HUGE_2M - (uintptr_t)p % HUGE_2M) % HUGE_2M;
		if (head) munmap(p, head);
		munmap(p + head + maplen, HUGE_2M - head);
		madvise(p + head, maplen, MADV_HUGEPAGE); /* fine when refused */
		return p + head;
	}
#endif
	return hv_calloc(1, len ? len : 1);
}

void hv_zfree_big(void *p, size_t len)
{
	if (!p) return;
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS) && !defined(__wasi__)
	if (len >= BIG && len <= SIZE_MAX - 2 * HUGE_2M) {
		munmap(p, huge_len(len));
		return;
	}
#endif
	(void)len;
	free(p);
}
