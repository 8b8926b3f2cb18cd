import Foundation
import Testing

@testable import WebImageCore
@testable import WebImageManager

@Suite("The stored variant's format: WIMV, kind, format, checksum, body")
struct VariantEntryTests {
    static let entry = VariantEntry(kind: .still, format: .jpeg, body: Data((0..<1000).map { UInt8($0 % 251) }))

    @Test("an entry reads back as written")
    func roundTrip() throws {
        let read = try #require(VariantEntry(decoding: Self.entry.encoded()))
        #expect(read == Self.entry)
        #expect(read.format.mimeType == "image/jpeg")
    }

    @Test("an entry read from a slice of a larger buffer reads the same")
    func fromASlice() {
        let padded = Data([9, 9, 9]) + Self.entry.encoded()
        #expect(VariantEntry(decoding: padded[3...]) == Self.entry)
    }

    @Test("any one byte of the body changed fails the checksum: no variant")
    func everyBodyByteIsChecked() {
        let value = Self.entry.encoded()
        let bodyStart = value.count - Self.entry.body.count
        for offset in stride(from: bodyStart, to: value.count, by: 37) {
            var damaged = value
            damaged[offset] ^= 0x01
            #expect(VariantEntry(decoding: damaged) == nil, "byte \(offset)")
        }
    }

    @Test("a short value, another magic, another version or an unknown kind is no variant")
    func malformed() {
        let value = Self.entry.encoded()
        #expect(VariantEntry(decoding: value.prefix(value.count - 1)) == nil)
        #expect(VariantEntry(decoding: value.prefix(5)) == nil)
        #expect(VariantEntry(decoding: Data()) == nil)
        for (offset, byte) in [(0, UInt8(ascii: "X")), (4, 2), (5, 9)] {
            var changed = value
            changed[offset] = byte
            #expect(VariantEntry(decoding: changed) == nil, "byte \(offset)")
        }
    }

    @Test("the checksum tells apart bodies that differ in one word, and an empty body from none")
    func checksum() {
        #expect(VariantChecksum.of(Data(count: 16)) != VariantChecksum.of(Data(count: 17)))
        var other = Data(count: 64)
        other[40] = 1
        #expect(VariantChecksum.of(Data(count: 64)) != VariantChecksum.of(other))
    }
}
