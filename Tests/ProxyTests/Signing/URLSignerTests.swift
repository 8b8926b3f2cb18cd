import Foundation
import Testing
import WebImageProxy

@Suite("URL signatures")
struct URLSignerTests {
    // imgproxy's documented key and salt; the signature was computed with Python's hmac
    // module (`base64.urlsafe_b64encode(hmac.new(key, salt + path, sha256).digest())`
    // without its padding), an implementation independent of this one.
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    static let path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    @Test("the signature is the URL-safe base64 of HMAC-SHA256 of salt and path")
    func knownVector() throws {
        let signer = try URLSigner(hexKey: Self.key, hexSalt: Self.salt)
        #expect(signer.signature(for: Self.path) == "90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40")
        #expect(signer.isValid("90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40", for: Self.path))
    }

    @Test("another path, key or salt, or a damaged signature, does not verify")
    func refusals() throws {
        let signer = try URLSigner(hexKey: Self.key, hexSalt: Self.salt)
        let signature = signer.signature(for: Self.path)
        #expect(!signer.isValid(signature, for: Self.path + "x"))
        #expect(!(try URLSigner(hexKey: "00" + Self.key, hexSalt: Self.salt)).isValid(signature, for: Self.path))
        #expect(!(try URLSigner(hexKey: Self.key, hexSalt: "00")).isValid(signature, for: Self.path))
        #expect(!signer.isValid(String(signature.dropLast()) + "A", for: Self.path))
        #expect(!signer.isValid("not base64!", for: Self.path))
        #expect(!signer.isValid("", for: Self.path))
    }

    @Test("key and salt must be hex", arguments: ["abc", "zz", ""])
    func badHex(key: String) {
        #expect(throws: ProxyError.self) { try URLSigner(hexKey: key, hexSalt: "00") }
    }
}
