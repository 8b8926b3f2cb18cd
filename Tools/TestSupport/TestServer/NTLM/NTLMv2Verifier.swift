import Crypto

/// Checks an NTLMv2 response (MS-NLMP 3.3.2), the one libcurl sends when the CHALLENGE
/// carries target info: the first 16 bytes (NTProofStr) must be
/// HMAC-MD5(NTOWFv2, server challenge + the rest of the response), where
/// NTOWFv2 = HMAC-MD5(MD4(UTF-16LE(password)), UTF-16LE(uppercase(user) + domain)).
enum NTLMv2Verifier {
    /// NTOWFv1: the NT hash, MD4 of the UTF-16LE password.
    static func ntHash(password: String) -> [UInt8] {
        MD4.hash(NTLMMessages.utf16LE(password))
    }

    /// NTOWFv2 (the user upper-cased, the domain as given).
    static func ntlmv2Hash(user: String, domain: String, password: String) -> [UInt8] {
        hmacMD5(key: ntHash(password: password), NTLMMessages.utf16LE(user.uppercased() + domain))
    }

    /// Whether `ntResponse` proves `password` for `user` in `domain` against `serverChallenge`.
    static func verify(ntResponse: [UInt8], serverChallenge: [UInt8], user: String, domain: String, password: String) -> Bool {
        // NTProofStr, then the client's blob (signature 0x0101, timestamp, client challenge, target info).
        guard ntResponse.count > 16 + 28, ntResponse[16] == 1, ntResponse[17] == 1 else { return false }
        let proof = Array(ntResponse[0..<16])
        let blob = Array(ntResponse[16...])
        let expected = hmacMD5(key: ntlmv2Hash(user: user, domain: domain, password: password), serverChallenge + blob)
        // Constant time is not needed by a test server, but costs nothing.
        return zip(proof, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func hmacMD5(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        Array(HMAC<Insecure.MD5>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }
}
