import Foundation
import WebImageCore

/// Which download kept bytes belong to: the URL, and a digest of what else selects the
/// representation (the request's headers, the credential's user).
///
/// The URL is kept in full and compared exactly, so two resources never share kept
/// bytes, whatever the digest. The digest leaves out `Authorization`, `Proxy-Authorization`
/// and `Cookie`, and the password: secrets are not written to disk, even hashed. That is
/// safe because bytes are joined only under the strong validator the server checks
/// (`If-Range`), and a strong validator names one representation byte for byte.
struct PartialDownloadIdentity: Sendable, Hashable {
    /// The request URL, absolute.
    let url: String
    /// FNV-1a (64 bits) of the sorted header lines and the user name.
    let variant: UInt64

    init(url: String, variant: UInt64) {
        self.url = url
        self.variant = variant
    }

    /// The identity of `request`, or `nil` when it never resumes: a scheme other than
    /// http and https, a conditional request (``DownloadOptions/revalidate``: a 304 is
    /// what it wants), or a request that sets `Range` or `If-Range` itself.
    init?(_ request: DownloadRequest) {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            !request.options.contains(.revalidate), !request.headers.contains("Range"), !request.headers.contains("If-Range")
        else { return nil }
        let secret: Set<String> = ["authorization", "proxy-authorization", "cookie"]
        let lines = request.headers.map { ($0.name.lowercased(), $0.value) }
            .filter { !secret.contains($0.0) }
            .map { "\($0.0): \($0.1)" }
            .sorted()
        var hasher = FNV1a()
        for line in lines {
            hasher.add(line)
            hasher.add("\n")
        }
        if let credential = request.credential {
            hasher.add("user: \(credential.user) \(credential.source)")
        }
        self.init(url: request.url.absoluteString, variant: hasher.value)
    }

    /// The file name the bytes live under: 16 hex digits, then `.partial`. Only a name:
    /// the URL itself is checked when the file is read.
    var fileName: String {
        var hasher = FNV1a()
        hasher.add(url)
        hasher.add("\n\(variant)")
        return Self.hex(hasher.value) + Self.fileExtension
    }

    static let fileExtension = ".partial"

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// FNV-1a, 64 bits: a stable hash (Swift's `Hasher` is seeded per process, and these
/// names must be the same in the next process).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }
}
