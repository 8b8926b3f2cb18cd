import CWebImageTransport
import WebImageCore

/// The ``ServerTrust`` of a TLS handshake in progress: OpenSSL's view of the presented
/// chain, valid only inside the verification callback that made it.
struct HandshakeServerTrust: ServerTrust {
    let host: String
    let port: Int
    /// OpenSSL's `X509_STORE_CTX` of the handshake.
    let storeContext: UnsafeMutableRawPointer
    let systemBundle: String?
    /// The fetched answers this evaluation may read; `nil` when the transfer never
    /// fetches (it is itself a fetch of a revocation answer).
    var online: OnlineRevocationContext? = nil

    var certificates: [Certificate] {
        let count = wi_trust_chain_count(storeContext)
        return (0..<max(0, count)).compactMap { index -> Certificate? in
            var der: UnsafeMutablePointer<UInt8>?
            let length = wi_trust_chain_der(storeContext, Int32(index), &der)
            guard length > 0, let der else { return nil }
            defer { wi_free(der) }
            return Certificate(derBytes: Array(UnsafeBufferPointer(start: der, count: Int(length))))
        }
    }

    func validate(anchors: TrustAnchors, host: String?) -> ServerTrustError? {
        let (useSystem, custom): (Bool, [Certificate]) =
            switch anchors {
            case .system: (true, [])
            case .custom(let certificates): (false, certificates)
            case .systemAnd(let certificates): (true, certificates)
            }
        var message = [CChar](repeating: 0, count: 256)
        let result: Int32 = withDERPointers(custom.map(\.derBytes)) { pointers, lengths in
            wi_trust_verify(
                storeContext, systemBundle, useSystem ? 1 : 0, pointers, lengths, Int32(custom.count),
                host, &message, message.count)
        }
        guard result != 0 else { return nil }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ServerTrustError(CurlErrorMapping.trustCode(verifyResult: Int(result)), text, host: self.host)
    }

    func publicKeySHA256(of certificate: Certificate) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: 32)
        let status = certificate.derBytes.withUnsafeBufferPointer { der in
            wi_spki_sha256(der.baseAddress, Int32(der.count), &digest)
        }
        return status == 0 ? digest : nil
    }

    /// Calls `body` with C arrays of pointers to, and lengths of, each blob (certificate
    /// or list DER).
    func withDERPointers<R>(
        _ blobs: [[UInt8]],
        _ body: (UnsafePointer<UnsafePointer<UInt8>?>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        guard !blobs.isEmpty else { return body(nil, nil) }
        let buffers = blobs.map { blob -> UnsafeMutableBufferPointer<UInt8> in
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: blob.count)
            _ = buffer.initialize(from: blob)
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        let pointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0.baseAddress) }
        let lengths = blobs.map { Int32($0.count) }
        return pointers.withUnsafeBufferPointer { p in
            lengths.withUnsafeBufferPointer { l in body(p.baseAddress, l.baseAddress) }
        }
    }
}
