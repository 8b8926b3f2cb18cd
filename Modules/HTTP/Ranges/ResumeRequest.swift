import WebImageCore

/// Asking for the rest of a representation: `Range: bytes=<offset>-` with `If-Range:
/// <validator>` (RFC 9110 §14.2, §13.1.5), and the rules for what comes back.
///
/// ```swift
/// let resume = ResumeRequest(offset: Int64(kept.count), validator: validator)!
/// for (name, value) in resume.headerFields { request.headers.set(name, value) }
/// // ... when the response head arrives:
/// switch resume.evaluate(response, knownCompleteLength: nil) {
/// case .append(let completeLength): break   // the body is bytes offset..<completeLength
/// case .startOver: break                     // a 200: the whole representation follows
/// case .refuse(let error): print(error)      // never append this body
/// }
/// ```
public struct ResumeRequest: Sendable, Hashable {
    /// How many bytes are kept: the first position asked for.
    public let offset: Int64
    public let validator: ResumeValidator

    /// `nil` for an offset of 0 or less: there is nothing to resume.
    public init?(offset: Int64, validator: ResumeValidator) {
        guard offset > 0 else { return nil }
        self.offset = offset
        self.validator = validator
    }

    /// `bytes=<offset>-`: everything from the offset on.
    public var rangeValue: String { "bytes=\(offset)-" }

    /// `Range` and `If-Range`, to set on the request.
    public var headerFields: [(name: String, value: String)] {
        [("Range", rangeValue), ("If-Range", validator.ifRangeValue)]
    }

    /// What to do with the body of `response`, the answer to this request.
    ///
    /// Any status but 206 is ``RangeResponseDecision/startOver``: the server ignored the
    /// range, or the validator no longer matched, and the body is the whole
    /// representation. A 206 is appended only when all of these hold, else refused:
    /// exactly one `Content-Range`, in bytes, that starts at ``offset`` and ends at the
    /// last byte of a known complete length (equal to `knownCompleteLength` when the
    /// kept bytes came with one); a `Content-Length`, if any, equal to the range's
    /// length; no content coding; and no validator other than ``validator``.
    public func evaluate(_ response: TransportResponse, knownCompleteLength: Int64?) -> RangeResponseDecision {
        guard response.statusCode == 206 else { return .startOver }
        do throws(RangeError) {
            return .append(completeLength: try appendableLength(of: response, knownCompleteLength: knownCompleteLength))
        } catch {
            return .refuse(error)
        }
    }

    private func appendableLength(of response: TransportResponse, knownCompleteLength: Int64?) throws(RangeError) -> Int64 {
        let fields = response.headers.values(for: "Content-Range")
        guard fields.count == 1 else {
            throw fields.isEmpty
                ? RangeError(.missingContentRange, "a 206 without Content-Range")
                : RangeError(.multipleContentRanges, "a 206 with \(fields.count) Content-Range fields")
        }
        let range = try ContentRange(parsing: fields[0])
        guard range.first == offset else {
            throw RangeError(.doesNotFollowOn, "\(range) does not start at byte \(offset)")
        }
        guard let completeLength = range.completeLength else {
            throw RangeError(.completeLengthUnknown, "\(range) gives no complete length")
        }
        guard range.last == completeLength - 1 else {
            throw RangeError(.doesNotReachEnd, "\(range) stops before the end")
        }
        if let knownCompleteLength, knownCompleteLength != completeLength {
            throw RangeError(.completeLengthChanged, "\(range) is not part of \(knownCompleteLength) bytes")
        }
        if response.headers.contains("Content-Length") {
            guard response.expectedContentLength == range.length else {
                throw RangeError(.lengthMismatch, "Content-Length is not the \(range.length) bytes of \(range)")
            }
        }
        for coding in response.headers.values(for: "Content-Encoding") where !Self.isIdentity(coding) {
            throw RangeError(.contentEncoded, "the range is content-encoded (\(coding.prefix(40)))")
        }
        guard validator.isConsistent(with: response.headers) else {
            throw RangeError(.validatorMismatch, "the 206 does not carry \(validator)")
        }
        return completeLength
    }

    private static func isIdentity(_ coding: String) -> Bool {
        let trimmed = trimmingOptionalWhitespace(Substring(coding).utf8)
        return trimmed.elementsEqual("identity".utf8, by: { ($0 | 0x20) == $1 })
    }
}

/// What a download does with the answer to a ``ResumeRequest``.
public enum RangeResponseDecision: Sendable, Hashable {
    /// The body is the rest: append it to the kept bytes; the whole is `completeLength`.
    case append(completeLength: Int64)
    /// The body is the whole representation: drop the kept bytes.
    case startOver
    /// A 206 that must not be appended: drop the kept bytes and ask again without a range.
    case refuse(RangeError)
}
