/// The three NTLM messages (MS-NLMP 2.2.1) as the test server reads and writes them:
/// the client's NEGOTIATE (type 1), the server's CHALLENGE (type 2) and the client's
/// AUTHENTICATE (type 3). Every length and offset is checked against the message, so a
/// malformed one reads as `nil`, never a crash.
enum NTLMMessages {
    static let signature: [UInt8] = Array("NTLMSSP".utf8) + [0]

    /// Flags of the CHALLENGE: UTF-16 strings, NTLM, extended session security, target
    /// info present, the target is a domain. libcurl 7.88 answers with NTLMv2 when
    /// extended session security (its `NTLMFLAG_NEGOTIATE_NTLM2_KEY`) is set, and with
    /// the 24-byte NTLMv1 response otherwise, whatever the target info: measured, and
    /// NTLMv1 is refused by this server.
    static let challengeFlags: UInt32 =
        0x0000_0001 | 0x0000_0004 | 0x0000_0200 | 0x0000_8000 | 0x0001_0000 | 0x0008_0000 | 0x0080_0000

    /// The message type (1, 2 or 3) of a message with the NTLMSSP signature.
    static func type(of message: [UInt8]) -> UInt32? {
        guard message.count >= 12, Array(message[0..<8]) == signature else { return nil }
        return readUInt32(message, at: 8)
    }

    /// A CHALLENGE with `serverChallenge` (8 bytes), naming `domain` and `server` in its
    /// target info.
    static func challenge(serverChallenge: [UInt8], domain: String, server: String) -> [UInt8] {
        let targetName = utf16LE(domain)
        var targetInfo: [UInt8] = []
        for (id, value) in [(UInt16(2), domain), (UInt16(1), server)] {  // MsvAvNbDomainName, MsvAvNbComputerName
            let bytes = utf16LE(value)
            targetInfo += littleEndian(id) + littleEndian(UInt16(bytes.count)) + bytes
        }
        targetInfo += [0, 0, 0, 0]  // MsvAvEOL
        let payloadStart = 56
        var message = signature + littleEndian(UInt32(2))
        message += field(length: targetName.count, offset: payloadStart)
        message += littleEndian(challengeFlags)
        message += serverChallenge
        message += [UInt8](repeating: 0, count: 8)  // reserved
        message += field(length: targetInfo.count, offset: payloadStart + targetName.count)
        message += [UInt8](repeating: 0, count: 8)  // version (not negotiated)
        return message + targetName + targetInfo
    }

    /// What the server checks of an AUTHENTICATE.
    struct Authenticate {
        var ntResponse: [UInt8]
        var domain: String
        var user: String
    }

    static func authenticate(_ message: [UInt8]) -> Authenticate? {
        guard type(of: message) == 3, message.count >= 64,
            let ntResponse = payload(message, fieldAt: 20),
            let domain = payload(message, fieldAt: 28),
            let user = payload(message, fieldAt: 36),
            let flags = readUInt32(message, at: 60)
        else { return nil }
        let unicode = flags & 1 != 0
        guard let domainText = text(domain, unicode: unicode), let userText = text(user, unicode: unicode) else { return nil }
        return Authenticate(ntResponse: ntResponse, domain: domainText, user: userText)
    }

    static func utf16LE(_ string: String) -> [UInt8] {
        string.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    // MARK: Bytes

    private static func text(_ bytes: [UInt8], unicode: Bool) -> String? {
        guard unicode else { return String(decoding: bytes, as: UTF8.self) }
        guard bytes.count % 2 == 0 else { return nil }
        let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        return String(decoding: units, as: UTF16.self)
    }

    /// The bytes a security buffer field (length, max length, offset) at `at` points to.
    private static func payload(_ message: [UInt8], fieldAt at: Int) -> [UInt8]? {
        guard let length = readUInt16(message, at: at), let offset = readUInt32(message, at: at + 4) else { return nil }
        let start = Int(offset)
        guard start <= message.count, Int(length) <= message.count - start else { return nil }
        return Array(message[start..<start + Int(length)])
    }

    private static func field(length: Int, offset: Int) -> [UInt8] {
        littleEndian(UInt16(length)) + littleEndian(UInt16(length)) + littleEndian(UInt32(offset))
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func readUInt16(_ bytes: [UInt8], at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func readUInt32(_ bytes: [UInt8], at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << ($1 * 8) }
    }
}
