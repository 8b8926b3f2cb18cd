// Stores bytes in a disk cache and values in a memory cache, reads both back, and reopens
// the disk cache as a new process would: the cache module works in an app that depends
// on nothing else.
import Foundation
import WebImageCache
import WebImageCore

func fail(_ message: String) -> Never {
    print("CacheConsumer: \(message)")
    exit(1)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-consumer-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

let key: CacheKey = "https://example.com/images/a.png"
let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
let disk = DiskCache(.init(directory: directory, namespace: "consumer"))
try disk.store(bytes, metadata: .init(contentType: "image/png", etag: "\"v1\""), forKey: key)

let reopened = DiskCache(.init(directory: directory, namespace: "consumer"))
guard let entry = reopened.response(forKey: key) else { fail("the stored entry is missing after reopening") }
guard entry.data == bytes, entry.metadata.etag == "\"v1\"", entry.metadata.contentType == "image/png" else {
    fail("the entry read back differs from the one stored")
}

let memory = MemoryCache<CacheKey, Data>(configuration: .init(costLimit: 1 << 20))
memory.setValue(bytes, forKey: key, cost: bytes.count)
guard memory.value(forKey: key) == bytes else { fail("the memory cache lost its value") }

print("CacheConsumer: \(bytes.count) bytes stored on disk and in memory, read back as written")
