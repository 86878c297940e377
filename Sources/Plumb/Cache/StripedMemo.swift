import Synchronization

/// The last value made for a key on each of a few stripes (a thread always uses the same
/// stripe), for keys that are cheap to compare but dear to hash: a hit costs one `==` and a
/// copy under a lock no other thread usually takes.
///
/// `TextMeasurer.resolve(_: TextStyle)` keeps its last resolved styles here, so the single-cell
/// calls given a `TextStyle` (one per row, as a table's height callback makes them) do not
/// fingerprint and re-resolve the whole style every time.
///
/// Invalidation is by epoch: ``invalidate()`` bumps it and empties every stripe; a value is
/// stored with the epoch read *before* it was made, so a value made concurrently with an
/// invalidation is never served after it.
///
/// - Complexity: O(1) per look-up plus the key's `==`; memory: at most `stripeCount` keys and
///   values.
/// - Thread safety: safe from any thread, concurrently.
final class StripedMemo<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let key: Key
        let value: Value
        let epoch: UInt64
    }

    /// One stripe's entry (a class, so an array can hold the non-copyable lock).
    private final class Stripe: Sendable {
        let entry = Lock<Entry?>(nil)
    }

    static var stripeCount: Int { 16 }

    private let stripes: [Stripe]
    private let epoch = Atomic<UInt64>(0)

    init() {
        stripes = (0..<Self.stripeCount).map { _ in Stripe() }
    }

    /// The value for `key`: this thread's stripe's if it holds `key` from the current epoch,
    /// else `make(key)`, which the stripe then keeps.
    func value(for key: Key, make: (Key) -> Value) -> Value {
        let stripe = stripes[ThreadStripe.index(of: Self.stripeCount)]
        let now = epoch.load(ordering: .acquiring)
        let hit = stripe.entry.withLock { entry -> Value? in
            guard let entry, entry.epoch == now, entry.key == key else { return nil }
            return entry.value
        }
        if let hit { return hit }
        let made = make(key)
        stripe.entry.withLock { $0 = Entry(key: key, value: made, epoch: now) }
        return made
    }

    /// Forgets every value: later look-ups make them again (values made before this call
    /// are never returned after it).
    func invalidate() {
        epoch.wrappingAdd(1, ordering: .releasing)
        for stripe in stripes { stripe.entry.withLock { $0 = nil } }
    }
}
