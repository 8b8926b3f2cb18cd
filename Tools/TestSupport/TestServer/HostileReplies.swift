import NIOCore

/// Replies no well-behaved HTTP server sends, written as raw bytes under the HTTP
/// encoder: `/hostile/<name>`. Each stands for one thing a hostile or broken origin does
/// (a client must name it, not crash or hang).
enum HostileReply: String, CaseIterable {
    /// A status line that is no status line.
    case garbageStatusLine = "garbage-status-line"
    /// An HTTP/0.9 reply: the body with no head at all.
    case http09 = "http09"
    /// 64 bytes of noise (fixed, so the test repeats).
    case randomBytes = "random-bytes"
    /// A status line of an HTTP version that does not exist.
    case http99 = "http99"
    /// The connection closes before any byte.
    case emptyReply = "empty-reply"
    /// Chunked encoding whose chunk size is not hexadecimal.
    case chunkSizeNotHex = "chunk-size-not-hex"
    /// A negative chunk size.
    case chunkSizeNegative = "chunk-size-negative"
    /// A chunk size of more digits than fit in 64 bits.
    case chunkSizeOverflow = "chunk-size-overflow"
    /// More data after a chunk than its size announced.
    case chunkDataOverrun = "chunk-data-overrun"
    /// A chunk's data not followed by CRLF.
    case chunkMissingCRLF = "chunk-missing-crlf"
    /// A header line of 10 MB.
    case hugeHeaderLine = "huge-header-line"
    /// A redirect whose `Location` holds raw bytes that are not ASCII (Latin-1 "é", 0xFF).
    case locationRawBytes = "location-raw-bytes"
    /// A chunked body whose first chunk-size line never ends: chunk-extension bytes as
    /// fast as the connection takes them, for `ms` milliseconds (default 2000). No body
    /// byte ever arrives, but the connection is anything but stalled.
    case chunkExtensionFlood = "chunk-extension-flood"

    /// What is written before the connection closes (or, for the flood, before the
    /// endless part).
    var bytes: [UInt8] {
        let chunked = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        switch self {
        case .garbageStatusLine: return Array("GARBAGE LINE\r\nContent-Length: 5\r\n\r\nhello".utf8)
        case .http09: return Array("<html><body>hello</body></html>\n".utf8)
        case .randomBytes:
            var state: UInt32 = 0x2545_F491
            return (0..<64).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        case .http99: return Array("HTTP/9.9 200 OK\r\nContent-Length: 2\r\n\r\nhi".utf8)
        case .emptyReply: return []
        case .chunkSizeNotHex: return Array((chunked + "zz\r\nhello\r\n0\r\n\r\n").utf8)
        case .chunkSizeNegative: return Array((chunked + "-5\r\nhello\r\n0\r\n\r\n").utf8)
        case .chunkSizeOverflow: return Array((chunked + "FFFFFFFFFFFFFFFFFFFF\r\nhello\r\n0\r\n\r\n").utf8)
        case .chunkDataOverrun: return Array((chunked + "5\r\nhelloXXXX\r\n0\r\n\r\n").utf8)
        case .chunkMissingCRLF: return Array((chunked + "5\r\nhelloX0\r\n\r\n").utf8)
        case .hugeHeaderLine:
            return Array("HTTP/1.1 200 OK\r\nX-Huge: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024)
                + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        case .locationRawBytes:
            return Array("HTTP/1.1 302 Found\r\nLocation: /caf".utf8) + [0xE9, 0xFF] + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        case .chunkExtensionFlood: return Array((chunked + "5;").utf8)
        }
    }

    /// The endless part of the flood: one write's worth of `;a=b` extensions.
    static let floodPiece: ByteBuffer = {
        var buffer = ByteBufferAllocator().buffer(capacity: 64 * 1024)
        for _ in 0..<(16 * 1024) { buffer.writeString(";a=b") }
        return buffer
    }()
}
