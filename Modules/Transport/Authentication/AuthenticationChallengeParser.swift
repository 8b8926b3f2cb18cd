import WebImageCore

/// Reads the challenges of `WWW-Authenticate` (or `Proxy-Authenticate`) header values:
/// what a server offers with a 401 (RFC 9110, section 11.6.1).
///
/// ```swift
/// let challenges = AuthenticationChallengeParser.parse(response.headers.values(for: "WWW-Authenticate"))
/// // `Digest realm="a", qop="auth", nonce="x", Basic realm="b"`:
/// // [Digest realm "a" {realm, qop, nonce}, Basic realm "b" {realm}]
/// ```
///
/// One header value may hold several challenges, separated by commas like their
/// parameters; a comma followed by a name and `=` continues the current challenge, a
/// comma followed by a bare name starts the next one. Quoted strings may hold commas and
/// backslash escapes. Parameter names are lowercased (they compare without case); values
/// are kept as written, quotes and escapes removed. A challenge may carry a token68
/// instead of parameters (`Negotiate YII...`, `Bearer abc==`).
///
/// Malformed input never fails: what cannot be read is skipped up to the next comma, an
/// unterminated quoted string runs to the end of the value, a repeated parameter keeps
/// its first value.
///
/// SPI (`@_spi(Fuzzing)`) rather than `package`: the fuzz harnesses in Tools/ are a package
/// of their own.
@_spi(Fuzzing)
public enum AuthenticationChallengeParser {
    /// One challenge: a scheme and its parameters.
    public struct Challenge: Sendable, Hashable, CustomStringConvertible {
        /// The scheme; ``AuthenticationMethod/other(_:)`` keeps its name as written.
        public var method: AuthenticationMethod
        /// The `realm` parameter, when there was one (it is also in ``parameters``).
        public var realm: String?
        /// Every parameter, names lowercased, `realm` included.
        public var parameters: [String: String]
        /// The token68 that stands in place of parameters, when the challenge has one.
        public var token68: String?

        /// A challenge; ``realm`` is taken from `parameters`.
        public init(method: AuthenticationMethod, parameters: [String: String] = [:], token68: String? = nil) {
            self.method = method
            self.realm = parameters["realm"]
            self.parameters = parameters
            self.token68 = token68
        }

        /// The challenge as a header value would write it, parameters sorted by name.
        public var description: String {
            var text = method.description
            if let token68 { text += " " + token68 }
            let pairs = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }
            if !pairs.isEmpty { text += " " + pairs.joined(separator: ", ") }
            return text
        }
    }

    /// The challenges of every value, strongest scheme first: Negotiate, Digest, NTLM,
    /// Basic (libcurl's own order of preference), then any other scheme; challenges of
    /// the same rank keep the server's order.
    public static func parse(_ values: [String]) -> [Challenge] {
        var found: [Challenge] = []
        for value in values {
            var scanner = Scanner(bytes: Array(value.utf8))
            found += scanner.challenges()
        }
        return found.enumerated()
            .sorted { ($0.element.method.strength, $0.offset) < ($1.element.method.strength, $1.offset) }
            .map(\.element)
    }

    /// One header value, read byte by byte (the grammar is ASCII; quoted text may be UTF-8).
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        private var atEnd: Bool { index >= bytes.count }
        private var current: UInt8? { atEnd ? nil : bytes[index] }

        mutating func challenges() -> [Challenge] {
            var result: [Challenge] = []
            var open: Challenge?
            while true {
                skip { $0 == comma || isSpace($0) }
                guard !atEnd else { break }
                let name = scan(isTokenByte)
                guard !name.isEmpty else {
                    skipToNextElement()
                    continue
                }
                skip(isSpace)
                if current == equals {
                    // `name=value`: a parameter of the open challenge (dropped when none is open).
                    index += 1
                    skip(isSpace)
                    let value = scanValue()
                    let key = String(decoding: name, as: UTF8.self).lowercased()
                    if open != nil, open?.parameters[key] == nil {
                        open?.parameters[key] = value
                        if key == "realm" { open?.realm = value }
                    }
                    skipToNextElement()
                } else {
                    // A bare name: the scheme of a new challenge.
                    if let finished = open { result.append(finished) }
                    open = Challenge(method: AuthenticationMethod(scheme: String(decoding: name, as: UTF8.self)))
                    if let token68 = scanToken68() { open?.token68 = token68 }
                }
            }
            if let finished = open { result.append(finished) }
            return result
        }

        /// A token68 right after a scheme, when what follows the scheme is one and nothing
        /// else up to the next comma; otherwise leaves the index where it was.
        private mutating func scanToken68() -> String? {
            let start = index
            let body = scan(isToken68Byte)
            guard !body.isEmpty else { return nil }
            _ = scan { $0 == equals }
            let end = index
            skip(isSpace)
            guard atEnd || current == comma else {
                index = start
                return nil
            }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        /// A parameter value: a quoted string, or everything up to the next comma.
        private mutating func scanValue() -> String {
            guard current == quote else {
                var value = scan { $0 != comma }
                while let last = value.last, isSpace(last) { value.removeLast() }
                return String(decoding: value, as: UTF8.self)
            }
            index += 1
            var value: [UInt8] = []
            while let byte = current {
                index += 1
                if byte == quote { break }
                if byte == backslash, let escaped = current {
                    value.append(escaped)
                    index += 1
                } else {
                    value.append(byte)
                }
            }
            return String(decoding: value, as: UTF8.self)
        }

        /// Skips spaces and, when anything else stands before the next comma, that too.
        private mutating func skipToNextElement() {
            skip(isSpace)
            if !atEnd, current != comma {
                index += 1
                skip { $0 != comma }
            }
        }

        private mutating func scan(_ accepts: (UInt8) -> Bool) -> ArraySlice<UInt8> {
            let start = index
            skip(accepts)
            return bytes[start..<index]
        }

        private mutating func skip(_ accepts: (UInt8) -> Bool) {
            while index < bytes.count, accepts(bytes[index]) { index += 1 }
        }
    }
}

private let comma = UInt8(ascii: ",")
private let equals = UInt8(ascii: "=")
private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
}

private func isAlphanumeric(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
    default: false
    }
}

/// `tchar` of RFC 9110: the bytes of a scheme or parameter name.
private func isTokenByte(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
}

/// The body of a token68 (before its `=` padding).
private func isToken68Byte(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || "-._~+/".utf8.contains(byte)
}

extension AuthenticationMethod {
    /// Sort rank in a list of challenges: lower is stronger.
    fileprivate var strength: Int {
        switch self {
        case .negotiate: 0
        case .digest: 1
        case .ntlm: 2
        case .basic: 3
        case .other: 4
        }
    }
}
