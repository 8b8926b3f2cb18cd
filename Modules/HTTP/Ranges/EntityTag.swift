/// An entity tag, the value of an `ETag` field (RFC 9110 §8.8.3): `"xyzzy"` (strong) or
/// `W/"xyzzy"` (weak).
///
/// A strong tag changes whenever the bytes of the representation change, so it can say
/// that two byte ranges belong to one representation; a weak one only says that two
/// representations are equivalent, which is never enough to join byte ranges.
public struct EntityTag: Sendable, Hashable, CustomStringConvertible {
    /// `W/` was in front: the tag is weak.
    public let isWeak: Bool
    /// The tag between its quotes.
    public let opaqueTag: String

    /// Reads one entity tag; `nil` unless `field` (spaces and tabs around it allowed) is
    /// exactly `"..."` or `W/"..."` with only the characters RFC 9110 allows between the
    /// quotes (no space, no further quote, no control character). `W` is upper case.
    public init?(parsing field: String) {
        var value = trimmingOptionalWhitespace(Substring(field).utf8)
        var weak = false
        if value.starts(with: "W/".utf8) {
            weak = true
            value = value.dropFirst(2)
        }
        guard value.count >= 2, value.first == 0x22, value.last == 0x22 else { return nil }
        let opaque = value.dropFirst().dropLast()
        // etagc = %x21 / %x23-7E / obs-text
        guard opaque.allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }) else { return nil }
        isWeak = weak
        opaqueTag = String(Substring(opaque))
    }

    /// Strong comparison (RFC 9110 §8.8.3.2): neither tag is weak and the opaque tags are
    /// the same characters.
    public func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaqueTag == other.opaqueTag
    }

    /// The field value: `"xyzzy"` or `W/"xyzzy"`.
    public var description: String { (isWeak ? "W/\"" : "\"") + opaqueTag + "\"" }
}
