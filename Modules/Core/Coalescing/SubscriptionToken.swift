/// Names one subscriber of a ``CallbackRegistering`` registry, to remove it later.
///
/// Tokens are unique within their registry and never reused.
public struct SubscriptionToken: Hashable, Sendable, CustomStringConvertible {
    public let id: UInt64
    /// Which run of its key the subscriber joined, as the registry that made the token
    /// numbers runs (`CallbackRegistry`: the id of the run's first subscriber); 0 when
    /// the registry does not say. It lets a registry find a leaving subscriber's key
    /// through one entry per run instead of one per subscriber.
    public let run: UInt64

    public init(id: UInt64, run: UInt64 = 0) {
        self.id = id
        self.run = run
    }

    public var description: String { "SubscriptionToken(\(id))" }
}

/// What adding a subscriber gave: its token, whether it is the key's first, and the
/// work of the run it joined.
public struct Subscription: Hashable, Sendable {
    public let token: SubscriptionToken
    /// `true` when no work was under way for the key: the caller starts it. Later
    /// subscribers join the work already running and get `false`.
    public let isFirst: Bool
    /// Which run of work on the key the subscriber joined. The work that the first
    /// subscriber starts publishes and finishes with it, so work that every subscriber
    /// left can never reach the subscribers of a newer run of the same key.
    public let generation: UInt64
    /// The work the registry keeps with the run joined: what the first subscriber's
    /// `makeRun` made (`CallbackRegistering/add(to:delivery:makeRun:whenAbandoned:handler:)`).
    public let run: (any AnyObject & Sendable)?

    public init(token: SubscriptionToken, isFirst: Bool, generation: UInt64 = 0, run: (any AnyObject & Sendable)? = nil) {
        self.token = token
        self.isFirst = isFirst
        self.generation = generation
        self.run = run
    }

    /// Equal subscriptions name the same subscriber of the same run and its same work.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.token == rhs.token && lhs.isFirst == rhs.isFirst && lhs.generation == rhs.generation && lhs.run === rhs.run
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(token)
        hasher.combine(generation)
    }
}
