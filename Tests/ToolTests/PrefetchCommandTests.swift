import Foundation
import Testing

@Suite("webimage prefetch")
struct PrefetchCommandTests {
    @Test("fills the disk cache from a list (comments and blank lines skipped), counts each outcome, fails on a failure")
    func prefetch() throws {
        try withServedInputs { server, folder in
            let cache = ["--cache-dir", folder.appendingPathComponent("cache").path]
            let list = folder.appendingPathComponent("urls.txt")
            try """
            # the pictures
            \(server.url("photo.jpg"))

              \(server.url("spin.gif"))  
            \(server.url("gone.png"))
            """.write(to: list, atomically: true, encoding: .utf8)

            let first = try WebImageProgram.run(["prefetch", "--list", list.path] + cache)
            #expect(first.status != 0, "gone.png is a 404")
            #expect(first.output.contains("3 URLs: 2 fetched, 0 cached, 1 failed, 0 cancelled"), "\(first.output)")

            let good = folder.appendingPathComponent("good.txt")
            try "\(server.url("photo.jpg"))\n\(server.url("spin.gif"))\n".write(to: good, atomically: true, encoding: .utf8)
            let second = try WebImageProgram.run(["prefetch", "--list", good.path] + cache)
            #expect(second.status == 0, "\(second.errors)")
            #expect(second.output.contains("2 URLs: 0 fetched, 2 cached, 0 failed, 0 cancelled"), "\(second.output)")

            // What the prefetch stored is what fetch then reads.
            let fetched = try WebImageProgram.run(["fetch", "--json"] + cache + [server.url("photo.jpg"), server.url("spin.gif")])
            #expect(try fetched.lines.map { try DecodeCommandTests.json($0)["source"] as? String } == ["disk", "disk"])
            #expect(try DecodeCommandTests.json(fetched.lines[1])["frames"] as? Int == 5)
        }
    }

    @Test("--decode counts a body that is not an image as failed, and does not keep it")
    func decode() throws {
        try withServedInputs { server, folder in
            let cache = ["--cache-dir", folder.appendingPathComponent("cache").path]
            let list = folder.appendingPathComponent("urls.txt")
            try "\(server.url("notes.txt"))\n".write(to: list, atomically: true, encoding: .utf8)
            let decoded = try WebImageProgram.run(["prefetch", "--decode", "--list", list.path] + cache)
            #expect(decoded.status != 0)
            #expect(decoded.output.contains("0 fetched, 0 cached, 1 failed"))
            let stats = try WebImageProgram.run(["cache", "stats"] + cache)
            #expect(stats.lines.contains("entries: 0"))
        }
    }

    @Test("a line that is not a URL is refused with its line number, before any download")
    func badList() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("urls.txt")
        try "# fine\nhttp://127.0.0.1:9/a.png\nhttps:/nohost\n".write(to: list, atomically: true, encoding: .utf8)
        let run = try WebImageProgram.run(["prefetch", "--list", list.path, "--cache-dir", folder.path])
        #expect(run.status != 0)
        #expect(run.errors.contains("urls.txt:3: not a URL"))
    }
}
