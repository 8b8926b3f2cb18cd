import Synchronization
import WebImageConcurrency
import WebImageCore

/// Subscribers per resource key, with fan-out of progress, partial results and exactly
/// one completion each: the default `CallbackRegistering`.
///
/// One lock guards the bookkeeping (which subscribers a key has); it is never held while
/// a subscriber's code runs, so handlers may add or remove subscribers freely. Each
/// subscriber has its own mailbox, so a slow subscriber on a queue never holds up the
/// producer or the other subscribers.
///
/// The hot paths are prespecialized for the downloader's types (`DownloadKey`,
/// `ReceivedBody`, `DownloadResult`, `DownloadError`): the downloader reaches the registry
/// through an existential, where the compiler cannot specialize, and unspecialized
/// generic code spends most of its time looking up type metadata.
///
/// ```swift
/// let registry = CallbackRegistry<URL, Never, Data, MyError>()
/// let subscription = registry.add(to: url, delivery: .queue(.main), whenAbandoned: { task.cancel() }) { event in
///     if case .completed(let result) = event { print(result) }
/// }
/// if subscription.isFirst { /* start the work for url */ }
/// ```
public final class CallbackRegistry<Key: Hashable & Sendable, Partial: Sendable, Success: Sendable, Failure: Error>:
    CallbackRegistering, Sendable
{
    public typealias Event = SubscriberEvent<Partial, Success, Failure>
    private typealias Mailbox = SubscriberMailbox<Partial, Success, Failure>

    private struct Entry {
        var subscribers: [UInt64: Mailbox]
        let whenAbandoned: @Sendable ((any AnyObject & Sendable)?) -> Void
        /// The work the first subscriber made, kept with its run.
        let run: (any AnyObject & Sendable)?
        /// The run's number: the id of its first subscriber, so unique for the registry's life.
        let generation: UInt64

        func isRun(_ generation: UInt64?) -> Bool { generation.map { $0 == self.generation } ?? true }

        /// Adds subscriber `id` to this run, in place: one access to the table's entry, where
        /// reading each field apart would copy the entry (and retain what it holds) each time.
        mutating func join(_ id: UInt64, _ mailbox: Mailbox) -> Subscription {
            subscribers[id] = mailbox
            return Subscription(token: SubscriptionToken(id: id, run: generation), isFirst: false, generation: generation, run: run)
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The key of each run in `entries`, by its generation (the token's `run`): one
        /// entry per run, so a subscriber costs no table entry of its own.
        var keyOfRun: [UInt64: Key] = [:]
        var nextID: UInt64 = 1
        var subscriberCount = 0
    }

    private let state = Locked(State())

    public init() {}

    @_specialize(where Key == DownloadKey, Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    @discardableResult
    public func add(
        to key: Key,
        delivery: CallbackDelivery,
        makeRun: () -> (any AnyObject & Sendable)?,
        whenAbandoned: @escaping @Sendable ((any AnyObject & Sendable)?) -> Void,
        handler: @escaping @Sendable (Event) -> Void
    ) -> Subscription {
        let mailbox = Mailbox(delivery: delivery, handler: handler)
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscriberCount += 1
            // One hash of the key, however long it is to hash (a DownloadKey holds the URL
            // and every header).
            if let index = state.entries.index(forKey: key) {
                return state.entries.values[index].join(id, mailbox)
            }
            // Made under the lock, so a subscriber that joins next finds the work.
            let run = makeRun()
            state.entries[key] = Entry(subscribers: [id: mailbox], whenAbandoned: whenAbandoned, run: run, generation: id)
            state.keyOfRun[id] = key
            return Subscription(token: SubscriptionToken(id: id, run: id), isFirst: true, generation: id, run: run)
        }
    }

    @_specialize(where Key == DownloadKey, Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    @discardableResult
    public func remove(_ token: SubscriptionToken, failure: Failure) -> Bool {
        let removed = state.withLock { state -> (Mailbox, Entry?)? in
            guard let key = state.keyOfRun[token.run], let index = state.entries.index(forKey: key),
                state.entries.values[index].generation == token.run,
                let mailbox = state.entries.values[index].subscribers.removeValue(forKey: token.id)
            else { return nil }
            state.subscriberCount -= 1
            guard state.entries.values[index].subscribers.isEmpty else { return (mailbox, nil) }
            state.keyOfRun[token.run] = nil
            return (mailbox, state.entries.remove(at: index).value)
        }
        guard let (mailbox, abandoned) = removed else { return false }
        mailbox.post(.completed(.failure(failure)))
        if let abandoned { abandoned.whenAbandoned(abandoned.run) }
        return true
    }

    @_specialize(where Key == DownloadKey, Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    public func publishProgress(received: Int64, expected: Int64?, for key: Key, generation: UInt64?) {
        let event = Event.progress(received: received, expected: expected)
        for mailbox in mailboxes(of: key, generation) { mailbox.post(event) }
    }

    @_specialize(where Key == DownloadKey, Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    public func publishPartial(_ partial: Partial, for key: Key, generation: UInt64?) {
        for mailbox in mailboxes(of: key, generation) { mailbox.post(.partial(partial)) }
    }

    @_specialize(where Key == DownloadKey, Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    @discardableResult
    public func finish(_ key: Key, generation: UInt64?, with result: Result<Success, Failure>) -> Int {
        let finished = state.withLock { state -> [UInt64: Mailbox] in
            guard let index = state.entries.index(forKey: key), state.entries.values[index].isRun(generation) else { return [:] }
            let entry = state.entries.remove(at: index).value
            state.keyOfRun[entry.generation] = nil
            state.subscriberCount -= entry.subscribers.count
            return entry.subscribers
        }
        let event = Event.completed(result)
        for mailbox in finished.values { mailbox.post(event) }
        return finished.count
    }

    public func run(for key: Key) -> (any AnyObject & Sendable)? {
        state.withLock { $0.entries[key]?.run }
    }

    public var runs: [any AnyObject & Sendable] {
        state.withLock { $0.entries.values.compactMap(\.run) }
    }

    public func subscriberCount(for key: Key) -> Int {
        state.withLock { $0.entries[key]?.subscribers.count ?? 0 }
    }

    public var keyCount: Int { state.withLock { $0.entries.count } }

    /// How many subscribers there are over all keys.
    public var subscriberCount: Int { state.withLock { $0.subscriberCount } }

    @_specialize(where Key == DownloadKey, Partial == ReceivedBody, Success == DownloadResult, Failure == DownloadError)
    /// The key's subscribers, as a snapshot that shares the table's storage (no copy
    /// unless the table changes while it is held): progress is published per chunk.
    private func mailboxes(of key: Key, _ generation: UInt64?) -> Dictionary<UInt64, Mailbox>.Values {
        state.withLock { state in
            guard let entry = state.entries[key], entry.isRun(generation) else { return [UInt64: Mailbox]().values }
            return entry.subscribers.values
        }
    }
}
