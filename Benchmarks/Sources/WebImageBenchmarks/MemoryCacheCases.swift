import Dispatch
import Foundation
import Synchronization
import WebImageCache
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// The memory cache cases: our `MemoryCache` beside a bare `Dictionary`
/// under one `Mutex` (same `CacheKey`) and beside Foundation's `NSCache`. Each run does
/// `operations` lookups or stores over a fixed working set, in a fixed pseudo-random
/// order, so the table's "img/s" column reads as operations per second.
enum MemoryCacheCases {
    static let operations = 1_000_000
    static let workingSet = 10_000
    static let cost = 1_000

    /// A cached value: a class, as decoded images hold their pixels by reference, and
    /// so that NSCache can hold the same thing.
    final class Payload: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    /// The baseline: the least a thread-safe map can do.
    final class LockedDictionary: Sendable {
        let storage = Mutex<[CacheKey: Payload]>([:])
        func value(forKey key: CacheKey) -> Payload? { storage.withLock { $0[key] } }
        func setValue(_ value: Payload, forKey key: CacheKey) { storage.withLock { $0[key] = value } }
        func replace(_ old: CacheKey, with key: CacheKey, value: Payload) {
            storage.withLock {
                $0.removeValue(forKey: old)
                $0[key] = value
            }
        }
    }

    /// The same map behind NSLock, to compare locks.
    final class NSLockedDictionary: @unchecked Sendable {
        let lock = NSLock()
        var storage: [CacheKey: Payload] = [:]
        func value(forKey key: CacheKey) -> Payload? {
            lock.lock()
            defer { lock.unlock() }
            return storage[key]
        }
    }

    struct Setup {
        let keys: [CacheKey]
        let missKeys: [CacheKey]
        let nsKeys: [NSString]
        let nsMissKeys: [NSString]
        let payloads: [Payload]
        /// Indices into the working set, in a fixed pseudo-random order.
        let order: [Int]

        init() {
            keys = (0..<workingSet).map { CacheKey("https://images.example.com/photos/\($0).jpg?w=640") }
            missKeys = (0..<workingSet).map { CacheKey("https://images.example.com/absent/\($0).jpg?w=640") }
            nsKeys = keys.map { NSString(string: $0.string) }
            nsMissKeys = missKeys.map { NSString(string: $0.string) }
            payloads = (0..<workingSet).map(Payload.init)
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            order = (0..<operations).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(workingSet))
            }
        }
    }

    static func cache(shards: Int?, countLimit: Int = .max) -> MemoryCache<CacheKey, Payload> {
        // 1 GiB: the automatic shard count (8) of a large cache, which never fills here.
        MemoryCache(configuration: .init(costLimit: 1 << 30, countLimit: countLimit, shardCount: shards))
    }

    static func filled(_ cache: MemoryCache<CacheKey, Payload>, _ setup: Setup) -> MemoryCache<CacheKey, Payload> {
        for (key, payload) in zip(setup.keys, setup.payloads) { cache.setValue(payload, forKey: key, cost: cost) }
        return cache
    }

    /// Runs `body` over the lookup order split between `threads` threads, each taking a
    /// contiguous half, and waits for all.
    static func split(_ order: [Int], threads: Int, _ body: @escaping @Sendable (ArraySlice<Int>) -> Void) {
        if threads == 1 { return body(order[...]) }
        let chunk = order.count / threads
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            body(order[(index * chunk)..<(index == threads - 1 ? order.count : (index + 1) * chunk)])
        }
    }

    static func hits(_ cache: MemoryCache<CacheKey, Payload>, _ keys: [CacheKey], _ order: ArraySlice<Int>) {
        var sum = 0
        for index in order { sum &+= cache.value(forKey: keys[index])?.number ?? 0 }
        consume(sum)
    }

    static func all() -> [BenchmarkCase] {
        let setup = Setup()
        let keys = setup.keys
        let missKeys = setup.missKeys
        let order = setup.order
        let nsKeys = setup.nsKeys
        let nsMissKeys = setup.nsMissKeys
        let payloads = setup.payloads

        let ours = filled(cache(shards: nil), setup)
        let oneShard = filled(cache(shards: 1), setup)
        let sixteen = filled(cache(shards: 16), setup)
        let dictionary = LockedDictionary()
        let nsLocked = NSLockedDictionary()
        let nsCache = NSCache<NSString, Payload>()
        for index in 0..<workingSet {
            dictionary.setValue(payloads[index], forKey: keys[index])
            nsLocked.storage[keys[index]] = payloads[index]
            nsCache.setObject(payloads[index], forKey: nsKeys[index], cost: cost)
        }

        let oursHit = Contender(name: "MemoryCache") { hits(ours, keys, order[...]) }
        let dictionaryHit = Contender(name: "Dictionary+Mutex") {
            var sum = 0
            for index in order { sum &+= dictionary.value(forKey: keys[index])?.number ?? 0 }
            consume(sum)
        }
        let nsCacheHit = Contender(name: "NSCache") {
            var sum = 0
            for index in order { sum &+= nsCache.object(forKey: nsKeys[index])?.number ?? 0 }
            consume(sum)
        }
        let oursMiss = Contender(name: "MemoryCache") { hits(ours, missKeys, order[...]) }
        let dictionaryMiss = Contender(name: "Dictionary+Mutex") {
            var sum = 0
            for index in order { sum &+= dictionary.value(forKey: missKeys[index])?.number ?? 0 }
            consume(sum)
        }
        let nsCacheMiss = Contender(name: "NSCache") {
            var sum = 0
            for index in order { sum &+= nsCache.object(forKey: nsMissKeys[index])?.number ?? 0 }
            consume(sum)
        }

        // Set with eviction: a count limit of half the working set, stores cycling
        // over all of it, so (past the first half) every store evicts one value.
        let window = workingSet / 2
        let evicting = cache(shards: nil, countLimit: window)
        let evictingDictionary = LockedDictionary()
        let evictingNSCache = NSCache<NSString, Payload>()
        evictingNSCache.countLimit = window
        let oursSet = Contender(name: "MemoryCache") {
            for step in 0..<operations {
                let index = step % workingSet
                evicting.setValue(payloads[index], forKey: keys[index], cost: cost)
            }
        }
        // The bare equivalent: insert one key, remove the one stored `window` stores ago.
        let dictionarySet = Contender(name: "Dictionary+Mutex") {
            for step in 0..<operations {
                let index = step % workingSet
                evictingDictionary.replace(keys[(index + workingSet - window) % workingSet], with: keys[index], value: payloads[index])
            }
        }
        let nsCacheSet = Contender(name: "NSCache") {
            for step in 0..<operations {
                let index = step % workingSet
                evictingNSCache.setObject(payloads[index], forKey: nsKeys[index], cost: cost)
            }
        }

        func threaded(_ name: String, _ cache: MemoryCache<CacheKey, Payload>, threads: Int) -> Contender {
            Contender(name: name) { split(order, threads: threads) { hits(cache, keys, $0) } }
        }
        func threadedDictionary(threads: Int) -> Contender {
            Contender(name: "\(threads) thread\(threads == 1 ? "" : "s")") {
                split(order, threads: threads) { slice in
                    var sum = 0
                    for index in slice { sum &+= dictionary.value(forKey: keys[index])?.number ?? 0 }
                    consume(sum)
                }
            }
        }

        let perOp = operations
        return [
            BenchmarkCase(
                section: .memoryCache, name: "memory hit", contenders: [oursHit, dictionaryHit], imagesPerRun: perOp,
                comparisons: [.time(.atMost(1.3))]),
            BenchmarkCase(
                section: .memoryCache, name: "memory hit vs NSCache", contenders: [oursHit, nsCacheHit], imagesPerRun: perOp,
                comparisons: [.rate(.atLeast(5))]),
            BenchmarkCase(section: .memoryCache, name: "memory miss", contenders: [oursMiss, dictionaryMiss], imagesPerRun: perOp),
            BenchmarkCase(section: .memoryCache, name: "memory miss vs NSCache", contenders: [oursMiss, nsCacheMiss], imagesPerRun: perOp),
            BenchmarkCase(
                section: .memoryCache, name: "memory set with eviction", contenders: [oursSet, dictionarySet], imagesPerRun: perOp),
            BenchmarkCase(
                section: .memoryCache, name: "memory set with eviction vs NSCache", contenders: [oursSet, nsCacheSet], imagesPerRun: perOp),
            BenchmarkCase(
                section: .memoryCache,
                name: "memory hit, 2 threads vs 1",
                contenders: [
                    threaded("2 threads", ours, threads: 2), threaded("1 thread", ours, threads: 1),
                ], imagesPerRun: perOp, comparisons: [.rate(.above(1))]),
            BenchmarkCase(
                section: .memoryCache,
                name: "memory hit 1 shard",
                contenders: [
                    Contender(name: "MemoryCache 1 shard") { hits(oneShard, keys, order[...]) }, dictionaryHit,
                ], imagesPerRun: perOp),
            BenchmarkCase(
                section: .memoryCache,
                name: "memory hit 1 shard, 2 threads vs 1",
                contenders: [
                    threaded("2 threads", oneShard, threads: 2), threaded("1 thread", oneShard, threads: 1),
                ], imagesPerRun: perOp),
            BenchmarkCase(
                section: .memoryCache,
                name: "memory hit 16 shards, 2 threads vs 1",
                contenders: [
                    threaded("2 threads", sixteen, threads: 2), threaded("1 thread", sixteen, threads: 1),
                ], imagesPerRun: perOp),
            BenchmarkCase(
                section: .memoryCache,
                name: "memory Dictionary+Mutex, 2 thr vs 1",
                contenders: [
                    threadedDictionary(threads: 2), threadedDictionary(threads: 1),
                ], imagesPerRun: perOp),
            BenchmarkCase(
                section: .memoryCache,
                name: "memory lock: Mutex vs NSLock",
                contenders: [
                    dictionaryHit,
                    Contender(name: "Dictionary+NSLock") {
                        var sum = 0
                        for index in order { sum &+= nsLocked.value(forKey: keys[index])?.number ?? 0 }
                        consume(sum)
                    },
                ], imagesPerRun: perOp),
        ]
    }

    /// Nanoseconds per operation of every contender, and the allocations of a hit when the
    /// malloc counter is preloaded (see Benchmarks/README.md); the ratios' goals are the
    /// cases' comparisons.
    static func printSummary(_ results: [CaseResult]) {
        let memory = results.filter { $0.name.hasPrefix("memory") }
        guard !memory.isEmpty else { return }
        print("Memory cache, nanoseconds per operation (median run / \(operations) operations):")
        for result in memory {
            print("  \(Report.pad(result.name, 38)) \(Report.nanosecondsPerOperation(result))")
        }
        let name = "memory hit, malloc calls per hit"
        if let perHit = mallocsPerHit() {
            Findings.record(
                .memoryCache, name, ours: Figure(label: "MemoryCache", value: perHit, unit: ""), peer: nil,
                measured: Figure(label: "calls per hit", value: perHit, unit: ""), goal: .atMost(0))
        } else {
            Findings.skip(.memoryCache, name, reason: "counted only with the malloc counter preloaded (see Benchmarks/README.md)")
        }
        print("")
    }

    /// Counts malloc calls around a loop of hits with `webimage_malloc_count`, which the
    /// README's counter defines when preloaded with LD_PRELOAD; `nil` without it.
    static func mallocsPerHit() -> Double? {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "webimage_malloc_count") else { return nil }
            let counter = unsafeBitCast(symbol, to: (@convention(c) () -> UInt64).self)
            let setup = Setup()
            let cache = filled(cache(shards: nil), setup)
            hits(cache, setup.keys, setup.order[...])  // warm: nothing lazy left to allocate
            let before = counter()
            hits(cache, setup.keys, setup.order[...])
            let after = counter()
            return Double(after - before) / Double(operations)
        #else
            return nil
        #endif
    }
}
