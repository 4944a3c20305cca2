/* memcpy, memmove and memset of the wasm build as WebAssembly's bulk-memory
 * instructions (memory.copy, memory.fill: every browser since 2021), in
 * place of wasi-libc's, which are C loops (Debian's wasi-libc is built
 * without bulk memory). The engine runs these as its own native memmove
 * and memset. They matter where the module moves or clears many bytes at
 * once: calloc clears every block it gives (the module's memory has no
 * fresh zero pages to hand out, as mmap gives the CLI), the value tables
 * of a database are megabytes.
 *
 * Only this file is compiled with -mbulk-memory (web/web.mk): with it on,
 * clang-14 keeps wasi-libc's thread-local errno as thread-local storage,
 * which wasm-ld accepts only with atomics. With it on, the compiler turns
 * each __builtin_mem* below into the one instruction, never a call back to
 * the function itself; the #error keeps it so. */
#include <stddef.h>
#include <string.h>

#ifndef __wasm_bulk_memory__
#error "web/wasm/mem.c is compiled with -mbulk-memory (web/web.mk)"
#endif

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return __builtin_memcpy(dst, src, n);
}

void *memmove(void *dst, const void *src, size_t n)
{
	return __builtin_memmove(dst, src, n);
}

void *memset(void *dst, int c, size_t n)
{
	return __builtin_memset(dst, c, n);
}
