import WebImageCore

extension AsyncStream {
    /// One subscription's events as a sequence that ends after the completion.
    ///
    /// `subscribe` starts the subscription with the handler it is given and returns what
    /// cancels it. Cancelling the iterating task, or dropping the sequence before its
    /// end, cancels the subscription. A consumer that falls behind gets the newest
    /// progress, the newest partial result and the completion, in the order they came:
    /// only what a newer event of the same kind replaced is skipped, and never the
    /// completion.
    public static func subscription<Partial, Success, Failure>(
        _ subscribe: (@escaping @Sendable (Element) -> Void) -> any Cancellable
    ) -> AsyncStream<Element> where Element == SubscriberEvent<Partial, Success, Failure> {
        let buffer = NewestEventBuffer<Partial, Success, Failure>()
        let subscription = subscribe { [weak buffer] event in buffer?.push(event) }
        buffer.attach(subscription)
        return AsyncStream(unfolding: { await buffer.next() }, onCancel: { [weak buffer] in buffer?.cancel() })
    }
}
