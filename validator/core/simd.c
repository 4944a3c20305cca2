#include "simd.h"

#include <stdatomic.h>

static _Atomic bool g_allow_avx512 = true;

void hv_simd_allow_avx512(bool allow) { g_allow_avx512 = allow; }

bool hv_simd_avx512(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* x86-64-v4's set: every AVX-512 processor since Skylake-SP has all four */
	return g_allow_avx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
	       __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
#else
	return false;
#endif
}
