import CWebImageTransport
import Foundation
import WebImageCore

/// What bytes fetched from a leaf's responder or distribution point say about it, checked
/// by OpenSSL as a stapled response or a configured list is (`wi_revocation_fetched_ocsp`,
/// `wi_revocation_fetched_crl`), with the answer's `nextUpdate`.
enum FetchedRevocationCheck {
    static func check(
        _ bytes: [UInt8], from source: RevocationSource, leaf: [UInt8], issuer: [UInt8]
    ) -> (answer: CertificateRevocation, nextUpdate: Date?) {
        var answer = wi_revocation_answer()
        var nextUpdate: Int64 = -1
        bytes.withUnsafeBufferPointer { fetched in
            leaf.withUnsafeBufferPointer { leaf in
                issuer.withUnsafeBufferPointer { issuer in
                    let check = source == .ocspResponder ? wi_revocation_fetched_ocsp : wi_revocation_fetched_crl
                    check(
                        fetched.baseAddress, Int32(fetched.count), leaf.baseAddress, Int32(leaf.count), issuer.baseAddress,
                        Int32(issuer.count), &answer, &nextUpdate)
                }
            }
        }
        return (
            CertificateRevocation(answer, source: source), nextUpdate >= 0 ? Date(timeIntervalSince1970: TimeInterval(nextUpdate)) : nil
        )
    }

    /// Until when an answer is kept: a verified one until its `nextUpdate` (an hour when
    /// it has none), any other for the policy's failure lifetime.
    static func expiry(of answer: CertificateRevocation, nextUpdate: Date?, policy: OnlineRevocation, now: Date) -> Date {
        if case .unverifiable = answer.status { return now + policy.failureLifetime.timeInterval }
        return nextUpdate ?? now + OnlineRevocation.lifetimeWithoutNextUpdate.timeInterval
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
