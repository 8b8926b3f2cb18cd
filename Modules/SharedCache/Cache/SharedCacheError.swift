/// A mistake in the shared cache's configuration. Faults of the nodes themselves are never
/// errors: a node that is down, slow or sends garbage is a miss.
public struct SharedCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A node's URL is not `redis://host[:port][/database]`.
        public static let invalidNodeAddress = Code("invalidNodeAddress")
        /// The configuration lists no node, or a value out of range.
        public static let invalidConfiguration = Code("invalidConfiguration")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
