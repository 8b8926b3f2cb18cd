import Foundation
import WebImageCore

extension Certificate {
    /// Every certificate in a PEM text, in order (`-----BEGIN CERTIFICATE-----` blocks;
    /// other blocks, and a block whose `END` line does not match its `BEGIN`, are
    /// skipped).
    ///
    /// - Throws: `ServerTrustError.Code.invalidCertificate` when a block's base64 is
    ///   broken, or when there is no certificate at all.
    public static func fromPEM(_ pem: String) throws(ServerTrustError) -> [Certificate] {
        let blocks = PEMText(pem).blocks.filter { $0.label == "CERTIFICATE" }
        guard !blocks.isEmpty else {
            throw ServerTrustError(.invalidCertificate, "no CERTIFICATE block in the PEM text")
        }
        var certificates: [Certificate] = []
        for block in blocks {
            guard let bytes = block.derBytes, !bytes.isEmpty else {
                throw ServerTrustError(.invalidCertificate, "a CERTIFICATE block's base64 is damaged")
            }
            certificates.append(Certificate(derBytes: bytes))
        }
        return certificates
    }

    /// A certificate file: PEM (one or more certificates) or DER (exactly one).
    public static func load(contentsOf url: URL) throws(ServerTrustError) -> [Certificate] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ServerTrustError(.invalidCertificate, "cannot read \(url.path): \(error.localizedDescription)")
        }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
            return try fromPEM(text)
        }
        // DER: an ASN.1 SEQUENCE.
        guard data.first == 0x30 else {
            throw ServerTrustError(.invalidCertificate, "\(url.path) is neither PEM nor DER")
        }
        return [Certificate(derBytes: Array(data))]
    }
}
