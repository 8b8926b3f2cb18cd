import Foundation

/// One command in RESP's request form (an array of bulk strings), encoded by the caller
/// so that the event loop's thread only hands bytes to hiredis.
struct RedisCommand: Sendable {
    private var body: [UInt8] = []
    private var count = 0

    init(_ words: String...) {
        for word in words { append(word) }
    }

    mutating func append(_ word: String) {
        appendBulk(Array(word.utf8))
    }

    mutating func append(_ bytes: some Collection<UInt8>) {
        appendBulk(bytes)
    }

    private mutating func appendBulk(_ bytes: some Collection<UInt8>) {
        count += 1
        body.append(UInt8(ascii: "$"))
        body.append(contentsOf: String(bytes.count).utf8)
        body.append(contentsOf: [13, 10])
        body.append(contentsOf: bytes)
        body.append(contentsOf: [13, 10])
    }

    /// The command as sent: `*count`, then each argument.
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count + 16)
        bytes.append(UInt8(ascii: "*"))
        bytes.append(contentsOf: String(count).utf8)
        bytes.append(contentsOf: [13, 10])
        bytes.append(contentsOf: body)
        return bytes
    }
}
