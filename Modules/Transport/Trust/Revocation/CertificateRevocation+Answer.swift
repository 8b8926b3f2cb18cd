import CWebImageTransport
import Foundation
import WebImageCore

extension CertificateRevocation {
    /// The C side's answer (`wi_revocation_answer`) from `source`.
    init(_ answer: wi_revocation_answer, source: RevocationSource) {
        let detail = Self.text(answer.detail)
        let status: RevocationStatus =
            switch Int(answer.status) {
            case Int(WI_REVOCATION_GOOD): .good
            case Int(WI_REVOCATION_REVOKED):
                .revoked(
                    reason: detail.isEmpty ? nil : detail,
                    date: answer.has_date != 0 ? Date(timeIntervalSince1970: TimeInterval(answer.revoked_at)) : nil)
            case Int(WI_REVOCATION_UNKNOWN): .unknown(detail)
            case Int(WI_REVOCATION_NO_RESPONSE): .noResponse
            default: .unverifiable(detail)
            }
        self.init(certificateIndex: Int(answer.certificate_index), subject: Self.text(answer.subject), source: source, status: status)
    }

    /// A NUL-terminated C array field (imported as a tuple) as a String.
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
