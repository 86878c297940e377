/// A heap buffer that only grows, for per-worker scratch handed to C.
struct GrowableBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var storage: UnsafeMutableBufferPointer<Element> = .init(start: nil, count: 0)

    /// A buffer of at least `count` elements (contents unspecified).
    mutating func reserve(_ count: Int) -> UnsafeMutableBufferPointer<Element> {
        if storage.count < count {
            storage.deallocate()
            storage = .allocate(capacity: max(count, storage.count * 2, 64))
        }
        return storage
    }

    /// Frees the storage if it holds more than `count` elements.
    mutating func release(over count: Int) {
        guard storage.count > count else { return }
        storage.deallocate()
        storage = .init(start: nil, count: 0)
    }

    deinit { storage.deallocate() }
}
