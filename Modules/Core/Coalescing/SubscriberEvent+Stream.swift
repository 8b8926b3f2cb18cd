extension AsyncStream {
    /// One subscription's events as a sequence that ends after the completion.
    ///
    /// `subscribe` starts the subscription with the handler it is given and returns what
    /// cancels it; ending the iteration early (or cancelling the iterating task) cancels
    /// it. A consumer that falls behind keeps the newest two events: it may miss progress
    /// and partial results, never the completion, which comes last.
    public static func subscription<Partial, Success, Failure>(
        _ subscribe: (@escaping @Sendable (Element) -> Void) -> any Cancellable
    ) -> AsyncStream<Element> where Element == SubscriberEvent<Partial, Success, Failure> {
        let (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(2))
        let subscription = subscribe { event in
            continuation.yield(event)
            if event.isCompletion { continuation.finish() }
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}
