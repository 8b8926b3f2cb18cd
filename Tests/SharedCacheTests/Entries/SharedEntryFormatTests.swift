import Foundation
import Testing
import WebImageCore

@testable import WebImageSharedCache

@Suite("Shared entry format")
struct SharedEntryFormatTests {
    static let body = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    static let metadata: CachedResponseMetadata = {
        var metadata = CachedResponseMetadata(
            responseHeaders: ["Content-Type": "image/jpeg", "ETag": "\"abc\"", "Cache-Control": "max-age=60", "Vary": "Accept"],
            varyingRequestHeaders: ["Accept": "image/webp,*/*"], requestedAt: Date(timeIntervalSince1970: 1_700_000_000.25),
            storedAt: Date(timeIntervalSince1970: 1_700_000_001.5))
        metadata.headers.add("X-Ignored-By-Metadata", "kept only if caching reads it")
        return metadata
    }()

    @Test("an entry reads back as written: bytes, header fields in order, varying fields, both times")
    func roundTrip() throws {
        let value = Data(SharedEntryFormat.encode(Self.body, metadata: Self.metadata))
        let entry = try #require(SharedEntryFormat.decode(value))
        #expect(entry.data == Self.body)
        #expect(entry.metadata == Self.metadata)
        #expect(entry.metadata.etag == "\"abc\"")
    }

    @Test("an empty body and no fields are an entry too")
    func empty() throws {
        let metadata = CachedResponseMetadata(responseHeaders: [:], storedAt: Date(timeIntervalSince1970: 0))
        let entry = try #require(SharedEntryFormat.decode(Data(SharedEntryFormat.encode(Data(), metadata: metadata))))
        #expect(entry.data.isEmpty)
        #expect(entry.metadata == metadata)
    }

    @Test("every truncation is refused")
    func truncated() {
        let value = SharedEntryFormat.encode(Self.body, metadata: Self.metadata)
        for length in stride(from: 0, to: value.count, by: 97) {
            #expect(SharedEntryFormat.decode(Data(value.prefix(length))) == nil, "\(length) bytes")
        }
        #expect(SharedEntryFormat.decode(Data(value.dropLast())) == nil)
    }

    @Test("a changed byte anywhere is refused (the checksum, or the lengths)")
    func damaged() {
        let value = SharedEntryFormat.encode(Self.body, metadata: Self.metadata)
        for offset in stride(from: 0, to: value.count, by: 53) {
            var damaged = value
            damaged[offset] ^= 0x40
            #expect(SharedEntryFormat.decode(Data(damaged)) == nil, "byte \(offset)")
        }
    }

    @Test("another program's value is refused: text, another magic, an empty value")
    func foreign() {
        #expect(SharedEntryFormat.decode(Data("hello, world".utf8)) == nil)
        #expect(SharedEntryFormat.decode(Data()) == nil)
        var other = SharedEntryFormat.encode(Self.body, metadata: Self.metadata)
        other[3] = UInt8(ascii: "2")
        #expect(SharedEntryFormat.decode(Data(other)) == nil)
    }

    @Test("the checksum sees every byte and the length")
    func checksum() {
        let bytes = [UInt8](repeating: 0, count: 100)
        let zeros = bytes.withUnsafeBytes { EntryChecksum.of($0) }
        let longer = [UInt8](repeating: 0, count: 101).withUnsafeBytes { EntryChecksum.of($0) }
        #expect(zeros != longer)
        for offset in [0, 31, 32, 95, 99] {
            var changed = bytes
            changed[offset] = 1
            #expect(changed.withUnsafeBytes { EntryChecksum.of($0) } != zeros, "byte \(offset)")
        }
    }

    @Test("the vector checksum equals the portable one at every length and alignment")
    func vectorMatchesPortable() {
        var state: UInt64 = 0x1234_5678
        let bytes = (0..<5000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        bytes.withUnsafeBytes { raw in
            for start in 0..<3 {
                for length in stride(from: 0, through: 4990, by: 7) {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
                    #expect(EntryChecksum.of(slice) == EntryChecksum.portable(slice), "\(length) bytes at \(start)")
                }
            }
        }
    }

    @Test("moving 32 bytes to another place changes the checksum, in one 512-byte block or across two")
    func order() {
        let bytes = (0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 5) }
        let original = bytes.withUnsafeBytes { EntryChecksum.of($0) }
        for (first, second) in [(0, 32), (64, 480), (0, 512), (992, 1536)] {
            var swapped = bytes
            for i in 0..<32 { swapped.swapAt(first + i, second + i) }
            #expect(swapped.withUnsafeBytes { EntryChecksum.of($0) } != original, "stripes at \(first) and \(second)")
        }
    }
}
