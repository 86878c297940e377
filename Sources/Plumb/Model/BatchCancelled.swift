/// Thrown when a batch was cancelled through its `BatchProgress`.
public struct BatchCancelled: Error, Sendable {
    /// The error a cancelled batch throws.
    public init() {}
}
