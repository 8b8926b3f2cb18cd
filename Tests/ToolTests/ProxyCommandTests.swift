import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `webimage proxy` as a user runs it: in front of `webimage serve`, asked with
/// `webimage fetch`, stopped with a signal.
@Suite("webimage proxy")
struct ProxyCommandTests {
    /// The proxy URL of the served `name` with `options`.
    static func url(proxy: URL, origin: ServedFolder, _ name: String, _ options: String, signature: String = "unsafe") -> String {
        let source = origin.url(name).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return proxy.absoluteString + "\(signature)/\(options)/plain/\(source)"
    }

    @Test("prints its base URL, serves thumbnails of what serve serves, and SIGINT stops it with its counts")
    func thumbnails() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try DecodeCommandTests.makeInputs(in: folder)
        let origin = try ServedFolder(folder)
        defer { origin.stop() }
        let proxy = try ServedFolder(running: ["proxy", "--port", "0", "--allow-non-public"])
        #expect(proxy.announcement[0].hasPrefix("base URL: http://127.0.0.1:"))

        let urls = [
            Self.url(proxy: proxy.baseURL, origin: origin, "photo.jpg", "rs:fill:100:100"),
            Self.url(proxy: proxy.baseURL, origin: origin, "icon.png", "rs:fit:32:32/f:webp"),
        ]
        let fetched = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache"] + urls)
        #expect(fetched.status == 0, "\(fetched.output)")
        let answers = try fetched.lines.map { try DecodeCommandTests.json($0) }
        // fetch's Accept lists image/webp (the library reads it), so the format the URL
        // leaves open is WebP.
        #expect(answers.map { $0["format"] as? String } == ["webp", "webp"])
        #expect(answers.map { $0["width"] as? Int } == [100, 32])
        #expect(answers.map { $0["height"] as? Int } == [100, 24])

        let stopped = proxy.stop(signal: SIGINT)
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("stopped: 2 requests, 2 renders"), "\(stopped.output)")
    }

    @Test("with --prefer-avif a client that accepts AVIF gets it; with --enforce-preferred-formats even when the URL names PNG")
    func preferredFormats() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try DecodeCommandTests.makeInputs(in: folder)
        let origin = try ServedFolder(folder)
        defer { origin.stop() }
        let urls = { (proxy: ServedFolder) in
            [
                Self.url(proxy: proxy.baseURL, origin: origin, "photo.jpg", "rs:fit:64:64"),
                Self.url(proxy: proxy.baseURL, origin: origin, "photo.jpg", "rs:fit:64:64/f:png"),
            ]
        }
        // fetch's Accept lists image/avif and image/webp (the library reads both).
        for (flags, expected) in [
            ([], ["webp", "png"]), (["--prefer-avif"], ["avif", "png"]),
            (["--prefer-avif", "--enforce-preferred-formats"], ["avif", "avif"]),
        ] {
            let proxy = try ServedFolder(running: ["proxy", "--port", "0", "--allow-non-public"] + flags)
            let fetched = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache"] + urls(proxy))
            #expect(fetched.status == 0, "\(fetched.output)")
            let formats = try fetched.lines.map { try DecodeCommandTests.json($0)["format"] as? String }
            #expect(formats == expected, "\(flags)")
            _ = proxy.stop(signal: SIGINT)
        }
    }

    @Test("an animated GIF gives its first frame by default; with --max-animation-frames its frames, up to that many")
    func animationFrames() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try DecodeCommandTests.makeInputs(in: folder)
        let origin = try ServedFolder(folder)
        defer { origin.stop() }
        // spin.gif has 5 frames.
        for (flags, expected) in [
            ([String](), [1, 1]), (["--max-animation-frames", "3"], [3, 3]), (["--max-animation-frames", "50"], [5, 5]),
        ] {
            let proxy = try ServedFolder(running: ["proxy", "--port", "0", "--allow-non-public"] + flags)
            let urls = [
                Self.url(proxy: proxy.baseURL, origin: origin, "spin.gif", "rs:fit:20:20/f:webp"),
                Self.url(proxy: proxy.baseURL, origin: origin, "spin.gif", "rs:fit:20:20/f:gif"),
            ]
            let fetched = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache"] + urls)
            #expect(fetched.status == 0, "\(fetched.output)")
            let answers = try fetched.lines.map { try DecodeCommandTests.json($0) }
            #expect(answers.map { $0["format"] as? String } == ["webp", "gif"], "\(flags)")
            #expect(answers.map { $0["frames"] as? Int } == expected, "\(flags)")
            _ = proxy.stop(signal: SIGINT)
        }
    }

    @Test("by default a loopback source is refused (403); with --key and --salt an unsigned URL is too")
    func refusals() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try DecodeCommandTests.makeInputs(in: folder)
        let origin = try ServedFolder(folder)
        defer { origin.stop() }
        for arguments in [["proxy", "--port", "0"], ["proxy", "--port", "0", "--allow-non-public", "--key", "0a0b", "--salt", "0c"]] {
            let proxy = try ServedFolder(running: arguments)
            defer { proxy.stop() }
            let fetched = try WebImageProgram.run([
                "fetch", "--json", "--no-disk-cache", Self.url(proxy: proxy.baseURL, origin: origin, "photo.jpg", "rs:fit:10:10"),
            ])
            #expect(try DecodeCommandTests.json(fetched.lines[0])["httpStatus"] as? Int == 403, "\(arguments): \(fetched.output)")
        }
    }

    @Test(
        "bad settings are refused before it starts",
        arguments: [
            ["--key", "0a"], ["--key", "zz", "--salt", "00"], ["--preset", "thumb"], ["--preset", "thumb=rs:wide:1:1"],
            ["--port", "70000"], ["--max-animation-frames", "0"],
        ])
    func badSettings(arguments: [String]) throws {
        let run = try WebImageProgram.run(["proxy"] + arguments)
        #expect(run.status != 0)
        #expect(run.errors.lowercased().contains("error"), "\(run.errors)")
    }
}
