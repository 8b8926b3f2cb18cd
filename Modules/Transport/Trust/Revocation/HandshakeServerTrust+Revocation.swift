import CWebImageTransport
import Foundation
import WebImageCore

extension HandshakeServerTrust {
    /// Asks the C side (OpenSSL) about the stapled response and the lists (see
    /// `wi_revocation_ocsp` and `wi_revocation_crl`), then, with ``RevocationCheck/online``,
    /// the answers fetched from the leaf's own sources (``onlineAnswers(_:offline:)``).
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
                answers.append(CertificateRevocation(answer, source: .ocsp))
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
            answers += found.prefix(Int(count)).map { CertificateRevocation($0, source: .crl) }
        }
        if check.online != nil { answers += onlineAnswers(check, offline: answers) }
        return answers
    }
}
