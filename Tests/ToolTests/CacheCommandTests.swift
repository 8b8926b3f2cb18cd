import Foundation
import Testing

@Suite("webimage cache")
struct CacheCommandTests {
    @Test("stats counts what fetch stored; clear empties it")
    func statsAndClear() throws {
        try withServedInputs { server, folder in
            let cache = ["--cache-dir", folder.appendingPathComponent("cache").path]
            let empty = try WebImageProgram.run(["cache", "stats"] + cache)
            #expect(empty.status == 0, "a cache not made yet is empty, not an error")
            #expect(empty.lines.contains("entries: 0"))

            let fetched = try WebImageProgram.run(["fetch"] + cache + [server.url("photo.jpg"), server.url("icon.png")])
            #expect(fetched.status == 0, "\(fetched.errors)")

            let stats = try WebImageProgram.run(["cache", "stats"] + cache)
            #expect(stats.status == 0)
            #expect(stats.lines.contains("entries: 2"), "\(stats.output)")
            let size = try #require(ServedFolder.value(of: "size", in: stats.lines))
            let bytes = try #require(Int(size.prefix { $0.isNumber }))
            let served = try ["photo.jpg", "icon.png"].reduce(0) {
                $0 + (try Data(contentsOf: folder.appendingPathComponent("files/\($1)")).count)
            }
            #expect(bytes > served, "each entry holds the image's bytes and a little metadata")

            let cleared = try WebImageProgram.run(["cache", "clear"] + cache)
            #expect(cleared.status == 0)
            #expect(cleared.output.contains("removed 2 entries"))
            let after = try WebImageProgram.run(["cache", "stats"] + cache)
            #expect(after.lines.contains("entries: 0"))
            #expect(after.lines.contains("size: 0 bytes"))
        }
    }

    @Test("clear also removes the partial downloads kept beside the cache")
    func clearPartialDownloads() throws {
        try withServedInputs { server, folder in
            let cache = ["--cache-dir", folder.appendingPathComponent("cache").path]
            // The server resets the first request after 40 000 of 100 000 bytes: the part
            // that arrived is kept, with its strong ETag.
            let broken = server.url("x").replacingOccurrences(of: "/files/x", with: "/range/tool?bytes=100000&first=reset&after=40000")
            let fetched = try WebImageProgram.run(["fetch"] + cache + [broken])
            #expect(fetched.status != 0, "the reset fails the load")
            let partial = folder.appendingPathComponent("cache/partial-downloads")
            let kept = try FileManager.default.contentsOfDirectory(atPath: partial.path).filter { !$0.hasPrefix(".") }
            #expect(kept.count == 1, "\(kept)")

            let cleared = try WebImageProgram.run(["cache", "clear"] + cache)
            #expect(cleared.status == 0, "\(cleared.errors)")
            #expect(cleared.output.contains("removed 1 partial downloads"), "\(cleared.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: partial.path).filter { !$0.hasPrefix(".") }.isEmpty)
        }
    }
}
