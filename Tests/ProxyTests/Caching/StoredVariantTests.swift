import Foundation
import Testing

@testable import WebImageProxy

@Suite("Proxy: stored results")
struct StoredVariantTests {
    static let variant = StoredVariant(
        body: Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 31) }), contentType: "image/webp", fileExtension: ".webp",
        variesByAccept: true)

    @Test("a stored result reads back whole: body, type, extension and whether it varies by Accept")
    func roundTrip() throws {
        let decoded = try #require(StoredVariant(decoding: Self.variant.encoded()))
        #expect(decoded == Self.variant)
    }

    @Test("a damaged result is no result: any byte changed, a cut, another version, another program's value")
    func damaged() {
        let value = Self.variant.encoded()
        for index in stride(from: 0, to: value.count, by: 97) {
            var changed = value
            changed[index] ^= 0x40
            #expect(StoredVariant(decoding: changed) == nil, "byte \(index)")
        }
        for length in [0, 3, 5, 20, 60, value.count - 1] {
            #expect(StoredVariant(decoding: value.prefix(length)) == nil, "\(length) bytes")
        }
        #expect(StoredVariant(decoding: Data("plain text, not a result".utf8)) == nil)
    }

    @Test("the ETag is the key's digest and the body's hash: the same key and bytes give the same tag anywhere")
    func entityTag() {
        let key = VariantKey(source: "https://example.com/a.jpg", canonical: "v1|a")
        let other = VariantKey(source: "https://example.com/a.jpg", canonical: "v1|b")
        let tag = Self.variant.entityTag(for: key)
        #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
        #expect(tag == StoredVariant(decoding: Self.variant.encoded())?.entityTag(for: key))
        #expect(tag != Self.variant.entityTag(for: other))
        let rerendered = StoredVariant(body: Data([1, 2, 3]), contentType: "image/webp", fileExtension: ".webp", variesByAccept: true)
        #expect(tag != rerendered.entityTag(for: key))
        #expect(tag.dropFirst().prefix(16) == rerendered.entityTag(for: key).dropFirst().prefix(16))
    }
}
