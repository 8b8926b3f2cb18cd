import Foundation
import WebImageCore
import WebImageHTTP

/// The resume rules of one attempt, as a value that does no I/O: what the response head
/// means for the kept bytes, and what is kept when the transfer breaks off.
///
/// ```
/// head 206, follows on        -> append: the body continues the kept bytes
/// head 206, anything else     -> refuse: drop the kept bytes, ask again without a range
/// 416 to a range              -> refuse, as above
/// any other head              -> whole: the body starts at byte 0; the kept bytes go
/// broke off after a head      -> keep the body so far, if it has a strong validator
///                                and was not content-coded
/// failed before any head      -> the kept bytes stay as they were
/// completed                   -> nothing is kept
/// ```
struct AttemptResume: Sendable {
    /// What the response head means for the body.
    enum Head: Sendable {
        /// The body is the representation from byte 0.
        case whole
        /// The body continues `prefix`; the whole is `completeLength` bytes.
        case append(prefix: Data, completeLength: Int64)
        /// The 206 cannot be appended: cancel the transfer and start over without a range.
        case refuse(RangeError)
    }

    /// What becomes of the download's kept bytes when the attempt ends.
    enum Update: Sendable {
        case unchanged
        case replace(PartialDownload)
        case discard
    }

    private enum Seen: Sendable {
        case nothing
        case whole(ResumeValidator?, completeLength: Int64?)
        case appended(ResumeValidator, completeLength: Int64)
        case refused
    }

    /// `nil`: this download never keeps bytes.
    let identity: PartialDownloadIdentity?
    /// The kept bytes this attempt asked to continue (its request carries `Range`).
    let resumed: PartialDownload?
    private var seen = Seen.nothing

    init(identity: PartialDownloadIdentity?, resumed: PartialDownload?) {
        self.identity = identity
        self.resumed = identity == nil ? nil : resumed
    }

    /// The response head arrived (before any body byte).
    mutating func accept(_ response: TransportResponse) -> Head {
        if let resumed, let request = ResumeRequest(offset: resumed.offset, validator: resumed.validator) {
            switch request.evaluate(response, knownCompleteLength: resumed.completeLength) {
            case .append(let completeLength):
                seen = .appended(resumed.validator, completeLength: completeLength)
                return .append(prefix: resumed.body, completeLength: completeLength)
            case .refuse(let error):
                seen = .refused
                return .refuse(error)
            case .startOver:
                break
            }
        }
        seen = .whole(Self.keepableValidator(of: response), completeLength: response.expectedContentLength)
        return .whole
    }

    /// Whether the attempt must be made again without a range: its 206 was refused, or
    /// the server answered the range with 416.
    func needsRestart(after result: Result<TransportResponse, TransportError>) -> Bool {
        guard resumed != nil else { return false }
        switch seen {
        case .refused: return true
        case .nothing:
            if case .failure(let error) = result { return error.statusCode == 416 }
            return false
        default: return false
        }
    }

    /// What to keep after the attempt ended with `failure` (`nil`: it succeeded) and had
    /// received `body` (from byte 0, the kept prefix included).
    func update(after failure: DownloadError?, body: Data) -> Update {
        guard identity != nil else { return .unchanged }
        guard let failure else { return .discard }
        let received: (validator: ResumeValidator?, completeLength: Int64?)
        switch seen {
        case .nothing: return .unchanged
        case .refused: return .discard
        case .whole(let validator, let completeLength): received = (validator, completeLength)
        case .appended(let validator, let completeLength): received = (validator, completeLength)
        }
        guard let identity, let validator = received.validator, Self.isResumable(failure), !body.isEmpty,
            received.completeLength.map({ Int64(body.count) < $0 }) ?? true
        else { return .discard }
        return .replace(PartialDownload(identity: identity, body: body, validator: validator, completeLength: received.completeLength))
    }

    /// The failures after which the bytes so far are good: the connection broke, went
    /// quiet, ran out of time, or the download was stopped. Anything else (a refused
    /// response, a body too large, a malformed one) is not worth continuing.
    static func isResumable(_ failure: DownloadError) -> Bool {
        switch failure {
        case .cancelled: true
        case .transport(let error): [.connectionReset, .stalled, .timedOut, .truncatedBody].contains(error.code)
        case .requestRejected, .responseRejected: false
        }
    }

    /// The validator of a 200 whose bytes may be kept: a strong one, on a body sent
    /// without a content coding (the kept bytes must be the representation's own, as a
    /// range counts them).
    static func keepableValidator(of response: TransportResponse) -> ResumeValidator? {
        let encoded = response.headers.values(for: "Content-Encoding").contains {
            $0.trimmingCharacters(in: .whitespaces).lowercased() != "identity"
        }
        guard response.statusCode == 200, !encoded else { return nil }
        return ResumeValidator(responseHeaders: response.headers)
    }

    /// The head a resumed download completes with: the 206 as the whole it completed,
    /// status 200, `Content-Length` the complete length, no `Content-Range`.
    static func wholeResponse(_ partial: TransportResponse, completeLength: Int64) -> TransportResponse {
        var headers = partial.headers
        headers.remove("Content-Range")
        headers.set("Content-Length", String(completeLength))
        return TransportResponse(url: partial.url, statusCode: 200, headers: headers, httpVersion: partial.httpVersion)
    }
}
