import Foundation
import WebImageCore

/// A directory under the system's temporary directory, removed when released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "WebImageSecurityTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appending(path: name)
        try Data(bytes).write(to: file)
        return file
    }

    func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Array(text.utf8))
    }
}

/// PEM texts for the tests.
enum PEM {
    /// One block of `bytes`, base64 in lines of 64 characters.
    static func block(_ label: String, _ bytes: [UInt8], headers: [String] = []) -> String {
        let base64 = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let head = headers.isEmpty ? "" : headers.joined(separator: "\n") + "\n\n"
        return "-----BEGIN \(label)-----\n\(head)\(base64)\n-----END \(label)-----\n"
    }

    static func certificates(_ certificates: [Certificate]) -> String {
        certificates.map { block("CERTIFICATE", $0.derBytes) }.joined()
    }

    /// Stand-in key bytes (an ASN.1 SEQUENCE header and filler).
    static let keyBytes: [UInt8] = [0x30, 0x81, 0x87] + (0..<0x87).map { UInt8(truncatingIfNeeded: $0 &* 31) }
}
