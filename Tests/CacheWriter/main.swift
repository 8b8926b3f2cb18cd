// webimage-cache-writer: a second process for the disk cache tests.
//
//   loop <directory> <namespace>                   stores large entries from four threads until killed,
//                                                  saying "stored <key>" after each
//   race <directory> <namespace> <tag> <count>     stores keys race-0..<count> with its own values
//   unwritable <directory> <namespace> <key>       (as nobody when run as root) tries a store, reads <key>
//   fsize <directory> <namespace> <limit>          under RLIMIT_FSIZE, a small store then a large one
//   variants <directory> <namespace> <source> <tag> <count>
//                                                  stores variants variant/<tag>-0..<count> of <source>,
//                                                  saying "stored <n>" after each 100th
//
// Each mode prints one line per fact the test checks, and exits 0 unless the arguments
// are wrong or the cache could not be used at all.
import Foundation
import WebImageCache
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("webimage-cache-writer: \(message)\n".utf8))
    exit(2)
}

func say(_ line: String) {
    print(line)
    fflush(nil)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else { fail("usage: loop|race|unwritable|fsize|variants <directory> <namespace> ...") }
let cache = DiskCache(Configuration(directory: URL(fileURLWithPath: arguments[1]), namespace: arguments[2]))
typealias Configuration = DiskCache.Configuration

func store(_ data: Data, _ key: String) -> CacheError? {
    do throws(CacheError) {
        try cache.store(data, metadata: CachedResponseMetadata(contentType: "application/octet-stream", etag: key), forKey: CacheKey(key))
        return nil
    } catch {
        return error
    }
}

switch arguments[0] {
case "loop":
    // Values made first, so that the loop is almost all writing and renaming and a kill
    // lands mid-write as often as possible.
    let keys = (0..<24).map { "kill-\($0)" }
    let values = keys.map { Payload.bytes(tag: "kill", key: $0, minimum: 400_000, spread: 600_000) }
    say("ready")
    // Four writers at once, so that at any moment some entry is likely half written.
    let shared = cache
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
        var round = worker * 5
        while true {
            let index = round % keys.count
            do throws(CacheError) {
                try shared.store(
                    values[index], metadata: CachedResponseMetadata(contentType: "application/octet-stream", etag: keys[index]),
                    forKey: CacheKey(keys[index]))
            } catch {
                fail("store: \(error)")
            }
            // The test's signal to kill: the other threads are then mid-write.
            say("stored \(keys[index])")
            round += 1
        }
    }

case "race":
    guard arguments.count == 5, let count = Int(arguments[4]) else { fail("race needs <tag> <count>") }
    let tag = arguments[3]
    for round in 0..<6 {
        for index in 0..<count {
            let key = "race-\((index + round) % count)"
            if let error = store(Payload.bytes(tag: tag, key: key, minimum: 20_000, spread: 200_000), key) { fail("store: \(error)") }
        }
    }
    say("done")

case "unwritable":
    guard arguments.count == 4 else { fail("unwritable needs <key>") }
    if geteuid() == 0 {
        // Root ignores permission bits; nobody does not.
        guard setgid(65534) == 0, setuid(65534) == 0 else { fail("cannot become nobody") }
    }
    say("uid \(geteuid())")
    if let error = store(Data("new".utf8), "new-entry") { say("store \(error.code)") } else { say("store ok") }
    say(cache.response(forKey: CacheKey(arguments[3])) == nil ? "read miss" : "read hit")

case "fsize":
    guard arguments.count == 4, let limit = Int(arguments[3]) else { fail("fsize needs <limit>") }
    // Without this the kernel kills the process at the limit instead of failing the write.
    signal(SIGXFSZ, SIG_IGN)
    var bound = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &bound) == 0 else { fail("setrlimit") }
    let small = Payload.bytes(tag: "fsize", key: "small", minimum: limit / 4, spread: 1)
    if let error = store(small, "small") { say("small \(error.code)") } else { say("small ok") }
    let large = Payload.bytes(tag: "fsize", key: "large", minimum: limit * 4, spread: 1)
    if let error = store(large, "large") { say("large \(error.code) errno \(error.errno ?? 0)") } else { say("large ok") }
    say(cache.response(forKey: "small")?.data == small ? "small reads back" : "small lost")
    say(cache.response(forKey: "large") == nil ? "large absent" : "large present")

case "variants":
    guard arguments.count == 6, let count = Int(arguments[5]) else { fail("variants needs <source> <tag> <count>") }
    let source = CacheKey(arguments[3])
    for index in 0..<count {
        let key = CacheKey("variant/\(arguments[4])-\(index)")
        do throws(CacheError) {
            try cache.storeVariant(
                Data(key.string.utf8), metadata: CachedResponseMetadata(contentType: "image/png"), forKey: key, ofSource: source)
        } catch {
            fail("store: \(error)")
        }
        if (index + 1) % 100 == 0 { say("stored \(index + 1)") }
    }
    say("done")

default:
    fail("unknown mode \(arguments[0])")
}
