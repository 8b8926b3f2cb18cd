import Testing
import WebImageCore

@testable import WebImageProxy

@Suite("Output format choice")
struct FormatChoiceTests {
    /// The choice for a client sending `accept`, with the server's preferences.
    func choice(
        named: OutputFormat? = nil, accept: String?, source: ImageFormat = .jpeg, animated: Bool = false,
        webp: Bool = true, avif: Bool = false, enforces: Bool = false
    ) -> (format: OutputFormat, variesByAccept: Bool) {
        let negotiated = FormatChoice.negotiated(accept: accept, prefersWebP: webp, prefersAVIF: avif)
        return FormatChoice.choose(
            named: named, negotiated: negotiated, source: source, animated: animated, prefersAny: webp || avif, enforces: enforces)
    }

    @Test("a named format wins and does not vary")
    func named() {
        let choice = choice(named: .png, accept: "image/webp")
        #expect(choice.format == .png && !choice.variesByAccept)
    }

    @Test("Accept lists a type with a quality above 0; wildcards do not count")
    func accept() {
        #expect(FormatChoice.accepts("image/webp", in: "image/avif,image/webp,*/*;q=0.8"))
        #expect(FormatChoice.accepts("image/webp", in: "IMAGE/WEBP ; q=0.5"))
        #expect(!FormatChoice.accepts("image/webp", in: "image/webp;q=0"))
        #expect(!FormatChoice.accepts("image/webp", in: "image/*,*/*"))
        #expect(choice(accept: "image/webp", source: .png).format == .webp)
        #expect(choice(accept: "image/webp", source: .png, webp: false).format == .png)
    }

    @Test("AVIF before WebP when the server prefers it; an animation gets WebP")
    func avif() {
        let both = "image/avif,image/webp,*/*"
        #expect(choice(accept: both, avif: true) == (.avif, true))
        #expect(choice(accept: both, avif: false) == (.webp, true))
        #expect(choice(accept: "image/avif", webp: false, avif: true) == (.avif, true))
        #expect(choice(accept: both, source: .gif, animated: true, avif: true) == (.webp, true))
        #expect(choice(accept: "image/webp", avif: true) == (.webp, true))
    }

    @Test("enforcing the preferred formats overrides a named format, and then varies by Accept")
    func enforced() {
        #expect(choice(named: .jpeg, accept: "image/avif", avif: true, enforces: true) == (.avif, true))
        #expect(choice(named: .jpeg, accept: "*/*", avif: true, enforces: true) == (.jpeg, true))
        #expect(choice(named: .jpeg, accept: "image/avif", avif: true, enforces: false) == (.jpeg, false))
    }

    @Test("otherwise a JPEG stays JPEG, a GIF stays GIF, another animation becomes GIF and everything else PNG")
    func fallback() {
        #expect(choice(accept: "*/*").format == .jpeg)
        #expect(choice(accept: nil, source: .gif).format == .gif)
        #expect(choice(accept: nil, source: .gif, animated: true).format == .gif)
        for source in [ImageFormat.png, .webp, .avif] {
            #expect(choice(accept: nil, source: source).format == .png)
        }
        #expect(choice(accept: nil, source: .webp, animated: true).format == .gif)
        #expect(choice(accept: "image/webp", source: .webp, animated: true).format == .webp)
    }
}
