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
}
