#if canImport(Glibc)
import Glibc
#endif

/// Threads of the engine's own, outside Dispatch's pools.
///
/// On Linux, Swift concurrency's global executor and its timers (`Task.sleep`) run on
/// Dispatch's root queues, which start at most one thread per core. A batch that held those
/// threads (a `queue.async` and `concurrentPerform`) would stall every other task, the main
/// actor's timers included, until it finished; an `async` batch runs on threads of its own
/// instead, and the kernel shares the cores between them and the rest of the process.
enum OwnThreads {
    /// The closure a started thread runs, kept alive across `pthread_create`.
    private final class Entry {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// A started thread, to `join`.
    struct Handle {
        fileprivate let thread: pthread_t
    }

    /// Starts a thread running `body`; `nil` if the system has no thread to give (the caller
    /// then runs the work elsewhere). A handle must be joined exactly once.
    static func start(_ body: @escaping @Sendable () -> Void) -> Handle? {
        let entry = Unmanaged.passRetained(Entry(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Entry>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, entry)
        guard status == 0 else {
            Unmanaged<Entry>.fromOpaque(entry).release()
            return nil
        }
        return Handle(thread: thread)
    }

    /// Waits for a started thread to finish (the thread's writes are then visible).
    static func join(_ handle: Handle) {
        pthread_join(handle.thread, nil)
    }

    /// Starts a thread running `body` that nobody joins: it ends when `body` returns.
    /// Returns false if the system has no thread to give.
    static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let handle = start(body) else { return false }
        pthread_detach(handle.thread)
        return true
    }
}
