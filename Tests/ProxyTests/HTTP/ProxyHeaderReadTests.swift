import Foundation
import Testing
import WebImage
@_spi(Testing) import WebImageDecoding
import WebImageFixtures
import WebImageProxy
import WebImageTestServer

/// A render and an `/info` answer read their source's header once: one sniff finds the
/// decoder, one parse gives the limits' check, the plan, the memory estimate and the
/// decode.
@Suite("Image proxy header reads")
struct ProxyHeaderReadTests {
    /// One source of each format the proxy reads, with the decoder that reads it.
    enum Source: String, CaseIterable, Sendable {
        case jpeg, png, gif, webp, avif

        func make() throws -> (data: Data, decoder: any ImageDecoding) {
            switch self {
            case .jpeg: (try ProxyImages.photoJPEG(width: 320, height: 240), JPEGDecoder())
            case .png: (try ProxyImages.halvesPNG(left: [200, 30, 30], right: [30, 30, 200]), PNGDecoder())
            case .gif: (try ProxyAnimationTests.animatedGIF(), GIFDecoder())
            case .webp: (try ProxyImages.halvesWebP(orientation: .up, left: [200, 30, 30], right: [30, 30, 200]), WebPDecoder())
            case .avif: (try AVIFEncoder(speed: 10).encode(SyntheticImage.photo(width: 160, height: 120)), AVIFDecoder())
            }
        }
    }

    /// A configuration with a memory budget (so that each render asks for its estimate),
    /// whose decoder for the source's format is `counting`.
    static func configuration(counting: HeaderCountingDecoder) -> ImageProxy.Configuration {
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.memoryBudget = MemoryBudget(capacity: 256 << 20)
        configuration.decoders.register(counting)
        return configuration
    }

    @Test("a render sniffs its source once and parses its header once", arguments: Source.allCases)
    func render(source: Source) async throws {
        let (data, decoder) = try source.make()
        let counting = HeaderCountingDecoder(decoder)
        try await ProxyHarness.run(configuration: Self.configuration(counting: counting), files: ["source": data]) { harness in
            let answer = try await harness.get(harness.path("rs:fit:64:64", origin: "/files/source", ext: "png"))
            #expect(answer.status == 200)
            #expect(try PNGDecoder().decode(answer.data).size.width == 64)
        }
        #expect(counting.sniffs == 1)
        #expect(counting.parses.formats == [decoder.format])
    }

    @Test("an /info answer sniffs its source once and parses its header once", arguments: Source.allCases)
    func info(source: Source) async throws {
        let (data, decoder) = try source.make()
        let counting = HeaderCountingDecoder(decoder)
        try await ProxyHarness.run(configuration: Self.configuration(counting: counting), files: ["source": data]) { harness in
            let answer = try await harness.get("/info/unsafe/plain/\(harness.origin.url("/files/source").absoluteString)")
            #expect(answer.status == 200)
            let fields = try #require(try JSONSerialization.jsonObject(with: answer.data) as? [String: Any])
            #expect(fields["format"] as? String == decoder.format.identifier)
            #expect(fields["blurhash"] is String)
        }
        #expect(counting.sniffs == 1)
        #expect(counting.parses.formats == [decoder.format])
    }
}
