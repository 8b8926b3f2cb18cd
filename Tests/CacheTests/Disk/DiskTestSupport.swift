import Foundation
import Synchronization
import WebImageTestSupport

@testable import WebImageCache
@testable import WebImageCore

#if canImport(Glibc)
    import Glibc
    @testable import WebImageConcurrency
#endif

/// A clock the test moves by hand, so that dates and eviction orders are exact.
final class TestClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_700_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

extension CachedResponseMetadata {
    /// Metadata with every field set (a fractional stored time included), of
    /// `contentType`: what a round trip must give back whole.
    static func everyField(contentType: String) -> CachedResponseMetadata {
        CachedResponseMetadata(
            contentType: contentType, etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
            maxAge: 3600, storedAt: Date(timeIntervalSince1970: 1_600_000_000.25))
    }
}

extension DiskCache {
    /// A cache in `directory` driven by `clock`, with the given limits.
    static func testCache(
        in directory: TemporaryDirectory, clock: TestClock? = nil, maximumSize: Int = 256 << 20,
        maximumAge: TimeInterval? = nil, expiry: ExpiryDate = .accessDate, fanOut: Bool = true
    ) -> DiskCache {
        var configuration = Configuration(directory: directory.url, namespace: "tests")
        configuration.maximumSize = maximumSize
        configuration.maximumAge = maximumAge
        configuration.expiryDate = expiry
        configuration.usesFanOut = fanOut
        if let clock { configuration.clock = { clock.now } }
        return DiskCache(configuration)
    }

    /// The file that holds `key`'s entry.
    func entryPath(_ key: CacheKey) -> String {
        let name = SHA256Digest.hex(key.string.utf8)
        return directoryURL.path + (configuration.usesFanOut ? "/\(name.prefix(2))" : "") + "/\(name)"
    }
}

/// Every regular file under `root`, as paths relative to it.
func filesUnder(_ root: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    return walker.compactMap { item -> String? in
        guard let relative = item as? String else { return nil }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
        return exists && !isDirectory.boolValue ? relative : nil
    }
}

/// The payload a writer stores for a key (see ``Payload``).
func payload(tag: String, key: String, minimum: Int, spread: Int) -> Data {
    Payload.bytes(tag: tag, key: key, minimum: minimum, spread: spread)
}

/// The `webimage-cache-writer` executable, run as a second process.
enum CacheWriter {
    /// The executable beside the test bundle (both live in the build products folder).
    static func locate() throws -> URL {
        try BuiltExecutable.locate("webimage-cache-writer")
    }

    /// Starts the writer with its output on a pipe.
    static func start(_ arguments: [String]) throws -> (process: SpawnedProcess, output: FileHandle) {
        let process = try SpawnedProcess(try locate().path, arguments, output: .pipe, errors: .discard)
        return (process, process.output!)
    }

    /// Runs the writer to the end: its exit status and output lines.
    static func run(_ arguments: [String]) throws -> (status: Int32, lines: [String]) {
        let (process, output) = try start(arguments)
        let data = output.readDataToEndOfFile()
        return (process.waitForExit().status, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}
