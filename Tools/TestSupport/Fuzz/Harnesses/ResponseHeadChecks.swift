import Foundation
import WebImageCore
@_spi(Fuzzing) import WebImageTransport

/// The response-head parser (what libcurl hands over, line by line) under fuzzing.
enum ResponseHeadChecks {
    /// Feeds `data` as header lines (split after each LF, as libcurl delivers them) and
    /// checks: every byte is counted; status codes have three digits and the head that
    /// counts is never an interim 1xx; names hold no colon and values no surrounding
    /// blanks; `Content-Length` is never negative and the MIME type is bare and
    /// lowercase; and writing the head out and parsing it again gives the same head.
    /// Returns the head that counts, if any.
    static func run(_ data: Data) -> ResponseHeadParser.Head? {
        var parser = ResponseHeadParser()
        data.withUnsafeBytes { bytes in
            var start = 0
            for index in bytes.indices where bytes[index] == 0x0A || index == bytes.count - 1 {
                parser.consume(UnsafeRawBufferPointer(rebasing: bytes[start...index]))
                start = index + 1
            }
        }
        fuzzCheck(parser.byteCount == data.count, "parser counted \(parser.byteCount) of \(data.count) bytes")
        guard !parser.isOverLimit else { return nil }
        if let current = parser.current { checkHead(current) }
        guard let head = parser.lastComplete else { return nil }
        checkHead(head)
        fuzzCheck(!(100...199).contains(head.statusCode), "an interim \(head.statusCode) head counts as complete")
        checkRoundTrip(head)
        return head
    }

    private static func checkHead(_ head: ResponseHeadParser.Head) {
        fuzzCheck((0...999).contains(head.statusCode), "status code \(head.statusCode)")
        for (name, value) in head.headers {
            fuzzCheck(!name.utf8.contains(UInt8(ascii: ":")), "header name \(name.debugDescription) holds a colon")
            fuzzCheck(!name.utf8.contains(0x0A), "header name \(name.debugDescription) holds a line feed")
            let blanks: Set<UInt8> = [0x20, 0x09]
            fuzzCheck(
                !(value.utf8.first.map(blanks.contains) ?? false) && !(value.utf8.last.map(blanks.contains) ?? false),
                "header value \(value.debugDescription) keeps surrounding blanks")
        }
        let response = TransportResponse(
            url: URL(string: "https://example.com/")!, statusCode: head.statusCode, headers: head.headers, httpVersion: head.httpVersion)
        if let length = response.expectedContentLength {
            fuzzCheck(length >= 0, "Content-Length read as \(length)")
        }
        if let type = response.mimeType {
            fuzzCheck(type == type.lowercased() && !type.contains(";"), "MIME type \(type.debugDescription)")
        }
    }

    /// Written out as a server would send it, the head must parse back the same, for
    /// every field a line can carry (no CR or LF inside a value).
    private static func checkRoundTrip(_ head: ResponseHeadParser.Head) {
        let writable = head.headers.allSatisfy { field in
            !(field.name + field.value).utf8.contains { $0 == 0x0A || $0 == 0x0D }
                && !(field.name.utf8.first.map { $0 == 0x20 || $0 == 0x09 } ?? false)
                && !field.name.hasPrefix("HTTP/")
        }
        guard writable else { return }
        let version = head.httpVersion?.description ?? "HTTP/1.1"
        let code = String(head.statusCode)
        var lines = ["\(version) \(String(repeating: "0", count: 3 - code.count))\(code) Reason"]
        lines += head.headers.map { "\($0.name): \($0.value)" }
        lines.append("")
        var parser = ResponseHeadParser()
        for line in lines {
            let bytes = Array((line + "\r\n").utf8)
            bytes.withUnsafeBytes { parser.consume($0) }
        }
        guard let again = parser.lastComplete else {
            fuzzFailure("a written head does not parse back: \(lines)")
        }
        fuzzCheck(again.statusCode == head.statusCode, "status \(head.statusCode) parsed back as \(again.statusCode)")
        fuzzCheck(
            Array(again.headers.map { "\($0.name)\u{0}\($0.value)" }) == Array(head.headers.map { "\($0.name)\u{0}\($0.value)" }),
            "headers do not parse back the same: \(head.headers) vs \(again.headers)")
        if head.httpVersion != nil {
            fuzzCheck(again.httpVersion == head.httpVersion, "HTTP version does not parse back the same")
        }
    }
}
