#include "allocator.h"
#include <stdlib.h>  // defines __GLIBC__ when the C library is glibc

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define WTV_SANITIZER_ALLOCATOR 1
#endif
#endif

#if defined(WTV_SANITIZER_ALLOCATOR)
#include <sanitizer/allocator_interface.h>
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

long long
wtv_heap_in_use(void)
{
#if defined(WTV_SANITIZER_ALLOCATOR)
  return (long long)__sanitizer_get_current_allocated_bytes();
#elif defined(__GLIBC__)
  struct mallinfo2 info = mallinfo2();
  return (long long)(info.uordblks + info.hblkhd);
#else
  return -1;
#endif
}

int
wtv_release_free_heap(void)
{
#if defined(WTV_SANITIZER_ALLOCATOR) || !defined(__GLIBC__)
  return -1;
#else
  return malloc_trim(0);
#endif
}
