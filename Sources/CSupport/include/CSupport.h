#ifndef PLUMB_CSUPPORT_H
#define PLUMB_CSUPPORT_H
#include <stddef.h>
#include <stdint.h>
#include <malloc.h>

// The few things Swift cannot express, as `static inline` C (compiled into the Swift caller):
// an atomic view of memory that Swift did not declare `Atomic` (`std::atomic_ref` in C++;
// relaxed loads and stores compile to plain `mov`s on x86-64, `ldr`/`str` on AArch64),
// telling ThreadSanitizer about a lock it cannot see, glibc's allocator statistics, and a
// cache prefetch hint. Users: `Cache/SeqlockSlots.swift`, `Support/Mutex.swift`,
// `Cache/HeapCost.swift`, `Support/Prefetch.swift`.

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

/// Bytes the process holds from malloc now: small chunks in use plus mmapped chunks
/// (`mallinfo2`, glibc ≥ 2.33). For memory tests and diagnostics.
static inline size_t plumb_heap_bytes_in_use(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/// Gives free heap pages back to the kernel (`malloc_trim(0)`), so that memory reused next
/// shows as resident growth. For memory tests.
static inline void plumb_heap_trim(void) { malloc_trim(0); }

/// Makes malloc give each arena `bytes` of extra reach when it grows (`M_TOP_PAD`): a thread's
/// arena then becomes usable in one `mprotect` instead of one per 4 KiB, and with several
/// threads each of those flushes the other cores' TLBs. Address space only: untouched pages
/// stay unbacked. Process-wide, so for programs (the `plumb` command), not for the library.
/// Returns whether malloc took it.
static inline int plumb_heap_reserve_growth(size_t bytes) { return mallopt(M_TOP_PAD, (int)bytes); }

/// Asks the CPU to bring the cache line at `p` in for reading and writing soon
/// (`__builtin_prefetch(p, 1)`; a hint: never faults, even on a bad address, and changes no
/// result).
static inline void plumb_prefetch_for_write(const void *p) { __builtin_prefetch(p, 1); }

#endif
