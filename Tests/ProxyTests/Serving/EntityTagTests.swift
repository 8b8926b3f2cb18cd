import Foundation
import Testing

@testable import WebImageProxy

@Suite("Proxy: entity tags")
struct EntityTagTests {
    @Test("an output's ETag is the first 16 bytes of its SHA-256 in lowercase hex, quoted")
    func entityTag() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223 b00361a396177a9cb410ff61f20015ad
        #expect(ImageProxy.entityTag(of: Data("abc".utf8)) == "\"ba7816bf8f01cfea414140de5dae2223\"")
        #expect(ImageProxy.entityTag(of: Data()) == "\"e3b0c44298fc1c149afbf4c8996fb924\"")
    }
}
