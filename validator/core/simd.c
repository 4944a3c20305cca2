#include "simd.h"

#include <stdatomic.h>

static _Atomic bool g_allow_avx512 = true;

void hv_simd_allow_avx512(bool allow) { g_allow_avx512 = allow; }

bool hv_simd_avx512(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return g_allow_avx512 && __builtin_cpu_supports("avx512f");
#else
	return false;
#endif
}
