import Foundation

/// nginx on 127.0.0.1 at a free port, serving a certificate chain over TLS and stapling
/// an OCSP response file (`ssl_stapling_file`), or nothing. Started by the test in a
/// folder of its own (`-p prefix -c conf`, one process, no daemon) and stopped by its
/// pid in `stop()` or `deinit`. Its access log says whether any request arrived.
public final class StaplingServer: @unchecked Sendable {
    public let port: Int
    private let folder: TemporaryDirectory
    private let process: SpawnedProcess

    /// - Parameters:
    ///   - chain: PEM file: the server certificate, then its issuer (nginx staples only
    ///     when it finds the issuer there).
    ///   - key: its private key.
    ///   - stapling: the DER OCSP response to staple, or `nil` to staple nothing.
    ///   - protocols: nginx's `ssl_protocols`.
    ///   - files: a folder to serve; without one every path answers a short text.
    ///   - keepsConnections: `false` closes each connection after its response, so that
    ///     every request needs a handshake of its own.
    public init(
        chain: URL, key: URL, stapling: URL?, protocols: String = "TLSv1.2 TLSv1.3", files: URL? = nil, keepsConnections: Bool = true
    ) throws {
        guard let nginx = ExternalProgram.locate("nginx") else { throw ExternalProgram.Failed(description: "nginx not found") }
        folder = try TemporaryDirectory()
        let root = folder.path
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let configuration = Self.configuration(
                root: root, port: port, chain: chain.path, key: key.path, stapling: stapling?.path, protocols: protocols,
                files: files?.path, keepsConnections: keepsConnections)
            try configuration.write(to: folder.url.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            let process = try SpawnedProcess(nginx, ["-p", root, "-c", "\(root)/nginx.conf"])
            if LoopbackPort.awaitListening(port, while: { process.isRunning }) {
                self.port = port
                self.process = process
                return
            }
            process.stop()
            lastError = ExternalProgram.Failed(
                description: "nginx did not start: \((try? String(contentsOfFile: "\(root)/error.log", encoding: .utf8)) ?? "")")
        }
        throw lastError ?? ExternalProgram.Failed(description: "nginx did not start")
    }

    deinit { stop() }

    public var url: URL { url("image") }

    /// The URL of a path on this server.
    public func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)/\(path)")! }

    /// Lines of the access log: one per request nginx received.
    public var requests: [String] {
        let text = (try? String(contentsOfFile: "\(folder.path)/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops nginx (SIGTERM to its pid) and waits for it to exit. It writes each access
    /// log line when the request ends, just after the last byte is sent, in the same
    /// event handler, and acts on the signal only between handlers: once it has exited,
    /// the log has a line for every request a client saw answered.
    public func stop() { process.stop() }

    private static func configuration(
        root: String, port: Int, chain: String, key: String, stapling: String?, protocols: String, files: String?,
        keepsConnections: Bool
    ) -> String {
        let content = files.map { "root \($0);" } ?? "return 200 \"image bytes\\n\";"
        let staple = stapling.map { "ssl_stapling on;\n        ssl_stapling_file \($0);" } ?? "ssl_stapling off;"
        return """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log info;
            events { worker_connections 64; }
            http {
                access_log \(root)/access.log;
                \(keepsConnections ? "" : "keepalive_timeout 0;")
                client_body_temp_path \(root)/tmp;
                proxy_temp_path \(root)/tmp;
                fastcgi_temp_path \(root)/tmp;
                uwsgi_temp_path \(root)/tmp;
                scgi_temp_path \(root)/tmp;
                server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(chain);
                    ssl_certificate_key \(key);
                    ssl_protocols \(protocols);
                    \(staple)
                    location / { \(content) }
                }
            }
            """
    }
}
