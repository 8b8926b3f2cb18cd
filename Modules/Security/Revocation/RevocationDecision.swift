import WebImageCore

/// What a set of revocation answers means under ``RevocationTrustEvaluator/Options``:
/// pure logic, tested on its own.
struct RevocationDecision {
    let options: RevocationTrustEvaluator.Options

    /// - Throws: `.revoked` for the first revoked answer, else `.revocationUnverified`
    ///   for the first that does not verify, else (when a positive answer is required) for
    ///   the first certificate without a good one; sources in the preferred order.
    func decide(_ answers: [CertificateRevocation], host: String) throws(ServerTrustError) {
        let ordered = answers.sorted { rank($0.source) < rank($1.source) }
        if let revoked = ordered.first(where: { if case .revoked = $0.status { true } else { false } }) {
            throw ServerTrustError(.revoked, "\(revoked)", host: host, revocation: revoked)
        }
        if let broken = ordered.first(where: { if case .unverifiable = $0.status { true } else { false } }) {
            throw ServerTrustError(.revocationUnverified, "\(broken)", host: host, revocation: broken)
        }
        guard options.contains(.requirePositiveResponse) else { return }
        // Each certificate asked about needs a good answer from some source.
        let byCertificate = Dictionary(grouping: ordered, by: \.certificateIndex)
        for index in byCertificate.keys.sorted() {
            let said = byCertificate[index] ?? []
            if !said.contains(where: { $0.status == .good }), let silent = said.first {
                throw ServerTrustError(
                    .revocationUnverified, "no positive revocation answer: \(silent)", host: host, revocation: silent)
            }
        }
    }

    private func rank(_ source: RevocationSource) -> Int {
        let crlFirst = options.contains(.preferCRL)
        // Offline answers before fetched ones, each in the preferred kind's order.
        let kind = source.isOCSP == crlFirst ? 1 : 0
        let fetched = source == .ocspResponder || source == .crlDistributionPoint ? 2 : 0
        return fetched + kind
    }
}
