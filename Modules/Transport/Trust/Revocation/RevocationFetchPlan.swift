import CWebImageTransport
import Foundation
import WebImageCore

/// What a handshake lacked to decide about a leaf's revocation, and where to ask: the
/// leaf's responder and distribution point, in the policy's order, from the first one
/// without a cached answer. Made during the handshake; carried out by the loop after it.
struct RevocationFetchPlan {
    /// One source to ask.
    struct Step: Equatable {
        let source: RevocationSource
        /// What is fetched: for OCSP the responder's URL with the request appended (a
        /// `GET`, RFC 6960 appendix A), for a list its URL. Also the cache key.
        let url: URL
        /// What is reported: the responder's or the list's URL.
        let reported: URL

        var key: String { url.absoluteString }
        var accept: String { source == .ocspResponder ? "application/ocsp-response" : "application/pkix-crl" }
        /// An OCSP response is a few kilobytes; a large authority's list may be megabytes.
        var maximumBodySize: Int64 { source == .ocspResponder ? 64 << 10 : 32 << 20 }
    }

    let host: String
    let leaf: [UInt8]
    let issuer: [UInt8]
    let steps: [Step]
    let policy: OnlineRevocation

    /// The leaf's subject and the sources of `sources` it names (only `http` URLs), in
    /// order: the responder, then the distribution point.
    static func sources(
        leaf: [UInt8], issuer: [UInt8], sources: OnlineRevocation.Sources
    ) -> (subject: String, steps: [Step]) {
        var subject = [CChar](repeating: 0, count: 256)
        var responder = [CChar](repeating: 0, count: 1024)
        var list = [CChar](repeating: 0, count: 1024)
        let status = leaf.withUnsafeBufferPointer { der in
            wi_revocation_sources(
                der.baseAddress, Int32(der.count), &subject, subject.count, &responder, responder.count, &list, list.count)
        }
        guard status == 0 else { return ("", []) }
        var steps: [Step] = []
        if sources.contains(.ocspResponder), let base = URL(string: text(responder)), let request = ocspRequest(leaf, issuer),
            let url = URL(string: getURL(responder: base.absoluteString, request: request))
        {
            steps.append(Step(source: .ocspResponder, url: url, reported: base))
        }
        if sources.contains(.crlDistributionPoint), let url = URL(string: text(list)) {
            steps.append(Step(source: .crlDistributionPoint, url: url, reported: url))
        }
        return (text(subject), steps)
    }

    /// RFC 6960 appendix A.1: the responder's URL, a slash, then the DER request in
    /// base64, percent-encoded.
    static func getURL(responder: String, request: [UInt8]) -> String {
        let encoded = Data(request).base64EncodedString()
            .replacingOccurrences(of: "+", with: "%2B")
            .replacingOccurrences(of: "/", with: "%2F")
            .replacingOccurrences(of: "=", with: "%3D")
        return (responder.hasSuffix("/") ? responder : responder + "/") + encoded
    }

    private static func ocspRequest(_ leaf: [UInt8], _ issuer: [UInt8]) -> [UInt8]? {
        var der: UnsafeMutablePointer<UInt8>?
        let length = leaf.withUnsafeBufferPointer { leaf in
            issuer.withUnsafeBufferPointer { issuer in
                wi_ocsp_request_der(leaf.baseAddress, Int32(leaf.count), issuer.baseAddress, Int32(issuer.count), &der)
            }
        }
        guard length > 0, let der else { return nil }
        defer { wi_free(der) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
