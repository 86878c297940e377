import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Processor count without Foundation.
enum ProcessInfoLite {
    /// The processors online (at least 1).
    static var activeProcessorCount: Int {
        #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 1
        #endif
    }
}

/// A monotonic clock without Foundation.
enum DispatchTimeLite {
    /// Nanoseconds since boot (monotonic).
    static var nowNanoseconds: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
