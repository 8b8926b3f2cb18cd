import Crypto
import Foundation

/// Signs and checks proxy paths as imgproxy does: the URL-safe base64 (no padding) of
/// HMAC-SHA256, keyed with `key`, of `salt` followed by the path after the signature
/// (from its `/`). Only someone with the key makes URLs the proxy serves, so nobody else
/// can make it fetch arbitrary sources or burn CPU on sizes nobody uses.
public struct URLSigner: Sendable {
    private let key: SymmetricKey
    private let salt: Data

    public init(key: Data, salt: Data) {
        self.key = SymmetricKey(data: key)
        self.salt = salt
    }

    /// Key and salt written in hex, as imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`.
    ///
    /// - Throws: ``ProxyError`` (400) when either is not even-length hex or the key is empty.
    public init(hexKey: String, hexSalt: String) throws(ProxyError) {
        guard let key = Data(hex: hexKey), !key.isEmpty else { throw ProxyError(.badOptions, "the key is not hex") }
        guard let salt = Data(hex: hexSalt) else { throw ProxyError(.badOptions, "the salt is not hex") }
        self.init(key: key, salt: salt)
    }

    /// The signature of `signedPath` (`/rs:fit:300:300/plain/...`).
    public func signature(for signedPath: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: message(signedPath), using: key)).base64URLEncoded
    }

    /// Whether `signature` is right for `signedPath`, compared in constant time.
    public func isValid(_ signature: String, for signedPath: String) -> Bool {
        guard let given = Data(base64URLEncoded: signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: message(signedPath), using: key)
    }

    /// What is signed: the salt, then the path's bytes.
    private func message(_ signedPath: String) -> Data {
        salt + Data(signedPath.utf8)
    }

    /// `signedPath` with its signature in front: a path the proxy serves.
    public func sign(_ signedPath: String) -> String {
        "/" + signature(for: signedPath) + signedPath
    }
}

extension Data {
    init?(hex: String) {
        guard hex.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        self.init(bytes)
    }

    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init?(base64URLEncoded text: String) {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        self.init(base64Encoded: standard)
    }
}
