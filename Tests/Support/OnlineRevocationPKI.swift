import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A certificate authority whose server certificates (for 127.0.0.1) name an OCSP
/// responder and a CRL distribution point on loopback, made at test time with `openssl`,
/// and the servers behind those URLs: `openssl ocsp` answering from the intermediate's
/// index (where `revoked` is revoked, keyCompromise), behind nginx, which also serves the
/// intermediate's CRL (`/inter.crl`) and hostile answers (`/garbage/`: text; `/forged/`:
/// a response about `forged` signed by another key under the intermediate's name;
/// `/expired/`: a response about `expired` whose nextUpdate passed nine days ago, when
/// `faketime` exists). nginx's access log counts what was asked.
///
/// The leaves, each `NAME.chain.pem` (with the intermediate) and `NAME.key`:
/// - `good`, `revoked`: the responder at `/` and the list at `/inter.crl`;
/// - `down`: both at a port where nothing listens;
/// - `downThenList`: the responder where nothing listens, the list at `/inter.crl`;
/// - `garbage`, `forged`, `expired`: the responder at `/garbage/`, `/forged/`, `/expired/`;
/// - `held`: the responder at ``held``, which accepts and never answers, and no list.
public final class OnlineRevocationPKI: @unchecked Sendable {
    public let folder: TemporaryDirectory
    /// nginx's port: the URLs the certificates name.
    public let port: Int
    private let refusing: RefusingPort
    /// The `held` leaf's responder: connections accepted and held open, unanswered.
    public let held: HeldConnections
    private let responder: SpawnedProcess
    private let front: SpawnedProcess

    public init() throws {
        guard let nginx = ExternalProgram.locate("nginx"), let openssl = ExternalProgram.locate("openssl") else {
            throw ExternalProgram.Failed(description: "nginx or openssl not found")
        }
        folder = try TemporaryDirectory()
        refusing = try RefusingPort()
        held = try HeldConnections()
        // The responder's port is nginx's business only; nginx's is in the certificates, so
        // a port lost to a race means a new hierarchy.
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                let port = try LoopbackPort.free()
                try ExternalProgram.run(
                    "/bin/sh", ["-c", "FRONT=\(port) DOWN=\(refusing.port) HELD=\(held.port) && " + Self.script], in: folder.url)
                let root = folder.path
                let responderPort = try LoopbackPort.free()
                let responder = try SpawnedProcess(
                    openssl,
                    [
                        "ocsp", "-index", "\(root)/inter/index.txt", "-port", "\(responderPort)", "-rsigner", "\(root)/inter/ca.pem",
                        "-rkey", "\(root)/inter/ca.key", "-CA", "\(root)/inter/ca.pem", "-ndays", "1",
                    ], output: .file(folder.url.appendingPathComponent("responder.log")))
                guard Self.awaitReady(log: folder.url.appendingPathComponent("responder.log"), while: { responder.isRunning }) else {
                    responder.stop()
                    throw ExternalProgram.Failed(description: "openssl ocsp did not start")
                }
                try Self.configuration(root: root, port: port, responderPort: responderPort)
                    .write(to: folder.url.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
                let front = try SpawnedProcess(nginx, ["-p", root, "-c", "\(root)/nginx.conf"])
                guard LoopbackPort.awaitListening(port, while: { front.isRunning }) else {
                    front.stop()
                    responder.stop()
                    throw ExternalProgram.Failed(
                        description: "nginx did not start: \((try? String(contentsOfFile: "\(root)/error.log", encoding: .utf8)) ?? "")")
                }
                self.port = port
                self.responder = responder
                self.front = front
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? ExternalProgram.Failed(description: "the responders did not start")
    }

    deinit { stop() }

    /// Stops nginx and the responder; nginx's log is complete once it has exited.
    public func stop() {
        front.stop()
        responder.stop()
    }

    public func url(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

    public func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: url(name).path) }

    /// The root's certificate, DER.
    public func rootCertificate() throws -> [UInt8] {
        let text = String(decoding: try Data(contentsOf: url("root/ca.pem")), as: UTF8.self)
        let body = text.components(separatedBy: "-----BEGIN CERTIFICATE-----")[1].components(separatedBy: "-----END")[0]
        guard let der = Data(base64Encoded: body.filter { !$0.isWhitespace }) else {
            throw ExternalProgram.Failed(description: "root/ca.pem does not parse")
        }
        return Array(der)
    }

    /// The paths nginx was asked for, one per request, in order. Complete once ``stop()``
    /// has returned (nginx writes each line as its request ends).
    public var requestedPaths: [String] {
        let text = (try? String(contentsOfFile: "\(folder.path)/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            // `... "GET /path HTTP/1.1" ...`
            line.split(separator: "\"").dropFirst().first?.split(separator: " ").dropFirst().first.map(String.init)
        }
    }

    /// The requests that reached the OCSP responder (through nginx's `/`).
    public var responderRequests: Int {
        requestedPaths.filter {
            !$0.hasPrefix("/inter.crl") && !$0.hasPrefix("/garbage/") && !$0.hasPrefix("/forged/") && !$0.hasPrefix("/expired/")
        }
        .count
    }

    /// Waits for the responder's "waiting for OCSP client connections" line (polled every
    /// 20 ms), or until it exits or ten seconds pass. Not by connecting: `openssl ocsp`
    /// 3.0 hangs on a connection closed without a request, and answers nothing after it.
    private static func awaitReady(log: URL, while running: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, running() {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.contains("waiting for OCSP client connections") { return true }
            usleep(20_000)
        }
        return false
    }

    private static func configuration(root: String, port: Int, responderPort: Int) -> String {
        """
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
                listen 127.0.0.1:\(port);
                root \(root);
                location = /inter.crl { default_type application/pkix-crl; }
                location /garbage/ { return 200 "this is no OCSP response"; }
                location /forged/ { default_type application/ocsp-response; try_files /forged.ocsp.der =404; }
                location /expired/ { default_type application/ocsp-response; try_files /expired.ocsp.der =404; }
                # Without a URI part, nginx passes the request's URI as the client sent it:
                # the percent-encoded request stays intact for the responder.
                location / { proxy_pass http://127.0.0.1:\(responderPort); }
            }
        }
        """
    }

    private static let script = #"""
        set -e
        mkdir -p tmp
        \#(OpenSSLCAScript.functions)
        # leaf NAME OCSP_URL [CRL_URL]: NAME.pem under the intermediate, naming those sources
        leaf() {
          {
            printf 'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n'
            printf 'subjectAltName=IP:127.0.0.1\nauthorityKeyIdentifier=keyid\nauthorityInfoAccess=OCSP;URI:%s\n' "$2"
            if [ -n "$3" ]; then printf 'crlDistributionPoints=URI:%s\n' "$3"; fi
          } > "$1.ext"
          key "$1.key"
          openssl req -new -key "$1.key" -subj "/CN=$1 server" -out "$1.csr" 2>/dev/null
          openssl ca -batch -notext -config inter/ca.cnf -cert inter/ca.pem -keyfile inter/ca.key -days 30 -extfile "$1.ext" -in "$1.csr" -out "$1.pem" 2>/dev/null
          cat "$1.pem" inter/ca.pem > "$1.chain.pem"
        }
        ca_dir root; key root/ca.key
        openssl req -x509 -new -key root/ca.key -subj "/CN=Online Revocation Test Root" -days 30 -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign -out root/ca.pem 2>/dev/null
        ca_dir inter; key inter/ca.key
        openssl req -new -key inter/ca.key -subj "/CN=Online Revocation Test Intermediate" -out inter/ca.csr 2>/dev/null
        openssl ca -batch -notext -config root/ca.cnf -cert root/ca.pem -keyfile root/ca.key -days 30 -extfile ca.ext -in inter/ca.csr -out inter/ca.pem 2>/dev/null
        up="http://127.0.0.1:$FRONT"
        down="http://127.0.0.1:$DOWN"
        leaf held "http://127.0.0.1:$HELD/"
        leaf good "$up/" "$up/inter.crl"
        leaf revoked "$up/" "$up/inter.crl"
        leaf down "$down/" "$down/inter.crl"
        leaf downThenList "$down/" "$up/inter.crl"
        leaf garbage "$up/garbage/"
        leaf forged "$up/forged/"
        leaf expired "$up/expired/"
        openssl ca -config inter/ca.cnf -cert inter/ca.pem -keyfile inter/ca.key -revoke revoked.pem -crl_reason keyCompromise 2>/dev/null
        openssl ca -gencrl -config inter/ca.cnf -cert inter/ca.pem -keyfile inter/ca.key -crldays 7 -out inter.crl.pem 2>/dev/null
        openssl crl -in inter.crl.pem -outform DER -out inter.crl
        # another key under the intermediate's name signs a response about `forged`
        mkdir -p forged; key forged/ca.key
        openssl req -x509 -new -key forged/ca.key -subj "/CN=Online Revocation Test Intermediate" -days 30 -out forged/ca.pem 2>/dev/null
        openssl ocsp -index inter/index.txt -rsigner forged/ca.pem -rkey forged/ca.key -CA inter/ca.pem -issuer inter/ca.pem -cert forged.pem -respout forged.ocsp.der -ndays 1 >/dev/null 2>&1
        # a response about `expired` made ten days ago with a day's validity, when faketime exists
        if command -v faketime >/dev/null 2>&1; then
          faketime -f '-10d' openssl ocsp -index inter/index.txt -rsigner inter/ca.pem -rkey inter/ca.key -CA inter/ca.pem -issuer inter/ca.pem -cert expired.pem -respout expired.ocsp.der -ndays 1 >/dev/null 2>&1 || true
        fi
        """#
}
