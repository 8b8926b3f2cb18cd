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

    /// What a hashed collection (and `hashValue`) asks for: the hash made with the key,
    /// mixed with the collection's seed by a few multiplies and shifts, instead of a
    /// SipHash of the hash's 8 bytes (`hash(into:)`), which took a tenth of a memory
    /// hit. The mix spreads every bit of the seed over the low bits a table indexes by,
    /// so tables of different seeds keep different orders, as Swift's tables rely on.
    public func _rawHashValue(seed: Int) -> Int {
        // SplitMix64's finaliser.
        var mixed = UInt64(bitPattern: Int64(precomputedHash ^ seed))
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(Int64(bitPattern: mixed ^ (mixed >> 31)))
    }

    public var description: String { string }
}
