import Foundation
import Testing

@testable import WebImageSharedCache

/// The buffers string replies are read into. Each test stashes in a pool of its own, so
/// the replies of tests running beside it never take or fill its stash.
@Suite("Reply buffers")
struct ReplyBuffersTests {
    @Test("a buffer is at most a quarter larger than asked, from 16 KiB to 8 MiB; exact outside")
    func sizeClasses() {
        #expect(ReplyBuffers.capacity(for: 100) == 100)
        #expect(ReplyBuffers.capacity(for: 16 << 10) == 16 << 10)
        #expect(ReplyBuffers.capacity(for: (16 << 10) + 1) == 20 << 10)
        #expect(ReplyBuffers.capacity(for: 50_001) == 56 << 10)
        #expect(ReplyBuffers.capacity(for: (7 << 20) + 1) == 8 << 20)
        #expect(ReplyBuffers.capacity(for: 8 << 20) == 8 << 20)
        #expect(ReplyBuffers.capacity(for: (8 << 20) + 1) == (8 << 20) + 1)
        for count in stride(from: 16 << 10, through: 8 << 20, by: 4093) {
            let capacity = ReplyBuffers.capacity(for: count)
            #expect(capacity >= count && capacity * 4 <= count * 5, "\(count) -> \(capacity)")
        }
    }

    @Test("a buffer given back is the next one handed out for its size class, its bytes writable")
    func reuse() throws {
        let pool = try #require(ReplyBuffers())
        let size = 7 << 20
        let first = try #require(pool.allocate(size))
        first.initializeMemory(as: UInt8.self, repeating: 0xAB, count: size)
        ReplyBuffers.release(first)
        #expect(pool.stashedCount(for: size) == 1)
        let second = try #require(pool.allocate(size - 1000))
        #expect(second == first)
        #expect(pool.stashedCount(for: size) == 0)
        second.storeBytes(of: 7, toByteOffset: size - 1, as: UInt8.self)
        ReplyBuffers.release(second)
        pool.drain()
        #expect(pool.stashedCount(for: size) == 0)
    }

    @Test("at most 16 MiB wait for reuse: the rest is freed")
    func boundedStash() throws {
        let pool = try #require(ReplyBuffers())
        let buffers = try (0..<6).map { _ in try #require(pool.allocate(6 << 20)) }
        for buffer in buffers { ReplyBuffers.release(buffer) }
        #expect(pool.stashedCount(for: 6 << 20) == 2, "36 MiB given back, 16 MiB kept: two of 6 MiB")
        #expect(pool.stashedBytes == 12 << 20)
        pool.drain()
        #expect(pool.stashedBytes == 0)
    }

    @Test("buffers outside the classes are exact, whole, and never stashed")
    func unpooled() throws {
        let pool = try #require(ReplyBuffers())
        let count = (8 << 20) + 1
        let large = try #require(pool.allocate(count))
        large.initializeMemory(as: UInt8.self, repeating: 1, count: count)
        ReplyBuffers.release(large)
        let small = try #require(pool.allocate(10))
        small.initializeMemory(as: UInt8.self, repeating: 1, count: 10)
        ReplyBuffers.release(small)
        ReplyBuffers.release(nil)
        #expect(pool.stashedBytes == 0)
    }
}
