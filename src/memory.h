/* SPDX-License-Identifier: MIT */
/* Internal: large buffers on 2 MB pages where the system allows it (Linux transparent huge
 * pages, in "always" or "madvise" mode). A buffer of megabytes on 4 KB pages takes a page
 * fault per 4 KB the first time it is written, and its scattered reads and write streams miss
 * the first-level TLB; on 2 MB pages both are 512 times rarer. A buffer of 1 MB or more is
 * advised by whole 2 MB pages, its last one included when at least half of it is used or the
 * buffer is 16 MB or more (so a buffer is over-allocated by at most 1 MB, or an eighth of
 * it); smaller buffers are left as they are. */
#ifndef HITSCAN_MEMORY_H
#define HITSCAN_MEMORY_H

#include <stddef.h>

/* bytes rounded up to whole 64-byte lines (bytes <= SIZE_MAX - 63). */
static inline size_t hs_lines_bytes(size_t bytes) { return (bytes + 63) & ~(size_t)63; }

/* bytes (at least one line), 64-byte aligned, released with free(); 2 MB aligned and advised from
 * 1 MB up (as above). NULL on failure. */
void *hs_alloc_lines(size_t bytes);

/* 1 where memory from hs_alloc_lines is committed only when written, by 2 MB pages where the
 * system grants them (Linux), so a large block of address space costs only what is used. */
int hs_alloc_is_lazy(void);

/* Advises the whole 2 MB pages inside [p, p + bytes) (a buffer from malloc or realloc, whose
 * alignment the caller does not choose). Nothing happens where the system has no such advice. */
void hs_advise_huge(void *p, size_t bytes);

#endif
