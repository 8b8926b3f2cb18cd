import Foundation

extension ImageProxy {
    /// An image, or 304 when the request's `If-None-Match` names its tag.
    func answer(_ output: RenderedOutput, to request: ProxyRequest) -> ProxyResponse {
        var headers: [(name: String, value: String)] = [
            ("ETag", output.entityTag),
            ("Cache-Control", "public, max-age=\(configuration.maxAge)"),
        ]
        let varies = (output.variesByAccept ? ["Accept"] : []) + (configuration.usesClientHints ? ClientHints.headerNames : [])
        if !varies.isEmpty { headers.append(("Vary", varies.joined(separator: ", "))) }
        if let tags = request.ifNoneMatch, Self.matches(tags, output.entityTag) {
            return ProxyResponse(status: 304, headers: headers, body: Data())
        }
        headers.insert(("Content-Type", output.contentType), at: 0)
        headers.insert(("Content-Length", String(output.data.count)), at: 1)
        headers.append(("Content-Disposition", output.disposition))
        return ProxyResponse(status: 200, headers: headers, body: output.data)
    }

    /// An error status with one line of text; a 429 says when to come back.
    func answer(_ error: ProxyError) -> ProxyResponse {
        let body = Data((error.message + "\n").utf8)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", String(body.count)),
            ("Cache-Control", "no-store"),
        ]
        if error.reason == .busy { headers.append(("Retry-After", String(configuration.retryAfterSeconds))) }
        return ProxyResponse(status: error.status, headers: headers, body: body)
    }

    /// `If-None-Match` against a strong tag: `*`, or any listed tag equal to it with a
    /// `W/` prefix ignored (RFC 9110 compares weakly for this header).
    static func matches(_ header: String, _ tag: String) -> Bool {
        for item in header.split(separator: ",") {
            var candidate = item.trimmingCharacters(in: .whitespaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }
}
