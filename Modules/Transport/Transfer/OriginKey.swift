import Foundation

/// "scheme://host:port", lowercased, the default port filled in: the key under which the
/// event loop queues a hop for a connection and remembers a working credential.
///
/// Read from the URL's text and written in one go, rather than through `URL.host`,
/// `URL.port` and string appends, which cost a few thousand instructions a call on
/// Linux; this runs once or twice per request. The host is kept as written
/// (percent-encoding included), which is fine for a key only ever compared with other
/// keys made here.
enum OriginKey {
    static func make(_ url: URL, scheme: String) -> String {
        let made = url.absoluteString.utf8.withContiguousStorageIfAvailable { text -> String? in
            guard let (host, port) = authority(text, schemeLength: scheme.utf8.count) else { return nil }
            return write(scheme: scheme, host: UnsafeBufferPointer(rebasing: text[host]), port: port)
        }
        if let made = made ?? nil { return made }
        // Text that is not scheme://authority: ask URL.
        let host = Array((url.host ?? "").utf8)
        return host.withUnsafeBufferPointer { write(scheme: scheme, host: $0, port: url.port) }
    }

    /// The host's byte range and the port in `scheme://[userinfo@]host[:port]...`, or
    /// `nil` when the text does not have that shape.
    private static func authority(_ bytes: UnsafeBufferPointer<UInt8>, schemeLength: Int) -> (Range<Int>, Int?)? {
        var index = schemeLength
        guard index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return nil }
        index += 3
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
            end += 1
        }
        // Credentials end at the last "@" of the authority.
        var hostStart = index
        for position in index..<end where bytes[position] == UInt8(ascii: "@") { hostStart = position + 1 }
        var hostEnd = end
        var portStart: Int?
        if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
            // An IPv6 literal: the port, if any, follows the closing bracket.
            guard let close = (hostStart..<end).first(where: { bytes[$0] == UInt8(ascii: "]") }) else { return nil }
            hostEnd = close + 1
            if hostEnd < end {
                guard bytes[hostEnd] == UInt8(ascii: ":") else { return nil }
                portStart = hostEnd + 1
            }
        } else if let colon = (hostStart..<end).last(where: { bytes[$0] == UInt8(ascii: ":") }) {
            hostEnd = colon
            portStart = colon + 1
        }
        var port: Int?
        if let portStart, portStart < end {
            var value = 0
            for position in portStart..<end {
                let byte = bytes[position]
                guard (0x30...0x39).contains(byte), value < 100_000 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            port = value
        }
        return (hostStart..<hostEnd, port)
    }

    private static func write(scheme: String, host: UnsafeBufferPointer<UInt8>, port: Int?) -> String {
        let port = port ?? RedirectPlanner.defaultPort(forScheme: scheme) ?? 0
        var digitCount = 1
        var rest = port / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        var scheme = scheme
        return scheme.withUTF8 { schemeBytes in
            String(unsafeUninitializedCapacity: schemeBytes.count + 3 + host.count + 1 + digitCount) { buffer in
                var at = 0
                func put(_ byte: UInt8) {
                    buffer[at] = byte
                    at += 1
                }
                for byte in schemeBytes { put(byte) }
                for byte in "://".utf8 { put(byte) }
                for byte in host { put((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) }
                put(UInt8(ascii: ":"))
                // The port's digits, written from the last.
                var value = port
                for offset in stride(from: at + digitCount - 1, through: at, by: -1) {
                    buffer[offset] = UInt8(0x30 + value % 10)
                    value /= 10
                }
                return at + digitCount
            }
        }
    }
}
