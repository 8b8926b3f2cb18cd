import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

import enum WebImageHTTP.HTTPDate

/// Byte ranges (RFC 9110 §14): the document root's files answer `Range: bytes=N-`, and
/// `/range/<name>` serves pattern bytes that break off once, then answers ranges rightly
/// or wrongly as asked, for the resumable-download tests.
enum RangeRoutes {
    /// A file's answer to `Range: bytes=N-` (the only form a resuming client sends): 206
    /// with the rest when `If-Range` is absent or is the file's ETag, 416 past the end;
    /// `nil` (serve the whole file) without a range, for another form, or when `If-Range`
    /// no longer matches.
    static func rangedFile(head: HTTPRequestHead, etag: String, headers: HTTPHeaders, data: Data) -> ResponsePlan? {
        guard head.method == .GET, let offset = requestedOffset(head), ifRangeMatches(head, etag: etag, lastModified: nil) else {
            return nil
        }
        var bytes = ByteBufferAllocator().buffer(capacity: max(0, data.count - offset))
        if offset < data.count { bytes.writeBytes(data[(data.startIndex + offset)...]) }
        return partial(offset: offset, total: data.count, body: bytes, headers: headers, answer: .honour)
    }

    /// `/bytes/<n>?etag=<tag>[&ranges=ignore]`: n pattern bytes (byte i = i % 251) with
    /// `ETag: "<tag>"`, answering `Range: bytes=N-` with a 206 of the rest when `If-Range`
    /// is absent or matches (a 200 of everything with `ranges=ignore`). The tag
    /// `changing` becomes `"changing-<k>"`, k counting the server's answers, so that no
    /// two answers share a representation.
    static func taggedPattern(count: Int, tag: String, query: Query, head: HTTPRequestHead, core: ServerCore) -> ResponsePlan {
        let etag: String
        if tag == "changing" {
            let serial = core.rangeCounts.withLockedValue { counts -> Int in
                counts["/bytes?etag=changing", default: 0] += 1
                return counts["/bytes?etag=changing", default: 0]
            }
            etag = "\"changing-\(serial)\""
        } else {
            etag = "\"\(tag)\""
        }
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/octet-stream")
        headers.add(name: "etag", value: etag)
        if query["ranges"] != Answer.ignore.rawValue, head.method == .GET, let offset = requestedOffset(head),
            ifRangeMatches(head, etag: etag, lastModified: nil)
        {
            return partial(
                offset: offset, total: count, body: bytes(from: offset, to: count, version: 0), headers: headers, answer: .honour)
        }
        headers.add(name: "content-length", value: String(count))
        return ResponsePlan(status: .ok, headers: headers, body: .pattern(count: count, then: .end))
    }

    /// How `/range/<name>` answers a range once the first request broke off.
    enum Answer: String {
        /// 206 with the rest and the right `Content-Range`.
        case honour
        /// Always 200 with the whole body: the server ignores `Range`.
        case ignore
        /// 206 whose range starts one byte later than asked.
        case shift
        /// 206 whose `Content-Range` does not parse.
        case garbage
        /// 206 that stops one byte before the end.
        case short
    }

    /// `/range/<name>?bytes=<n>&first=<reset|stall|close>&after=<k>&validator=<v>&ranges=<answer>`:
    /// n bytes (byte i = (i + version) % 251). The first request for `name` sends k of
    /// them, then resets, stalls or closes (`first` absent: it is answered like the rest).
    /// Later requests get the whole body, or with `Range: bytes=N-` the answer `ranges`
    /// names (default `honour`), when `If-Range` matches.
    ///
    /// `validator`: `strong` (default, `ETag: "r<version>-<n>"`), `weak` (the same tag
    /// weak), `changing` (strong, and the version, so tag and bytes, changes with every
    /// request), `date` (no ETag; a `Last-Modified` long before `Date`), `none`.
    static func plan(_ name: Substring, query: Query, head: HTTPRequestHead, core: ServerCore) -> ResponsePlan {
        let count = core.rangeCounts.withLockedValue { counts -> Int in
            counts[String(name), default: 0] += 1
            return counts[String(name)]!
        }
        let total = max(0, query.int("bytes") ?? 1000)
        let validator = query["validator"] ?? "strong"
        let version = validator == "changing" ? count - 1 : 0
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/octet-stream")
        let etag = "\"r\(version)-\(total)\""
        let lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"
        switch validator {
        case "strong", "changing": headers.add(name: "etag", value: etag)
        case "weak": headers.add(name: "etag", value: "W/" + etag)
        case "date":
            headers.add(name: "last-modified", value: lastModified)
            headers.add(name: "date", value: HTTPDate.format(Date()))
        default: break
        }

        if count == 1, let first = query["first"] {
            let ending: ResponsePlan.Ending
            switch first {
            case "reset": ending = .reset
            case "stall": ending = .stall
            default: ending = .close
            }
            headers.add(name: "content-length", value: String(total))
            // Version 0 is the server's own pattern from byte 0.
            return ResponsePlan(
                status: .ok, headers: headers, body: .pattern(count: min(total, max(0, query.int("after") ?? 0)), then: ending))
        }

        let answer = Answer(rawValue: query["ranges"] ?? "honour") ?? .honour
        let validatorValue: String? =
            switch validator {
            case "strong", "changing": etag
            case "date": lastModified
            default: nil
            }
        guard answer != .ignore, let offset = requestedOffset(head),
            ifRangeMatches(head, etag: validatorValue, lastModified: validator == "date" ? lastModified : nil)
        else {
            headers.add(name: "content-length", value: String(total))
            return ResponsePlan(status: .ok, headers: headers, body: .buffer(bytes(from: 0, to: total, version: version)))
        }
        let start = answer == .shift ? offset + 1 : offset
        let end = answer == .short ? total - 1 : total
        return partial(offset: offset, total: total, body: bytes(from: start, to: end, version: version), headers: headers, answer: answer)
    }

    /// The 206 (or the 416 past the end) for `body`, the bytes after `offset` of `total`.
    private static func partial(offset: Int, total: Int, body: ByteBuffer, headers: HTTPHeaders, answer: Answer) -> ResponsePlan {
        var headers = headers
        headers.remove(name: "content-length")
        guard offset < total else {
            headers.remove(name: "content-type")
            headers.add(name: "content-range", value: "bytes */\(total)")
            return .text(.rangeNotSatisfiable, "range not satisfiable", headers: headers)
        }
        let range: String
        switch answer {
        case .honour, .ignore: range = "bytes \(offset)-\(total - 1)/\(total)"
        case .shift: range = "bytes \(offset + 1)-\(total - 1)/\(total)"
        case .garbage: range = "bytes \(offset)-oops"
        case .short: range = "bytes \(offset)-\(total - 2)/\(total)"
        }
        headers.add(name: "content-range", value: range)
        headers.add(name: "content-length", value: String(body.readableBytes))
        return ResponsePlan(status: .partialContent, headers: headers, body: .buffer(body))
    }

    /// N of `Range: bytes=N-`; `nil` without a range or for any other form.
    private static func requestedOffset(_ head: HTTPRequestHead) -> Int? {
        let values = head.headers["range"]
        guard values.count == 1, values[0].hasPrefix("bytes="), values[0].hasSuffix("-") else { return nil }
        return Int(values[0].dropFirst("bytes=".count).dropLast())
    }

    /// No `If-Range`, or one equal to the current validator (an ETag compared strongly:
    /// a weak one never matches; a date compared exactly).
    private static func ifRangeMatches(_ head: HTTPRequestHead, etag: String?, lastModified: String?) -> Bool {
        guard let ifRange = head.headers.first(name: "if-range") else { return true }
        if ifRange.hasPrefix("W/") { return false }
        return ifRange == etag || ifRange == lastModified
    }

    private static func bytes(from start: Int, to end: Int, version: Int) -> ByteBuffer {
        let count = max(0, end - start)
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            for i in 0..<count { raw[i] = UInt8(truncatingIfNeeded: (start + i + version) % 251) }
            return count
        }
        return buffer
    }
}
