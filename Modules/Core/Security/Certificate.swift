import Foundation

/// An X.509 certificate, as its DER bytes.
public struct Certificate: Sendable, Hashable {
    public let derBytes: [UInt8]

    public init(derBytes: [UInt8]) { self.derBytes = derBytes }

    /// Every certificate in a PEM text, in order (`-----BEGIN CERTIFICATE-----` blocks;
    /// other blocks are skipped).
    ///
    /// - Throws: ``ServerTrustError/Code/invalidCertificate`` when a block's base64 is
    ///   broken, or when there is no certificate at all.
    public static func fromPEM(_ pem: String) throws(ServerTrustError) -> [Certificate] {
        let blocks = PEMBlock.parse(pem)
        let certificates = blocks.filter { $0.label == "CERTIFICATE" }
        guard !certificates.isEmpty else {
            throw ServerTrustError(.invalidCertificate, "no CERTIFICATE block in the PEM text")
        }
        var result: [Certificate] = []
        for block in certificates {
            guard let bytes = block.bytes else {
                throw ServerTrustError(.invalidCertificate, "a CERTIFICATE block's base64 is damaged")
            }
            result.append(Certificate(derBytes: bytes))
        }
        return result
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

/// One `-----BEGIN X-----` ... `-----END X-----` block of a PEM text.
package struct PEMBlock: Sendable {
    package var label: String
    package var base64: String

    /// The decoded bytes, or `nil` when the base64 is broken.
    package var bytes: [UInt8]? {
        Data(base64Encoded: base64, options: .ignoreUnknownCharacters).map { Array($0) }
    }

    package static func parse(_ text: String) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var label: String?
        var body = ""
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
                body = ""
            } else if line.hasPrefix("-----END "), let open = label {
                blocks.append(PEMBlock(label: open, base64: body))
                label = nil
            } else if label != nil, !line.contains(":") {
                body += line
            }
        }
        return blocks
    }
}
