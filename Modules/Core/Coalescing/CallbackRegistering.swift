/// Subscribers per resource key: the piece of SDWebImage's downloader that lets many
/// requests for one resource share one transfer (request coalescing).
///
/// The owner of the work (a downloader) adds a subscriber for each request. The first
/// subscriber of a key starts the work; later ones join it. The owner publishes progress
/// and partial results to the key, and finishes it once; every subscriber gets exactly one
/// completion, also when its removal races the finish. Removing a subscriber completes it
/// with the failure the remover gives (a cancellation) and, when it was the key's last,
/// calls the handler the first subscriber registered so the owner can stop the work.
///
/// Implementations are safe from any thread and never run subscriber code while holding
/// a lock, so a callback may add or remove subscribers.
public protocol CallbackRegistering<Key, Partial, Success, Failure>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Partial: Sendable
    associatedtype Success: Sendable
    associatedtype Failure: Error

    /// The events one subscriber receives.
    typealias Event = SubscriberEvent<Partial, Success, Failure>

    /// Adds a subscriber to `key`, keeping with the key's run the work its first
    /// subscriber makes.
    ///
    /// - Parameters:
    ///   - key: what the subscriber waits for.
    ///   - delivery: where `handler` runs.
    ///   - makeRun: called for the key's first subscriber only (the one that gets
    ///     ``Subscription/isFirst``), while the registry holds its lock, so it must only
    ///     make an object, never call the registry. What it makes is kept with the run
    ///     until the run ends: every later subscriber gets it in ``Subscription/run``,
    ///     and ``run(for:)`` and ``runs`` answer it. So the owner of the work needs no
    ///     table of its own from key to work. `nil` keeps nothing.
    ///   - whenAbandoned: kept only from the key's first subscriber: called once, on the
    ///     removing thread, with the run's work, when every subscriber has been removed
    ///     before the key finished. Not called after ``finish(_:with:)``.
    ///   - handler: receives the events, in order, ending with exactly one completion.
    @discardableResult
    func add(
        to key: Key,
        delivery: CallbackDelivery,
        makeRun: () -> (any AnyObject & Sendable)?,
        whenAbandoned: @escaping @Sendable (_ run: (any AnyObject & Sendable)?) -> Void,
        handler: @escaping @Sendable (Event) -> Void
    ) -> Subscription

    /// Removes one subscriber and completes it with `failure`.
    ///
    /// - Returns: `false` when the subscriber was already gone (removed before, or its key
    ///   finished first: then it gets that result instead, never both).
    @discardableResult
    func remove(_ token: SubscriptionToken, failure: Failure) -> Bool

    /// Sends progress to every subscriber of `key`'s run `generation` (its current run
    /// when `nil`). A subscriber that is behind gets only the latest progress, never a
    /// backlog.
    func publishProgress(received: Int64, expected: Int64?, for key: Key, generation: UInt64?)

    /// Sends an intermediate result to every subscriber of `key`'s run `generation` (latest
    /// wins for a subscriber that is behind, as for progress).
    func publishPartial(_ partial: Partial, for key: Key, generation: UInt64?)

    /// Completes every subscriber of `key`'s run `generation` (its current run when `nil`)
    /// with `result` and forgets the key, so the next subscriber starts new work. Nothing
    /// happens when that run has ended: finished, or left by every subscriber.
    ///
    /// - Returns: how many subscribers were completed.
    @discardableResult
    func finish(_ key: Key, generation: UInt64?, with result: Result<Success, Failure>) -> Int

    /// The work kept with `key`'s run under way (what its first subscriber's `makeRun`
    /// made), if any.
    func run(for key: Key) -> (any AnyObject & Sendable)?

    /// The work kept with every run under way.
    var runs: [any AnyObject & Sendable] { get }

    /// How many subscribers `key` has now.
    func subscriberCount(for key: Key) -> Int

    /// How many keys have subscribers now.
    var keyCount: Int { get }
}

extension CallbackRegistering {
    /// Adds a subscriber to `key`, keeping no work with its run.
    ///
    /// - Parameters:
    ///   - key: what the subscriber waits for.
    ///   - delivery: where `handler` runs.
    ///   - whenAbandoned: kept only from the key's first subscriber (the one that gets
    ///     ``Subscription/isFirst``): called once, on the removing thread, when every
    ///     subscriber has been removed before the key finished. Not called after
    ///     ``finish(_:with:)``.
    ///   - handler: receives the events, in order, ending with exactly one completion.
    @discardableResult
    public func add(
        to key: Key,
        delivery: CallbackDelivery,
        whenAbandoned: @escaping @Sendable () -> Void,
        handler: @escaping @Sendable (Event) -> Void
    ) -> Subscription {
        add(to: key, delivery: delivery, makeRun: { nil }, whenAbandoned: { _ in whenAbandoned() }, handler: handler)
    }

    /// Progress to the key's current run.
    public func publishProgress(received: Int64, expected: Int64?, for key: Key) {
        publishProgress(received: received, expected: expected, for: key, generation: nil)
    }

    /// An intermediate result to the key's current run.
    public func publishPartial(_ partial: Partial, for key: Key) {
        publishPartial(partial, for: key, generation: nil)
    }

    /// Completes the key's current run.
    @discardableResult
    public func finish(_ key: Key, with result: Result<Success, Failure>) -> Int {
        finish(key, generation: nil, with: result)
    }
}
