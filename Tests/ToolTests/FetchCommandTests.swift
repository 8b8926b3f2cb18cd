import Foundation
import Testing
import WebImageCore
import WebImageDecoding

@Suite("webimage fetch")
struct FetchCommandTests {
    static let jsonKeys: Set<String> = ["url", "format", "width", "height", "frames", "source", "bytes", "httpStatus", "ms", "error"]

    @Test("--json: one line per URL in order, network then disk on a second run, and a 404 fails the run")
    func jsonLinesAndSources() throws {
        try withServedInputs { server, folder in
            let cache = folder.appendingPathComponent("cache").path
            let photoBytes = try Data(contentsOf: folder.appendingPathComponent("files/photo.jpg")).count
            let urls = [server.url("photo.jpg"), server.url("icon.png"), server.url("missing.png")]

            let cold = try WebImageProgram.run(["fetch", "--json", "--cache-dir", cache] + urls)
            #expect(cold.status != 0, "one URL is a 404, so the run fails")
            #expect(cold.lines.count == 3, "\(cold.output)")
            let lines = try cold.lines.map(DecodeCommandTests.json)
            for line in lines { #expect(Set(line.keys) == Self.jsonKeys) }
            #expect(lines.map { $0["url"] as? String } == urls)

            let photo = lines[0]
            #expect(photo["format"] as? String == "jpeg")
            #expect(photo["width"] as? Int == 320)
            #expect(photo["height"] as? Int == 200)
            #expect(photo["frames"] as? Int == 1)
            #expect(photo["source"] as? String == "network")
            #expect(photo["bytes"] as? Int == photoBytes)
            #expect(photo["httpStatus"] as? Int == 200)
            #expect(photo["ms"] is NSNumber)
            #expect(photo["error"] is NSNull)
            #expect(lines[1]["format"] as? String == "png")
            #expect(lines[1]["width"] as? Int == 64)

            let missing = lines[2]
            #expect(missing["httpStatus"] as? Int == 404)
            #expect(missing["source"] is NSNull)
            #expect(missing["format"] is NSNull)
            #expect(missing["width"] is NSNull)
            #expect((missing["error"] as? String)?.contains("404") == true)

            // A new process, so no memory cache: the same directory answers from disk.
            let warm = try WebImageProgram.run(["fetch", "--json", "--cache-dir", cache] + urls.prefix(2))
            #expect(warm.status == 0, "\(warm.errors)")
            let again = try warm.lines.map(DecodeCommandTests.json)
            #expect(again.map { $0["source"] as? String } == ["disk", "disk"])
            #expect(again[0]["httpStatus"] is NSNull, "nothing was asked of the server")
            #expect(again[0]["bytes"] as? Int == photoBytes)
            #expect(again[0]["width"] as? Int == 320)
        }
    }

    @Test("--refresh revalidates the cached copy: source revalidated, status 304")
    func refresh() throws {
        try withServedInputs { server, folder in
            let cache = ["--cache-dir", folder.appendingPathComponent("cache").path]
            let first = try WebImageProgram.run(["fetch", "--json"] + cache + [server.url("icon.png")])
            #expect(try DecodeCommandTests.json(first.lines[0])["source"] as? String == "network")
            let refreshed = try WebImageProgram.run(["fetch", "--json", "--refresh"] + cache + [server.url("icon.png")])
            #expect(refreshed.status == 0, "\(refreshed.errors)")
            let line = try DecodeCommandTests.json(refreshed.lines[0])
            #expect(line["source"] as? String == "revalidated")
            #expect(line["httpStatus"] as? Int == 304)
        }
    }

    @Test("a stale copy is revalidated without --refresh (source revalidated); --cache-policy always uses it as it is (disk)")
    func staleCopy() throws {
        try withServedInputs { server, folder in
            let cache = ["--cache-dir", folder.appendingPathComponent("cache").path]
            // The server's /cache/ route: fresh for 60 s, but already 120 s old.
            let stale = server.url("icon.png").replacingOccurrences(of: "/files/", with: "/cache/") + "?cc=max-age%3D60&age=120"
            let first = try WebImageProgram.run(["fetch", "--json"] + cache + [stale])
            #expect(try DecodeCommandTests.json(first.lines[0])["source"] as? String == "network", "\(first.errors)")
            let again = try WebImageProgram.run(["fetch", "--json"] + cache + [stale])
            let line = try DecodeCommandTests.json(again.lines[0])
            #expect(line["source"] as? String == "revalidated")
            #expect(line["httpStatus"] as? Int == 304)
            let always = try WebImageProgram.run(["fetch", "--json", "--cache-policy", "always"] + cache + [stale])
            #expect(try DecodeCommandTests.json(always.lines[0])["source"] as? String == "disk")
        }
    }

    @Test("--public-only refuses the loopback server; --allow-host admits only the hosts it names")
    func urlPolicyFlags() throws {
        try withServedInputs { server, _ in
            let url = server.url("icon.png")
            func error(_ run: WebImageProgram.Run) throws -> String {
                try DecodeCommandTests.json(run.lines[0])["error"] as? String ?? ""
            }
            let publicOnly = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache", "--public-only", url])
            #expect(publicOnly.status != 0)
            #expect(try error(publicOnly).contains("refusedByPolicy: the address 127.0.0.1 is loopback, not public"))

            let elsewhere = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache", "--allow-host", "images.example.com", url])
            #expect(elsewhere.status != 0)
            #expect(try error(elsewhere).contains("the host 127.0.0.1 is not on the allowed list"))

            let allowed = try WebImageProgram.run([
                "fetch", "--json", "--no-disk-cache", "--allow-host", "images.example.com", "--allow-host", "127.0.0.1", url,
            ])
            #expect(allowed.status == 0, "\(allowed.errors)")
            #expect(try DecodeCommandTests.json(allowed.lines[0])["source"] as? String == "network")
        }
    }

    @Test("--no-disk-cache stores nothing, so a second run downloads again")
    func noDiskCache() throws {
        try withServedInputs { server, folder in
            let cache = folder.appendingPathComponent("cache").path
            for _ in 0..<2 {
                let run = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache", "--cache-dir", cache, server.url("icon.png")])
                #expect(try DecodeCommandTests.json(run.lines[0])["source"] as? String == "network")
            }
            let stats = try WebImageProgram.run(["cache", "stats", "--cache-dir", cache])
            #expect(stats.lines.contains("entries: 0"))
        }
    }

    @Test("the table has a row per URL with size, source and status, and an error column for failures")
    func table() throws {
        try withServedInputs { server, folder in
            let run = try WebImageProgram.run([
                "fetch", "--no-disk-cache", "--max-pixel-size", "80", "--first-frame", server.url("photo.jpg"),
                server.url("spin.gif"), server.url("notes.txt"),
            ])
            #expect(run.status != 0, "notes.txt is not an image")
            #expect(run.lines.count == 4)
            #expect(run.lines[0].hasSuffix("error"))
            let rows = run.lines.map { $0.split(separator: " ").map(String.init) }
            #expect(rows[0].prefix(8) == ["url", "format", "size", "frames", "source", "bytes", "status", "ms"])
            #expect(rows[1][1...4] == ["jpeg", "80x50", "1", "network"], "--max-pixel-size reaches the decoder")
            #expect(rows[2][1...4] == ["gif", "40x30", "1", "network"], "--first-frame keeps one frame")
            #expect(rows[2][6] == "200")
            #expect(rows[3][1...4] == ["-", "-", "-", "-"])
            #expect(run.lines[3].contains("decoding failed"))
            #expect(run.errors.contains("1 of 3 loads failed"))
        }
    }

    @Test("--contact-sheet writes one PNG: 160x160 cells in a grid, thumbnails centred on grey, never enlarged")
    func contactSheet() throws {
        try withServedInputs { server, folder in
            let sheetFile = folder.appendingPathComponent("sheet.png")
            let run = try WebImageProgram.run([
                "fetch", "--no-disk-cache", "--contact-sheet", sheetFile.path,
                server.url("photo.jpg"), server.url("icon.png"), server.url("spin.gif"),
            ])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("contact sheet: \(sheetFile.path)"))

            let sheet = try PNGDecoder().decode(try Data(contentsOf: sheetFile)).bitmap
            #expect(sheet.width == 3 * 160, "three images make one row of three cells")
            #expect(sheet.height == 160)
            #expect(sheet.pixelFormat == .rgba8)
            let pixels = sheet.packedBytes
            func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * sheet.width + x) * 4..<(y * sheet.width + x) * 4 + 4]) }
            let grey: [UInt8] = [200, 200, 200, 255]
            #expect(pixel(0, 0) == grey, "the corner of a cell is background")
            #expect(pixel(80, 80) != grey, "the photo fills the middle of the first cell")
            // icon.png is 64x48: kept at that size, centred in the second cell.
            #expect(pixel(160 + 80, 80) != grey)
            #expect(pixel(160 + 80 - 40, 80) == grey, "a small image is not enlarged")
            #expect(pixel(160 + 80, 80 - 30) == grey)
        }
    }

    @Test("--out writes each image as PNG, named after the URL")
    func output() throws {
        try withServedInputs { server, folder in
            let out = folder.appendingPathComponent("out")
            let run = try WebImageProgram.run([
                "fetch", "--no-disk-cache", "--out", out.path, server.url("icon.png"), server.url("spin.gif"),
            ])
            #expect(run.status == 0, "\(run.errors)")
            let written = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
            #expect(written == ["icon.png", "spin-0.png", "spin-1.png", "spin-2.png", "spin-3.png", "spin-4.png"])
            let original = try PNGDecoder().decode(try Data(contentsOf: folder.appendingPathComponent("files/icon.png")))
            let copy = try PNGDecoder().decode(try Data(contentsOf: out.appendingPathComponent("icon.png")))
            #expect(copy.bitmap == original.bitmap)
        }
    }

    @Test("--out --format webp writes NAME.webp, an animation as one animated WebP")
    func outputFormat() throws {
        try withServedInputs { server, folder in
            let out = folder.appendingPathComponent("out")
            let run = try WebImageProgram.run([
                "fetch", "--no-disk-cache", "--out", out.path, "--format", "webp", server.url("icon.png"), server.url("spin.gif"),
            ])
            #expect(run.status == 0, "\(run.errors)")
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["icon.webp", "spin.webp"])
            let spin = try Data(contentsOf: out.appendingPathComponent("spin.webp"))
            #expect(spin.range(of: Data("ANIM".utf8)) != nil, "an animated WebP")
            let badQuality = try WebImageProgram.run(["fetch", "--quality", "101", server.url("icon.png")])
            #expect(badQuality.status != 0)
        }
    }

    @Test("bad arguments are refused before any work")
    func validation() throws {
        let badURL = try WebImageProgram.run(["fetch", "http:/no-host"])
        #expect(badURL.status != 0)
        #expect(badURL.errors.contains("not a URL"))
        let concurrency = try WebImageProgram.run(["fetch", "--concurrency", "0", "http://127.0.0.1:9/x.png"])
        #expect(concurrency.status != 0)
        #expect(concurrency.errors.contains("--concurrency"))
        let pin = try WebImageProgram.run(["fetch", "--pin-public-key", "sha256//short", "http://127.0.0.1:9/x.png"])
        #expect(pin.status != 0)
        #expect(pin.errors.contains("--pin-public-key"))
    }
}
