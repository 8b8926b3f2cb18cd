import WebImageCore

/// Builds response heads from the header lines libcurl hands over, one line per call.
/// One transfer may carry several heads (a `100 Continue`, or the 401 of an authentication
/// round trip libcurl makes itself): each status line starts a new one, and the last
/// complete head is the one that counts.
///
/// SPI (`@_spi(Fuzzing)`) rather than `package`: the fuzz harnesses in Tools/ are a package
/// of their own.
@_spi(Fuzzing)
public struct ResponseHeadParser {
    public struct Head {
        public var statusCode: Int
        public var httpVersion: NegotiatedHTTPVersion?
        public var headers: HTTPHeaderFields
        /// A `Location` field held bytes outside ASCII, which ``headers`` shows replaced
        /// by U+FFFD: a URL that cannot be followed as sent (RFC 3986 allows ASCII only).
        public var locationHasRawBytes = false
    }

    public private(set) var current: Head?
    public private(set) var lastComplete: Head?
    private var isOpen = false
    /// Header bytes seen on this hop, over every head.
    public private(set) var byteCount = 0

    public init() {}

    /// More header bytes than any real server sends: a hostile or broken server must not
    /// grow the head without bound (libcurl limits single fields, not their number).
    public static let byteLimit = 256 * 1024
    public var isOverLimit: Bool { byteCount > Self.byteLimit }

    mutating func reset() {
        current = nil
        lastComplete = nil
        isOpen = false
        byteCount = 0
    }

    /// One line, with or without its CRLF.
    public mutating func consume(_ raw: UnsafeRawBufferPointer) {
        byteCount += raw.count
        guard !isOverLimit else { return }
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        if line.isEmpty {
            if isOpen, let head = current {
                // 1xx heads are interim: the real one follows.
                if !(100...199).contains(head.statusCode) { lastComplete = head }
            }
            isOpen = false
            return
        }
        if line.starts(with: "HTTP/".utf8) {
            if let head = Self.statusLine(line) {
                current = head
                isOpen = true
            }
            return
        }
        guard isOpen, current != nil else { return }
        if line[0] == 0x20 || line[0] == 0x09 {
            // obs-fold: a continuation of the previous field's value (RFC 9112 §5.2).
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        // The value without the spaces and tabs around it, trimmed as bytes so that
        // each field makes two strings, not three.
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == 0x20 || line[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        let name = String(decoding: line[0..<colon], as: UTF8.self)
        let value = String(decoding: line[valueStart..<valueEnd], as: UTF8.self)
        if colon == 8, name.lowercased() == "location", line[valueStart..<valueEnd].contains(where: { $0 >= 0x80 }) {
            current?.locationHasRawBytes = true
        }
        current?.headers.add(name, value)
    }

    /// "HTTP/1.1 200 OK", "HTTP/2 404".
    static func statusLine(_ line: UnsafeRawBufferPointer) -> Head? {
        guard let space = line.firstIndex(of: 0x20) else { return nil }
        let version: NegotiatedHTTPVersion? =
            switch String(decoding: line[0..<space], as: UTF8.self) {
            case "HTTP/1.0": .http1_0
            case "HTTP/1.1": .http1_1
            case "HTTP/2", "HTTP/2.0": .http2
            case "HTTP/3": .http3
            default: nil
            }
        var code = 0
        var digits = 0
        var index = space + 1
        while index < line.count, digits < 3, (0x30...0x39).contains(line[index]) {
            code = code * 10 + Int(line[index] - 0x30)
            digits += 1
            index += 1
        }
        guard digits == 3 else { return nil }
        return Head(statusCode: code, httpVersion: version, headers: HTTPHeaderFields())
    }
}
