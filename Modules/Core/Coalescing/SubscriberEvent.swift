/// What a subscriber of a shared piece of work hears: progress, partial results, and
/// exactly one completion, always last.
public enum SubscriberEvent<Partial: Sendable, Success: Sendable, Failure: Error>: Sendable {
    /// Bytes received so far, of how many expected (when the server said).
    case progress(received: Int64, expected: Int64?)
    /// An intermediate result, such as a partial image of a progressive download.
    case partial(Partial)
    /// The end: the result, or why there is none.
    case completed(Result<Success, Failure>)

    /// Whether this is the completion.
    @inlinable
    public var isCompletion: Bool {
        if case .completed = self { return true }
        return false
    }
}
