import Testing
import WebImageCore

@Suite("CacheKey")
struct CacheKeyTests {
    /// 4,096 URLs that differ only in their last characters, as one site's images do.
    static let keys = (0..<4096).map { CacheKey("https://images.example.com/photos/\($0).jpg") }

    @Test("equal strings make equal keys with equal hashes; different strings differ")
    func equality() {
        let key = CacheKey("https://example.com/a.jpg")
        let same = CacheKey("https://example.com/" + "a.jpg")
        #expect(key == same)
        #expect(key.hashValue == same.hashValue)
        #expect(key._rawHashValue(seed: 99) == same._rawHashValue(seed: 99))
        #expect(key != CacheKey("https://example.com/b.jpg"))
        #expect(Set(Self.keys).count == Self.keys.count)
        let table = Dictionary(uniqueKeysWithValues: Self.keys.enumerated().map { ($1, $0) })
        #expect(Self.keys.enumerated().allSatisfy { table[$1] == $0 })
    }

    @Test("the low bits a table indexes by are spread like random ones, for every seed", arguments: [0, 1, 0x5EED, -77])
    func spread(seed: Int) {
        // 4,096 random values fall in about 2,589 of 4,096 buckets (4,096 (1 - 1/e));
        // a hash that ignored the key, or kept its low bits clustered, would fill few.
        let buckets = Set(Self.keys.map { $0._rawHashValue(seed: seed) & 4095 })
        #expect(buckets.count > 2450, "\(buckets.count) buckets")
    }

    @Test("the table's seed changes every key's bucket, so two tables keep different orders")
    func seeds() {
        let moved = Self.keys.filter { ($0._rawHashValue(seed: 1) & 4095) != ($0._rawHashValue(seed: 2) & 4095) }
        #expect(moved.count > 4000)
        // Not a fixed permutation of the buckets: keys in one bucket for one seed scatter
        // for another (a hash XORed with the seed alone would keep them together).
        let first = Self.keys.map { $0._rawHashValue(seed: 3) & 255 }
        let second = Self.keys.map { $0._rawHashValue(seed: 4) & 255 }
        let together = zip(first, second).filter { $0.0 == first[0] }.map(\.1)
        #expect(Set(together).count > 1)
    }
}
