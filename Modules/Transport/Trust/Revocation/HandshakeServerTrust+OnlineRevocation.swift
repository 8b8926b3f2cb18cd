import CWebImageTransport
import Foundation
import WebImageCore

extension HandshakeServerTrust {
    /// The fetched answer about the leaf, when the offline sources (`offline`) say nothing
    /// about it: the cached answer of its first source that could be reached; when every
    /// source was unreachable, an answer by the policy (`unknown` to soft-fail,
    /// `unverifiable` to hard-fail); when a source has not been asked yet, nothing, and
    /// the plan to ask it goes to ``online``.
    func onlineAnswers(_ check: RevocationCheck, offline: [CertificateRevocation]) -> [CertificateRevocation] {
        guard let policy = check.online, let online else { return [] }
        let silent = offline.filter { $0.certificateIndex == 0 }.allSatisfy { answer in
            switch answer.status {
            case .noResponse, .unknown: true
            case .good, .revoked, .unverifiable: false
            }
        }
        guard silent, let leaf = leafDER(), let issuer = issuerDER(check.issuerAnchors) else { return [] }
        let (subject, steps) = RevocationFetchPlan.sources(leaf: leaf, issuer: issuer, sources: policy.sources)
        var unreachable: (step: RevocationFetchPlan.Step, why: String)?
        for (index, step) in steps.enumerated() {
            switch online.store.cache.answer(for: step.key, now: online.now) {
            case nil:
                online.missing = RevocationFetchPlan(host: host, leaf: leaf, issuer: issuer, steps: Array(steps[index...]), policy: policy)
                return []
            case .unreachable(let why):
                if unreachable == nil { unreachable = (step, why) }
            case .bytes(let bytes):
                return [FetchedRevocationCheck.check(bytes, from: step.source, leaf: leaf, issuer: issuer).answer]
            }
        }
        guard let (step, why) = unreachable else { return [] }
        let reason = "the \(step.source) \(step.reported.absoluteString) could not be reached: \(why)"
        switch policy.whenUnreachable {
        case .softFail:
            online.softFailure = reason
            return [CertificateRevocation(certificateIndex: 0, subject: subject, source: step.source, status: .unknown(reason))]
        case .hardFail:
            return [CertificateRevocation(certificateIndex: 0, subject: subject, source: step.source, status: .unverifiable(reason))]
        }
    }

    private func leafDER() -> [UInt8]? {
        var der: UnsafeMutablePointer<UInt8>?
        let length = wi_trust_chain_der(storeContext, 0, &der)
        guard length > 0, let der else { return nil }
        defer { wi_free(der) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }

    /// The leaf's issuer: presented, else among `anchors`.
    private func issuerDER(_ anchors: TrustAnchors) -> [UInt8]? {
        let (useSystem, custom): (Bool, [Certificate]) =
            switch anchors {
            case .system: (true, [])
            case .custom(let certificates): (false, certificates)
            case .systemAnd(let certificates): (true, certificates)
            }
        var der: UnsafeMutablePointer<UInt8>?
        let length = withDERPointers(custom.map(\.derBytes)) { pointers, lengths in
            wi_revocation_issuer_der(storeContext, systemBundle, useSystem ? 1 : 0, pointers, lengths, Int32(custom.count), &der)
        }
        guard length > 0, let der else { return nil }
        defer { wi_free(der) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }
}
