import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("webimage serve")
struct ServeCommandTests {
    @Test("prints the base URL first, then each file's URL; SIGTERM stops it cleanly")
    func announceAndStop() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try DecodeCommandTests.makeInputs(in: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub dir"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("sub dir/a#b.txt"))

        let server = try ServedFolder(folder)
        #expect(server.announcement[0].hasPrefix("base URL: http://127.0.0.1:"))
        #expect(server.baseURL.absoluteString.hasSuffix("/files/"))
        let base = server.baseURL.absoluteString
        let listed = server.announcement.filter { $0.hasPrefix(base) }
        #expect(listed == ["icon.png", "notes.txt", "photo.jpg", "spin.gif", "sub%20dir/a%23b.txt"].map { base + $0 })

        // A listed URL really serves its file (the encoded name included).
        let fetched = try WebImageProgram.run(["fetch", "--json", "--no-disk-cache", base + "sub%20dir/a%23b.txt"])
        #expect(try DecodeCommandTests.json(fetched.lines[0])["error"] as? String != nil, "not an image, but found")
        #expect(!(try DecodeCommandTests.json(fetched.lines[0])["error"] as? String ?? "").contains("404"))

        let stopped = server.stop(signal: SIGTERM)
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("stopped (SIGTERM)"))
    }

    @Test("SIGINT (Ctrl-C) stops it cleanly too")
    func interrupt() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServedFolder(folder)
        #expect(server.value(of: "files") == "0")
        let stopped = server.stop(signal: SIGINT)
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("stopped (SIGINT)"))
    }

    @Test("--port serves on that port (relayed below TLS, so HTTPS works through it)")
    func chosenPort() throws {
        let port = try Self.freePort()
        try withServedInputs(arguments: ["--tls", "--port", String(port)]) { server, _ in
            #expect(server.baseURL.absoluteString == "https://127.0.0.1:\(port)/files/")
            let caFile = try #require(server.value(of: "CA file"))
            let run = try WebImageProgram.run([
                "fetch", "--json", "--no-disk-cache", "--ca-file", caFile, server.url("photo.jpg"), server.url("icon.png"),
            ])
            #expect(run.status == 0, "\(run.output)")
            #expect(try run.lines.map { try DecodeCommandTests.json($0)["httpStatus"] as? Int } == [200, 200])
        }
    }

    @Test("a missing directory is refused")
    func missingDirectory() throws {
        let run = try WebImageProgram.run(["serve", "/nonexistent/folder"])
        #expect(run.status != 0)
        #expect(run.errors.contains("not a directory"))
    }

    /// A port nothing listens on now (the system's pick for a socket closed at once).
    static func freePort() throws -> Int {
        #if canImport(Glibc)
            let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socketFD = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(socketFD >= 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socketFD, pointer, length) == 0 && getsockname(socketFD, pointer, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
