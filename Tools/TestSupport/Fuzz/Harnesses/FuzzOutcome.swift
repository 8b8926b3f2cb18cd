/// What one input did in a harness: the library accepted it (decoded, parsed) or
/// refused it with a typed error. Either is fine; a broken invariant never returns.
public enum FuzzOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The input was accepted; `summary` says what came out (sizes, frame counts).
    case accepted(String)
    /// The library refused the input; `reason` is the error it gave.
    case rejected(String)

    /// Whether the library accepted the input.
    public var isAccepted: Bool {
        if case .accepted = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .accepted(let summary): "accepted: \(summary)"
        case .rejected(let reason): "rejected: \(reason)"
        }
    }
}
