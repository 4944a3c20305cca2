/* Zeroed memory for large tables written at random or in full: from
 * 4 MiB on it is mapped on its own, 2 MiB aligned, with huge pages asked
 * for where the system offers them (advice only). With 4 KiB pages such a
 * table costs one page fault per 4 KiB at first touch, ~15 us each on a
 * VM; with 2 MiB pages, one per 2 MiB. Smaller sizes: calloc. */
#ifndef HV_CORE_ZMEM_H
#define HV_CORE_ZMEM_H

#include <stddef.h>

void *hv_zalloc_big(size_t len);
/* `len` as given to hv_zalloc_big; p may be NULL. */
void hv_zfree_big(void *p, size_t len);

#endif
