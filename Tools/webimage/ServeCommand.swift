import ArgumentParser
import Foundation
import WebImageTestServer

/// `webimage serve DIR`: serves a directory on 127.0.0.1 with the project's loopback
/// server until interrupted, for trying `fetch` and `prefetch` against a real server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a directory over HTTP (or HTTPS with HTTP/2) on 127.0.0.1 until interrupted.",
        discussion: """
            The files are served under /files/ with validators (ETag, Last-Modified) and \
            Cache-Control: max-age=3600, so conditional requests (fetch --refresh) get \
            304s. The base URL is printed first, then the URL of each file there at start \
            (files added later are served too; hidden ones are served but not listed).

            With --tls the server speaks HTTPS, HTTP/2 or HTTP/1.1 by ALPN, with a \
            certificate for 127.0.0.1 and localhost issued by a certificate authority \
            made at start. The CA's certificate is written to a PEM file (--ca-out, else \
            a temporary file removed at exit) whose path is printed, with the \
            certificate's public-key pin, for `webimage fetch --ca-file PEM \
            [--pin-public-key PIN]`.

            Without --port the system picks a free port.

            SIGINT (Ctrl-C) or SIGTERM stops the server cleanly; the exit status is then 0.
            """
    )

    @Argument(help: "The directory to serve.")
    var directory: String

    @Option(help: ArgumentHelp("Listen on this port of 127.0.0.1 (default: one the system picks).", valueName: "n"))
    var port: Int?

    @Flag(help: "Serve HTTPS (HTTP/2 by ALPN) with a certificate from a CA made at start.")
    var tls = false

    @Option(
        name: .customLong("ca-out"), help: ArgumentHelp("With --tls: write the CA certificate to this file and keep it.", valueName: "pem"))
    var certificateAuthorityOutput: String?

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("not a directory: \(directory)")
        }
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be within 1...65535") }
        if certificateAuthorityOutput != nil, !tls { throw ValidationError("--ca-out needs --tls") }
    }

    func run() async throws {
        // Installed first, so a signal during the start-up is not lost.
        let signals = TerminationSignals()
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        let certificates = try tls ? ServerCertificates.make(keepingAt: certificateAuthorityOutput) : nil
        let server: LoopbackServer
        do {
            server = try await LoopbackServer.start(
                .init(tls: certificates?.identity, documentRoot: root, http2: true, recordsRequests: false, port: port ?? 0))
        } catch {
            certificates?.removeTemporaryFile()  // a port in use, say
            throw error
        }
        let scheme = tls ? "https" : "http"
        announce(root: root, base: URL(string: "\(scheme)://127.0.0.1:\(server.port)/files/")!, certificates: certificates)

        let received = await signals.next()
        try await server.shutdown()
        certificates?.removeTemporaryFile()
        Console.line("stopped (\(received.map(TerminationSignals.name) ?? "end of signals"))")
    }

    /// What a user needs to fetch from the server, base URL first so that a script can
    /// read it from the first line.
    private func announce(root: URL, base: URL, certificates: ServerCertificates?) {
        Console.line("base URL: \(base.absoluteString)")
        Console.line("serving: \(root.path) over \(tls ? "HTTPS (HTTP/2 or HTTP/1.1 by ALPN)" : "HTTP/1.1")")
        if let certificates {
            Console.line("CA file: \(certificates.authorityFile.path)")
            Console.line("public-key pin: sha256//\(certificates.identity.publicKeySHA256Base64)")
        }
        let files = ServedFiles.relativePaths(in: root)
        Console.line("files: \(files.count)")
        for file in files {
            Console.line(ServedFiles.url(base: base, relativePath: file).absoluteString)
        }
        Console.line("stop with Ctrl-C (SIGINT) or SIGTERM")
    }
}
