#ifndef WEBTABLEVIEW_PREFETCH_H
#define WEBTABLEVIEW_PREFETCH_H

/// Asks for the cache line at `address` to be brought in, for writing, without
/// waiting for it: a hint, never a fault (any address will do). Swift has no
/// prefetch of its own; a view's opening asks for the rows it is about to copy
/// (docs/perf-history/live-views-and-search.md).
static inline void wtv_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
