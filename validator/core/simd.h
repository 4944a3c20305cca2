/* Which vector width the checking core may use on this processor. Code
 * with a wide path keeps a narrow one that gives the same results, chosen
 * at run time: the wide path only where the processor has it and it was
 * not switched off (tests compare the two; HPCVET_NO_AVX512 in the CLI). */
#ifndef HV_CORE_SIMD_H
#define HV_CORE_SIMD_H
#include <stdbool.h>

/* AVX-512 F, DQ, BW and VL (x86-64-v4) at hand and allowed: code behind it
 * may use any of the four (target("avx512f,avx512dq,avx512bw,avx512vl")). */
bool hv_simd_avx512(void);
/* false: every check takes its narrow path from now on. */
void hv_simd_allow_avx512(bool allow);

#endif
