import Foundation

/// Where a subscriber's callbacks run (AFNetworking's completion queue idea).
///
/// Whatever the choice, the thread that produced an event only hands it over: it never
/// waits for a subscriber's code. Events reach one subscriber in order, one at a time,
/// and nothing follows its completion.
public enum CallbackDelivery: Sendable {
    /// On the thread that produced the event (or the one that cancelled), as soon as the
    /// subscriber's previous callback has returned. The cheapest choice, for callbacks
    /// that only hand the value on (resume a continuation, yield to a stream, post to a
    /// queue); a slow callback here holds up the producer.
    case immediate
    /// Asynchronously on `queue`. Give a serial queue (a concurrent one still gets the
    /// events in order, because the next is submitted only after the last returned).
    case queue(DispatchQueue)
    /// On the main actor, for main-actor state. Needs something to run the main actor: an
    /// app's main loop, or an `async` main (`@main` with `static func main() async`).
    case mainActor

    /// Runs `work` where this delivery says.
    @inlinable
    public func run(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .immediate: work()
        case .queue(let queue): queue.async(execute: work)
        case .mainActor: Task { @MainActor in work() }
        }
    }
}
