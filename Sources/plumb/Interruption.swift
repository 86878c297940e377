import Glibc
import Synchronization

/// What `plumb` does on SIGINT, SIGTERM and SIGPIPE.
///
/// - SIGINT / SIGTERM: the output written so far is kept and ends with a whole line — a batch
///   being written is finished first, a batch being measured is dropped — then the process
///   exits with 128 + the signal (130, 143), as a shell reports a process killed by it. A second
///   signal while the last write is still blocked (a reader that stopped reading) ends the
///   process at once. A signal that was ignored when `plumb` started (`nohup`, a background
///   job of a non-interactive shell) stays ignored.
/// - SIGPIPE: the default action, always (even if the parent ignored it): `plumb measure … |
///   head -1` ends silently by SIGPIPE once the reader is gone (a shell reports 141).
///
/// The signals are blocked in every thread and taken by one thread with `sigwait(2)`, so no
/// code runs in a signal handler; the lock is held by the main thread while it writes a batch.
enum Interruption {
    private static let outputLock = Mutex<Void>(())
    private static let handled: [Int32] = [SIGINT, SIGTERM]

    /// Installs the behaviour above. Call it first thing, before any thread exists (threads
    /// inherit the signal mask).
    static func install() {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = nil  // SIG_DFL
        sigaction(SIGPIPE, &defaultAction, nil)
        var set = sigset_t()
        sigemptyset(&set)
        var any = false
        for s in handled where !isIgnored(s) {
            sigaddset(&set, s)
            any = true
        }
        guard any else { return }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { _ in Interruption.waitAndExit() }, nil)
    }

    /// Runs `write` so that an interrupt cannot end the process in the middle of it.
    static func whileWritingOutput(_ write: () -> Void) {
        outputLock.withLock { _ in write() }
    }

    /// The signal thread: waits for a handled signal, lets a second one kill the process,
    /// waits for the current batch's write, exits.
    private static func waitAndExit() -> Never {
        var set = sigset_t()
        sigemptyset(&set)
        for s in handled where !isIgnored(s) { sigaddset(&set, s) }
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        // A second signal: default action (termination), delivered to this thread.
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = nil
        for s in handled where !isIgnored(s) { sigaction(s, &defaultAction, nil) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        outputLock.withLock { _ in _exit(128 + received) }
    }

    /// Whether `signal`'s action is SIG_IGN (the handler pointer value 1).
    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1
    }
}
