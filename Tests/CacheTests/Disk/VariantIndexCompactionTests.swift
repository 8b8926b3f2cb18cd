import Foundation
import Synchronization
import Testing
import WebImageTestSupport

@testable import WebImageCache
@testable import WebImageConcurrency
@testable import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Disk cache: the index of variants per source stays as large as the variants stored")
struct VariantIndexCompactionTests {
    let source = "https://example.com/a.jpg"

    /// The keys `source`'s file lists, in order, as they are on disk (a key listed twice
    /// shows twice); `nil` when the source has no file.
    private func listed(_ index: VariantIndexFiles, _ source: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: index.file(for: source)) else { return nil }
        return VariantIndexFiles.lines(of: [UInt8](data)).map { VariantIndexFiles.key(of: $0).key }
    }

    @Test("the same variant recorded 10,000 times leaves a file of a few lines, not 10,000")
    func reRecordedVariant() throws {
        let directory = try TemporaryDirectory()
        let index = VariantIndexFiles(directory: directory.url)
        let variant = "variant/w=100,h=100"
        for _ in 0..<10_000 { index.record(variant, ofSource: source) }

        let lines = try #require(listed(index, source))
        #expect(Set(lines) == [variant])
        // Compaction runs once the lines appended pass the floor: at most that many bytes of lines.
        #expect(lines.count <= index.compactionFloor / (variant.utf8.count + 1) + 1)
        index.compact(index.file(for: source), always: true)
        #expect(listed(index, source) == [variant])
        #expect(index.take(source) == [variant])
    }

    @Test("a compaction drops the keys whose entries are gone, and keeps a key recorded before its store until the next")
    func goneEntriesDropped() throws {
        let directory = try TemporaryDirectory()
        let stored = Shared<Set<String>>([])
        // No compaction on record: the test compacts by hand.
        let index = VariantIndexFiles(directory: directory.url, compactionFloor: .max) { key in stored.withLock { $0.contains(key) } }
        let path = index.file(for: source)
        for number in 0..<10 {
            index.record("variant/\(number)", ofSource: source) { _ = stored.withLock { $0.insert("variant/\(number)") } }
        }
        // Evicted by the cache's limits.
        stored.withLock { $0.subtract((0..<6).map { "variant/\($0)" }) }
        // Recorded, its store still to come.
        index.record("variant/pending", ofSource: source)

        index.compact(path, always: true)
        #expect(listed(index, source) == ["variant/6", "variant/7", "variant/8", "variant/9", "variant/pending"])
        index.compact(path, always: true)
        #expect(listed(index, source) == ["variant/6", "variant/7", "variant/8", "variant/9"], "its store never came")
    }

    @Test("a source whose variants are all gone loses its file at the next compaction")
    func sourceWithNoVariantLeft() throws {
        let directory = try TemporaryDirectory()
        let stored = Shared<Set<String>>([])
        let index = VariantIndexFiles(directory: directory.url) { key in stored.withLock { $0.contains(key) } }
        for number in 0..<3 {
            index.record("variant/\(number)", ofSource: source) { _ = stored.withLock { $0.insert("variant/\(number)") } }
        }
        stored.withLock { $0.removeAll() }
        index.compactAll(now: Date().timeIntervalSince1970)
        #expect(listed(index, source) == nil)
        #expect(filesUnder(directory.path).isEmpty)
    }

    @Test("a trim forgets the variants the size limit evicted, and the sources with none left")
    func trimForgetsEvicted() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let cache = DiskCache.testCache(in: directory, clock: clock, maximumSize: 40_000)
        let metadata = CachedResponseMetadata(contentType: "image/png")
        // Three variants of each source, a's first: storing b's evicts a's, the least recently used.
        for source in ["a", "b"] {
            for number in 0..<3 {
                try cache.storeVariant(
                    Data(count: 10_000), metadata: metadata, forKey: CacheKey("variant/\(number)/of-\(source)"), ofSource: CacheKey(source))
                clock.advance(1)
            }
        }
        #expect(cache.count == 3)
        #expect(listed(cache.variantIndex, "a")?.count == 3, "evicted, still listed")

        cache.trim()
        #expect(listed(cache.variantIndex, "a") == nil)
        #expect(listed(cache.variantIndex, "b") == ["variant/0/of-b", "variant/1/of-b", "variant/2/of-b"])
        #expect(filesUnder(cache.variantIndexURL.path).count == 1)
        #expect(cache.purgeSource("b") == 3)
    }

    @Test("records compact as they go: a file stays proportional to the variants stored, not to the records made")
    func recordsCompact() throws {
        let directory = try TemporaryDirectory()
        let stored = Shared<Set<String>>([])
        let index = VariantIndexFiles(directory: directory.url, compactionFloor: 256) { key in stored.withLock { $0.contains(key) } }
        // A cache that holds ten variants: each store evicts the one ten stores before.
        for number in 0..<5_000 {
            index.record("variant/\(number)", ofSource: source) {
                stored.withLock { stored in
                    stored.insert("variant/\(number)")
                    stored.remove("variant/\(number - 10)")
                }
            }
        }
        let lines = try #require(listed(index, source))
        #expect(Set(lines).isSuperset(of: stored.withLock { $0 }))
        let bytes = try #require(DiskFileIO.status(path: index.file(for: source))?.size)
        #expect(bytes < 3 * 256, "\(bytes) bytes for 10 variants stored")
    }

    @Test(
        "threads recording (each with its own descriptors), compacting and purging at once: a purge lists every record made before it began, each key once"
    )
    func concurrentRecordsCompactionsAndPurges() throws {
        let directory = try TemporaryDirectory()
        // Compacting every few records, so that compactions land among the appends.
        let index = VariantIndexFiles(directory: directory.url, compactionFloor: 64)
        let path = index.file(for: source)
        let (writers, rounds, keys) = (4, 3, 300)
        // Each record with how many purges had begun when it returned.
        let recorded = Shared<[(key: String, purgesBegun: Int)]>([])
        let purgesBegun = Shared(0)
        let writersDone = Shared(0)
        // The keys of each purge that listed any, by the purge's number.
        let purges = Shared<[(number: Int, keys: [String])]>([])
        let finished = DispatchGroup()

        for writer in 0..<writers {
            finished.enter()
            // A thread of its own: every record opens the file, so each has its own open
            // file description, as another process would.
            Thread {
                for round in 0..<rounds {
                    for number in 0..<keys {
                        let key = "variant/\(writer)-\(number)"
                        index.record(key, ofSource: source)
                        let begun = purgesBegun.withLock { $0 }
                        recorded.withLock { $0.append((key, begun)) }
                        if number % 50 == 0 { index.compact(path, always: round == 1) }
                    }
                }
                writersDone.withLock { $0 += 1 }
                finished.leave()
            }.start()
        }
        finished.enter()
        Thread {
            // Purges as long as the writers write, then once more after the last is done.
            while true {
                let last = writersDone.withLock { $0 } == writers
                let number = purgesBegun.withLock { begun in
                    defer { begun += 1 }
                    return begun
                }
                let taken = index.take(source)
                if !taken.isEmpty { purges.withLock { $0.append((number, taken)) } }
                if last { break }
                sched_yield()
            }
            finished.leave()
        }.start()
        finished.wait()

        let listings = purges.withLock { $0 }
        #expect(listings.count >= 2, "the purges ran among the records")
        var purgesListing: [String: [Int]] = [:]
        for (number, keys) in listings {
            #expect(Set(keys).count == keys.count, "purge \(number) lists a key twice")
            for key in keys { purgesListing[key, default: []].append(number) }
        }
        // A record that returned when `begun` purges had begun is listed by one of purges
        // 0...begun (numbered from zero): purge `begun` began after it.
        let lost = recorded.withLock { $0 }.filter { record in
            !(purgesListing[record.key] ?? []).contains { $0 <= record.purgesBegun }
        }
        #expect(lost.isEmpty, "records lost: \(lost.prefix(10))")
        let everyKey = Set((0..<writers).flatMap { writer in (0..<keys).map { "variant/\(writer)-\($0)" } })
        #expect(Set(purgesListing.keys) == everyKey)
        #expect(listed(index, source) == nil, "the last purge took the file")
    }

    @Test(
        "two processes storing variants of one source while this one purges it: every variant is listed by exactly one purge, and removed")
    func processesStoreWhileOnePurges() throws {
        let directory = try TemporaryDirectory()
        let count = 2_000
        let writers = try ["A", "B"].map { try CacheWriter.start(["variants", directory.path, "tests", source, $0, "\(count)"]) }
        let cache = DiskCache.testCache(in: directory)
        var purged: [String] = []
        // `purgeSource`'s work, keeping the keys.
        func purge() {
            let taken = cache.variantIndex.take(source)
            for key in taken { cache.removeResponse(forKey: CacheKey(key)) }
            purged += taken
        }

        // A purge each time writer A reports 500 more stores: among B's stores, and after
        // enough of both for several compactions of the file.
        var text = ""
        while true {
            let data = writers[0].output.availableData
            if data.isEmpty { break }
            let before = text.split(separator: "\n").count(where: { $0.hasPrefix("stored ") }) / 5
            text += String(decoding: data, as: UTF8.self)
            let after = text.split(separator: "\n").count(where: { $0.hasPrefix("stored ") }) / 5
            for _ in before..<after { purge() }
        }
        let rest = String(decoding: writers[1].output.readDataToEndOfFile(), as: UTF8.self)
        for writer in writers { #expect(writer.process.waitForExit() == .exited(0)) }
        #expect(text.hasSuffix("done\n") && rest.hasSuffix("done\n"))
        purge()

        let expected = Set(["A", "B"].flatMap { tag in (0..<count).map { "variant/\(tag)-\($0)" } })
        #expect(Set(purged) == expected)
        #expect(purged.count == expected.count, "a variant listed by two purges")
        #expect(filesUnder(cache.directoryURL.path).isEmpty, "a variant stored but listed by no purge")
        #expect(filesUnder(cache.variantIndexURL.path).isEmpty)
    }
}

/// A value the test's threads and the index's predicate share, behind a lock.
private final class Shared<Value: Sendable>: Sendable {
    private let value: Locked<Value>
    init(_ value: Value) { self.value = Locked(value) }
    /// Written as a closure, not by passing `body` on: the two builds' locks (`Mutex`, and
    /// the sanitizer build's pthread mutex) differ in how they mark the value `sending`.
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
}
