#ifndef PLUMB_CATOMICS_H
#define PLUMB_CATOMICS_H
#include <stdint.h>

// Relaxed atomic access to plain 64-bit words in raw memory, and ThreadSanitizer
// annotations, for the two places Swift's `Synchronization` module cannot express:
// an atomic view of memory that Swift did not declare `Atomic` (`std::atomic_ref` in C++),
// and telling TSan about a lock it cannot see. Everything is `static inline`: the calls
// compile to plain `mov`s (x86-64) / `ldr`/`str` (AArch64) inside the Swift caller.
// Only `Cache/SeqlockWords.swift` and `Cache/Mutex.swift` use this header.

/// A relaxed atomic load of the aligned word at `p`.
static inline uint64_t plumb_load_relaxed(const uint64_t *p) {
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/// A relaxed atomic store of `v` to the aligned word at `p`.
static inline void plumb_store_relaxed(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

// The ThreadSanitizer runtime's annotation entry points, declared weak: in a build without
// `-sanitize=thread` they are null and the annotations below are one predictable branch.
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

/// Tells ThreadSanitizer (when linked) that the lock at `addr` was just acquired.
static inline void plumb_tsan_acquire(void *addr) {
    if (__tsan_acquire) __tsan_acquire(addr);
}

/// Tells ThreadSanitizer (when linked) that the lock at `addr` is about to be released.
static inline void plumb_tsan_release(void *addr) {
    if (__tsan_release) __tsan_release(addr);
}

#endif
