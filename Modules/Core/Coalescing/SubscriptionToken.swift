/// Names one subscriber of a ``CallbackRegistering`` registry, to remove it later.
///
/// Tokens are unique within their registry and never reused.
public struct SubscriptionToken: Hashable, Sendable, CustomStringConvertible {
    public let id: UInt64

    public init(id: UInt64) {
        self.id = id
    }

    public var description: String { "SubscriptionToken(\(id))" }
}

/// What adding a subscriber gave: its token, and whether it is the key's first.
public struct Subscription: Hashable, Sendable {
    public let token: SubscriptionToken
    /// `true` when no work was under way for the key: the caller starts it. Later
    /// subscribers join the work already running and get `false`.
    public let isFirst: Bool
    /// Which run of work on the key the subscriber joined. The work that the first
    /// subscriber starts publishes and finishes with it, so work that every subscriber
    /// left can never reach the subscribers of a newer run of the same key.
    public let generation: UInt64

    public init(token: SubscriptionToken, isFirst: Bool, generation: UInt64 = 0) {
        self.token = token
        self.isFirst = isFirst
        self.generation = generation
    }
}
