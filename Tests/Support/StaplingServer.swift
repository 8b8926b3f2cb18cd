import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx on 127.0.0.1 at a free port, serving a certificate chain over TLS and stapling
/// an OCSP response file (`ssl_stapling_file`), or nothing. Started by the test in a
/// folder of its own (`-p prefix -c conf`, one process, no daemon) and stopped by its
/// pid in `stop()` or `deinit`. Its access log says whether any request arrived.
public final class StaplingServer: @unchecked Sendable {
    public let port: Int
    private let folder: TemporaryDirectory
    private let process: Process

    /// - Parameters:
    ///   - chain: PEM file: the server certificate, then its issuer (nginx staples only
    ///     when it finds the issuer there).
    ///   - key: its private key.
    ///   - stapling: the DER OCSP response to staple, or `nil` to staple nothing.
    ///   - protocols: nginx's `ssl_protocols`.
    ///   - files: a folder to serve; without one every path answers a short text.
    public init(chain: URL, key: URL, stapling: URL?, protocols: String = "TLSv1.2 TLSv1.3", files: URL? = nil) throws {
        guard let nginx = ExternalProgram.locate("nginx") else { throw ExternalProgram.Failed(description: "nginx not found") }
        folder = try TemporaryDirectory()
        let root = folder.path
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try Self.freePort()
            let configuration = Self.configuration(
                root: root, port: port, chain: chain.path, key: key.path, stapling: stapling?.path, protocols: protocols,
                files: files?.path)
            try configuration.write(to: folder.url.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: nginx)
            process.arguments = ["-p", root, "-c", "\(root)/nginx.conf"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.awaitListening(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            Self.stop(process)
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

    /// Stops nginx (its pid only) and waits for it to exit.
    public func stop() { Self.stop(process) }

    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        // SIGKILL: nginx without a master process inherits the test process's signal
        // mask, in which SIGTERM may be blocked. It writes each access log line when the
        // request ends, just after the last byte is sent: a client can read that byte
        // first, and a kill at once lost the line once on a busy machine. A moment's
        // grace lets the line be written.
        usleep(50_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func configuration(
        root: String, port: Int, chain: String, key: String, stapling: String?, protocols: String, files: String?
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

    /// A port the kernel just gave out (nginx may lose a race for it: the caller retries).
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ExternalProgram.Failed(description: "socket() failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ExternalProgram.Failed(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Connects until nginx accepts (true) or exits (false), for at most ten seconds.
    private static func awaitListening(port: Int, process: Process) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, process.isRunning {
            if canConnect(port: port) { return true }
            usleep(20_000)
        }
        return false
    }

    private static func canConnect(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
