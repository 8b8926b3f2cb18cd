import CWebImageTransport
import Foundation
import WebImageCore

extension HandshakeServerTrust {
    /// Asks the C side (OpenSSL) about the stapled response and the lists; see
    /// `wi_revocation_ocsp` and `wi_revocation_crl`.
    func checkRevocation(_ check: RevocationCheck) -> [CertificateRevocation] {
        let (useSystem, anchors): (Bool, [Certificate]) =
            switch check.issuerAnchors {
            case .system: (true, [])
            case .custom(let certificates): (false, certificates)
            case .systemAnd(let certificates): (true, certificates)
            }
        var answers: [CertificateRevocation] = []
        withDERPointers(anchors.map(\.derBytes)) { anchorPointers, anchorLengths in
            if check.readsStapledOCSPResponse {
                var answer = wi_revocation_answer()
                wi_revocation_ocsp(
                    storeContext, systemBundle, useSystem ? 1 : 0, anchorPointers, anchorLengths, Int32(anchors.count), &answer)
                answers.append(Self.revocation(answer, source: .ocsp))
            }
            guard !check.revocationLists.isEmpty else { return }
            let capacity = max(1, wi_trust_chain_count(storeContext))
            var found = [wi_revocation_answer](repeating: wi_revocation_answer(), count: Int(capacity))
            let lists = check.revocationLists.map(\.bytes)
            let count = withDERPointers(lists) { listPointers, listLengths in
                wi_revocation_crl(
                    storeContext, listPointers, listLengths, Int32(lists.count), check.scope == .wholeChain ? 1 : 0,
                    systemBundle, useSystem ? 1 : 0, anchorPointers, anchorLengths, Int32(anchors.count), &found, capacity)
            }
            answers += found.prefix(Int(count)).map { Self.revocation($0, source: .crl) }
        }
        return answers
    }

    private static func revocation(_ answer: wi_revocation_answer, source: RevocationSource) -> CertificateRevocation {
        let detail = text(answer.detail)
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
        return CertificateRevocation(
            certificateIndex: Int(answer.certificate_index), subject: text(answer.subject), source: source, status: status)
    }

    /// A NUL-terminated C array field (imported as a tuple) as a String.
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
