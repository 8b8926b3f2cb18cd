import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The routes: each request head becomes a `ResponsePlan`.
enum Routes {
    static func plan(for head: HTTPRequestHead, core: ServerCore, connection: ConnectionInfo, isHTTP2: Bool) -> ResponsePlan {
        let uri = head.uri
        let path: Substring
        let query: Query
        if let mark = uri.firstIndex(of: "?") {
            path = uri[..<mark]
            query = Query(uri[uri.index(after: mark)...])
        } else {
            path = uri[...]
            query = Query("")
        }

        if let rest = path.dropPrefix("/bytes/") {
            guard let count = Int(rest), count >= 0 else { return notFound() }
            if let tag = query["etag"] {
                return RangeRoutes.taggedPattern(count: count, tag: tag, query: query, head: head, core: core)
            }
            return patternResponse(declared: count, sent: count, ending: .end)
        }
        if let rest = path.dropPrefix("/files/") {
            return Files.plan(relativePath: rest, query: query, head: head, documentRoot: core.documentRoot)
        }
        if let rest = path.dropPrefix("/cache/") {
            return CachingRoute.plan(rest, query: query, head: head, core: core)
        }
        if let rest = path.dropPrefix("/status/") {
            return status(rest, query: query)
        }
        if let rest = path.dropPrefix("/redirect/") {
            return redirectChain(rest, query: query, core: core)
        }
        if let rest = path.dropPrefix("/range/") {
            return RangeRoutes.plan(rest, query: query, head: head, core: core)
        }
        if let rest = path.dropPrefix("/gate/") {
            let total = max(0, query.int("bytes") ?? 0)
            let first = min(total, max(0, query.int("first") ?? 0), ServerCore.patternChunk)
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "application/octet-stream")
            headers.add(name: "content-length", value: String(total))
            return ResponsePlan(status: .ok, headers: headers, body: .gated(total: total, first: first, gate: String(rest)))
        }
        if let rest = path.dropPrefix("/flaky/") {
            return flaky(String(rest), query: query, core: core)
        }
        if let rest = path.dropPrefix("/basic-auth/") {
            return Auth.basic(rest, head: head)
        }
        if let rest = path.dropPrefix("/digest-auth/") {
            return Auth.digest(rest, head: head, core: core)
        }
        if let rest = path.dropPrefix("/any-auth/") {
            return Auth.either(rest, head: head, core: core)
        }
        if let rest = path.dropPrefix("/ntlm-auth/") {
            return NTLMRoute.plan(rest, query: query, head: head, core: core, connection: connection, isHTTP2: isHTTP2)
        }
        if let rest = path.dropPrefix("/hostile/") {
            guard let reply = HostileReply(rawValue: String(rest)) else { return notFound() }
            var plan = ResponsePlan(status: .ok)
            plan.hostile = (reply, .milliseconds(Int64(max(0, query.int("ms") ?? 2000))))
            return plan
        }

        switch path {
        case "/redirect-to":
            guard let target = query["url"], !target.isEmpty else {
                return .text(.badRequest, "redirect-to needs ?url=")
            }
            return redirect(to: target, status: redirectStatus(query["status"]))
        case "/redirect-loop":
            return redirect(to: "/redirect-loop", status: .found)
        case "/redirect-loop/a":
            return redirect(to: "/redirect-loop/b", status: .found)
        case "/redirect-loop/b":
            return redirect(to: "/redirect-loop/a", status: .found)
        case "/html":
            // A 200 that is not an image, as a misconfigured origin or a login page sends.
            var plan = ResponsePlan.text(.ok, "<!doctype html><html><body>not an image</body></html>")
            plan.headers.replaceOrAdd(name: "content-type", value: "text/html; charset=utf-8")
            return plan
        case "/slow-first-byte":
            var plan = ResponsePlan.text(.ok, "slow")
            plan.delay = .milliseconds(Int64(query.int("ms") ?? 0))
            return plan
        case "/drip":
            let total = max(0, query.int("bytes") ?? 0)
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "application/octet-stream")
            headers.add(name: "content-length", value: String(total))
            return ResponsePlan(
                status: .ok,
                headers: headers,
                body: .drip(
                    total: total,
                    chunk: max(1, query.int("chunk") ?? 1),
                    interval: .milliseconds(Int64(max(0, query.int("interval_ms") ?? 0)))
                )
            )
        case "/stall":
            let declared = max(0, query.int("bytes") ?? 0)
            return patternResponse(declared: declared, sent: min(declared, max(0, query.int("after") ?? 0)), ending: .stall)
        case "/reset":
            let declared = max(0, query.int("bytes") ?? 0)
            return patternResponse(declared: declared, sent: min(declared, max(0, query.int("after") ?? 0)), ending: .reset)
        case "/length-mismatch":
            let declared = max(0, query.int("declared") ?? 0)
            return patternResponse(declared: declared, sent: min(declared, max(0, query.int("actual") ?? 0)), ending: .close)
        case "/gzip":
            return gzip(count: max(0, query.int("bytes") ?? 0), head: head)
        case "/client-cert":
            guard let name = connection.clientCommonName else {
                return .text(.forbidden, "no client certificate")
            }
            return .text(.ok, name)
        case "/headers":
            var text = ""
            for (name, value) in head.headers {
                text += name + ": " + value + "\n"
            }
            return .text(.ok, text)
        case "/cookie/set":
            var headers = HTTPHeaders()
            for (name, value) in query.pairs {
                headers.add(name: "set-cookie", value: "\(name)=\(value); Path=/")
            }
            return .text(.ok, "cookies set", headers: headers)
        case "/cookie/echo":
            return .text(.ok, head.headers["cookie"].joined(separator: "; "))
        default:
            return notFound()
        }
    }

    static func notFound() -> ResponsePlan {
        .text(.notFound, "not found")
    }

    static func patternResponse(declared: Int, sent: Int, ending: ResponsePlan.Ending) -> ResponsePlan {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/octet-stream")
        headers.add(name: "content-length", value: String(declared))
        return ResponsePlan(status: .ok, headers: headers, body: .pattern(count: sent, then: ending))
    }

    /// /status/<code>[?header=Name:Value...]
    static func status(_ rest: Substring, query: Query) -> ResponsePlan {
        guard let code = Int(rest), (200...599).contains(code) else {
            return .text(.badRequest, "status must be 200...599")
        }
        var headers = HTTPHeaders()
        for (name, value) in query.pairs where name == "header" {
            guard let colon = value.firstIndex(of: ":") else { continue }
            headers.add(
                name: String(value[..<colon].trimmingSpaces()),
                value: String(value[value.index(after: colon)...].trimmingSpaces())
            )
        }
        let status = HTTPResponseStatus(statusCode: code)
        if code == 204 || code == 304 {
            return ResponsePlan(status: status, headers: headers)
        }
        return .text(status, "status \(code)", headers: headers)
    }

    /// /flaky/<name>: the first `failures` requests for `name` get `status` (default 503),
    /// with `Retry-After: <retry_after>` when given; later ones get `bytes` pattern bytes.
    static func flaky(_ name: String, query: Query, core: ServerCore) -> ResponsePlan {
        let seen = core.flakyCounts.withLockedValue { counts -> Int in
            counts[name, default: 0] += 1
            return counts[name]!
        }
        guard seen > max(0, query.int("failures") ?? 1) else {
            let code = query.int("status") ?? 503
            var headers = HTTPHeaders()
            if let after = query.raw("retry_after") { headers.add(name: "retry-after", value: String(after)) }
            return .text(HTTPResponseStatus(statusCode: code), "flaky \(seen)", headers: headers)
        }
        let count = max(0, query.int("bytes") ?? 100)
        return patternResponse(declared: count, sent: count, ending: .end)
    }

    /// /redirect/<n>: n-1 ... 0, then "redirected".
    static func redirectChain(_ rest: Substring, query: Query, core: ServerCore) -> ResponsePlan {
        guard let n = Int(rest), n >= 0 else { return notFound() }
        if n == 0 { return .text(.ok, "redirected") }
        var target = "/redirect/\(n - 1)"
        var forwarded: [String] = []
        if let status = query.raw("status") { forwarded.append("status=" + status) }
        if let absolute = query.raw("absolute") { forwarded.append("absolute=" + absolute) }
        if !forwarded.isEmpty { target += "?" + forwarded.joined(separator: "&") }
        if query["absolute"] == "1" {
            target = core.baseURLString + target
        }
        return redirect(to: target, status: redirectStatus(query["status"]))
    }

    static func redirectStatus(_ value: String?) -> HTTPResponseStatus {
        switch value {
        case "301": .movedPermanently
        case "303": .seeOther
        case "307": .temporaryRedirect
        case "308": .permanentRedirect
        default: .found
        }
    }

    static func redirect(to location: String, status: HTTPResponseStatus) -> ResponsePlan {
        var headers = HTTPHeaders()
        headers.add(name: "location", value: location)
        return .text(status, "redirect to \(location)", headers: headers)
    }

    /// The pattern gzip-compressed when Accept-Encoding allows gzip, else as is.
    static func gzip(count: Int, head: HTTPRequestHead) -> ResponsePlan {
        let accepts = head.headers["accept-encoding"].contains { value in
            value.split(separator: ",").contains { token in
                let coding = token.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                return coding == "gzip" && !token.replacingOccurrences(of: " ", with: "").hasSuffix("q=0")
            }
        }
        guard accepts else {
            return patternResponse(declared: count, sent: count, ending: .end)
        }
        var pattern = [UInt8](repeating: 0, count: count)
        for i in 0..<count { pattern[i] = UInt8(truncatingIfNeeded: i % 251) }
        guard let compressed = Gzip.compress(pattern) else {
            return .text(.internalServerError, "zlib failed")
        }
        var buffer = ByteBufferAllocator().buffer(capacity: compressed.count)
        buffer.writeBytes(compressed)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/octet-stream")
        headers.add(name: "content-encoding", value: "gzip")
        headers.add(name: "vary", value: "accept-encoding")
        headers.add(name: "content-length", value: String(compressed.count))
        return ResponsePlan(status: .ok, headers: headers, body: .buffer(buffer))
    }
}

/// A query string: `a=b&c=d`, values percent-decoded ('+' stays '+').
struct Query {
    let pairs: [(String, String)]
    private let rawPairs: [(Substring, Substring)]

    init(_ string: Substring) {
        var pairs: [(String, String)] = []
        var rawPairs: [(Substring, Substring)] = []
        for item in string.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = item.utf8.firstIndex(of: UInt8(ascii: "=")) {
                name = item[..<equals]
                value = item[item.utf8.index(after: equals)...]
            } else {
                name = item
                value = ""
            }
            rawPairs.append((name, value))
            pairs.append((percentDecoded(name), percentDecoded(value)))
        }
        self.pairs = pairs
        self.rawPairs = rawPairs
    }

    /// The first decoded value of `name`.
    subscript(_ name: String) -> String? {
        self.pairs.first { $0.0 == name }?.1
    }

    /// The first value of `name` as sent (still percent-encoded).
    func raw(_ name: String) -> String? {
        self.rawPairs.first { $0.0 == name }.map { String($0.1) }
    }

    func int(_ name: String) -> Int? {
        self[name].flatMap { Int($0) }
    }
}

/// `%XX` escapes decoded (an invalid escape is kept as it is); no Foundation, as this
/// runs for every request with a query.
func percentDecoded(_ text: Substring) -> String {
    let utf8 = text.utf8
    guard utf8.contains(UInt8(ascii: "%")) else { return String(text) }
    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    let bytes = Array(utf8)
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
        if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
            let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
        {
            decoded.append(high << 4 | low)
            i += 3
        } else {
            decoded.append(bytes[i])
            i += 1
        }
    }
    return String(decoding: decoded, as: UTF8.self)
}

extension Substring {
    /// The rest after `prefix`, or nil when it does not start so (compared as UTF-8).
    @inline(__always)
    func dropPrefix(_ prefix: StaticString) -> Substring? {
        let count = prefix.utf8CodeUnitCount
        let matches = prefix.withUTF8Buffer { self.utf8.starts(with: $0) }
        return matches ? Substring(self.utf8.dropFirst(count)) : nil
    }

    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = self.utf8.firstIndex(where: { !isSpace($0) }),
            let last = self.utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return Substring(self.utf8[first...last])
    }
}
