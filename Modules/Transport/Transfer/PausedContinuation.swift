import WebImageCore

/// How a transfer paused over HTTP/2 goes on after the transport let its stream go.
///
/// Over HTTP/2 a paused transfer is not paused inside libcurl (see
/// ``TransferState/holdsBodyWhilePaused``): its bytes are kept in memory instead, up to
/// ``TransportConfiguration/pausedBodyLimit``. Past that the stream is reset, which costs
/// the connection's other streams nothing, and the resumed transfer asks for the rest:
/// `Range: bytes=<offset>-` with `If-Range: <strong ETag>`, so that the bytes that follow
/// belong to the same representation as those already received. Pure values, no I/O.
struct PausedContinuation: Equatable {
    /// Body bytes received before the stream was let go: the first one to ask for.
    let offset: Int64
    /// The strong entity tag of the response the body belongs to.
    let entityTag: String

    /// What the transfer's first response allows: a continuation, or why there is none.
    static func plan(after response: TransportResponse?, method: TransportRequest.Method, offset: Int64) -> Result<Self, Refusal> {
        guard let response, response.statusCode == 200 else { return .failure(.notContinuable("the response is not a 200")) }
        guard method == .get else { return .failure(.notContinuable("only a GET is asked for again")) }
        if let encoding = response.headers["Content-Encoding"], encoding.lowercased() != "identity" {
            // Ranges count the encoded bytes, and the body was counted decoded.
            return .failure(.notContinuable("the body is \(encoding)-encoded"))
        }
        guard let tag = response.headers["ETag"], isStrong(tag) else {
            return .failure(.notContinuable("the response has no strong ETag to ask for the rest of the same body"))
        }
        return .success(Self(offset: offset, entityTag: tag))
    }

    /// Why the transfer cannot go on where it stopped.
    enum Refusal: Error, Equatable {
        /// The first response gave nothing to continue it safely.
        case notContinuable(String)
        /// The server's answer to the continuation does not continue that body.
        case changed(String)

        var message: String {
            switch self {
            case .notContinuable(let reason):
                "paused past the paused-body limit and let go; it cannot be continued: \(reason)"
            case .changed(let reason):
                "paused past the paused-body limit and let go; the rest could not be had: \(reason)"
            }
        }
    }

    /// The request headers that ask for the rest.
    var headers: [(name: String, value: String)] {
        [("Range", "bytes=\(offset)-"), ("If-Range", entityTag)]
    }

    /// What the continuation's answer means: deliver its body after skipping this many
    /// bytes, or a refusal. A 206 must start at ``offset``; a 200 of the same entity tag
    /// is the whole body again (a server that ignores ranges), its first ``offset`` bytes
    /// skipped. Anything else, a 200 of another tag above all, does not continue it.
    func bytesToSkip(in response: TransportResponse) -> Result<Int64, Refusal> {
        switch response.statusCode {
        case 206:
            guard let range = response.headers["Content-Range"], let start = Self.firstByte(ofContentRange: range) else {
                return .failure(.changed("a 206 without a byte range"))
            }
            guard start == offset else { return .failure(.changed("a 206 from byte \(start), not \(offset)")) }
            if let tag = response.headers["ETag"], tag != entityTag { return .failure(.changed("the ETag changed")) }
            return .success(0)
        case 200:
            guard response.headers["ETag"] == entityTag else { return .failure(.changed("the resource changed")) }
            return .success(offset)
        default:
            return .failure(.changed("the server answered \(response.statusCode)"))
        }
    }

    /// `W/"x"` is weak; a strong tag is a quoted string.
    static func isStrong(_ tag: String) -> Bool {
        tag.count >= 2 && tag.hasPrefix("\"") && tag.hasSuffix("\"")
    }

    /// The first byte position of `bytes <first>-<last>/<length>`.
    static func firstByte(ofContentRange value: String) -> Int64? {
        let trimmed = value.drop { $0 == " " }
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).drop { $0 == " " }
        guard let dash = spec.firstIndex(of: "-"), dash > spec.startIndex else { return nil }
        let digits = spec[..<dash]
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int64(digits)
    }
}
