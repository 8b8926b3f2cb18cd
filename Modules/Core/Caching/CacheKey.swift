/// A cache key: a string whose hash is computed once, when the key is made.
///
/// Lookups hash the key on every call; with a `CacheKey` that costs one integer, so
/// a memory-cache hit does no string hashing and no URL parsing. Two keys are equal
/// when their strings are.
///
/// ```swift
/// let key = CacheKey("https://example.com/a.jpg")
/// ```
public struct CacheKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as given, such as an absolute URL (plus decode options for images).
    public let string: String
    private let precomputedHash: Int

    public init(_ string: String) {
        self.string = string
        precomputedHash = string.hashValue
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.string == rhs.string
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    public var description: String { string }
}
