// Makes Swift's Synchronization.Mutex visible to ThreadSanitizer on Linux.
//
// Mutex inlines its uncontended lock and unlock, atomic operations that TSan
// sees. Under contention it calls _lockSlow / _unlockSlow in the (not
// instrumented) Synchronization library, which spin and hand the lock over
// through priority-inheritance futexes: TSan sees no synchronisation there and
// reports every contended lock as a data race. Preloaded into a TSan test
// process (scripts/test-sanitizers.sh thread), this wraps those three
// functions and tells TSan that unlocking releases, and locking acquires, the
// lock word, the address the inlined atomics synchronise on.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

// Weak: any other process that inherits LD_PRELOAD (swift-build, say) has no
// TSan runtime, and there the wrappers only pass the calls on.
__attribute__((weak)) void __tsan_acquire(void *address);
__attribute__((weak)) void __tsan_release(void *address);

// Swift passes `self` (here the address of the Mutex's lock word) in the
// swiftself register, which clang's swift_context parameter names.
#define SWIFT __attribute__((swiftcall))
#define SELF __attribute__((swift_context)) void *
#define LOCK "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

static void *real(const char *name) { return dlsym(RTLD_NEXT, name); }

SWIFT void lockSlow(uint32_t owner, SELF handle) __asm__(LOCK);
SWIFT void lockSlow(uint32_t owner, SELF handle) {
    static SWIFT void (*next)(uint32_t, SELF);
    if (!next) next = real(LOCK);
    next(owner, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFT bool tryLockSlow(SELF handle) __asm__(TRY_LOCK);
SWIFT bool tryLockSlow(SELF handle) {
    static SWIFT bool (*next)(SELF);
    if (!next) next = real(TRY_LOCK);
    bool locked = next(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

SWIFT void unlockSlow(SELF handle) __asm__(UNLOCK);
SWIFT void unlockSlow(SELF handle) {
    static SWIFT void (*next)(SELF);
    if (!next) next = real(UNLOCK);
    if (__tsan_release) __tsan_release(handle);
    next(handle);
}
