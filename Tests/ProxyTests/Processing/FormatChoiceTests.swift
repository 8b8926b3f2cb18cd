import Testing
import WebImageCore

@testable import WebImageProxy

@Suite("Output format choice")
struct FormatChoiceTests {
    @Test("a named format wins and does not vary")
    func named() {
        let choice = FormatChoice.choose(named: .png, accept: "image/webp", source: .jpeg, prefersWebP: true)
        #expect(choice.format == .png && !choice.variesByAccept)
    }

    @Test("WebP when Accept lists it with a quality above 0; wildcards do not count")
    func accept() {
        #expect(FormatChoice.accepts("image/webp", in: "image/avif,image/webp,*/*;q=0.8"))
        #expect(FormatChoice.accepts("image/webp", in: "IMAGE/WEBP ; q=0.5"))
        #expect(!FormatChoice.accepts("image/webp", in: "image/webp;q=0"))
        #expect(!FormatChoice.accepts("image/webp", in: "image/*,*/*"))
        #expect(FormatChoice.choose(named: nil, accept: "image/webp", source: .png, prefersWebP: true).format == .webp)
        #expect(FormatChoice.choose(named: nil, accept: "image/webp", source: .png, prefersWebP: false).format == .png)
    }

    @Test("otherwise a JPEG stays JPEG and everything else becomes PNG")
    func fallback() {
        #expect(FormatChoice.choose(named: nil, accept: "*/*", source: .jpeg, prefersWebP: true).format == .jpeg)
        for source in [ImageFormat.png, .gif, .webp, .avif] {
            #expect(FormatChoice.choose(named: nil, accept: nil, source: source, prefersWebP: true).format == .png)
        }
    }
}
