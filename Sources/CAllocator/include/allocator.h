#ifndef WEBTABLEVIEW_CALLOCATOR_H
#define WEBTABLEVIEW_CALLOCATOR_H

/// The one way this package reaches the allocator behind `malloc`: glibc's, or
/// a sanitizer's when the build links one in (it replaces `malloc`). glibc's
/// `<malloc.h>` (mallinfo2, malloc_trim) is not part of Swift's Glibc module.

/// Bytes the allocator has handed out and not had back (glibc's `mallinfo2`:
/// small blocks plus mapped ones); -1 when neither allocator is there to ask.
long long wtv_heap_in_use(void);

/// Hands glibc's free heap pages back to the system (`malloc_trim(0)`): 1 when
/// memory was released, 0 when there was none to release, -1 when `malloc` is
/// not glibc's (a sanitizer's allocator keeps its own free memory).
int wtv_release_free_heap(void);

#endif
