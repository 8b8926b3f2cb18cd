import ArgumentParser
import Foundation
import WebImage
import WebImageSharedCache

/// `webimage cache stats|clear`: looks into, or empties, the disk cache that `fetch` and
/// `prefetch` fill.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, empty or purge a source from the disk cache (and show the shared tier's nodes).",
        discussion: """
            The cache is the one `fetch` and `prefetch` use: the library's default \
            directory, or --cache-dir. Only the entries are counted and removed; the \
            directories stay.
            """,
        subcommands: [CacheStatsCommand.self, CacheClearCommand.self, CachePurgeCommand.self]
    )
}

/// `webimage cache stats`: where the cache is, how many entries, how many bytes.
struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print the disk cache's directory, entry count and total size.",
        discussion: """
            A directory that does not exist yet is an empty cache, not an error. With \
            --shared-cache, each node of the shared tier follows: its entries and their \
            bytes, the node's memory use and limit and its eviction policy, or why it \
            did not answer (the exit status is then non-zero).
            """
    )

    @OptionGroup var cacheDirectory: CacheDirectoryOption

    @OptionGroup var sharedCache: SharedCacheOption

    func run() throws {
        let cache = cacheDirectory.diskCache()
        Console.line("directory: \(cache.directoryURL.path)")
        Console.line("entries: \(cache.count)")
        Console.line("size: \(Measurements.text(bytes: cache.totalSize))")
        guard let shared = try sharedCache.sharedCache() else { return }
        var unreachable = 0
        for node in shared.statisticsNow() {
            guard node.isReachable else {
                unreachable += 1
                Console.line("shared \(node.address): unreachable (\(node.failure ?? "no answer"))")
                continue
            }
            let memory = node.usedMemory.map { Measurements.text(bytes: $0) } ?? "?"
            let limit = node.maximumMemory.map { $0 == 0 ? "no limit" : Measurements.text(bytes: $0) } ?? "?"
            Console.line(
                "shared \(node.address): \(node.entries) entries, \(Measurements.text(bytes: node.bytes)); "
                    + "memory \(memory) of \(limit), policy \(node.evictionPolicy ?? "?")")
        }
        if unreachable > 0 { throw ExitCode.failure }
    }
}

/// `webimage cache clear`: removes every entry.
struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every entry of the disk cache, and the partial downloads kept beside it."
    )

    @OptionGroup var cacheDirectory: CacheDirectoryOption

    func run() throws {
        let cache = cacheDirectory.diskCache()
        let (count, size) = (cache.count, cache.totalSize)
        cache.removeAll()
        Console.line("removed \(count) entries (\(Measurements.text(bytes: size))) from \(cache.directoryURL.path)")
        if let partial = cacheDirectory.partialDownloads(), partial.count > 0 {
            let (partialCount, partialSize) = (partial.count, partial.totalSize)
            partial.removeAll()
            Console.line("removed \(partialCount) partial downloads (\(Measurements.text(bytes: partialSize)))")
        }
        // Counted again from a fresh scan of the directory, not from what this cache
        // object believes: another process may have stored entries meanwhile.
        let left = cacheDirectory.diskCache().count
        Console.line("entries: \(left)")
        if left > 0 {
            Console.note("\(left) entries are still there: another process is writing to this cache")
            throw ExitCode.failure
        }
    }
}
