import Foundation
import WebImageTestServer

/// The TLS side of `serve --tls`: a CA made at start, the server's certificate from it,
/// and the CA's certificate in a PEM file for the client to trust.
struct ServerCertificates {
    let identity: TestIdentity
    let authorityFile: URL
    /// Whether the PEM file was made here (a temporary file to remove at exit) rather
    /// than asked for by the user.
    let isTemporary: Bool

    static func make(keepingAt path: String?) throws -> ServerCertificates {
        let authority = try TestCertificateAuthority(commonName: "webimage serve CA")
        let identity = try authority.issue()
        let file: URL
        if let path {
            file = URL(fileURLWithPath: path)
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = folder.appendingPathComponent("ca.pem")
        }
        try Data(authority.certificatePEM.utf8).write(to: file, options: .atomic)
        return ServerCertificates(identity: identity, authorityFile: file, isTemporary: path == nil)
    }

    func removeTemporaryFile() {
        guard isTemporary else { return }
        try? FileManager.default.removeItem(at: authorityFile.deletingLastPathComponent())
    }
}
