import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCache
@testable import WebImageCore

@Suite("Disk cache: the index of variants per source")
struct VariantIndexFilesTests {
    @Test("variants recorded from many tasks at once are all listed once, per source; a purge takes the list away")
    func recordAndTake() async throws {
        let directory = try TemporaryDirectory()
        // Two levels that do not exist yet: the first record makes them.
        let index = VariantIndexFiles(directory: directory.url.appendingPathComponent("cache/index"))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for variant in 0..<125 {
                        index.record("variant/\(task)-\(variant)", ofSource: "https://example.com/a.jpg")
                        index.record("variant/\(task)-\(variant)", ofSource: "https://example.com/b.jpg")
                    }
                }
            }
        }
        index.record("variant/0-0", ofSource: "https://example.com/a.jpg")
        let taken = index.take("https://example.com/a.jpg")
        #expect(taken.count == 1000)
        #expect(Set(taken).count == 1000)
        #expect(index.take("https://example.com/a.jpg").isEmpty)
        #expect(index.take("https://example.com/b.jpg").count == 1000)
    }

    @Test("a key with line breaks, backslashes or any other bytes is listed as it was recorded, one key per record")
    func keysOfAnyText() throws {
        let directory = try TemporaryDirectory()
        let index = VariantIndexFiles(directory: directory.url)
        let keys = [
            "plain", "two\nlines", "carriage\rreturn", "back\\slash", "escaped\\n not a break", "ends with \\",
            "\n", "\\", "", "üñí©ødé 🎞", "%0A stays %0A",
        ]
        for key in keys { index.record(key, ofSource: "https://example.com/a.jpg") }
        #expect(index.take("https://example.com/a.jpg") == keys.filter { !$0.isEmpty })
    }

    @Test("a line whose backslash stands before no escape reads as written")
    func damagedLines() {
        #expect(VariantIndexFiles.unescaped(Data("a\\qb".utf8)[...]) == "a\\qb")
        #expect(VariantIndexFiles.unescaped(Data("trailing\\".utf8)[...]) == "trailing\\")
    }
}

@Suite("Disk cache: purging a source and its variants")
struct DiskCachePurgeTests {
    let metadata = CachedResponseMetadata(contentType: "image/png")

    /// Stores `source` and its `variants`, each recorded in the index before it is stored.
    private func fill(_ cache: DiskCache, source: CacheKey, variants: [CacheKey]) throws {
        try cache.store(Data(source.string.utf8), metadata: metadata, forKey: source)
        for variant in variants {
            cache.recordVariant(variant, ofSource: source)
            try cache.store(Data(variant.string.utf8), metadata: metadata, forKey: variant)
        }
    }

    @Test("a purge removes the source's entry and every variant recorded for it, and leaves another source's")
    func purgeRemovesTheSourceAndItsVariants() async throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory)
        let (source, other): (CacheKey, CacheKey) = ("https://example.com/a.jpg", "https://example.com/b.jpg")
        try fill(cache, source: source, variants: (1...20).map { CacheKey("variant/\($0)/of-a") })
        try fill(cache, source: other, variants: ["variant/1/of-b"])
        #expect(cache.count == 23)

        #expect(await cache.purgeSource(source) == 20)
        #expect(await cache.response(forKey: source) == nil)
        #expect(await cache.response(forKey: "variant/7/of-a") == nil)
        #expect(cache.count == 2, "the other source and its variant stay")
        #expect(await cache.response(forKey: "variant/1/of-b") != nil)
        #expect(await cache.purgeSource(source) == 0, "a second purge finds no index")
    }

    @Test("the index lives beside the entries' folder: the cache's scans never count it, and removeAll empties it")
    func indexOutsideTheEntries() throws {
        let directory = try TemporaryDirectory()
        let cache = DiskCache.testCache(in: directory, fanOut: false)
        cache.recordVariant("variant/1", ofSource: "s")
        try cache.store(Data("v".utf8), metadata: metadata, forKey: "variant/1")
        #expect(cache.variantIndexURL.lastPathComponent == "tests-index")
        #expect(filesUnder(cache.variantIndexURL.path).count == 1)
        cache.trim()
        #expect(cache.count == 1, "the rescan counts the entry alone")
        cache.removeAll()
        #expect(filesUnder(cache.variantIndexURL.path).isEmpty)
        #expect(cache.purgeSource("s") == 0)
    }
}
